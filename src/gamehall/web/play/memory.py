"""Which games stay in memory: idle ones leave, broken ones are set aside.

Games nobody uses (no client, no computer thinking, no clock or pause waiting, no action being
committed: :meth:`~gamehall.web.play.live.LiveGame.idle`) leave memory after ``idle_seconds``,
and the longest unused leave past ``max_live_games``; they are loaded again when asked for. So
does a game whose only wait is its running clock (:func:`clock_only`): what is kept of it is
when its clock started and when its flag falls (:class:`Asleep`, and a small task waiting on
the hub's clock), so it is loaded again when its flag falls (and the flag falls then), or
earlier when asked for, with its clock as though it had stayed. A
stored game that does not replay under the engine, or not within ``load_seconds``, is
*quarantined*: marked in the store with the reason (so it is not tried again at the next start),
logged, and answered with ``quarantined`` from then on, while every other game is served.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gamehall.protocol import ErrorCode, ProtocolError
from gamehall.web.base.clock import Clock, flag_due
from gamehall.web.base.settings import Settings
from gamehall.web.play.history import ReplayTimeout
from gamehall.web.play.live import LiveGame
from gamehall.web.play.pools import Run, Spawn

if TYPE_CHECKING:  # the store is built by the transport layer and injected
    from gamehall.store.db import Store

log = logging.getLogger("gamehall.web")


def clock_only(live: LiveGame) -> bool:
    """Whether nothing but its running clock keeps the game busy: nobody watches, no computer
    thinks, no action is being committed, no pause waits, and the timer waits for a flag."""
    return (
        not live.connections
        and (live.thinking is None or live.thinking.done())
        and not live.lock.locked()
        and live.pause is None
        and live.running() is not None
        and live.timer is not None
        and not live.timer.done()
    )


@dataclass
class Asleep:
    """What is kept of a game that left memory with its clock running."""

    turn_started: int
    """When its running clock started (the hub's clock, ms)."""
    due: int
    """When its flag falls."""
    waking: asyncio.Task[Any] | None = None


class Memory:
    """Lets the hub's idle games go, and sets aside those that cannot be loaded."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        games: dict[str, LiveGame],
        *,
        db: Run,
        clock: Clock | None = None,
        wake: Callable[[str], Awaitable[Any]] | None = None,
        spawn: Spawn | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.games = games
        """The hub's games in memory, by id (the hub's own dict: what leaves here is gone)."""
        self._db = db
        self.clock = clock
        self._wake = wake
        """Loads a game again (the hub's ``get``): it then plays on, its flag falling if due."""
        self._spawn = spawn
        self.asleep: dict[str, Asleep] = {}
        """The games that left memory with their clock running, by id."""

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
        sleepers = self._wake is not None and self._spawn is not None
        idle = sorted(
            (live.used, live.id)
            for live in self.games.values()
            if live.idle() or (sleepers and clock_only(live))
        )
        gone = [game_id for used, game_id in idle if now - used >= self.settings.idle_seconds]
        over = len(self.games) - len(gone) - self.settings.max_live_games
        if over > 0:
            gone += [game_id for _, game_id in idle if game_id not in gone][:over]
        for game_id in gone:
            live = self.games.pop(game_id, None)
            if live is not None and live.timer is not None and not live.timer.done():
                self._fall_asleep(live)
        return gone

    def _fall_asleep(self, live: LiveGame) -> None:
        """The game leaves with its clock running: its timer gives way to a small task that
        loads it again when its flag falls."""
        assert live.timer is not None and live.clocks is not None and self._spawn is not None
        seat = live.running()
        assert seat is not None
        live.timer.cancel()
        asleep = Asleep(live.turn_started, flag_due(live.clocks[seat] or 0, live.turn_started))
        self.asleep[live.id] = asleep
        asleep.waking = self._spawn(self._wake_at(live.id, asleep.due))

    async def _wake_at(self, game_id: str, due: int) -> None:
        assert self.clock is not None and self._wake is not None
        await self.clock.sleep_until(due)
        try:
            await self._wake(game_id)  # loaded: its timer ends the game on time
        except ProtocolError as error:
            log.error("game %s could not be woken for its flag: %s", game_id, error.message)
        except Exception:
            log.exception("game %s could not be woken for its flag", game_id)

    def woken(self, live: LiveGame) -> None:
        """A game is loaded again: if it left with its clock running, its clock runs on from
        when it started (not from now), and its waking task is done with."""
        asleep = self.asleep.pop(live.id, None)
        if asleep is None:
            return
        live.turn_started = asleep.turn_started
        waking = asleep.waking
        if waking is not None and waking is not asyncio.current_task() and not waking.done():
            waking.cancel()

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


__all__ = ["Asleep", "Memory", "clock_only", "quarantined"]
