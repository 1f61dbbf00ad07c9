"""Games leave memory when nothing but their running clock keeps them: the flag still falls on
time (the game is loaded again for it), and a game asked for before then has its clock as
though it had stayed. The hub's clock is one the test moves by hand."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path

import pytest

from gamehall.protocol import parse_client_message
from gamehall.store import Store
from gamehall.web.base.settings import Settings
from gamehall.web.play.hub import Hub
from gamehall.web.play.live import Connection, LiveGame
from tests.web.play.test_hub import FakeTransport, _next_state
from tests.web.web_helpers import FakeClock

FAST = Settings(messages_per_second=1000.0, takebacks_per_minute=1000)


class Ends:
    """A hub listener: the games that ended."""

    def __init__(self) -> None:
        self.over = asyncio.Event()

    async def loaded(self, live: LiveGame) -> None:
        pass

    async def finished(self, live: LiveGame) -> None:
        self.over.set()


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'memory.sqlite3'}")


async def _clock_running(hub: Hub) -> LiveGame:
    """An online game between two people with its clock running, nobody connected."""
    live, _ = await hub.create(
        game_name="acadmu", options={"target": 3}, mode="online", seat=0, level="easy",
        player_id="p1", clock="5+3",
    )  # fmt: skip
    live.hold("p2", 1)
    transport = FakeTransport()
    connection = Connection(transport, frozenset({0, 1}))
    hub.attach(live, connection)
    rng = random.Random(2)
    while live.running() is None:
        assert not live.over
        player = live.state.current_player
        if player < 0:
            await _next_state(transport, live.version + 1)
            continue
        action = str(rng.choice(live.state.legal_actions()))
        move = {"type": "move", "version": live.version, "action": action}
        await hub.move(live, frozenset({player}), parse_client_message(json.dumps(move)))
    await hub.detach(live, connection)
    return live


def test_a_game_with_a_running_clock_leaves_memory_and_its_flag_still_falls(store):
    clock = FakeClock()

    async def scenario() -> None:
        hub = Hub(store, settings=FAST, clock=clock)
        ends = Ends()
        hub.listeners.append(ends)
        await hub.start()
        try:
            live = await _clock_running(hub)
            assert live.idle() is False  # its timer waits for the flag
            assert hub.sweep(time.monotonic() + 10**6) == [live.id]
            assert live.id not in hub.games
            due = hub.memory.asleep[live.id].due
            await asyncio.to_thread(clock.advance, due - clock.now())
            await asyncio.wait_for(ends.over.wait(), 20)  # the timeout fails a broken run only
            row = store.get_game(live.id)
            assert row is not None and row.status != "ongoing"
            assert hub.memory.asleep == {}
        finally:
            await hub.stop()

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_a_game_asked_for_while_asleep_keeps_its_clock(store):
    clock = FakeClock()

    async def scenario() -> None:
        hub = Hub(store, settings=FAST, clock=clock)
        await hub.start()
        try:
            live = await _clock_running(hub)
            started = live.turn_started
            hub.sweep(time.monotonic() + 10**6)
            await asyncio.to_thread(clock.advance, 60_000)
            again = await hub.get(live.id)
            assert again is not live and again.turn_started == started
            assert again.clocks_at(clock.now()) == live.clocks_at(clock.now())
            assert hub.memory.asleep == {}
        finally:
            await hub.stop()

    asyncio.run(asyncio.wait_for(scenario(), 60))
