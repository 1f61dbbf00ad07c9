"""``gamehall serve``: run the web app with uvicorn."""

from __future__ import annotations

from gamehall.store import default_url
from gamehall.web.app import create_app
from gamehall.web.settings import Settings


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    settings: Settings | None = None,
) -> None:
    """Serve the web app at ``http://host:port`` on the store ``db`` (a SQLAlchemy URL such as
    ``postgresql+psycopg://user@host/gamehall``; default: SQLite in the user's data directory)
    with ``settings`` (its limits and policies). Computer players think in worker processes, so
    a long search never holds up other games, and each move is bounded in time and memory."""
    import uvicorn

    config = settings or Settings()
    url = db or default_url()
    app = create_app(url, settings=config, processes=True)
    shown = f"[{host}]" if ":" in host else host
    print(f"gamehall is serving at http://{shown}:{port}/  (store: {_safe(url)})", flush=True)
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
