"""Where the web server keeps games: every game, its seats and every action (SQLAlchemy 2.x).

:mod:`~gamehall.store.rows` holds the plain values it hands out (no database code),
:mod:`~gamehall.store.db` and :mod:`~gamehall.store.hall` the tables, :mod:`~gamehall.store.bus`
and :mod:`~gamehall.store.postgres_bus` how the processes of one hall hear of each other.
"""

from gamehall.store.db import SCHEMA_VERSION, Store, default_url
from gamehall.store.hall import HallStore
from gamehall.store.rows import (
    ActionRow,
    Append,
    ChatRow,
    GameRow,
    NameTaken,
    PlayerRow,
    RatedResult,
    RatingRow,
    ReviewRow,
    Seat,
    StoreError,
    VersionConflict,
    now_text,
    player_key,
)

__all__ = [
    "SCHEMA_VERSION",
    "ActionRow",
    "Append",
    "ChatRow",
    "GameRow",
    "HallStore",
    "NameTaken",
    "PlayerRow",
    "RatedResult",
    "RatingRow",
    "ReviewRow",
    "Seat",
    "Store",
    "StoreError",
    "VersionConflict",
    "default_url",
    "now_text",
    "player_key",
]
