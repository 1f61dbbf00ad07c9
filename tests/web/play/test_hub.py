"""The hub without a web framework: a store, fake transports, and plain asyncio.

Every message a fake transport receives is validated against the protocol, as over a real
WebSocket. These tests pin the hub's guarantees at its own level: an accepted action is stored
before anyone is told of it, a refused or unstorable one changes nothing, and each computer seat
keeps one agent for the whole game, told of every action.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest

from gamehall.ai import make_agent
from gamehall.core import Agent
from gamehall.protocol import parse_client_message
from gamehall.store import Store
from gamehall.web.base.settings import Settings
from gamehall.web.play.hub import Hub
from gamehall.web.play.live import Connection, LiveGame
from tests.web.web_helpers import History, check_server_message

FAST = Settings(messages_per_second=1000.0, takebacks_per_minute=1000)
"""A test plays far faster than people: the per-client rates are raised (as for the web tests),
else a test that answers each state as it comes is refused (over_limit)."""


class FakeTransport:
    """Records what the hub sends; checks, as each state goes out, that it is already stored."""

    def __init__(self, store: Store | None = None) -> None:
        self.store = store
        self.messages: list[dict[str, Any]] = []
        self.closed: int | None = None
        self.history = History()
        self.arrived = asyncio.Condition()

    async def send_text(self, data: str) -> None:
        message = self.history.take(check_server_message(data))
        if self.store is not None and message["type"] == "state":
            row = self.store.get_game(message["id"])
            assert row is not None and row.version >= message["version"], "told before stored"
        async with self.arrived:
            self.messages.append(message)
            self.arrived.notify_all()

    async def close(self, code: int = 1000) -> None:
        self.closed = code

    async def until(self, found: Callable[[list[dict[str, Any]]], Any], what: str) -> Any:
        """What ``found(messages)`` returns once it is something; the timeout only fails a
        broken run."""
        async with self.arrived:
            try:
                await asyncio.wait_for(self.arrived.wait_for(lambda: found(self.messages)), 20)
            except TimeoutError:
                raise AssertionError(f"no {what} came") from None
            return found(self.messages)


def _run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 60))


async def _next_state(transport: FakeTransport, version: int) -> dict[str, Any]:
    def state(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        return next((m for m in messages if m["type"] == "state" and m["version"] >= version), None)

    return await transport.until(state, f"state at version {version}")


async def _barrier(hub: Hub, live: LiveGame, connection: Connection) -> None:
    """A ping, answered: whatever the hub sent this connection before it has arrived (one
    connection's messages keep their order)."""
    transport = connection.transport
    pongs = sum(1 for m in transport.messages if m["type"] == "pong")
    await hub.receive(live, connection, json.dumps({"type": "ping"}))
    await transport.until(
        lambda messages: sum(1 for m in messages if m["type"] == "pong") > pongs, "pong"
    )


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'hub.sqlite3'}")


def test_a_hotseat_game_over_a_fake_transport(store):
    async def scenario() -> None:
        hub = Hub(store, settings=FAST)
        await hub.start()
        try:
            live, held = await hub.create(
                game_name="acadmu",
                options={"target": 1},
                mode="hotseat",
                seat=0,
                level="easy",
                player_id="p1",
            )
            assert held == {0, 1} and live.version >= 2  # the opening chance is drawn
            transport = FakeTransport(store)
            connection = Connection(transport, held)
            hub.attach(live, connection)
            await hub.receive(live, connection, json.dumps({"type": "hello", "version": -1}))
            state = await _next_state(transport, live.version)
            rng = random.Random(3)
            while not state["over"]:
                item = rng.choice(state["legal"])
                move = {"type": "move", "version": state["version"], "action": item["text"]}
                await hub.receive(live, connection, json.dumps(move))
                state = await _next_state(transport, state["version"] + 1)
                while state["to_move"] is None and not state["over"]:
                    if state["pause"] is not None:  # a round ended 0-0: go on to the next
                        go = {"type": "continue", "version": state["version"]}
                        await hub.receive(live, connection, json.dumps(go))
                    state = await _next_state(transport, state["version"] + 1)
            assert store.get_game(live.id).status == "finished"
            assert [a.text for a in store.actions(live.id)] == state["actions"]
            # Each move in words, with its round, and the round's result kept after it.
            # (Rounds that end level go on to the next: the last round is the one that scored.)
            last = state["chapters"][-1]
            assert state["chapters"][0] == "Who goes first" and re.fullmatch(r"Round \d+", last)
            assert state["words"][-1].startswith(("Dark", "Light"))
            result = rf"{last}: (Dark|Light) \+\d+, match \d+–\d+"
            assert re.fullmatch(result, state["ends"][-1])
            # A ping is answered, and a move after the end refused with the current version.
            transport.messages.clear()
            await hub.receive(live, connection, json.dumps({"type": "ping"}))
            await hub.receive(live, connection, json.dumps(move))
            await transport.until(lambda messages: len(messages) >= 2, "pong and refusal")
            assert transport.messages[0] == {"type": "pong"}
            assert transport.messages[1]["code"] == "game_over"
            assert transport.messages[1]["version"] == live.version
            await hub.detach(live, connection)
        finally:
            await hub.stop()

    _run(scenario())


class BrokenStore(Store):
    """A store whose appends fail once asked to (a full disk, a lost database)."""

    fail = False

    def append_actions(self, *args: Any, **kwargs: Any) -> list[bool]:
        if self.fail:
            raise OSError("disk full")
        return super().append_actions(*args, **kwargs)


def test_a_move_that_cannot_be_stored_changes_nothing_and_tells_no_one(tmp_path):
    store = BrokenStore(f"sqlite:///{tmp_path / 'broken.sqlite3'}")

    async def scenario() -> None:
        hub = Hub(store, settings=FAST)
        await hub.start()
        try:
            live, held = await hub.create(
                game_name="akros", options={}, mode="hotseat", seat=0, level="easy",
                player_id="p1",
            )  # fmt: skip
            player, watcher = FakeTransport(), FakeTransport()
            seat = Connection(player, held)
            hub.attach(live, seat)
            watching = Connection(watcher, frozenset())
            hub.attach(live, watching)
            await hub.receive(live, watching, json.dumps({"type": "hello", "version": -1}))
            await _next_state(watcher, live.version)
            watcher.messages.clear()
            version, position = live.version, str(live.state)
            store.fail = True
            action = str(live.state.legal_actions()[0])
            move = {"type": "move", "version": version, "action": action}
            await hub.receive(live, seat, json.dumps(move))
            await player.until(
                lambda messages: any(m["type"] == "error" for m in messages), "refusal"
            )
            await _barrier(hub, live, watching)  # a state sent to the watcher would be in
            errors = [m for m in player.messages if m["type"] == "error"]
            assert [e["code"] for e in errors] == ["store_error"]
            assert "disk full" in errors[0]["message"] and errors[0]["version"] == version
            assert not [m for m in watcher.messages if m["type"] == "state"]
            assert (live.version, str(live.state)) == (version, position)
            assert store.get_game(live.id).version == version
            # Once the store works again, the same move goes through.
            store.fail = False
            await hub.receive(live, seat, json.dumps(move))
            state = await _next_state(watcher, version + 1)
            assert state["actions"][version] == action and state["movers"][version] == 0
        finally:
            await hub.stop()

    _run(scenario())


class Recorder(Agent):
    """Plays like ``beginner`` and notes what it is told."""

    made: ClassVar[list[Recorder]] = []

    def __init__(self, level: str, seed: int | None) -> None:
        self.inner = make_agent("beginner", seed)
        self.observed: list[str] = []
        self.chosen: list[str] = []
        Recorder.made.append(self)

    def choose(self, state):
        action = self.inner.choose(state)
        self.chosen.append(str(action))
        return action

    def observe(self, state, action) -> None:
        self.observed.append(str(action))


def test_each_computer_seat_keeps_one_agent_told_of_every_action(store):
    Recorder.made = []

    async def scenario() -> LiveGame:
        hub = Hub(store, settings=FAST, agent_factory=Recorder)
        await hub.start()
        try:
            live, _held = await hub.create(
                game_name="akros", options={}, mode="computer", seat=1, level="easy",
                player_id="p1",
            )  # fmt: skip
            transport = FakeTransport()
            connection = Connection(transport, frozenset({1}))
            hub.attach(live, connection)
            await hub.receive(live, connection, json.dumps({"type": "hello", "version": -1}))
            rng = random.Random(5)
            while not live.state.is_terminal():
                version = live.version
                if live.state.current_player == 1:
                    action = rng.choice(live.state.legal_actions())
                    move = {"type": "move", "version": version, "action": str(action)}
                    await hub.receive(live, connection, json.dumps(move))
                await _next_state(transport, version + 1)  # ours, the computer's or chance
            return live
        finally:
            await hub.stop()

    live = _run(scenario())
    made = [agent for agent in Recorder.made if agent.chosen]
    assert len(made) == 1, "one agent for the computer seat, for the whole game"
    agent = made[0]
    computer_moves = [a for a, m in zip(live.actions, live.movers, strict=True) if m == 0]
    assert agent.chosen == computer_moves
    # Before each choice the agent had been told of every action so far (chance, the person's
    # moves and its own); the actions after its last move come only at a next choice.
    last = max(i for i, m in enumerate(live.movers) if m == 0)
    assert agent.observed == live.actions[:last]


def test_the_state_text_is_the_state_message_as_json(store):
    # The server writes state messages as text from plain data (gamehall.web.play.live), never
    # through the model; at every kind of moment (clocks running, a takeback offered, a pause
    # between rounds, a seat absent, the end) that text must be what the validated model says.
    # Each game's pour is random and a round can reach the target at once (no pause), so games
    # are played until every kind of moment has been seen, at most eight of them.
    async def play_one(hub: Hub, seen: set[str], rng: random.Random) -> None:
        live, _ = await hub.create(
            game_name="acadmu",
            options={"target": 3},
            mode="online",
            seat=0,
            level="easy",
            player_id="p1",
            clock="5+3",
        )
        live.hold("p2", 1)
        transport = FakeTransport(store)
        connection = Connection(transport, frozenset({0}))
        hub.attach(live, connection)  # seat 1 stays away: an absent seat

        def same_as_the_model() -> None:
            now = hub.clock.now()
            for you in (frozenset({0}), frozenset({1}), frozenset()):
                text = live.state_text(you, now)
                assert text == live.state_message(you, now).model_dump_json()
                message = check_server_message(text)
                seen.update(k for k in ("clock", "pause", "takeback", "last") if message[k])
                seen.update(["absent"] if message["absent"] else [])
                seen.update(["over"] if message["over"] else [])

        offered = False
        for _ in range(2000):
            same_as_the_model()
            if live.over:
                break
            if live.pause is not None:
                await hub.go_on(live, frozenset({0, 1}), live.version)
                continue
            player = live.state.current_player
            if player < 0:  # the hub draws chance
                await _next_state(transport, live.version + 1)
                continue
            if not offered and live.moved() == {0, 1}:
                await hub.takeback(live, frozenset({1 - player}), "offer")
                offered = True
                same_as_the_model()
                await hub.takeback(live, frozenset({player}), "decline")
                continue
            action = str(rng.choice(live.state.legal_actions()))
            move = {"type": "move", "version": live.version, "action": action}
            await hub.move(live, frozenset({player}), parse_client_message(json.dumps(move)))
        assert live.over, "a game of target 3 ends within 2,000 steps"
        await hub.detach(live, connection)

    async def scenario() -> None:
        hub = Hub(store, settings=FAST)
        await hub.start()
        try:
            seen: set[str] = set()
            rng = random.Random(5)
            everything = {"clock", "pause", "takeback", "last", "absent", "over"}
            for _ in range(8):
                await play_one(hub, seen, rng)
                if seen == everything:
                    break
            assert seen == everything
        finally:
            await hub.stop()

    _run(scenario())
