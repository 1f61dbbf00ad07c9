"""``gamehall serve``: run the web app with uvicorn."""

from __future__ import annotations

import os

from gamehall.store import default_url
from gamehall.web.app import create_app


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None) -> None:
    """Serve the web app at ``http://host:port`` on the store ``db`` (a SQLAlchemy URL such as
    ``postgresql+psycopg://user@host/gamehall``; default: SQLite in the user's data directory).
    Computer players think in a process pool, so a long search never holds up other games."""
    import uvicorn

    url = db or default_url()
    app = create_app(url, processes=True, agent_workers=max(1, (os.cpu_count() or 2) - 1))
    shown = f"[{host}]" if ":" in host else host
    print(f"gamehall is serving at http://{shown}:{port}/  (store: {_safe(url)})", flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=64 * 1024,
        # A connection that drops without closing (a lost network) is noticed within 20 s, and
        # its seat shows offline.
        ws_ping_interval=10,
        ws_ping_timeout=10,
    )


def _safe(url: str) -> str:
    """The store URL without its password, for printing."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


__all__ = ["serve"]
