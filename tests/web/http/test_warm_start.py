"""A server answers pages at once: its workers warm up in the background, and a computer move or
hint asked for meanwhile waits for them while the player is told "The computer is getting
ready…" (``GET /api/ready``). The warm-up here waits on a gate the test opens."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from gamehall.web.compute.runners import ThreadRunner
from tests.web.conftest import TIMEOUT
from tests.web.http.test_assist import SMALL, _new
from tests.web.web_helpers import hello

GETTING_READY = "The computer is getting ready…"


@pytest.fixture
def gated(monkeypatch):
    """The workers' warm-up waits until the test calls ``open()`` (from the test's thread)."""
    gates: list[asyncio.Event] = []
    started = ThreadRunner.start

    def start(self, slots):
        started(self, slots)
        gate = asyncio.Event()
        gates.append(gate)
        return asyncio.get_running_loop().create_task(gate.wait())

    monkeypatch.setattr(ThreadRunner, "start", start)

    def opener(server):
        def open_gate() -> None:
            server.client.portal.call(gates[-1].set)

        return open_gate

    return opener


def test_pages_answer_while_the_warm_up_runs_and_a_hint_waits_for_it(
    server_factory, tmp_path, gated
):
    told: list[str] = []
    with server_factory(hint_seconds=1.0, puzzles_dir=tmp_path / "puzzles", warm=False) as server:
        open_gate = gated(server)
        computers = server.hub.computers
        held = threading.Event()
        computers.held.append(lambda what: (told.append(what), held.set()))
        try:
            # The app started and serves while its workers are still warming up.
            assert not computers.ready
            assert server.client.get("/").status_code == 200
            assert server.client.get("/api/meta").status_code == 200
            game = _new(server.client)
            state = server.client.get(f"/api/games/{game['id']}").json()
            assert state["to_move"] in (0, 1)
            assert server.client.get("/api/ready").json() == {
                "ready": False,
                "message": GETTING_READY,
            }
            # A hint asked for now waits for the warm-up, and the player is told why.
            with ThreadPoolExecutor(1) as pool:
                asked = pool.submit(
                    server.client.post,
                    f"/api/games/{game['id']}/hint",
                    json={"version": state["version"]},
                )
                assert held.wait(TIMEOUT), "the hint never waited for the warm-up"
                assert told == ["hint"]
                assert not asked.done()
                assert server.client.get("/api/ready").json()["message"] == GETTING_READY
                open_gate()
                answer = asked.result(TIMEOUT)
            assert answer.status_code == 200, answer.text
            hint = answer.json()
            assert hint["version"] == state["version"] and hint["hints"]
            legal = {item["text"] for item in state["legal"]}
            assert {item["move"] for item in hint["hints"]} <= legal
            assert server.client.get("/api/ready").json() == {"ready": True, "message": ""}
        finally:
            open_gate()


def test_a_computer_move_asked_during_the_warm_up_is_played_once_warm(
    server_factory, tmp_path, gated
):
    with server_factory(hint_seconds=1.0, puzzles_dir=tmp_path / "puzzles", warm=False) as server:
        open_gate = gated(server)
        held = threading.Event()
        server.hub.computers.held.append(lambda what: held.set())
        try:
            body = {"game": "acadmu", "options": SMALL, "mode": "computer", "seat": 1}
            created = server.client.post("/api/games", json=body)
            assert created.status_code == 200, created.text
            game_id = created.json()["id"]
            with server.client.websocket_connect(f"/ws/games/{game_id}") as ws:
                state = hello(server, ws)
                if state["to_move"] == 1:  # the person moves first; then the computer
                    move = {"type": "move", "version": state["version"]}
                    ws.send_json({**move, "action": state["legal"][0]["text"]})
                    state = server.receive_state(ws, state["version"] + 1)
                assert state["to_move"] == 0
                assert held.wait(TIMEOUT), "the computer's move never waited for the warm-up"
                waiting = server.client.get(f"/api/games/{game_id}").json()
                # Nothing was played at random for want of a warm worker: it waits.
                assert waiting["version"] == state["version"] and waiting["to_move"] == 0
                assert server.client.get("/api/ready").json()["ready"] is False
                open_gate()
                played = server.receive_state(ws, state["version"] + 1)
                assert played["movers"][-1] == 0
            ready = server.client.get("/api/ready", params={"wait": "true"}).json()
            assert ready == {"ready": True, "message": ""}
        finally:
            open_gate()
