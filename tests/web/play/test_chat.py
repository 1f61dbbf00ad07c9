"""A game's chat at the hub's level: each room has its own cap (the spectators' oldest lines give
way, the players' room refuses), one network address has a rate whatever identities it makes
up, and characters that reorder or hide text are taken out."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from gamehall.protocol import ProtocolError
from gamehall.store import Store
from gamehall.web.base.settings import Settings
from gamehall.web.play.chat import HIDDEN, clean
from gamehall.web.play.hub import Hub
from gamehall.web.play.live import Connection, LiveGame

FAST = Settings(messages_per_second=1000.0, chat_burst=1000, chat_per_second=1000.0)
"""The per-browser chat rate out of the way (each test counts what it is about)."""


class Quiet:
    """A transport that keeps nothing (the tests read the store)."""

    async def send_text(self, data: str) -> None:
        pass

    async def close(self, code: int = 1000) -> None:
        pass


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'chat.sqlite3'}")


def _run(store: Store, settings: Settings, body: Any) -> None:
    async def main() -> None:
        hub = Hub(store, settings=settings)
        await hub.start()
        try:
            live, _ = await hub.create(
                game_name="acadmu", options={"target": 3}, mode="online", seat=0,
                level="easy", player_id="p1",
            )  # fmt: skip
            live.hold("p2", 1)
            await body(hub, live)
        finally:
            await hub.stop()

    asyncio.run(asyncio.wait_for(main(), 60))


def _client(live: LiveGame, seats: frozenset[int], identity: str, address: str) -> Connection:
    connection = Connection(Quiet(), seats, identity=identity, address=address)
    live.connections.add(connection)
    return connection


def test_spectators_lines_give_way_and_the_players_room_is_theirs(store):
    async def body(hub: Hub, live: LiveGame) -> None:
        player = _client(live, frozenset({0}), "p1", "198.51.100.1")
        for n in range(5):  # the spectators' room of 3 is full after three: the oldest go
            fan = _client(live, frozenset(), f"made-up-{n}", "203.0.113.9")
            await hub.chats.say(live, fan, f"from the stands {n}", most=3)
        kept = [row.text for row in store.chat(live.id, "spectators")]
        assert kept == [f"from the stands {n}" for n in (2, 3, 4)]
        for n in range(3):  # a full spectators' room takes nothing from the players'
            await hub.chats.say(live, player, f"move {n}", most=3)
        with pytest.raises(ProtocolError) as full:
            await hub.chats.say(live, player, "one more", most=3)
        assert full.value.code == "bad_chat" and "players' chat holds its 3" in full.value.message
        assert len(store.chat(live.id, "players")) == 3

    _run(store, FAST, body)


def test_one_address_has_a_chat_rate_whatever_identities_it_makes_up(store):
    settings = Settings(
        messages_per_second=1000.0, chat_burst=1000, chat_per_second=1000.0,
        chat_address_burst=4, chat_address_per_second=0.001,
    )  # fmt: skip

    async def body(hub: Hub, live: LiveGame) -> None:
        for n in range(4):
            fan = _client(live, frozenset(), f"made-up-{n}", "203.0.113.9")
            await hub.chats.say(live, fan, f"line {n}")
        fresh = _client(live, frozenset(), "made-up-new", "203.0.113.9")
        with pytest.raises(ProtocolError) as fast:
            await hub.chats.say(live, fresh, "one more")
        assert fast.value.code == "chat_too_fast"
        assert "chat_address_burst" in fast.value.message
        other = _client(live, frozenset(), "someone-else", "198.51.100.1")
        await hub.chats.say(live, other, "from another address")
        assert len(store.chat(live.id, "spectators")) == 5

    _run(store, settings, body)


def test_characters_that_reorder_or_hide_text_are_taken_out():
    assert clean("evil\u202egnp.exe") == "evilgnp.exe"
    assert clean("a\u2066b\u2069c\u200ed\u200ff\u061cg") == "abcdfg"
    assert clean("ad\u200bmin\u200c\u200d\u2060\ufeff") == "admin"
    assert all(clean(f"x{char}y") == "xy" for char in HIDDEN)
    with pytest.raises(ProtocolError, match="empty"):
        clean("\u202e\u200b \u2067")
