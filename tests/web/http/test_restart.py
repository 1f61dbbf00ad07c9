"""A server stopped and started again on the same store resumes every game where it was."""

from __future__ import annotations

import dataclasses
import random
import threading

import pytest

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
            with server.client.websocket_connect(f"/ws/games/{game['id']}") as ws:
                resumed = hello(server, ws)
                if resumed["version"] == stuck[0]:  # the resumed computer's move is to come
                    resumed = server.receive_state(ws, stuck[0] + 1)
            version, actions = server.stored(game["id"])
            assert version >= resumed["version"] > stuck[0]
            assert actions[: stuck[0]] == stuck[1]
            state = server.client.get(f"/api/games/{game['id']}").json()
            assert state["to_move"] in (0, None)
            assert state["version"] >= version
    finally:
        gate.set()


@pytest.mark.slow
def test_perfect_thinking_on_200_discs_when_stopped_moves_within_its_bound_after(server_factory):
    """As ``gamehall serve`` runs it (worker processes): the server stops while ``perfect``
    searches on 200 discs; the next server resumes the move and plays it within its own
    ``computer_seconds`` (the fallback past it), whichever seat the opening draw sent first."""
    body = {"game": "acadmu", "mode": "computer", "seat": 1, "level": "perfect"}
    body["options"] = {"discs": BIG_DISCS}
    long_search = dataclasses.replace(TEST_SETTINGS, computer_seconds=120.0)
    with server_factory(processes=True, settings=long_search) as server:
        searching = threading.Event()
        server.hub.computers.taken.append(lambda lane: lane == "search" and searching.set())
        game = server.client.post("/api/games", json=body).json()
        with server.client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            state = play_random(
                server, hello(server, ws), seats={1: ws}, rng=random.Random(2),
                until=lambda s: s["to_move"] == 0,
            )  # fmt: skip
        assert state["to_move"] == 0 and server.stored(game["id"])[0] == state["version"]
        # The move is in a worker's hands: perfect is searching (for minutes, were it not
        # stopped). The timeout only fails a broken run.
        assert searching.wait(60), "the search never started"
    assert server.stored(game["id"])[0] == state["version"], "the move came before the stop"

    bounded = dataclasses.replace(TEST_SETTINGS, computer_seconds=1.0)
    with server_factory(processes=True, settings=bounded) as server:
        # The resumed move comes within its worker's start (imports), the 1 s search, the
        # fallback's time and the grace: a minute is for a broken run only.
        with server.client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            after = hello(server, ws)
            if after["version"] == state["version"]:
                after = server.receive_state(ws, state["version"] + 1, timeout=60)
        assert after["movers"][state["version"]] == 0
        assert after["actions"][: state["version"]] == state["actions"]
