"""The game store's tables (SQLAlchemy Core, portable types; the schema and its migrations are
:mod:`gamehall.store.db`'s), on the one :data:`metadata` the hall's tables share, and how a
``games`` row reads as a :class:`~gamehall.store.rows.GameRow`."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    text,
)

from gamehall.store.rows import GameRow, Seat

NOTIFY = text("SELECT pg_notify(:channel, :payload)")
"""Tell the hall's other processes (PostgreSQL's LISTEN/NOTIFY, in the writing transaction)."""

metadata = MetaData()

schema_version_table = Table(
    "schema_version",
    metadata,
    Column("version", Integer, primary_key=True, autoincrement=False),
)

games_table = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("rules_version", String(32), nullable=False),
    Column("options", Text, nullable=False),  # JSON object: the game's validated options
    Column("mode", String(16), nullable=False),
    Column("seed", String(64), nullable=False),  # the chance seed (secret: never sent out)
    Column("seats", Text, nullable=False),  # JSON list of {kind, level?, token}
    Column("created", String(40), nullable=False),
    Column("updated", String(40), nullable=False),
    Column("version", Integer, nullable=False, default=0),
    Column("status", String(16), nullable=False, default="ongoing"),
    Column("result", Text, nullable=True),  # JSON outcome once finished
    Column("pending", Boolean, nullable=False, default=False),  # the server is to move
    Column("rematch_of", String(32), nullable=True),
    Column("rematch", String(32), nullable=True),
    Column("problem", Text, nullable=True),  # why the game is quarantined; null: it is not
    Column("clock", String(32), nullable=True),  # the time control ("5+3", "d3"), or none
    Column("setup", Text, nullable=True),  # the starting position's text (NULL: the initial state)
)

actions_table = Table(
    "actions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(16), nullable=False, default="action"),
    Column("text", Text, nullable=False),
    Column("mover", Integer, nullable=False),
    Column("at", String(40), nullable=False),
    Column("clock", Text, nullable=True),  # JSON list: each seat's remaining ms after the entry
)

chat_table = Table(
    "chat",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("room", String(16), nullable=False),  # "players" or "spectators"
    Column("seat", Integer, nullable=True),  # the writer's seat (players' chat), else null
    Column("text", Text, nullable=False),
    Column("at", String(40), nullable=False),
)

holdings_table = Table(
    "holdings",
    metadata,
    Column("player_id", String(64), primary_key=True),
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
)
holdings_by_game = Index("holdings_game", holdings_table.c.game_id, holdings_table.c.seat)
"""A game's holders without reading the whole table (its key starts with the player)."""


reviews_table = Table(
    "reviews",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("status", String(16), nullable=False),  # queued, running, done, failed
    Column("budget", Text, nullable=False),  # JSON: the budget the review was asked with
    Column("result", Text, nullable=True),  # JSON: the review (gamehall.ai.review), once done
    Column("error", Text, nullable=True),  # why it failed
    Column("requested", String(40), nullable=False),
    Column("updated", String(40), nullable=False),
)

puzzle_attempts_table = Table(
    "puzzle_attempts",
    metadata,
    Column("player_id", String(64), primary_key=True),
    Column("puzzle_id", String(64), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("solved", Boolean, nullable=False),
    Column("move", String(500), nullable=False),
    Column("at", String(40), nullable=False),
)

REVIEW_STATUSES = ("queued", "running", "done", "failed")


def game_row(row: Any) -> GameRow:
    return GameRow(
        id=row.id,
        game=row.game,
        rules_version=row.rules_version,
        options=json.loads(row.options),
        mode=row.mode,
        seed=row.seed,
        seats=[Seat.from_json(s) for s in json.loads(row.seats)],
        created=row.created,
        updated=row.updated,
        version=row.version,
        status=row.status,
        result=json.loads(row.result) if row.result else None,
        pending=bool(row.pending),
        rematch_of=row.rematch_of,
        rematch=row.rematch,
        problem=row.problem,
        clock=row.clock,
        setup=row.setup,
    )
