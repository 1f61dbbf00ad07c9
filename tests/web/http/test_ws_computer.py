"""Computer seats: they move by themselves, off the event loop, and never hold up other games."""

from __future__ import annotations

import random
import threading

import pytest

from gamehall.ai import make_agent
from gamehall.core import Agent
from tests.web.web_helpers import hello, play_random


class SlowAgent(Agent):
    """Thinks until the test lets it go, then plays like ``easy``."""

    def __init__(self, gate: threading.Event, seed: int | None) -> None:
        self.gate = gate
        self.inner = make_agent("easy", seed)

    def choose(self, state):
        gate_started.set()
        self.gate.wait(timeout=60)
        return self.inner.choose(state)


gate_started = threading.Event()


def test_computer_mode_plays_a_whole_game(server):
    answer = server.client.post(
        "/api/games",
        json={
            "game": "acadmu",
            "options": {"target": 1},
            "mode": "computer",
            "seat": 1,
            "level": "easy",
        },
    ).json()
    assert answer["you"] == [1]
    assert answer["seats"][0] == {
        "index": 0,
        "name": "dark",
        "kind": "computer",
        "level": "easy",
        "player": None,
        "bot": False,
    }
    with server.client.websocket_connect(f"/ws/games/{answer['id']}") as ws:
        state = hello(server, ws)
        assert state["seats"][0]["connected"] is True  # a computer is always there
        state = play_random(server, state, seats={1: ws}, rng=random.Random(2))
    assert state["over"]
    version, actions = server.stored(answer["id"])
    assert version == state["version"] and actions == state["actions"]
    assert {0, 1, -1} == set(state["movers"])
    replay = server.client.get(f"/api/games/{answer['id']}/replay").json()
    assert [a["mover"] for a in replay["actions"]] == state["movers"]


def test_a_slow_computer_does_not_delay_other_games(server_factory):
    gate = threading.Event()
    gate_started.clear()
    try:
        with server_factory(agent_factory=lambda level, seed: SlowAgent(gate, seed)) as server:
            slow = server.client.post(
                "/api/games",
                json={
                    "game": "acadmu",
                    "options": {"target": 1},
                    "mode": "computer",
                    "level": "easy",
                },
            ).json()
            with server.client.websocket_connect(f"/ws/games/{slow['id']}") as ws:
                state = play_random(
                    server, hello(server, ws), seats={0: ws}, rng=random.Random(3),
                    until=lambda s: s["to_move"] == 1,
                )  # fmt: skip
            assert gate_started.wait(10), "the computer never started thinking"
            stuck_version = state["version"]

            hotseat = server.browser()
            other = hotseat.post(
                "/api/games", json={"game": "acadmu", "options": {"target": 1}, "mode": "hotseat"}
            )
            assert other.status_code == 200
            with hotseat.websocket_connect(f"/ws/games/{other.json()['id']}") as ws:
                ws.send_json({"type": "hello", "version": -1})
                state = server.receive_state(ws)
                for _ in range(3):
                    ws.send_json(
                        {
                            "type": "move",
                            "version": state["version"],
                            "action": state["legal"][0]["text"],
                        }
                    )
                    state = server.receive_state(ws, state["version"] + 1)
                    while state["to_move"] is None and not state["over"]:
                        state = server.receive_state(ws, state["version"] + 1)
            # Those moves were answered while the slow computer still thought (it is held until
            # the gate opens, 60 s at most, and each answer is waited for 20 s at most): the
            # slow game is unchanged.
            assert not gate.is_set() and gate_started.is_set()
            assert server.hub.games[slow["id"]].version == stuck_version
            with server.client.websocket_connect(f"/ws/games/{slow['id']}") as ws:
                assert hello(server, ws)["version"] == stuck_version
                gate.set()
                moved = server.receive_state(ws, stuck_version + 1)
            assert moved["movers"][stuck_version] == 1
    finally:
        gate.set()


@pytest.mark.slow
def test_computers_in_worker_processes_play_a_whole_game(server_factory):
    """As ``gamehall serve`` runs them: computer seats think in worker processes that keep
    each seat's agent between moves."""
    with server_factory(processes=True, agent_workers=2) as server:
        assert server.hub.computers.processes
        answer = server.client.post(
            "/api/games",
            json={"game": "akros", "mode": "computer", "seat": 0, "level": "medium"},
        ).json()
        with server.client.websocket_connect(f"/ws/games/{answer['id']}") as ws:
            state = play_random(server, hello(server, ws), seats={0: ws}, rng=random.Random(8))
        assert state["over"] and 1 in state["movers"]
        lanes = server.hub.computers.lanes.values()
        assert all(lane.home == {} for lane in lanes)  # the finished game's agents are dropped
        assert server.hub.computers.replaced == 0
