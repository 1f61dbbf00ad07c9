"""The hall's bus and group commit: appends of several games in one transaction, each guarded by
its version; on PostgreSQL an action's notification is sent if and only if it is committed; the
deployment guide names every setting."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from gamehall.store import Append, Store, VersionConflict
from gamehall.store.bus import LocalBus, encode
from gamehall.store.postgres_bus import PostgresBus
from gamehall.web.base.settings import Settings
from tests.store.test_store import _row

DOCS = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


def _append(game_id: str, number: int, text: str, notify: str | None = None) -> Append:
    return Append(game_id, number, text, 0, "ongoing", None, False, notify)


def test_a_group_commit_stores_each_append_whose_version_holds(store_url):
    store = Store(store_url)
    try:
        for game_id in ("g_aaaaaaaaaa", "g_bbbbbbbbbb", "g_cccccccccc"):
            store.create_game(_row(game_id))
        store.append_action(
            "g_bbbbbbbbbb", 1, "first", 0, status="ongoing", result=None, pending=False
        )
        done = store.append_actions(  # stored in the order of game ids, answered in this one
            [
                _append("g_bbbbbbbbbb", 1, "b1 again"),  # b is at version 1 already
                _append("g_cccccccccc", 1, "c1"),
                _append("g_aaaaaaaaaa", 1, "a1"),
            ]
        )
        assert done == [False, True, True]
        assert [a.text for a in store.actions("g_aaaaaaaaaa")] == ["a1"]
        assert [a.text for a in store.actions("g_bbbbbbbbbb")] == ["first"]
        assert [a.text for a in store.actions("g_cccccccccc")] == ["c1"]
        assert store.get_game("g_cccccccccc").version == 1
        with pytest.raises(VersionConflict):
            store.append_actions([_append("g_aaaaaaaaaa", 1, "late")])
        row, holders, actions = store.since("g_aaaaaaaaaa", 0)
        assert row.version == 1 and holders == [] and [a.text for a in actions] == ["a1"]
        assert store.since("g_aaaaaaaaaa", 1)[2] == []
        assert store.since("g_zzzzzzzzzz", 0) is None
    finally:
        store.dispose()


@pytest.mark.postgres
def test_postgresql_notifies_committed_actions_only(postgres_cluster):
    from tests.pg_cluster import fresh_database

    url = fresh_database(postgres_cluster)
    store = Store(url)
    store.create_game(_row())

    async def scenario() -> list[dict]:
        bus, heard, presence = PostgresBus(url), [], asyncio.Event()

        async def hear(event: dict) -> None:
            heard.append(event)
            if event["kind"] == "presence":
                presence.set()

        bus.subscribe(hear)
        await bus.start()
        try:
            first = bus.event("action", _row().id, version=1, action="x", mover=0)
            await asyncio.to_thread(
                store.append_actions, [_append(_row().id, 1, "x", bus.in_transaction(first))]
            )
            stale = bus.event("action", _row().id, version=1, action="y", mover=0)
            with pytest.raises(VersionConflict):  # not committed: not told
                await asyncio.to_thread(
                    store.append_actions, [_append(_row().id, 1, "y", bus.in_transaction(stale))]
                )
            await bus.publish(bus.event("presence", _row().id, seats=[0]))
            # Notifications come in the order their transactions committed: once the presence
            # (published last) is heard, a notification of the stale append would have been.
            await asyncio.wait_for(presence.wait(), 20)
        finally:
            await bus.stop()
        return heard

    try:
        heard = asyncio.run(scenario())
    finally:
        store.dispose()
    assert [(e["kind"], e.get("action")) for e in heard] == [("action", "x"), ("presence", None)]


def test_the_local_bus_delivers_to_its_subscribers():
    async def scenario() -> list[dict]:
        bus, heard, told = LocalBus(), [], asyncio.Event()

        async def hear(event: dict) -> None:
            heard.append(event)
            told.set()

        bus.subscribe(hear)
        event = bus.event("action", "g_aaaaaaaaaa", version=3)
        assert bus.in_transaction(event) is None  # it tells after the commit itself
        bus.committed(event)
        await asyncio.wait_for(told.wait(), 20)  # delivered on the loop, soon after
        return heard

    heard = asyncio.run(scenario())
    assert heard == [
        {"origin": heard[0]["origin"], "kind": "action", "game": "g_aaaaaaaaaa", "version": 3}
    ]


def test_bus_events_stay_under_the_notify_payload_limit():
    longest = "x" * Settings().max_action_chars
    event = {"origin": "0" * 12, "kind": "action", "game": "g_aaaaaaaaaa", "version": 25_000}
    assert len(encode({**event, "action": longest}).encode()) < 1000
    with pytest.raises(ValueError, match="at most 7900 bytes"):
        encode({**event, "action": "é" * 4000})
    assert json.loads(encode(event)) == event


def test_the_deployment_guide_names_every_setting_and_option():
    text = DOCS.read_text(encoding="utf-8")
    missing = [name for name in Settings().describe() if f"`{name}`" not in text]
    assert not missing, f"docs/deploy.md does not explain {missing}"
    options = ("--workers", "--db", "--config", "--set", "--https", "--allow-origin")
    for option in (*options, "--trusted-proxy", "--host-name"):
        assert f"`{option}" in text
