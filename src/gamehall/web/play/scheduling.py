"""When the computers move: a game's computer seats play, chance in between, until a person is to
move or the game ends.

A game's computer seats are asked to move by one task per game (the game's ``thinking``), started
whenever the next action is the server's and no pause holds the game. The computers think off
the event loop (:mod:`gamehall.web.compute.computers`), without the game's lock; a choice made for
a version the game has left meanwhile (a takeback, another process's move) is dropped and asked
for again. A choice is committed through the hub's commit path like any move.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from gamehall.core import Action, GamehallError
from gamehall.protocol import ErrorCode, ProtocolError
from gamehall.web.base.engine import derived_seed
from gamehall.web.compute.computers import Computers
from gamehall.web.play.live import LiveGame
from gamehall.web.play.pools import Spawn

log = logging.getLogger("gamehall.web")


class Scheduler:
    """Starts each game's computer moves when they are due."""

    def __init__(
        self,
        computers: Computers,
        *,
        background: Spawn,
        chance: Callable[[LiveGame], Awaitable[None]],
        commit: Callable[[LiveGame, Action, int], Awaitable[None]],
        arm: Callable[[LiveGame], None],
    ) -> None:
        self.computers = computers
        self._background = background
        self._chance = chance
        self._commit = commit
        """The hub's commit path for an action (the caller holds the lock)."""
        self._arm = arm

    def schedule(self, live: LiveGame) -> None:
        """Let the computers move in ``live`` if it is theirs to move and they are not at it."""
        if (
            live.server_to_move()
            and live.pause is None
            and (live.thinking is None or live.thinking.done())
        ):
            live.thinking = self._background(self._computers(live))

    async def _computers(self, live: LiveGame) -> None:
        """Computer seats move (chance in between) until a person is to move or the game ends."""
        try:
            while True:
                async with live.lock:
                    await self._chance(live)
                    if not live.server_to_move() or live.pause is not None:
                        return
                    player = live.state.current_player
                    version = live.version
                    state = live.state
                    actions = list(live.actions)
                    level = live.row.seats[player].level or "easy"
                seed = derived_seed(live.row.seed, "agent", player)
                choice = await self.computers.choose(
                    live.id,
                    state,
                    actions,
                    player,
                    level,
                    seed,
                    client=live.owner,
                    setup=live.row.setup,
                )
                async with live.lock:
                    if live.version != version:
                        continue
                    try:
                        action = live.state.parse_action(choice.text)
                    except GamehallError as error:
                        log.error("computer (%s) in %s chose badly: %s", level, live.id, error)
                        return
                    await self._commit(live, action, player)
                self._arm(live)
        except asyncio.CancelledError:
            raise
        except ProtocolError as error:
            if error.code == ErrorCode.STALE_VERSION:  # another process moved for it
                log.info("computer move in %s: %s", live.id, error.message)
            else:
                log.error("computer move in %s failed: %s", live.id, error.message)
        except Exception:
            log.exception("computer move in %s failed", live.id)


__all__ = ["Scheduler"]
