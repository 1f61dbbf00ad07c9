"""Computer seats: they move by themselves, off the event loop, and never hold up other games."""

from __future__ import annotations

import random
import threading
import time

from gamehall.ai import make_agent
from gamehall.core import Agent


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


def _play_until(server, ws, state, rng, stop):
    """Play random legal moves for our seats until ``stop(state)``."""
    while not stop(state):
        assert not state["over"]
        if state["to_move"] in state["you"]:
            ws.send_json(
                {"type": "move", "version": state["version"], "action": rng.choice(state["legal"])}
            )
        state = server.receive_state(ws, state["version"] + 1)
    return state


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
    assert answer["seats"][0] == {"index": 0, "name": "dark", "kind": "computer", "level": "easy"}
    rng = random.Random(2)
    with server.client.websocket_connect(f"/ws/games/{answer['id']}") as ws:
        ws.send_json({"type": "hello", "version": -1})
        state = server.receive_state(ws)
        assert state["seats"][0]["connected"] is True  # a computer is always there
        state = _play_until(server, ws, state, rng, lambda s: s["over"])
    version, actions = server.stored(answer["id"])
    assert version == state["version"] and actions == state["actions"]
    replay = server.client.get(f"/api/games/{answer['id']}/replay").json()
    assert "dark" in replay["movers"] and "light" in replay["movers"]


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
            rng = random.Random(3)
            with server.client.websocket_connect(f"/ws/games/{slow['id']}") as ws:
                ws.send_json({"type": "hello", "version": -1})
                state = server.receive_state(ws)
                state = _play_until(server, ws, state, rng, lambda s: s["to_move"] == 1)
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
                    started = time.perf_counter()
                    ws.send_json(
                        {"type": "move", "version": state["version"], "action": state["legal"][0]}
                    )
                    state = server.receive_state(ws, state["version"] + 1)
                    assert time.perf_counter() - started < 2.0
                    while state["to_move"] is None and not state["over"]:
                        state = server.receive_state(ws, state["version"] + 1)
            # The slow game is still thinking, unchanged.
            assert server.hub.games[slow["id"]].version == stuck_version
            gate.set()
            deadline = time.monotonic() + 10
            while server.hub.games[slow["id"]].version == stuck_version:
                assert time.monotonic() < deadline, "the computer never moved"
                time.sleep(0.02)
    finally:
        gate.set()
