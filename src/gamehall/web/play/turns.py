"""Whose move it is in a player's ongoing games, for the header's "your move" count.

A game held in memory says it at once (its state, read without counting as a use, so asking
keeps no game in memory); a stored one is replayed off the event loop, once per version: the
answer is kept by game id and version (:data:`KEPT`), so a page asking every few seconds costs
a replay only when a game has moved.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from typing import TYPE_CHECKING

from gamehall.store.rows import GameRow
from gamehall.web.base.engine import game_of, start_state
from gamehall.web.play.history import Played, replay_log

if TYPE_CHECKING:
    from gamehall.web.play.hub import Hub

KEPT = 2000
"""Answers kept (game id and version to the seat to move), the least recently asked go first."""


def seat_to_move(played: Played) -> int | None:
    """The seat whose move it is (None: the game is over, or chance or nobody is to move)."""
    state = played.state
    if played.ended is not None or state.is_terminal() or state.is_chance_node():
        return None
    player = state.current_player
    return player if player >= 0 else None


class Turns:
    """The seat to move of the hub's games, live or stored."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._kept: OrderedDict[tuple[str, int], int | None] = OrderedDict()

    async def to_move(self, row: GameRow) -> int | None:
        """The seat to move in the ongoing game ``row`` (a stored row; the live game if it is
        in memory); None when nobody is, or the game cannot be read."""
        live = self.hub.games.get(row.id)
        if live is not None:
            return None if live.over else seat_to_move(live.played)
        key = (row.id, row.version)
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        stored = await self.hub.db(self.hub.store.actions, row.id)
        deadline = time.monotonic() + self.hub.settings.load_seconds

        def build() -> int | None:
            game = game_of(row.game, row.options)
            start = start_state(game, row.setup)
            played = replay_log(game, stored, checked=False, deadline=deadline, start=start)
            return seat_to_move(played)

        try:
            seat = await asyncio.to_thread(build)
        except Exception:  # a game that does not replay is nobody's move here (the hub says why)
            seat = None
        self._kept[key] = seat
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return seat


__all__ = ["KEPT", "Turns", "seat_to_move"]
