"""Which games stay in memory: idle ones leave, broken ones are set aside.

Games nobody uses (no client, no computer thinking, no clock or pause waiting, no action being
committed: :meth:`~gamehall.web.play.live.LiveGame.idle`) leave memory after ``idle_seconds``,
and the longest unused leave past ``max_live_games``; they are loaded again when asked for. A
stored game that does not replay under the engine, or not within ``load_seconds``, is
*quarantined*: marked in the store with the reason (so it is not tried again at the next start),
logged, and answered with ``quarantined`` from then on, while every other game is served.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from gamehall.protocol import ErrorCode, ProtocolError
from gamehall.web.base.settings import Settings
from gamehall.web.play.history import ReplayTimeout
from gamehall.web.play.live import LiveGame
from gamehall.web.play.pools import Run

if TYPE_CHECKING:  # the store is built by the transport layer and injected
    from gamehall.store.db import Store

log = logging.getLogger("gamehall.web")


class Memory:
    """Lets the hub's idle games go, and sets aside those that cannot be loaded."""

    def __init__(
        self, store: Store, settings: Settings, games: dict[str, LiveGame], *, db: Run
    ) -> None:
        self.store = store
        self.settings = settings
        self.games = games
        """The hub's games in memory, by id (the hub's own dict: what leaves here is gone)."""
        self._db = db

    async def sweeper(self) -> None:
        """Sweep now and then, for as long as the hub runs."""
        every = max(0.05, min(30.0, self.settings.idle_seconds / 2))
        while True:
            await asyncio.sleep(every)
            self.sweep()

    def sweep(self, now: float | None = None) -> list[str]:
        """Let idle games leave memory: those unused for ``idle_seconds``, then the longest
        unused past ``max_live_games``. Returns the ids that left (they load again on demand)."""
        now = time.monotonic() if now is None else now
        idle = sorted((live.used, live.id) for live in self.games.values() if live.idle())
        gone = [game_id for used, game_id in idle if now - used >= self.settings.idle_seconds]
        over = len(self.games) - len(gone) - self.settings.max_live_games
        if over > 0:
            gone += [game_id for _, game_id in idle if game_id not in gone][:over]
        for game_id in gone:
            self.games.pop(game_id, None)
        return gone

    async def quarantine(self, game_id: str, error: Exception) -> ProtocolError:
        """Set aside the game ``game_id``, which failed to load with ``error``: the error to
        answer with, now and from then on."""
        why = str(error) or type(error).__name__
        if isinstance(error, TimeoutError):
            seconds = self.settings.load_seconds
            why = f"loading took longer than {seconds:g} s (limit load_seconds)"
        problem = f"it does not replay under the engine: {why}"
        if isinstance(error, ReplayTimeout | TimeoutError):
            problem = f"it does not load in time: {why}"
        log.error("game %s is quarantined: %s", game_id, problem)
        with contextlib.suppress(Exception):
            await self._db(self.store.quarantine, game_id, problem)
        return quarantined(game_id, problem)


def quarantined(game_id: str, problem: str) -> ProtocolError:
    """The answer for a game set aside for ``problem``."""
    return ProtocolError(
        ErrorCode.QUARANTINED, f"game {game_id} cannot be loaded and is set aside: {problem}"
    )


__all__ = ["Memory", "quarantined"]
