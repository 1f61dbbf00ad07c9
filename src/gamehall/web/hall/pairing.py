"""The lobby's rules as pure values: seeks, their limits, and quick pairing.

Nothing here does I/O or reads a clock: every call that depends on time is given ``now`` (seconds,
any monotonic origin), so the rules are tested without waiting. The hall keeps one
:class:`Lobby`; :mod:`~gamehall.web.hall.seeks` stores its seeks and waits and tells clients.

- A **seek** is an open offer: a game with its options, a time control, rated or casual, and the
  side its creator takes (a seat index, or ``"random"``). Anyone but its creator may accept it.
  A player has at most :data:`MAX_SEEKS_PER_PLAYER` open; a seek lapses after
  :data:`SEEK_LIFETIME` seconds or when its creator leaves the lobby.
- **One person, one side**: a rated game never seats two players of one browser (its identity
  cookie, or a browser seen holding both accounts' sessions): that would be one person rating
  themselves. Seeks and waits carry their player's ``browsers`` for this.
- **A day's rated games between two players** are at most :data:`MAX_RATED_PER_PAIR` (over
  the last :data:`RATED_PAIR_WINDOW` seconds; games going on count, aborted ones do not): the
  next rated seek between them is refused (``rated_limit``, with the reason), and quick
  pairing pairs each of them with someone else (:meth:`Lobby.pair`'s ``apart``). Casual games
  between them are not limited. (Lichess refuses a bot's game past its daily limit the same
  way, with a message saying why, rather than quietly making it casual.)
- **Quick pairing**: a player waits in a pool (a game, a time control, rated or casual); two
  waiting players of one pool are paired once their ratings are within both players' windows,
  each window :data:`WINDOW_START` wide at first and growing by :data:`WINDOW_GROWTH` a second
  up to :data:`WINDOW_MAX`, so a long wait finds a wider match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Literal

MAX_SEEKS_PER_PLAYER = 3
MAX_SEEKS_PER_ADDRESS = 4 * MAX_SEEKS_PER_PLAYER
"""Open seeks from one network address (several people may share one), so a client that makes
itself new identities cannot fill the lobby."""
MAX_SEEKS = 500
"""Open seeks in the whole hall (each is bounded in size too: a request body's options)."""
SEEK_LIFETIME = 20 * 60.0
LEAVE_GRACE = 10.0
"""Seconds a player may be away from the lobby (a reload) before their seeks and waits lapse."""
UNWATCHED_GRACE = 30.0
"""Seconds a seek made with no lobby page open (over REST) stays open unless its creator
opens one: a seek lapses when nobody is there to be told it was taken."""
MAX_WAITING = 1000
MAX_RATED_PER_PAIR = 10
"""Rated games two players may play each other within :data:`RATED_PAIR_WINDOW`."""
RATED_PAIR_WINDOW = 24 * 3600.0
"""Seconds over which :data:`MAX_RATED_PER_PAIR` counts (a day, rolling)."""
WINDOW_START = 100.0
WINDOW_GROWTH = 20.0
WINDOW_MAX = 600.0
QUICK_CONTROLS = ("3+2", "5+3", "10+5", "15+10")
"""The time controls of the lobby's quick pairing buttons (minutes + increment in seconds)."""

Side = int | Literal["random"]


class LobbyError(ValueError):
    """A lobby request that breaks a rule; ``reason`` is one of: ``too_many_seeks``,
    ``lobby_full``, ``own_seek``, ``self_pairing``, ``unknown_seek``, ``not_your_seek``,
    ``bad_clock``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


# --- time controls ---------------------------------------------------------------------------

_LIVE = re.compile(r"(\d{1,3}(?:\.\d{1,2})?)\+(\d{1,3})")
_CORRESPONDENCE = re.compile(r"d(\d{1,2})")


def check_clock(text: str | None) -> str | None:
    """A time control in its normal form: ``M+S`` (M minutes each, more than 0 and at most 180,
    plus S seconds a move, at most 180), ``dN`` (N days a move, 1 to 14), or None (untimed).
    Raises :class:`LobbyError` (``bad_clock``) for anything else."""
    if text is None or text == "":
        return None
    live = _LIVE.fullmatch(text)
    if live:
        minutes, increment = float(live.group(1)), int(live.group(2))
        if 0 < minutes <= 180 and increment <= 180:
            return f"{minutes:g}+{increment}"
    correspondence = _CORRESPONDENCE.fullmatch(text)
    if correspondence and 1 <= int(correspondence.group(1)) <= 14:
        return f"d{int(correspondence.group(1))}"
    raise LobbyError(
        "bad_clock",
        f"{text!r} is not a time control; write M+S (minutes each, 0 < M <= 180, plus "
        "0 to 180 seconds a move, e.g. '5+3'), dN (1 to 14 days a move, e.g. 'd3'), or null",
    )


# --- seeks -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seek:
    """An open offer to play."""

    id: str
    player: str  # the creator's player id
    name: str  # the creator's name, as shown
    rating: float | None  # the creator's rating in this game (rated seeks)
    game: str
    options: dict[str, Any]
    clock: str | None
    rated: bool
    side: Side
    created: float
    expires: float
    address: str | None = None  # the creator's network address (None: not known, e.g. restored)
    browsers: frozenset[str] = frozenset()  # the creator's browsers (see the module docstring)
    deviation: float | None = None  # the deviation of ``rating`` (None: a newcomer's)
    bot: bool = False  # whether the creator is a bot account (docs/bots.md)


@dataclass(frozen=True)
class Waiting:
    """A player waiting for quick pairing in one pool."""

    player: str
    name: str
    rating: float
    game: str
    clock: str | None
    rated: bool
    since: float
    browsers: frozenset[str] = frozenset()

    @property
    def pool(self) -> tuple[str, str | None, bool]:
        return (self.game, self.clock, self.rated)

    def window(self, now: float) -> float:
        """How far from this player's rating an opponent may be, after waiting till ``now``."""
        waited = max(0.0, now - self.since)
        return min(WINDOW_MAX, WINDOW_START + WINDOW_GROWTH * waited)


def one_browser(rated: bool, a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether a game between players of these browsers would be one person rating
    themselves: a rated game with a browser on both sides."""
    return rated and not a.isdisjoint(b)


def can_pair(a: Waiting, b: Waiting, now: float) -> bool:
    """Quick pairing's rule: one pool, two players (of two browsers if rated), each rating
    inside the other's window."""
    gap = abs(a.rating - b.rating)
    return (
        a.pool == b.pool
        and a.player != b.player
        and not one_browser(a.rated, a.browsers, b.browsers)
        and gap <= a.window(now)
        and gap <= b.window(now)
    )


@dataclass
class Lobby:
    """The open seeks and the quick-pairing pools of one hall."""

    seeks: dict[str, Seek] = field(default_factory=dict)
    waiting: dict[str, Waiting] = field(default_factory=dict)  # by player id

    # --- seeks ---

    def seeks_of(self, player: str) -> list[Seek]:
        return [s for s in self.seeks.values() if s.player == player]

    def check_room(self, player: str, address: str | None = None) -> None:
        """Whether ``player`` (from ``address``) may open another seek (raises
        :class:`LobbyError` if not)."""
        if len(self.seeks_of(player)) >= MAX_SEEKS_PER_PLAYER:
            raise LobbyError(
                "too_many_seeks",
                f"you have {MAX_SEEKS_PER_PLAYER} open seeks, the most one player may have; "
                "cancel one first",
            )
        if address is not None:
            shared = sum(1 for s in self.seeks.values() if s.address == address)
            if shared >= MAX_SEEKS_PER_ADDRESS:
                raise LobbyError(
                    "too_many_seeks",
                    f"{shared} seeks are open from your network address, the most one address "
                    "may have; cancel one or wait for them to be taken",
                )
        if len(self.seeks) >= MAX_SEEKS:
            raise LobbyError("lobby_full", f"the lobby has {MAX_SEEKS} open seeks; try later")

    def add(self, seek: Seek) -> Seek:
        self.check_room(seek.player, seek.address)
        self.seeks[seek.id] = seek
        return seek

    def find(self, seek_id: str) -> Seek:
        seek = self.seeks.get(seek_id)
        if seek is None:
            raise LobbyError(
                "unknown_seek", f"there is no open seek {seek_id!r} (taken, cancelled or lapsed)"
            )
        return seek

    def cancel(self, seek_id: str, player: str) -> Seek:
        """Remove a seek; only its creator may."""
        seek = self.find(seek_id)
        if seek.player != player:
            raise LobbyError("not_your_seek", "only the player who made a seek may cancel it")
        del self.seeks[seek_id]
        return seek

    def check_accept(
        self, seek_id: str, player: str, browsers: frozenset[str] = frozenset()
    ) -> Seek:
        """The seek ``player`` (of ``browsers``) may accept (raises :class:`LobbyError` if
        none); it stays open until :meth:`take` (after the game is made)."""
        seek = self.find(seek_id)
        if seek.player == player:
            raise LobbyError("own_seek", "you cannot accept your own seek")
        if one_browser(seek.rated, seek.browsers, browsers):
            raise LobbyError(
                "self_pairing",
                f"the seek is {seek.name}'s, an account used in this browser too; a rated game "
                "needs two people (accept a casual seek, or sign in from your own browser)",
            )
        return seek

    def take(self, seek_id: str) -> Seek | None:
        return self.seeks.pop(seek_id, None)

    def expire(self, now: float) -> list[Seek]:
        """Remove and return the seeks whose time is up."""
        gone = [s for s in self.seeks.values() if s.expires <= now]
        for seek in gone:
            del self.seeks[seek.id]
        return gone

    # --- quick pairing ---

    def wait(self, entry: Waiting) -> None:
        """Put a player in a pool (leaving any other they were in)."""
        if entry.player not in self.waiting and len(self.waiting) >= MAX_WAITING:
            raise LobbyError("lobby_full", f"{MAX_WAITING} players are waiting; try later")
        for other in self.waiting.values():
            if (
                other.player != entry.player
                and other.pool == entry.pool
                and one_browser(entry.rated, entry.browsers, other.browsers)
            ):
                raise LobbyError(
                    "self_pairing",
                    f"{other.name}, an account used in this browser too, is waiting for this "
                    "rated game; a rated game needs two people",
                )
        old = self.waiting.get(entry.player)
        if old is not None and old.pool == entry.pool:
            entry = replace(entry, since=old.since)  # asking again keeps one's place
        self.waiting[entry.player] = entry

    def unwait(self, player: str) -> Waiting | None:
        return self.waiting.pop(player, None)

    def pair(
        self, now: float, apart: frozenset[frozenset[str]] = frozenset()
    ) -> list[tuple[Waiting, Waiting]]:
        """Pair whoever can be paired, longest waiting first, each with the closest rating
        among those it can be paired with (never two players ``apart`` names together in a
        rated pool: they have played their day's rated games); the pairs leave the pools."""
        pairs = []
        queue = sorted(self.waiting.values(), key=lambda w: (w.since, w.player))
        taken: set[str] = set()
        for entry in queue:
            if entry.player in taken:
                continue
            candidates = [
                other
                for other in queue
                if other.player not in taken
                and can_pair(entry, other, now)
                and not (entry.rated and frozenset((entry.player, other.player)) in apart)
            ]
            if not candidates:
                continue
            best = min(candidates, key=lambda o: (abs(o.rating - entry.rating), o.since))
            taken |= {entry.player, best.player}
            pairs.append((entry, best))
        for a, b in pairs:
            del self.waiting[a.player], self.waiting[b.player]
        return pairs

    def leave(self, player: str) -> tuple[list[Seek], Waiting | None]:
        """A player left the lobby: their seeks and their wait end."""
        gone = self.seeks_of(player)
        for seek in gone:
            del self.seeks[seek.id]
        return gone, self.unwait(player)

    def pools(self) -> dict[tuple[str, str | None, bool], int]:
        """How many players wait in each pool."""
        counts: dict[tuple[str, str | None, bool], int] = {}
        for entry in self.waiting.values():
            counts[entry.pool] = counts.get(entry.pool, 0) + 1
        return counts


def seat_of_creator(side: Side, seats: int, coin: int) -> int:
    """The creator's seat: the side asked for, or ``coin`` (a random seat index) for random."""
    return coin % seats if side == "random" else side


__all__ = [
    "LEAVE_GRACE",
    "MAX_RATED_PER_PAIR",
    "MAX_SEEKS",
    "MAX_SEEKS_PER_ADDRESS",
    "MAX_SEEKS_PER_PLAYER",
    "QUICK_CONTROLS",
    "RATED_PAIR_WINDOW",
    "SEEK_LIFETIME",
    "UNWATCHED_GRACE",
    "Lobby",
    "LobbyError",
    "Seek",
    "Waiting",
    "can_pair",
    "check_clock",
    "one_browser",
    "seat_of_creator",
]
