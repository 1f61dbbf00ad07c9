"""``gamehall serve``: run the web app with uvicorn."""

from __future__ import annotations

import os
from pathlib import Path

from gamehall.store import default_url
from gamehall.web.app import create_app


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    puzzles: Path | str | None = None,
) -> None:
    """Serve the web app at ``http://host:port`` on the store ``db`` (a SQLAlchemy URL such as
    ``postgresql+psycopg://user@host/gamehall``; default: SQLite in the user's data directory).
    Computer players, hints and reviews think in worker processes, so a long search never holds
    up other games; each worker loads the solvers' kernels before the server serves. Puzzles
    come from ``puzzles`` (default: the user's data directory) and each game's starter set."""
    import uvicorn

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
        processes=True,
        agent_workers=max(1, (os.cpu_count() or 2) - 1),
        puzzles_dir=Path(puzzles) if puzzles is not None else None,
        on_ready=ready,
    )
    print("gamehall: warming up the workers (loading the solvers)…", flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=64 * 1024,
        ws_ping_interval=20,
        ws_ping_timeout=20,
    )


def _safe(url: str) -> str:
    """The store URL without its password, for printing."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


__all__ = ["serve"]
