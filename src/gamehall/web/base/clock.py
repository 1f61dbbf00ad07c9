"""Time controls and the server's clocks, as values and pure functions (no event loop, no I/O).

A game may have a time control (:class:`TimeControl`):

* **Fischer** ``M+S``: M minutes each (M may be fractional: ``0.5+0`` is 30 seconds), S seconds
  added after each of your moves;
* **correspondence** ``dN``: N days for each move (your time is N days again after every move).

The server's clocks are authoritative. Each human seat has its remaining time; a seat's clock
runs while it is that seat's turn, and only from its second move on (a side's clock starts with
its first move, as on lichess), never while chance is to move, a round's pause waits or a
computer thinks. Each move's time is measured by the server, less a lag allowance of
:data:`LAG_ALLOWANCE_MS` (the time a move spends on the network, given back; never more than the
move took), and a seat whose time is out, allowance included, loses on time (:func:`flag_due`).
The remaining times are stored with every entry of the game's log, so a restart shows exactly the
stored clocks: the seat to move starts again from its stored time when the game is loaded (the
server's downtime costs nobody time).
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass
from typing import Literal, Protocol

LAG_ALLOWANCE_MS = 500
"""Taken off each move's measured time (at most the whole of it): the network's share."""

MAX_MINUTES = 180.0
MAX_INCREMENT_S = 180
MAX_DAYS = 14

_FISCHER = re.compile(r"^(?P<minutes>\d{1,3}(?:\.\d{1,2})?)\+(?P<seconds>\d{1,3})$")
_CORRESPONDENCE = re.compile(r"^d(?P<days>\d{1,2})$")

CLOCK_HELP = (
    "a time control is M+S (M minutes each, M may be fractional like 0.5; S seconds added "
    f"per move; at most {MAX_MINUTES:g} minutes and {MAX_INCREMENT_S} seconds) or dN "
    f"(N days per move, 1 to {MAX_DAYS})"
)


class ClockError(ValueError):
    """A time control that does not parse or is out of bounds."""


@dataclass(frozen=True)
class TimeControl:
    """A game's time control: Fischer (initial time and increment) or correspondence."""

    kind: Literal["fischer", "correspondence"]
    initial_ms: int
    increment_ms: int = 0

    def __str__(self) -> str:
        if self.kind == "correspondence":
            return f"d{self.initial_ms // DAY_MS}"
        minutes = self.initial_ms / 60000
        return f"{minutes:g}+{self.increment_ms // 1000}"

    @staticmethod
    def parse(text: str) -> TimeControl:
        """Read ``5+3``, ``0.5+0`` or ``d3``; ClockError says what was wrong."""
        shown = text[:20]
        fischer = _FISCHER.match(text.strip())
        if fischer:
            minutes = float(fischer["minutes"])
            seconds = int(fischer["seconds"])
            if not 0 < minutes <= MAX_MINUTES or seconds > MAX_INCREMENT_S:
                raise ClockError(f"time control {shown!r} is out of bounds: {CLOCK_HELP}")
            return TimeControl("fischer", round(minutes * 60000), seconds * 1000)
        correspondence = _CORRESPONDENCE.match(text.strip())
        if correspondence:
            days = int(correspondence["days"])
            if not 1 <= days <= MAX_DAYS:
                raise ClockError(f"time control {shown!r} is out of bounds: {CLOCK_HELP}")
            return TimeControl("correspondence", days * DAY_MS)
        raise ClockError(f"time control {shown!r} does not parse: {CLOCK_HELP}")

    def after_move(self, left_ms: int) -> int:
        """A seat's time after its move, with ``left_ms`` left when it moved: Fischer adds the
        increment; correspondence gives the whole time again."""
        if self.kind == "correspondence":
            return self.initial_ms
        return left_ms + self.increment_ms


DAY_MS = 24 * 3600 * 1000


def charged(elapsed_ms: int) -> int:
    """The time a move costs: what the server measured, less the lag allowance."""
    return max(0, elapsed_ms - LAG_ALLOWANCE_MS)


def time_left(remaining_ms: int, elapsed_ms: int) -> int:
    """A running clock's time left after ``elapsed_ms`` (negative: out of time)."""
    return remaining_ms - charged(elapsed_ms)


def flag_due(remaining_ms: int, started_ms: int) -> int:
    """When a clock with ``remaining_ms`` that started running at ``started_ms`` runs out, lag
    allowance included: a move that arrives before then is in time."""
    return started_ms + remaining_ms + LAG_ALLOWANCE_MS


def starting_clocks(control: TimeControl, timed: list[bool]) -> tuple[int | None, ...]:
    """Each seat's time at the start: the control's initial time for the timed (human) seats."""
    return tuple(control.initial_ms if on else None for on in timed)


def running_seat(
    to_move: int | None, timed: list[bool], moved: set[int], *, stopped: bool
) -> int | None:
    """The seat whose clock runs: the timed seat to move, once it has moved before (its first
    move is free), unless the game is over or waits (chance, a pause: ``stopped``)."""
    if stopped or to_move is None or to_move < 0 or not timed[to_move] or to_move not in moved:
        return None
    return to_move


class Clock(Protocol):
    """The server's time: what the hub measures moves with and waits on (tests give a clock
    they move by hand)."""

    def now(self) -> int:
        """Milliseconds since the epoch."""
        ...

    async def sleep_until(self, deadline_ms: int) -> None:
        """Return at ``deadline_ms`` (at once if it has passed)."""
        ...


class SystemClock:
    """The wall clock."""

    def now(self) -> int:
        return int(time.time() * 1000)

    async def sleep_until(self, deadline_ms: int) -> None:
        while (left := deadline_ms - self.now()) > 0:
            await asyncio.sleep(min(left / 1000, 60.0))


__all__ = [
    "CLOCK_HELP",
    "DAY_MS",
    "LAG_ALLOWANCE_MS",
    "Clock",
    "ClockError",
    "SystemClock",
    "TimeControl",
    "charged",
    "flag_due",
    "running_seat",
    "starting_clocks",
    "time_left",
]
