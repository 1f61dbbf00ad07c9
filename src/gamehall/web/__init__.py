"""The web front end's server, in five layers that import one way: http -> hall -> play ->
compute -> base (``docs/architecture.md`` draws them; import-linter holds the direction).

- :mod:`~gamehall.web.http`: the only FastAPI, Starlette and uvicorn code (app, routes, identity,
  security, the server, the collector);
- :mod:`~gamehall.web.hall`: names, accounts, seeks and pairing, ratings, the lobby;
- :mod:`~gamehall.web.play`: the authority over games (referee, conduct, history, live games,
  chat, the hub);
- :mod:`~gamehall.web.compute`: everything off the event loop (worker pool, computers, hints,
  reviews, puzzles);
- :mod:`~gamehall.web.base`: settings, limits, the clock and the engine adapter.

The wire contract is :mod:`gamehall.protocol`, beneath this package; the store and the message
bus are :mod:`gamehall.store`, injected into the layers that use them. The server is
authoritative: it checks every move with the rules engine, draws chance itself and commits every
action to the store before telling any client.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    # Imported lazily, so a process that imports one layer (a worker imports web.compute) does
    # not load FastAPI and the whole app with it.
    if name == "create_app":
        from gamehall.web.http.app import create_app

        return create_app
    raise AttributeError(name)
