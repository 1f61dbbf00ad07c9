"""``gamehall serve``: run the web app with uvicorn, in one process or several.

With ``workers`` above 1 uvicorn binds the port once and runs that many server processes
accepting on it (restarting one that dies); each is a whole server with its own hub, and they
are one hall through the PostgreSQL store and its LISTEN/NOTIFY bus (:mod:`gamehall.store.bus`).
Independent ``gamehall serve`` processes on one PostgreSQL database (on one machine or several,
behind a reverse proxy) are one hall the same way. SQLite is one process's store: more than one
worker on it is refused.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from gamehall.store import default_url
from gamehall.web.base.settings import Settings
from gamehall.web.http.app import create_app
from gamehall.web.http.collector import Collector

_CHILD_ENV = "GAMEHALL_SERVE_CHILD"
"""How ``serve`` hands the store URL and the settings to its worker processes (JSON)."""

LOG_LEVELS = ("debug", "info", "warning")
"""The levels ``gamehall serve --log-level`` prints the server's own log from."""


def show_log(level: str) -> None:
    """Print the server's own log lines (the ``gamehall`` loggers') from ``level`` up, one a
    line on standard error (its level and logger first). At ``warning`` (the default) nothing
    changes: Python prints warnings and errors as they are."""
    if level == "warning":
        return
    if level not in LOG_LEVELS:
        raise ValueError(f"no log level {level!r}; the levels are {', '.join(LOG_LEVELS)}")
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger("gamehall")
    logger.setLevel(level.upper())
    logger.addHandler(handler)


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol (on httptools), without the garbage it leaves at each WebSocket.

    Its parser calls back into the protocol, and the protocol holds its parser: a reference
    cycle, which uvicorn breaks when an HTTP connection closes but not when one becomes a
    WebSocket. Each socket's handshake then left a cycle of 14 objects that only a full walk of
    the collector finds (:mod:`gamehall.web.http.collector`): 25,686 objects after 5,000 games had
    started, and the full walk that freed them stopped the server for 4 s. Breaking the cycle once
    the WebSocket has the connection frees the old protocol at once."""

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]  # the WebSocket protocol parses now


class ServeError(ValueError):
    """A way of serving that cannot work (several workers on SQLite)."""


def check_workers(url: str, workers: int) -> None:
    """Refuse ``workers`` that cannot share the store ``url``."""
    from sqlalchemy.engine import make_url

    if workers < 1:
        raise ServeError(f"--workers is at least 1, not {workers}")
    if workers > 1 and make_url(url).get_backend_name() != "postgresql":
        raise ServeError(
            f"--workers {workers} needs a PostgreSQL store (--db postgresql+psycopg://…): "
            "SQLite is the store of one process, whose moves other processes would never hear "
            "of; run one process on SQLite"
        )


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    puzzles: Path | str | None = None,
    settings: Settings | None = None,
    workers: int = 1,
    log_level: str = "warning",
) -> None:
    """Serve the web app at ``http://host:port`` on the store ``db`` (a SQLAlchemy URL such as
    ``postgresql+psycopg://user@host/gamehall``; default: SQLite in the user's data directory)
    with ``settings`` (its limits and policies), in ``workers`` processes (PostgreSQL only above
    1). Computer players, hints and reviews think in worker processes of each server, so a long
    search never holds up other games; each job is bounded in time and memory, and each worker
    loads the solvers' kernels before the server serves. Puzzles come from ``puzzles``
    (default: the user's data directory) and each game's starter set. The server's own log
    lines are printed from ``log_level`` up (see :func:`show_log`)."""
    import uvicorn

    show_log(log_level)

    config = settings or Settings()
    url = db or default_url()
    check_workers(url, workers)
    shown = f"[{host}]" if ":" in host else host
    processes = f", {workers} processes" if workers > 1 else ""

    collector = Collector(full_seconds=config.collect_seconds)

    def ready(seconds: float) -> None:
        collector.start()
        print(
            f"gamehall is serving at http://{shown}:{port}/  (store: {_safe(url)}{processes}; "
            f"workers warmed up in {seconds:.1f} s)",
            flush=True,
        )

    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": "warning",
        "ws_max_size": config.max_message_bytes,
        # A connection that drops without closing (a lost network) is noticed within 40 s, and
        # its seat shows offline (well inside the 60 s before its opponent may claim the game).
        # Every ping is a frame each way on every socket: at 10 s the 10,000 sockets of 5,000
        # games cost 2,000 frames a second, about as many as their 830 moves a second.
        "ws_ping_interval": 30,
        "ws_ping_timeout": 10,
        "h11_max_incomplete_event_size": 16 * 1024,
        "timeout_keep_alive": 10,
        "limit_concurrency": config.max_connections + 256,
        "http": HttpProtocol,
    }
    puzzles_dir = Path(puzzles) if puzzles is not None else None
    print("gamehall: warming up the workers (loading the solvers)…", flush=True)
    if workers == 1:
        app = create_app(
            url,
            settings=config,
            processes=True,
            puzzles_dir=puzzles_dir,
            on_ready=ready,
            on_stop=collector.stop,
        )
        uvicorn.run(app, **options)
        return
    os.environ[_CHILD_ENV] = json.dumps(
        {
            "db": url,
            "settings": _settings_json(config),
            "puzzles": str(puzzles_dir) if puzzles_dir is not None else None,
            "shown": f"http://{shown}:{port}/  (store: {_safe(url)}{processes})",
            "log_level": log_level,
        }
    )
    uvicorn.run("gamehall.web.http.server:child_app", factory=True, workers=workers, **options)


def child_app() -> Any:
    """The app of one of ``serve``'s worker processes (uvicorn calls this in each)."""
    given = json.loads(os.environ[_CHILD_ENV])
    show_log(given.get("log_level", "warning"))
    settings = Settings().replace(given["settings"])
    collector = Collector(full_seconds=settings.collect_seconds)

    def ready(seconds: float) -> None:
        collector.start()
        print(
            f"gamehall worker {os.getpid()} is serving at {given['shown']}; its workers warmed "
            f"up in {seconds:.1f} s",
            flush=True,
        )

    puzzles = given.get("puzzles")
    return create_app(
        given["db"],
        settings=settings,
        processes=True,
        puzzles_dir=Path(puzzles) if puzzles else None,
        on_ready=ready,
        on_stop=collector.stop,
    )


def _settings_json(settings: Settings) -> dict[str, Any]:
    return {
        name: list(value) if isinstance(value, tuple) else value
        for name, value in settings.describe().items()
    }


def _safe(url: str) -> str:
    """The store URL without its password, for printing."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


__all__ = ["HttpProtocol", "ServeError", "check_workers", "child_app", "serve"]
