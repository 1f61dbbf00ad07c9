"""What players may do around the moves, as pure functions: resign, abort, take back, claim the
win when the opponent left, and go on after a pause. Like the referee, each takes what the game
is now and who asks, and returns what to do or raises :class:`ProtocolError` (and nothing
changes); none reads a store, a clock or a socket.

* **Resign**: a seated player, at any time while the game goes on. Before every side has made
  a move a resignation is an abort (as on lichess): the game ends with no result, so no one
  wins a rated game by a resignation before it began.
* **Abort**: only before every side has made a move; the game ends with no result.
* **Takeback**: undoes the asker's last move and whatever followed it, never across chance (a
  pour or a draw is never drawn again). It needs the consent of every other person in the game:
  where there is none (against the computer, hot-seat) it is granted at once; online it is
  offered, and the other player accepts or declines. An offer lapses when a move is played; a
  declined offer may be made again only after the next move (so offers stay bounded by moves).
* **Claim**: in an online game, once a human opponent who has moved has been gone longer than
  the grace period (:func:`leave_grace_ms`), the player who stayed may claim the win.
* **Continue**: a pause (the end of a round) waits for each person seated to go on.
* **No first move**: in a game the hall made (a seek, quick pairing, a challenge), a side that
  has not made its first move within :func:`first_move_limit_ms` of its turn coming (30 s with a
  Fischer clock, a day for correspondence or no clock) aborts the game, as on lichess: no
  result, nothing rated (:func:`first_move_due`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from gamehall.core import CHANCE
from gamehall.protocol import ErrorCode, ProtocolError
from gamehall.web.base.clock import TimeControl

LEAVE_GRACE_TIMED_MS = 60_000
"""How long an opponent may be gone from a game with a Fischer clock before a claim."""
LEAVE_GRACE_UNTIMED_MS = 180_000
"""The same for a game without a clock."""


FIRST_MOVE_TIMED_MS = 30_000
"""How long a side of a hall game with a Fischer clock has for its first move."""
FIRST_MOVE_SLOW_MS = 24 * 3600 * 1000
"""The same for a correspondence game or one without a clock."""


def first_move_limit_ms(control: TimeControl | None) -> int:
    """How long a side has for its first move: 30 s with a Fischer clock, else a day."""
    if control is not None and control.kind == "fischer":
        return FIRST_MOVE_TIMED_MS
    return FIRST_MOVE_SLOW_MS


def first_move_due(
    *,
    watched: bool,
    over: bool,
    to_move: int | None,
    humans: Collection[int],
    moved: Collection[int],
    since: int,
    control: TimeControl | None,
) -> tuple[int, int] | None:
    """The seat that must make its first move and when its time for it is up (ms, from
    ``since``, when its turn came), or None: the game is not ``watched`` (not the hall's, or
    not online), is over, or the side to move is not a person who has yet to move."""
    if not watched or over or to_move is None or to_move < 0:
        return None
    if to_move not in humans or to_move in moved:
        return None
    return to_move, since + first_move_limit_ms(control)


def leave_grace_ms(control: TimeControl | None) -> int | None:
    """The grace period for a player who left: 60 s with a Fischer clock, 3 min without one;
    None for correspondence (there the clock alone decides)."""
    if control is None:
        return LEAVE_GRACE_UNTIMED_MS
    if control.kind == "correspondence":
        return None
    return LEAVE_GRACE_TIMED_MS


def _seated(over: bool, seats: Collection[int]) -> None:
    if over:
        raise ProtocolError(ErrorCode.GAME_OVER, "the game is over")
    if not seats:
        raise ProtocolError(
            ErrorCode.NOT_YOUR_SEAT, "you hold no seat in this game (you are watching)"
        )


def acting_seat(seats: Collection[int], to_move: int | None) -> int:
    """Which of the seats a request speaks for: the one to move if held, else the first."""
    return to_move if to_move is not None and to_move in seats else min(seats)


def resign(over: bool, seats: Collection[int], to_move: int | None) -> int:
    """The seat that resigns."""
    _seated(over, seats)
    return acting_seat(seats, to_move)


def resignation_ending(moved: Collection[int], players: int) -> Literal["resign", "abort"]:
    """How a resignation ends the game: a loss once every side has moved, before that an abort
    with no result (as on lichess)."""
    return "resign" if all(seat in moved for seat in range(players)) else "abort"


def abort(
    over: bool, seats: Collection[int], to_move: int | None, moved: Collection[int], players: int
) -> int:
    """The seat that aborts: only while some side has not moved yet."""
    _seated(over, seats)
    if all(seat in moved for seat in range(players)):
        raise ProtocolError(
            ErrorCode.CANNOT_ABORT,
            "every side has moved, so the game can no longer be aborted; you may resign",
        )
    return acting_seat(seats, to_move)


def takeback_span(movers: Sequence[int], seat: int) -> int:
    """How many actions undo ``seat``'s last move (and everything after it); never across
    chance."""
    if seat not in movers:
        raise ProtocolError(ErrorCode.NO_TAKEBACK, "you have no move to take back")
    for index in range(len(movers) - 1, -1, -1):
        if movers[index] == seat:
            return len(movers) - index
        if movers[index] == CHANCE:
            raise ProtocolError(
                ErrorCode.NO_TAKEBACK,
                "chance has drawn since your last move (a pour or a draw), and a takeback never "
                "undoes chance",
            )
    raise AssertionError("unreachable: the seat has moved")


def _asker(movers: Sequence[int], seats: Collection[int]) -> int:
    """Of the seats held, the one that moved last (hot-seat holds them all)."""
    for mover in reversed(movers):
        if mover in seats:
            return mover
    return min(seats)


@dataclass(frozen=True)
class TakebackRuling:
    """What a takeback request comes to: grant (undo ``count`` actions, asked by ``seat``),
    offer, or decline."""

    what: Literal["grant", "offer", "decline"]
    seat: int
    count: int = 0


def takeback(
    op: Literal["offer", "accept", "decline"],
    *,
    over: bool,
    seats: Collection[int],
    movers: Sequence[int],
    offer: int | None,
    consent_needed: bool,
    declined: Collection[int] = (),
) -> TakebackRuling:
    """A takeback request of ``seats`` (``consent_needed``: another person must agree;
    ``declined``: the seats whose offer was declined since the last move)."""
    _seated(over, seats)
    if op == "offer":
        seat = _asker(movers, seats)
        count = takeback_span(movers, seat)
        if offer is not None and offer in seats:
            raise ProtocolError(ErrorCode.NO_TAKEBACK, "your takeback offer already stands")
        if offer is not None:
            raise ProtocolError(
                ErrorCode.NO_TAKEBACK,
                "the other side has offered a takeback: accept or decline it first",
            )
        if consent_needed and seat in declined:
            raise ProtocolError(
                ErrorCode.NO_TAKEBACK,
                "your takeback offer was declined; you may offer again after the next move",
            )
        if not consent_needed:
            return TakebackRuling("grant", seat, count)
        return TakebackRuling("offer", seat)
    if offer is None:
        raise ProtocolError(ErrorCode.NO_TAKEBACK, f"there is no takeback offer to {op}")
    if offer in seats:
        raise ProtocolError(ErrorCode.NO_TAKEBACK, f"you cannot {op} your own takeback offer")
    if op == "decline":
        return TakebackRuling("decline", min(seats))
    return TakebackRuling("grant", offer, takeback_span(movers, offer))


def claim(
    *,
    online: bool,
    control: TimeControl | None,
    over: bool,
    seats: Collection[int],
    away_ms: Mapping[int, int],
    moved: Collection[int],
) -> int:
    """The seat that claims the win: ``away_ms`` says for how long each absent human seat has
    had nobody connected."""
    _seated(over, seats)
    if not online:
        raise ProtocolError(ErrorCode.CANNOT_CLAIM, "only an online game can be claimed")
    grace = leave_grace_ms(control)
    if grace is None:
        raise ProtocolError(
            ErrorCode.CANNOT_CLAIM, "in a correspondence game the clock decides, not presence"
        )
    gone = {seat: ms for seat, ms in away_ms.items() if seat not in seats}
    if not gone:
        raise ProtocolError(ErrorCode.CANNOT_CLAIM, "your opponent is here")
    if not any(seat in moved for seat in gone):
        raise ProtocolError(
            ErrorCode.CANNOT_CLAIM, "your opponent has not moved yet: abort the game instead"
        )
    longest = max(ms for seat, ms in gone.items() if seat in moved)
    if longest < grace:
        raise ProtocolError(
            ErrorCode.CANNOT_CLAIM,
            f"your opponent left {longest // 1000} s ago; you may claim the win after "
            f"{grace // 1000} s",
        )
    return min(seats)


def go_on(
    waiting: Collection[int] | None, version: int, asked_version: int, seats: Collection[int]
) -> set[int]:
    """The seats that go on from a pause (``waiting``: the seats it waits for; None: none)."""
    if waiting is None:
        raise ProtocolError(ErrorCode.NOT_PAUSED, "nothing waits for you to go on")
    if not seats:
        raise ProtocolError(
            ErrorCode.NOT_YOUR_SEAT, "you hold no seat in this game (you are watching)"
        )
    if asked_version != version:
        raise ProtocolError(
            ErrorCode.STALE_VERSION,
            f"your continue was for version {asked_version}, but the game is at version "
            f"{version}; resync",
        )
    mine = set(seats) & set(waiting)
    if not mine:
        raise ProtocolError(ErrorCode.NOT_PAUSED, "you have gone on already; the others have not")
    return mine


__all__ = [
    "FIRST_MOVE_SLOW_MS",
    "FIRST_MOVE_TIMED_MS",
    "LEAVE_GRACE_TIMED_MS",
    "LEAVE_GRACE_UNTIMED_MS",
    "TakebackRuling",
    "abort",
    "acting_seat",
    "claim",
    "first_move_due",
    "first_move_limit_ms",
    "go_on",
    "leave_grace_ms",
    "resign",
    "resignation_ending",
    "takeback",
    "takeback_span",
]
