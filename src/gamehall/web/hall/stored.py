"""The lobby's seeks and quick-pairing waits as the store keeps them, and back.

Several processes on one database are one hall, so every seek is a row of the store's seeks
table, and so is every quick-pairing wait (id :func:`wait_id`, ``w_…``; its process renews it
while its player waits, and it lapses :data:`WAIT_LEASE` seconds after the last renewal). A row
counts time on the wall clock (ISO texts); the lobby counts it on the hall's monotonic clock, so
each way converts: a seek keeps the seconds it has left, a wait the seconds it has waited. A row
keeps no network address, only its hash (:func:`address_key`).
"""

from __future__ import annotations

import datetime
import hashlib
from typing import Any

from gamehall.web.hall.pairing import Seek, Waiting
from gamehall.web.hall.ratings import Rating

WAIT_PREFIX = "w_"
WAIT_LEASE = 30.0
"""A stored quick-pairing wait lapses this long after its process last renewed it."""


def address_key(address: str) -> str:
    """What the hall keeps of a network address (to count a seek limit per address across
    processes): a hash, so the store holds no address."""
    return hashlib.sha256(b"gamehall address\n" + address.encode()).hexdigest()[:32]


def wait_id(player: str) -> str:
    """The stored id of a player's quick-pairing wait (one per player)."""
    return WAIT_PREFIX + hashlib.sha256(player.encode()).hexdigest()[:30]


def is_wait(row: dict[str, Any]) -> bool:
    """Whether a row of the seeks table is a quick-pairing wait (else it is a seek)."""
    return str(row["id"]).startswith(WAIT_PREFIX)


def stored_wait(entry: Waiting, clock: float) -> dict[str, Any]:
    """A wait as stored (``clock``: the hall's clock now, which ``entry.since`` counts on)."""
    now = datetime.datetime.now(datetime.UTC)
    since = now - datetime.timedelta(seconds=max(0.0, clock - entry.since))
    lapses = now + datetime.timedelta(seconds=WAIT_LEASE)
    return {
        "id": wait_id(entry.player),
        "player_id": entry.player,
        "game": entry.game,
        "options": {},
        "clock": entry.clock,
        "rated": entry.rated,
        "side": "random",
        "created": since.isoformat(timespec="milliseconds"),
        "expires": lapses.isoformat(timespec="milliseconds"),
        "browsers": entry.browsers,
    }


def stored_seek(seek: Seek) -> dict[str, Any]:
    """A seek as stored: it lapses as long after now as it has left on the hall's clock."""
    now = datetime.datetime.now(datetime.UTC)
    lapses = now + datetime.timedelta(seconds=seek.expires - seek.created)
    return {
        "id": seek.id,
        "player_id": seek.player,
        "game": seek.game,
        "options": seek.options,
        "clock": seek.clock,
        "rated": seek.rated,
        "side": seek.side,
        "created": now.isoformat(timespec="milliseconds"),
        "expires": lapses.isoformat(timespec="milliseconds"),
        "address": seek.address,
        "browsers": seek.browsers,
    }


def restored_wait(row: dict[str, Any], now: float, wall: datetime.datetime) -> Waiting:
    """A stored wait in the lobby (``now``: the hall's clock, ``wall``: the wall clock)."""
    waited = (wall - datetime.datetime.fromisoformat(row["created"])).total_seconds()
    return Waiting(
        row["player_id"], row["name"], seek_rating(row["rating"]), row["game"], row["clock"],
        row["rated"], now - max(0.0, waited), frozenset(row["browsers"]),
    )  # fmt: skip


def restored_seek(row: dict[str, Any], now: float, wall: datetime.datetime) -> Seek:
    """A stored seek in the lobby (``now``: the hall's clock, ``wall``: the wall clock)."""
    left = (datetime.datetime.fromisoformat(row["expires"]) - wall).total_seconds()
    side = row["side"]
    return Seek(
        id=row["id"],
        player=row["player_id"],
        name=row["name"],
        rating=seek_rating(row["rating"]) if row["rated"] else None,
        game=row["game"],
        options=row["options"],
        clock=row["clock"],
        rated=row["rated"],
        side="random" if side == "random" else int(side),
        created=now,
        expires=now + left,
        address=row["address"],
        browsers=frozenset(row["browsers"]),
        deviation=row.get("deviation") if row["rated"] else None,
    )


def seek_rating(stored: float | None) -> float:
    """A rated seek's creator's rating (a player with no rated game yet has the first one)."""
    return stored if stored is not None else Rating().rating


__all__ = [
    "WAIT_LEASE",
    "WAIT_PREFIX",
    "address_key",
    "is_wait",
    "restored_seek",
    "restored_wait",
    "seek_rating",
    "stored_seek",
    "stored_wait",
    "wait_id",
]
