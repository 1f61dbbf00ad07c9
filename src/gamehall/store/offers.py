"""What a seek and a challenge both hold: the terms of a game offered (game, options, clock,
rated, side) and its times, as the columns of both tables and as row values both ways. The
two tables differ only in who the offer is from and for (:mod:`gamehall.store.hall`'s seeks,
:mod:`gamehall.store.challenges`)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Boolean, Column, String, Text


def offer_columns() -> list[Column[Any]]:
    """The terms' columns, made anew for each table (a column belongs to one table)."""
    return [
        Column("game", String(64), nullable=False),
        Column("options", Text, nullable=False),
        Column("clock", String(16), nullable=True),
        Column("rated", Boolean, nullable=False),
        Column("side", String(16), nullable=False),
        Column("created", String(40), nullable=False),
        Column("expires", String(40), nullable=False),
    ]


def offer_values(offer: dict[str, Any]) -> dict[str, Any]:
    """An offer as its row's values: the options as JSON, the side as text."""
    return {**offer, "options": json.dumps(offer["options"]), "side": str(offer["side"])}


def offer_terms(row: Any) -> dict[str, Any]:
    """A seek's or a challenge's row read back: its terms and its times."""
    return {
        "game": row.game,
        "options": json.loads(row.options),
        "clock": row.clock,
        "rated": bool(row.rated),
        "side": row.side,
        "created": row.created,
        "expires": row.expires,
    }
