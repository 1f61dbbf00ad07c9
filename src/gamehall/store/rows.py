"""What the store hands out and takes in: plain values, no database code.

The web layers that keep games and the hall (:mod:`gamehall.web.play`, :mod:`gamehall.web.hall`)
read and build these values; the :class:`~gamehall.store.db.Store` that turns them into rows is
built by the transport layer and injected, so those layers import no database library.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


def player_key(identity: str) -> str:
    """What the store keeps of a browser's identity cookie: its SHA-256 (hex), so a copy of
    the database lets no one act as the browser."""
    return hashlib.sha256(identity.encode("utf-8")).hexdigest()


class StoreError(Exception):
    """The store could not do what was asked (a conflict, or a database problem)."""


class VersionConflict(StoreError):
    """An append whose expected version is not the stored one (someone else moved first)."""


def now_text() -> str:
    """The current time as an ISO-8601 UTC string (sortable as text)."""
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds")


@dataclass
class Seat:
    """A seat as stored: who plays it and the secret token that lets a person move for it."""

    kind: str  # "human" or "computer"
    token: str
    level: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "token": self.token}
        if self.level is not None:
            data["level"] = self.level
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(kind=data["kind"], token=data["token"], level=data.get("level"))


@dataclass
class GameRow:
    """A game as stored, without its actions."""

    id: str
    game: str
    rules_version: str
    """The rules version of the game's engine when the game was made."""
    options: dict[str, Any]
    mode: str
    seed: str
    seats: list[Seat]
    created: str
    updated: str
    version: int = 0
    status: str = "ongoing"
    result: dict[str, Any] | None = None
    pending: bool = False
    rematch_of: str | None = None
    rematch: str | None = None
    problem: str | None = None
    """Why the game is quarantined (it is not loaded), or None."""
    clock: str | None = None
    """The time control (``"5+3"``: minutes and seconds added per move; ``"d3"``: days per
    move), or None."""
    setup: str | None = None
    """The text of the position the game starts from (None: the game's initial state)."""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ActionRow:
    """An entry of a game's log: a game action (kind ``action``) or what happened around them."""

    number: int
    text: str
    mover: int
    at: str
    kind: str = "action"
    clock: tuple[int | None, ...] | None = None


@dataclass(frozen=True)
class ChatRow:
    """A chat message as stored."""

    number: int
    room: str
    seat: int | None
    text: str
    at: str


@dataclass(frozen=True)
class ReviewRow:
    """A game's review as stored: its status, the budget asked for, and the result or error
    (both JSON text as written)."""

    game_id: str
    status: str
    budget: dict[str, Any]
    result: str | None
    error: str | None
    requested: str
    updated: str


@dataclass(frozen=True)
class Append:
    """One entry to append to a game's log: game ``game_id`` goes from version ``number - 1``
    to ``number`` (a game action, or by ``kind`` what happened around them, with each seat's
    remaining ``clock`` after it)."""

    game_id: str
    number: int
    text: str
    mover: int
    status: str
    result: dict[str, Any] | None
    pending: bool
    notify: str | None = None
    """A bus payload to NOTIFY in the same transaction (PostgreSQL only)."""
    kind: str = "action"
    clock: Sequence[int | None] | None = None


class NameTaken(StoreError):
    """The name (or username) is another player's."""


@dataclass(frozen=True)
class PlayerRow:
    id: str
    name: str
    created: str
    account: bool
    merged_into: str | None = None
    bot_owner: str | None = None
    """A bot account's owner: the person's account that made it (docs/bots.md); None for a
    person's."""

    @property
    def bot(self) -> bool:
        return self.bot_owner is not None


@dataclass(frozen=True)
class RatingRow:
    player_id: str
    game: str
    rating: float
    deviation: float
    volatility: float
    games: int
    updated: str


@dataclass(frozen=True)
class HistoryRow:
    game: str
    game_id: str
    seat: int
    score: float
    rating: float
    deviation: float
    at: str


@dataclass(frozen=True)
class RatedResult:
    """One player's side of a rated game as it goes into the store."""

    player_id: str
    seat: int
    score: float
    rating: float
    deviation: float
    volatility: float
