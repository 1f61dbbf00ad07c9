"""A server stopped and started again on the same store resumes every game where it was."""

from __future__ import annotations

import random
import threading
import time

from gamehall.ai import make_agent
from gamehall.core import Agent


def _settle(server, ws, state):
    while state["to_move"] is None and not state["over"]:
        state = server.receive_state(ws, state["version"] + 1)
    return state


def test_a_restarted_server_resumes_a_game_exactly(server_factory):
    rng = random.Random(11)
    with server_factory() as server:
        game = server.client.post(
            "/api/games", json={"game": "acadmu", "options": {"target": 2}, "mode": "hotseat"}
        ).json()
        cookie = server.client.cookies.get(f"gh_{game['id']}")
        with server.client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            ws.send_json({"type": "hello", "version": -1})
            state = server.receive_state(ws)
            for _ in range(6):
                if state["over"]:
                    break
                ws.send_json(
                    {
                        "type": "move",
                        "version": state["version"],
                        "action": rng.choice(state["legal"]),
                    }
                )
                state = _settle(server, ws, server.receive_state(ws, state["version"] + 1))
        before = server.client.get(f"/api/games/{game['id']}").json()
    assert before["version"] == state["version"]

    with server_factory() as server:
        browser = server.browser()
        headers = {"cookie": f"gh_{game['id']}={cookie}"}
        after = browser.get(f"/api/games/{game['id']}", headers=headers).json()
        for key in ("version", "position", "actions", "view", "legal", "to_move", "you"):
            assert after[key] == before[key], key
        assert server.stored(game["id"]) == (before["version"], before["actions"])
        with browser.websocket_connect(f"/ws/games/{game['id']}", headers=headers) as ws:
            ws.send_json({"type": "hello", "version": before["version"]})
            state = server.receive_state(ws)
            assert state["version"] == before["version"]
            if state["over"]:
                return
            ws.send_json({"type": "move", "version": state["version"], "action": state["legal"][0]})
            state = server.receive_state(ws, state["version"] + 1)
            assert state["actions"][before["version"]] == before["legal"][0]


class StuckAgent(Agent):
    """Never answers until released (the server is stopped while it thinks)."""

    def __init__(self, gate: threading.Event) -> None:
        self.gate = gate

    def choose(self, state):
        thinking.set()
        self.gate.wait(timeout=60)
        return make_agent("beginner", 0).choose(state)


thinking = threading.Event()


def test_a_computer_to_move_resumes_thinking_after_a_restart(server_factory):
    gate = threading.Event()
    thinking.clear()
    rng = random.Random(4)
    try:
        with server_factory(agent_factory=lambda level, seed: StuckAgent(gate)) as server:
            game = server.client.post(
                "/api/games",
                json={"game": "acadmu", "options": {"target": 1}, "mode": "computer", "seat": 0},
            ).json()
            with server.client.websocket_connect(f"/ws/games/{game['id']}") as ws:
                ws.send_json({"type": "hello", "version": -1})
                state = server.receive_state(ws)
                while state["to_move"] != 1:
                    ws.send_json(
                        {
                            "type": "move",
                            "version": state["version"],
                            "action": rng.choice(state["legal"]),
                        }
                    )
                    state = _settle(server, ws, server.receive_state(ws, state["version"] + 1))
            assert thinking.wait(10)
            stuck = server.stored(game["id"])
        # Stopped while the computer was thinking: nothing was stored for its move.
        assert stuck[0] == state["version"]

        with server_factory() as server:  # the real computer players this time
            deadline = time.monotonic() + 20
            while server.stored(game["id"])[0] == stuck[0]:
                assert time.monotonic() < deadline, "the computer did not resume"
                time.sleep(0.05)
            version, actions = server.stored(game["id"])
            assert actions[: stuck[0]] == stuck[1]
            state = server.client.get(f"/api/games/{game['id']}").json()
            assert state["to_move"] in (0, None)
            assert state["version"] >= version
    finally:
        gate.set()
