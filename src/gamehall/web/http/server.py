"""``gamehall serve``: run the web app with uvicorn, in one process or several.

With ``workers`` above 1 uvicorn binds the port once and runs that many server processes
accepting on it (restarting one that dies); each is a whole server with its own hub, and they
are one hall through the PostgreSQL store and its LISTEN/NOTIFY bus (:mod:`gamehall.store.bus`).
Independent ``gamehall serve`` processes on one PostgreSQL database (on one machine or several,
behind a reverse proxy) are one hall the same way. SQLite is one process's store: more than one
worker on it is refused.

Each connection is held to the settings' connection limits (:class:`HttpProtocol`): its request
headers complete within ``header_seconds`` and ``max_header_bytes`` (408 or 431 past them, and the
connection closed), an idle connection between requests closes after ``keep_alive_seconds``, and
one address holds at most ``connections_per_address`` connections (trusted proxies aside). uvicorn's
own reading of ``X-Forwarded-For`` is off: the edge reads it, from ``trusted_proxies`` only
(:mod:`gamehall.web.http.addresses`).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httptools
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.server import ServerState

from gamehall.store import default_url
from gamehall.web.base.settings import Settings
from gamehall.web.http.addresses import TrustedProxies, counted_address
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


@dataclass(frozen=True)
class ConnectionLimits:
    """What one TCP connection may hold (from :class:`Settings`; see the module docstring)."""

    header_seconds: float = Settings.header_seconds
    max_header_bytes: int = Settings.max_header_bytes
    connections_per_address: int = Settings.connections_per_address
    trusted_proxies: tuple[str, ...] = ()

    @classmethod
    def of(cls, settings: Settings) -> ConnectionLimits:
        return cls(
            header_seconds=settings.header_seconds,
            max_header_bytes=settings.max_header_bytes,
            connections_per_address=settings.connections_per_address,
            trusted_proxies=settings.trusted_proxies,
        )


_OPEN: weakref.WeakKeyDictionary[ServerState, dict[str, int]] = weakref.WeakKeyDictionary()
"""Each server's open connections per client address (its protocols share its state)."""


class _HeadersTooLarge(Exception):
    """Raised from the parser's callback to stop reading a request whose headers are too large."""


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol (on httptools), held to :class:`ConnectionLimits`, and without the
    garbage it leaves at each WebSocket.

    *Limits.* uvicorn waits for a request's headers for ever (a connection that says nothing, or
    one header line every few seconds, stays open), reads headers of any size, and lets one
    address open every connection the server takes: 4,400 idle connections made it answer 503
    to everyone. Here the headers of each request must be complete within ``header_seconds`` of
    their first byte (of the connection's opening, for the first request) and within
    ``max_header_bytes``; past either the connection gets 408 or 431 and is closed. An address
    that holds ``connections_per_address`` connections has its next one answered 429 and closed
    (a trusted proxy's connections are not counted: they are many clients'). A connection that
    becomes a WebSocket leaves this count for the edge's ``sockets_per_address``.

    *Garbage.* Its parser calls back into the protocol, and the protocol holds its parser: a
    reference cycle, which uvicorn breaks when an HTTP connection closes but not when one becomes
    a WebSocket. Each socket's handshake then left a cycle of 14 objects that only a full walk of
    the collector finds (:mod:`gamehall.web.http.collector`): 25,686 objects after 5,000 games had
    started, and the full walk that freed them stopped the server for 4 s. Breaking the cycle once
    the WebSocket has the connection frees the old protocol at once."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
        limits: ConnectionLimits | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.limits = limits or ConnectionLimits()
        self.proxies = TrustedProxies(self.limits.trusted_proxies)
        self.reading_headers = True
        """Whether the next bytes belong to a request's line and headers."""
        self.header_bytes = 0
        """Bytes of the headers being read so far (from the chunks that held them)."""
        self.header_timer: asyncio.TimerHandle | None = None
        self.counted: str | None = None
        """The address this connection counts against (None: not counted)."""
        self.too_large = False
        self.completed = False
        """Whether a request was completed in the chunk being read."""

    # --- the connection ---

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = self.client[0] if self.client else ""
        if peer and not self.proxies.trusts(peer):
            address = counted_address(peer)
            held = _OPEN.setdefault(self.server_state, {})
            if held.get(address, 0) >= self.limits.connections_per_address:
                self.refuse(
                    429,
                    f"{held[address]} connections are open from your network address, the most "
                    "one address may hold (limit connections_per_address); try again later",
                )
                return
            held[address] = held.get(address, 0) + 1
            self.counted = address
        self.start_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self.release()
        self.stop_header_timer()
        super().connection_lost(exc)

    def release(self) -> None:
        """This connection no longer counts against its address."""
        if self.counted is None:
            return
        held = _OPEN.get(self.server_state, {})
        left = held.get(self.counted, 1) - 1
        if left > 0:
            held[self.counted] = left
        else:
            held.pop(self.counted, None)
        self.counted = None

    def handle_websocket_upgrade(self) -> None:
        self.stop_header_timer()
        self.release()  # the edge counts the socket now (sockets_per_address)
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]  # the WebSocket protocol parses now

    # --- reading headers ---

    def data_received(self, data: bytes) -> None:
        self._unset_keepalive_if_required()
        if self.reading_headers and self.header_timer is None:
            self.start_header_timer()
        self.completed = False
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return
        except httptools.HttpParserError:
            if self.too_large:
                self.refuse_large()
                return
            message = "Invalid HTTP request received."
            self.logger.warning(message)
            self.send_400_response(message)
            return
        if self.reading_headers and not self.completed:
            # Still within one request's headers: the chunk is all theirs. (A chunk that ended
            # a request and began the next is not counted: at most one chunk more is read, and
            # headers that complete are measured exactly, in on_headers_complete.)
            self.header_bytes += len(data)
            if self.header_bytes > self.limits.max_header_bytes:
                self.refuse_large()

    def on_message_begin(self) -> None:
        self.header_bytes = 0
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        self.reading_headers = False
        self.stop_header_timer()
        size = len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)
        if size > self.limits.max_header_bytes:
            self.too_large = True
            raise _HeadersTooLarge
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self.reading_headers = True  # what comes next is the next request's
        self.completed = True
        super().on_message_complete()

    def start_header_timer(self) -> None:
        self.stop_header_timer()
        self.header_timer = self.loop.call_later(self.limits.header_seconds, self.headers_late)

    def stop_header_timer(self) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def headers_late(self) -> None:
        """The request's headers are not complete in time: the connection goes."""
        self.header_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.keep_alive = False  # closed once the answer under way is sent
            return
        if self.header_bytes:
            self.refuse(
                408,
                f"the request's headers did not come within {self.limits.header_seconds:g} s "
                "(limit header_seconds)",
            )
        else:
            self.transport.close()

    def refuse_large(self) -> None:
        self.refuse(
            431,
            f"the request's headers are larger than {self.limits.max_header_bytes} bytes "
            "(limit max_header_bytes)",
        )

    def refuse(self, status: int, message: str) -> None:
        """Answer ``status`` with ``message`` (plain text) and close the connection; a
        connection with an answer under way is only closed."""
        self.stop_header_timer()
        self.reading_headers = False
        if self.cycle is None or self.cycle.response_complete:
            body = (message + "\n").encode()
            head = [STATUS_LINE[status]]
            for name, value in self.server_state.default_headers:
                head += [name, b": ", value, b"\r\n"]
            head += [
                b"content-type: text/plain; charset=utf-8\r\n",
                b"content-length: " + str(len(body)).encode() + b"\r\n",
                b"connection: close\r\n\r\n",
                body,
            ]
            self.transport.write(b"".join(head))
        self.transport.close()


def http_protocol(settings: Settings) -> Callable[..., HttpProtocol]:
    """The HTTP protocol uvicorn makes for each connection, held to ``settings``' limits."""
    return functools.partial(HttpProtocol, limits=ConnectionLimits.of(settings))


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


def uvicorn_options(config: Settings) -> dict[str, Any]:
    """uvicorn's options for a server of ``config`` (besides where it listens)."""
    return {
        "log_level": "warning",
        "ws_max_size": config.max_message_bytes,
        # A connection that drops without closing (a lost network) is noticed within 40 s, and
        # its seat shows offline (well inside the 60 s before its opponent may claim the game).
        # Every ping is a frame each way on every socket: at 10 s the 10,000 sockets of 5,000
        # games cost 2,000 frames a second, about as many as their 830 moves a second.
        "ws_ping_interval": 30,
        "ws_ping_timeout": 10,
        "timeout_keep_alive": config.keep_alive_seconds,
        "limit_concurrency": config.max_connections + 256,
        "http": http_protocol(config),
        # X-Forwarded-For is read by the edge, from trusted_proxies alone (uvicorn's own
        # reading believes any client connecting from 127.0.0.1, where a local proxy is).
        "proxy_headers": False,
        "forwarded_allow_ips": "",
    }


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
    loads the solvers' kernels in the background while the server serves (a computer move or
    hint asked for meanwhile waits for them). Puzzles come from ``puzzles``
    (default: the user's data directory) and each game's starter set. The server's own log
    lines are printed from ``log_level`` up (see :func:`show_log`)."""
    import uvicorn

    show_log(log_level)

    config = with_bound_host(settings or Settings(), host)
    url = db or default_url()
    check_workers(url, workers)
    shown = f"[{host}]" if ":" in host else host
    processes = f", {workers} processes" if workers > 1 else ""

    collector = Collector(full_seconds=config.collect_seconds)

    def ready(seconds: float) -> None:
        collector.start()
        print(
            f"gamehall is serving at http://{shown}:{port}/  (store: {_safe(url)}{processes})\n"
            "Open that address in a browser; press Ctrl+C here to stop the server.",
            flush=True,
        )

    options: dict[str, Any] = {"host": host, "port": port, **uvicorn_options(config)}
    puzzles_dir = Path(puzzles) if puzzles is not None else None
    if workers == 1:
        app = create_app(
            url,
            settings=config,
            processes=True,
            puzzles_dir=puzzles_dir,
            on_ready=ready,
            on_warm=_say_warm,
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


def with_bound_host(settings: Settings, host: str) -> Settings:
    """``settings`` with the address the server listens on among the host names it answers
    for (not a wildcard address, which no browser asks for)."""
    if host in ("", "0.0.0.0", "::") or host in settings.host_names:
        return settings
    return settings.replace({"host_names": [*settings.host_names, host]})


def child_app() -> Any:
    """The app of one of ``serve``'s worker processes (uvicorn calls this in each)."""
    given = json.loads(os.environ[_CHILD_ENV])
    show_log(given.get("log_level", "warning"))
    settings = Settings().replace(given["settings"])
    collector = Collector(full_seconds=settings.collect_seconds)

    def ready(seconds: float) -> None:
        collector.start()
        print(
            f"gamehall worker {os.getpid()} is serving at {given['shown']}; press Ctrl+C to "
            "stop the server",
            flush=True,
        )

    puzzles = given.get("puzzles")
    return create_app(
        given["db"],
        settings=settings,
        processes=True,
        puzzles_dir=Path(puzzles) if puzzles else None,
        on_ready=ready,
        on_warm=_say_warm,
        on_stop=collector.stop,
    )


def _say_warm(seconds: float) -> None:
    """Told once the server's workers are warm (they warm up while it serves)."""
    print(
        f"gamehall: the computer players are ready (their warm-up took {seconds:.1f} s)",
        flush=True,
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


__all__ = [
    "ConnectionLimits",
    "HttpProtocol",
    "ServeError",
    "check_workers",
    "child_app",
    "http_protocol",
    "serve",
    "uvicorn_options",
    "with_bound_host",
]
