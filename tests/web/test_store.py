"""The store: schema versioning and guarded appends."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from gamehall.store import (
    SCHEMA_VERSION,
    GameRow,
    Seat,
    Store,
    StoreError,
    VersionConflict,
    now_text,
)
from gamehall.store.db import schema_version_table


def _row(game_id="g_0123456789"):
    now = now_text()
    return GameRow(
        id=game_id,
        game="acadmu",
        options={"target": 1},
        mode="online",
        seed="abc",
        seats=[Seat("human", "t0"), Seat("computer", "", "easy")],
        created=now,
        updated=now,
    )


def test_schema_is_created_and_versioned(db_url):
    store = Store(db_url)
    assert store.schema_version() == SCHEMA_VERSION
    store.dispose()
    again = Store(db_url)  # opening an existing store again is fine
    assert again.schema_version() == SCHEMA_VERSION
    again.dispose()


def test_a_newer_schema_is_refused(db_url):
    store = Store(db_url)
    with store.engine.begin() as conn:
        conn.execute(update(schema_version_table).values(version=SCHEMA_VERSION + 1))
    store.dispose()
    with pytest.raises(StoreError, match="newer"):
        Store(db_url)


def test_appends_are_guarded_by_version(db_url):
    store = Store(db_url)
    store.create_game(_row(), holders=[("me", 0)])
    store.append_action(
        "g_0123456789", 1, "draw RT:BS/YC:RT", -1, status="ongoing", result=None, pending=True
    )
    with pytest.raises(VersionConflict):
        store.append_action(
            "g_0123456789", 1, "again", -1, status="ongoing", result=None, pending=True
        )
    with pytest.raises(VersionConflict):
        store.append_action(
            "g_0123456789", 3, "gap", -1, status="ongoing", result=None, pending=True
        )
    row = store.get_game("g_0123456789")
    assert row.version == 1 and row.pending and row.seats[1].level == "easy"
    assert [a.text for a in store.actions("g_0123456789")] == ["draw RT:BS/YC:RT"]
    assert store.pending_games() == ["g_0123456789"]
    assert [g.id for g in store.games_of("me")] == ["g_0123456789"]
    assert store.games_of("someone else") == []
    store.dispose()
