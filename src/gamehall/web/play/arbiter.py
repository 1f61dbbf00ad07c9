"""The arbiter of a game in play: its pauses, the players' conduct around the moves, its timer.

Where the game says people should look before chance goes on (:meth:`gamehall.core.State.pause`:
a round is over), chance waits until every person seated sends ``continue``, or
:data:`PAUSE_VS_COMPUTER_MS` against the computer and :data:`PAUSE_BETWEEN_PEOPLE_MS` otherwise.
Resigning, aborting, takebacks and claims are ruled on by :mod:`gamehall.web.play.conduct` and
stored as entries of the game's log like moves (:mod:`gamehall.web.play.history`), through the
hub's commit path, before anyone is told. Clocks (:mod:`gamehall.web.base.clock`) are measured
with the hub's :class:`~gamehall.web.base.clock.Clock`; a timer per game waits for what is due
next (a flag fall, the end of a pause, the end of a side's time for its first move: then the
game aborts itself, :func:`~gamehall.web.play.conduct.first_move_due`), whether or not anyone
is connected. With several processes each one holding the game arms its timer; the store keeps
the first ending committed (the others' are stale), as for a flag fall.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from gamehall.protocol import ErrorCode, ProtocolError
from gamehall.store.bus import Bus, Event
from gamehall.web.base.clock import Clock, flag_due
from gamehall.web.play import conduct
from gamehall.web.play.history import NO_MOVE, RESIGNED, takeback_text
from gamehall.web.play.live import LiveGame, Pause
from gamehall.web.play.pools import Spawn

log = logging.getLogger("gamehall.web")

PAUSE_VS_COMPUTER_MS = 8_000
"""Against the computer, a round's end shows this long (or until the player goes on)."""
PAUSE_BETWEEN_PEOPLE_MS = 120_000
"""Between people, a round's end waits for every player, but no longer than this."""


def pause_if_due(live: LiveGame, now: int) -> bool:
    """Hold the game if the state says people should look before chance goes on (set
    before anyone is told of the state, so the state they get says so)."""
    if live.pause is not None:
        return True
    state = live.state
    if live.over or not state.is_chance_node() or live.released == live.version:
        return False
    reason = state.pause()
    if not reason or not live.humans():
        return False
    vs_computer = any(seat.kind == "computer" for seat in live.row.seats)
    wait = PAUSE_VS_COMPUTER_MS if vs_computer else PAUSE_BETWEEN_PEOPLE_MS
    live.pause = Pause(reason, now + wait, frozenset(live.humans()))
    return True


def flag_is_due(live: LiveGame, now: int) -> bool:
    """Whether the running clock's flag has fallen at ``now``."""
    seat = live.running()
    if seat is None or live.clocks is None:
        return False
    return now >= flag_due(live.clocks[seat] or 0, live.turn_started)


class Arbiter:
    """Rules on what happens around the moves, and ends games on time and pauses when due."""

    def __init__(
        self,
        clock: Clock,
        bus: Bus,
        *,
        publish: Callable[[Event], Awaitable[None]],
        entry: Callable[[LiveGame, str, str, int], Awaitable[None]],
        chance: Callable[[LiveGame], Awaitable[None]],
        after: Callable[[LiveGame], None],
        background: Spawn,
    ) -> None:
        self.clock = clock
        self.bus = bus
        self._publish = publish
        self._entry = entry
        """The hub's commit path for an entry around the moves (the caller holds the lock)."""
        self._chance = chance
        self._after = after
        self._background = background

    # --- pauses ---

    async def go_on(self, live: LiveGame, seats: frozenset[int], version: int) -> None:
        """Seats go on from a pause; when every seat has, chance goes on."""
        async with live.lock:
            if live.over:
                raise ProtocolError(ErrorCode.GAME_OVER, "the game is over")
            pause = live.pause
            mine = conduct.go_on(pause.waiting if pause else None, live.version, version, seats)
            assert pause is not None
            pause.waiting -= mine
            if self.bus.shared:  # the other processes' pause waits for these seats no more
                event = self.bus.event("continue", live.id, version=version, seats=sorted(mine))
                await self._publish(event)
            if pause.waiting:
                live.broadcast_state(self.clock.now())
            else:
                await self.release(live)
        self._after(live)

    async def went_on(self, live: LiveGame, event: Event) -> None:
        """Seats went on from a pause through another process (when no one is left to wait
        for, this process releases the pause too: the chance drawn is the same, and the store
        keeps the first of the two). What it did is logged at INFO."""
        seats, version = event.get("seats"), event.get("version")
        if not isinstance(seats, list) or not isinstance(version, int):
            return
        try:
            async with live.lock:
                pause = live.pause
                if pause is None or live.over or live.version != version:
                    log.info("going on in %s at %d: gone on already", live.id, version)
                    return
                went = {int(seat) for seat in seats}
                pause.waiting -= went
                if pause.waiting:
                    live.broadcast_state(self.clock.now())
                    log.info("going on in %s at %d: still waiting", live.id, version)
                else:
                    await self.release(live)
                    log.info("going on in %s at %d: released here", live.id, version)
        except ProtocolError as error:  # (stale: another process drew the chance first)
            log.info("going on in %s at %d: %s", live.id, version, error.message)
        self._after(live)

    async def release(self, live: LiveGame) -> None:
        """The pause is over: chance goes on (the caller holds the lock)."""
        live.released = live.version
        live.pause = None
        await self._chance(live)

    # --- resigning, aborting, takebacks, claims ---

    async def end(self, live: LiveGame, kind: str, seat: int) -> None:
        """End the game off the board (``kind``: one of the endings) by ``seat``."""
        await self._entry(live, kind, kind, seat)

    async def resign(self, live: LiveGame, seats: frozenset[int]) -> None:
        async with live.lock:
            player = live.state.current_player if not live.over else None
            seat = conduct.resign(live.over, seats, player)
            if conduct.resignation_ending(live.moved(), len(live.row.seats)) == "abort":
                # Stored as an abort whose text says it was a resignation (history.Ending).
                await self._entry(live, "abort", RESIGNED, seat)
            else:
                await self.end(live, "resign", seat)
        self._after(live)

    async def abort(self, live: LiveGame, seats: frozenset[int]) -> None:
        async with live.lock:
            player = live.state.current_player if not live.over else None
            seat = conduct.abort(live.over, seats, player, live.moved(), len(live.row.seats))
            await self.end(live, "abort", seat)
        self._after(live)

    async def takeback(self, live: LiveGame, seats: frozenset[int], op: str) -> None:
        async with live.lock:
            # Another person must agree unless every other human seat is held by the asker.
            consent = any(seat not in seats for seat in live.humans())
            ruling = conduct.takeback(
                op,  # type: ignore[arg-type]
                over=live.over,
                seats=seats,
                movers=live.movers,
                offer=live.played.offer,
                consent_needed=consent,
                declined=live.played.declined,
            )
            if ruling.what == "grant":
                await self._entry(live, "takeback", takeback_text(ruling.count), ruling.seat)
            elif ruling.what == "offer":
                await self._entry(live, "offer", "offer takeback", ruling.seat)
            else:
                await self._entry(live, "decline", "decline takeback", ruling.seat)
        self._after(live)

    async def claim_win(self, live: LiveGame, seats: frozenset[int]) -> None:
        """A player claims the win: the opponent has been gone past the grace period."""
        async with live.lock:
            seat = conduct.claim(
                online=live.row.mode == "online",
                control=live.control,
                over=live.over,
                seats=seats,
                away_ms=live.away_ms(self.clock.now()),
                moved=live.moved(),
            )
            await self.end(live, "claim", seat)
        self._after(live)

    # --- the timer: flag falls and the end of pauses ---

    def arm(self, live: LiveGame) -> None:
        """(Re)start the game's timer for what is due next, if anything."""
        current = asyncio.current_task()
        if live.timer is not None and live.timer is not current and not live.timer.done():
            live.timer.cancel()
        live.timer = None
        due = []
        seat = live.running()
        if seat is not None and live.clocks is not None:
            due.append(flag_due(live.clocks[seat] or 0, live.turn_started))
        if live.pause is not None and live.pause.until is not None and not live.over:
            due.append(live.pause.until)
        first = live.first_move()
        if first is not None:
            due.append(first[1])
        if not due:
            return
        live.timer = self._background(self._timer(live, min(due)))

    async def _timer(self, live: LiveGame, due: int) -> None:
        """Wait for what is due, and do it. How a timer of a game that ends on it ends is
        logged at INFO: the flag it stored, the flag another process stored first (its stale
        version), or the game over already (ended meanwhile, here or through another process)."""
        try:
            await self.clock.sleep_until(due)
            async with live.lock:
                now = self.clock.now()
                seat = live.running()
                if live.over:
                    log.info("the timer of %s: the game is over already", live.id)
                elif seat is not None and flag_is_due(live, self.clock.now()):
                    await self.end(live, "flag", seat)
                    log.info("the timer of %s: the flag of seat %d fell", live.id, seat)
                elif (first := live.first_move()) is not None and now >= first[1]:
                    await self._entry(live, "abort", NO_MOVE, first[0])
                    log.info("the timer of %s: seat %d did not move: aborted", live.id, first[0])
                elif (
                    live.pause is not None
                    and live.pause.until is not None
                    and now >= live.pause.until
                ):
                    await self.release(live)
            self._after(live)
        except asyncio.CancelledError:
            if live.over:
                log.info("the timer of %s: the game is over already", live.id)
            raise
        except ProtocolError as error:
            if error.code == ErrorCode.STALE_VERSION:  # another process stored it first
                log.info("the timer of %s: %s", live.id, error.message)
            else:
                log.error("the timer of %s failed: %s", live.id, error.message)
        except Exception:
            log.exception("the timer of %s failed", live.id)


__all__ = [
    "PAUSE_BETWEEN_PEOPLE_MS",
    "PAUSE_VS_COMPUTER_MS",
    "Arbiter",
    "flag_is_due",
    "pause_if_due",
]
