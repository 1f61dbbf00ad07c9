"""``gamehall serve``: run the web app with uvicorn."""

from __future__ import annotations

from pathlib import Path

from gamehall.store import default_url
from gamehall.web.app import create_app
from gamehall.web.settings import Settings


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    puzzles: Path | str | None = None,
    settings: Settings | None = None,
) -> None:
    """Serve the web app at ``http://host:port`` on the store ``db`` (a SQLAlchemy URL such as
    ``postgresql+psycopg://user@host/gamehall``; default: SQLite in the user's data directory)
    with ``settings`` (its limits and policies). Computer players, hints and reviews think in
    worker processes, so a long search never holds up other games; each job is bounded in time
    and memory, and each worker loads the solvers' kernels before the server serves. Puzzles
    come from ``puzzles`` (default: the user's data directory) and each game's starter set."""
    import uvicorn

    config = settings or Settings()
    url = db or default_url()
    shown = f"[{host}]" if ":" in host else host

    def ready(seconds: float) -> None:
        print(
            f"gamehall is serving at http://{shown}:{port}/  (store: {_safe(url)}; workers "
            f"warmed up in {seconds:.1f} s)",
            flush=True,
        )

    app = create_app(
        url,
        settings=config,
        processes=True,
        puzzles_dir=Path(puzzles) if puzzles is not None else None,
        on_ready=ready,
    )
    print("gamehall: warming up the workers (loading the solvers)…", flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=config.max_message_bytes,
        # A connection that drops without closing (a lost network) is noticed within 20 s, and
        # its seat shows offline.
        ws_ping_interval=10,
        ws_ping_timeout=10,
        h11_max_incomplete_event_size=16 * 1024,
        timeout_keep_alive=10,
        limit_concurrency=config.max_connections + 256,
    )


def _safe(url: str) -> str:
    """The store URL without its password, for printing."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


__all__ = ["serve"]
