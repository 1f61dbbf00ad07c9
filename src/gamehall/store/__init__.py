"""Where the web server keeps games: every game, its seats and every action (SQLAlchemy 2.x)."""

from gamehall.store.db import (
    SCHEMA_VERSION,
    ActionRow,
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

__all__ = [
    "SCHEMA_VERSION",
    "ActionRow",
    "GameRow",
    "ReviewRow",
    "Seat",
    "Store",
    "StoreError",
    "VersionConflict",
    "default_url",
    "now_text",
    "player_key",
]
