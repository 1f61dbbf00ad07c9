"""Where the web server keeps games: every game, its seats and every action (SQLAlchemy 2.x)."""

from gamehall.store.db import (
    SCHEMA_VERSION,
    ActionRow,
    ChatRow,
    GameRow,
    ReviewRow,
    Seat,
    Store,
    StoreError,
    VersionConflict,
    default_url,
    now_text,
    player_key,
)
from gamehall.store.hall import HallStore, NameTaken, PlayerRow, RatedResult, RatingRow

__all__ = [
    "SCHEMA_VERSION",
    "ActionRow",
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
