"""The web front end's server: FastAPI app, WebSocket protocol, and ``serve()``.

The server is authoritative: it checks every move with the rules engine, draws chance itself and
commits every action to the store (:mod:`gamehall.store`) before telling any client.

Its parts: :mod:`~gamehall.web.protocol` (every message, typed), :mod:`~gamehall.web.referee`
(whether a move is accepted: a pure function), :mod:`~gamehall.web.conduct` (resigning,
aborting, takebacks, claims, going on after a pause: pure functions),
:mod:`~gamehall.web.history` (a game's log and what it comes to), :mod:`~gamehall.web.clock`
(time controls and the server's clocks), :mod:`~gamehall.web.chat` (the players' and the
spectators' chat), :mod:`~gamehall.web.engine` (games, replays, chance, diagrams),
:mod:`~gamehall.web.live` (a game in play and its connections), :mod:`~gamehall.web.computers`
(computer seats' agents, off the event loop), :mod:`~gamehall.web.hub` (the store wiring:
moves, chance, computers, pauses, clocks, clients) and :mod:`~gamehall.web.app` (REST and the
WebSocket on FastAPI).
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    # Imported lazily, so `python -m gamehall.web.protocol` does not load the whole app first.
    if name == "create_app":
        from gamehall.web.app import create_app

        return create_app
    raise AttributeError(name)
