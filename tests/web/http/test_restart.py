"""A server stopped and started again on the same store resumes every game where it was."""

from __future__ import annotations

import dataclasses
import random
import threading
import time

from gamehall.ai import make_agent
from gamehall.core import Agent
from tests.web.conftest import TEST_SETTINGS
from tests.web.http.test_resilience import BIG_DISCS
from tests.web.web_helpers import hello, play_random


def test_a_restarted_server_resumes_a_game_exactly(server_factory):
    with server_factory() as server:
        game = server.client.post(
            "/api/games", json={"game": "acadmu", "options": {"target": 2}, "mode": "hotseat"}
        ).json()
        cookie = server.client.cookies.get("gh_player")  # the browser's one identity
        with server.client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            state = play_random(
                server, hello(server, ws), seats={0: ws, 1: ws}, rng=random.Random(11), moves=6
            )
        before = server.client.get(f"/api/games/{game['id']}").json()
    assert before["version"] == state["version"]

    with server_factory() as server:
        browser = server.browser()
        headers = {"cookie": f"gh_player={cookie}"}
        after = browser.get(f"/api/games/{game['id']}", headers=headers).json()
        for key in ("version", "position", "actions", "view", "legal", "to_move", "you"):
            assert after[key] == before[key], key
        assert server.stored(game["id"]) == (before["version"], before["actions"])
        with browser.websocket_connect(f"/ws/games/{game['id']}", headers=headers) as ws:
            state = hello(server, ws, known=after)
            assert state["version"] == before["version"]
            if state["over"]:
                return
            action = state["legal"][0]["text"]
            ws.send_json({"type": "move", "version": state["version"], "action": action})
            state = server.receive_state(ws, state["version"] + 1)
            assert state["actions"][before["version"]] == before["legal"][0]["text"] == action


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
    try:
        with server_factory(agent_factory=lambda level, seed: StuckAgent(gate)) as server:
            game = server.client.post(
                "/api/games",
                json={"game": "acadmu", "options": {"target": 1}, "mode": "computer", "seat": 0},
            ).json()
            with server.client.websocket_connect(f"/ws/games/{game['id']}") as ws:
                state = play_random(
                    server, hello(server, ws), seats={0: ws}, rng=random.Random(4),
                    until=lambda s: s["to_move"] == 1,
                )  # fmt: skip
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


def test_perfect_thinking_on_200_discs_when_stopped_moves_within_its_bound_after(server_factory):
    """As ``gamehall serve`` runs it (worker processes): the server stops while ``perfect``
    searches on 200 discs; the next server resumes the move and plays it within its own
    ``computer_seconds`` (the fallback past it), whichever seat the opening draw sent first."""
    body = {"game": "acadmu", "mode": "computer", "seat": 1, "level": "perfect"}
    body["options"] = {"discs": BIG_DISCS}
    long_search = dataclasses.replace(TEST_SETTINGS, computer_seconds=120.0)
    with server_factory(processes=True, settings=long_search) as server:
        game = server.client.post("/api/games", json=body).json()
        with server.client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            state = play_random(
                server, hello(server, ws), seats={1: ws}, rng=random.Random(2),
                until=lambda s: s["to_move"] == 0,
            )  # fmt: skip
        assert state["to_move"] == 0 and server.stored(game["id"])[0] == state["version"]
        time.sleep(0.5)  # perfect is searching (for minutes, were it not stopped)
    assert server.stored(game["id"])[0] == state["version"], "the move came before the stop"

    bounded = dataclasses.replace(TEST_SETTINGS, computer_seconds=1.0)
    with server_factory(processes=True, settings=bounded) as server:
        started = time.monotonic()
        # A worker's start (imports), the 1 s search, the fallback's time, the grace, slack.
        deadline = started + 60
        while server.stored(game["id"])[0] == state["version"]:
            assert time.monotonic() < deadline, "the resumed computer did not move"
            time.sleep(0.1)
        after = server.client.get(f"/api/games/{game['id']}").json()
        assert after["movers"][state["version"]] == 0
        assert after["actions"][: state["version"]] == state["actions"]
