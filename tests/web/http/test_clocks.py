"""Clocks: time controls as values, and the server's clocks measured with a clock the test moves
by hand. A flag fall ends the game on time with and without anyone connected and across a
restart; the lag allowance gives back the network's share of a move; chance, pauses and the
computer never run a person's clock."""

from __future__ import annotations

import time

import pytest

from gamehall.web.base.clock import (
    DAY_MS,
    LAG_ALLOWANCE_MS,
    ClockError,
    TimeControl,
    charged,
    flag_due,
    running_seat,
    time_left,
)
from tests.web.web_helpers import FakeClock, hello

# --- time controls ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "initial", "increment"),
    [
        ("5+3", "fischer", 300_000, 3_000),
        ("0.5+0", "fischer", 30_000, 0),
        ("1.25+2", "fischer", 75_000, 2_000),
        ("d3", "correspondence", 3 * DAY_MS, 0),
    ],
)
def test_time_controls_parse_and_write_back(text, kind, initial, increment):
    control = TimeControl.parse(text)
    assert (control.kind, control.initial_ms, control.increment_ms) == (kind, initial, increment)
    assert TimeControl.parse(str(control)) == control


@pytest.mark.parametrize("text", ["5", "5+", "+3", "0+3", "181+0", "5+181", "d0", "d15", "x", ""])
def test_a_bad_time_control_says_what_would_do(text):
    with pytest.raises(ClockError, match=r"M\+S .* or dN"):
        TimeControl.parse(text)


def test_fischer_adds_the_increment_and_correspondence_gives_the_whole_time_again():
    assert TimeControl.parse("5+3").after_move(1_000) == 4_000
    assert TimeControl.parse("d2").after_move(5) == 2 * DAY_MS


def test_the_lag_allowance_is_given_back_but_never_more_than_the_move_took():
    assert charged(200) == 0
    assert charged(LAG_ALLOWANCE_MS + 700) == 700
    assert time_left(1_000, LAG_ALLOWANCE_MS + 1_000) == 0  # in time, just
    assert time_left(1_000, LAG_ALLOWANCE_MS + 1_001) < 0
    assert flag_due(1_000, started_ms=50) == 50 + 1_000 + LAG_ALLOWANCE_MS


def test_a_seats_clock_runs_on_its_turn_from_its_second_move_on():
    timed = [True, True]
    assert running_seat(0, timed, set(), stopped=False) is None  # its first move is free
    assert running_seat(0, timed, {0}, stopped=False) == 0
    assert running_seat(0, timed, {0}, stopped=True) is None  # chance, a pause, the end
    assert running_seat(None, timed, {0, 1}, stopped=False) is None
    assert running_seat(1, [True, False], {0, 1}, stopped=False) is None  # a computer


# --- the server's clocks ---------------------------------------------------------------------


def _timed_online(server, clock="1+0", game="acadmu", options=None):
    creator, guest = server.client, server.browser()
    body = {"game": game, "options": options or {}, "mode": "online", "clock": clock}
    answer = creator.post("/api/games", json=body)
    assert answer.status_code == 200, answer.text
    answer = answer.json()
    token = answer["invite"].split("?seat=")[1]
    assert guest.post(f"/api/games/{answer['id']}/join", json={"seat": token}).status_code == 200
    return answer["id"], {answer["you"][0]: creator, 1 - answer["you"][0]: guest}


def _move(server, ws, state):
    ws.send_json({"type": "move", "version": state["version"], "action": state["legal"][0]["text"]})
    return server.receive_state(ws, state["version"] + 1)


def _wait(predicate, timeout=10.0):
    """Wait for what no message tells a test client (a row the server's timer stores with
    nobody connected, the server's own count of connections), read every 20 ms; the timeout
    only fails a broken run."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def _both_move_once(server, sockets, state, clock, think_ms=0):
    """Each side makes its first (free) move; returns the state with the first clock running."""
    for _ in range(2):
        clock.advance(think_ms)
        mover = state["to_move"]
        state = _move(server, sockets[mover], state)
        for ws in sockets.values():
            if ws is not sockets[mover]:
                server.receive_state(ws, state["version"])
    return state


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def test_the_state_carries_the_clocks_and_a_first_move_is_free(server_factory, clock):
    with server_factory(clock=clock) as server:
        game_id, clients = _timed_online(server, "1+2")
        with (
            clients[0].websocket_connect(f"/ws/games/{game_id}") as ws0,
            clients[1].websocket_connect(f"/ws/games/{game_id}") as ws1,
        ):
            sockets = {0: ws0, 1: ws1}
            state = hello(server, ws0)
            hello(server, ws1)
            assert state["clock"] == {
                "control": "1+2",
                "remaining": [60_000, 60_000],
                "running": None,  # nobody has moved
                "sent": clock.ms,
                "lag_allowance": LAG_ALLOWANCE_MS,
            }
            first = state["to_move"]
            state = _both_move_once(server, sockets, state, clock, think_ms=5_000)
            assert state["clock"]["remaining"] == [60_000, 60_000]  # both first moves free
            assert state["clock"]["running"] == first
            clock.advance(10_000)
            state = _move(server, sockets[first], state)
            left = 60_000 - (10_000 - LAG_ALLOWANCE_MS) + 2_000
            assert state["clock"]["remaining"][first] == left
            assert state["clock"]["running"] == 1 - first
            # What a resync sends later counts the running clock down.
            clock.advance(3_000)
            sockets[first].send_json({"type": "resync"})
            again = server.receive_state(sockets[first])
            assert again["clock"]["remaining"][1 - first] == 60_000 - 2_500
            assert again["clock"]["sent"] == clock.ms


def test_a_flag_falls_with_a_client_connected_and_then_no_move_is_taken(server_factory, clock):
    with server_factory(clock=clock) as server:
        game_id, clients = _timed_online(server, "1+0")
        with (
            clients[0].websocket_connect(f"/ws/games/{game_id}") as ws0,
            clients[1].websocket_connect(f"/ws/games/{game_id}") as ws1,
        ):
            sockets = {0: ws0, 1: ws1}
            state = hello(server, ws0)
            hello(server, ws1)
            state = _both_move_once(server, sockets, state, clock)
            late = state["clock"]["running"]
            clock.advance(60_000 + LAG_ALLOWANCE_MS)  # the whole minute and the allowance
            over = server.receive_state(ws0, state["version"] + 1)
            assert over["over"] and over["status"] == "finished"
            assert over["outcome"]["winner"] == 1 - late
            assert "ran out of time" in over["outcome"]["reason"]
            assert over["clock"]["remaining"][late] == 0 and over["clock"]["running"] is None
            stored = server.hub.store.get_game(game_id)
            assert stored.status == "finished" and stored.result["winner"] == 1 - late
            before = server.hub.store.actions(game_id)
            assert before[-1].kind == "flag" and before[-1].mover == late
            sockets[late].send_json(
                {"type": "move", "version": over["version"], "action": state["legal"][0]["text"]}
            )
            assert server.receive_type(sockets[late], "error")["code"] == "game_over"
            assert server.hub.store.actions(game_id) == before


def test_a_flag_falls_with_nobody_connected(server_factory, clock):
    with server_factory(clock=clock) as server:
        game_id, clients = _timed_online(server, "0.5+0")
        with (
            clients[0].websocket_connect(f"/ws/games/{game_id}") as ws0,
            clients[1].websocket_connect(f"/ws/games/{game_id}") as ws1,
        ):
            state = hello(server, ws0)
            hello(server, ws1)
            state = _both_move_once(server, {0: ws0, 1: ws1}, state, clock)
            late = state["clock"]["running"]
        flag = clock.ms + 30_000 + LAG_ALLOWANCE_MS  # the late side's half minute from now on
        live = server.hub.games[game_id]
        _wait(lambda: not live.connections)
        clock.advance(29_000)
        assert clock.asleep() == [flag]  # the game's timer looked at the time, and waits on
        assert server.hub.store.get_game(game_id).status == "ongoing"  # not yet
        clock.advance(1_000 + LAG_ALLOWANCE_MS)
        _wait(lambda: server.hub.store.get_game(game_id).status == "finished")
        row = server.hub.store.get_game(game_id)
        assert row.result["winner"] == 1 - late and "on time" in row.result["reason"]


def test_the_lag_allowance_lets_a_move_just_past_zero_count(server_factory, clock):
    with server_factory(clock=clock) as server:
        game_id, clients = _timed_online(server, "1+0")
        with (
            clients[0].websocket_connect(f"/ws/games/{game_id}") as ws0,
            clients[1].websocket_connect(f"/ws/games/{game_id}") as ws1,
        ):
            sockets = {0: ws0, 1: ws1}
            state = hello(server, ws0)
            hello(server, ws1)
            state = _both_move_once(server, sockets, state, clock)
            mover = state["clock"]["running"]
            clock.advance(60_000 + LAG_ALLOWANCE_MS - 100)  # past the minute, within the lag
            state = _move(server, sockets[mover], state)
            assert not state["over"] and state["clock"]["remaining"][mover] == 100
            # The other side is later than the allowance: its move loses on time.
            other = state["to_move"]
            server.receive_state(sockets[other], state["version"])
            clock.ms += 60_000 + LAG_ALLOWANCE_MS + 1  # no timer wakes: the move finds it out
            sockets[other].send_json(
                {"type": "move", "version": state["version"], "action": state["legal"][0]["text"]}
            )
            error = server.receive_type(sockets[other], "error")
            assert error["code"] == "game_over" and "time ran out" in error["message"]
            over = server.receive_state(sockets[mover], state["version"] + 1)
            assert over["outcome"]["winner"] == mover


def test_clocks_survive_a_restart_exactly_and_then_still_fall(server_factory, clock):
    with server_factory(clock=clock) as server:
        game_id, clients = _timed_online(server, "2+1")
        with (
            clients[0].websocket_connect(f"/ws/games/{game_id}") as ws0,
            clients[1].websocket_connect(f"/ws/games/{game_id}") as ws1,
        ):
            sockets = {0: ws0, 1: ws1}
            state = hello(server, ws0)
            hello(server, ws1)
            state = _both_move_once(server, sockets, state, clock)
            for think in (7_000, 12_345):
                clock.advance(think)
                mover = state["to_move"]
                state = _move(server, sockets[mover], state)
                server.receive_state(sockets[1 - mover], state["version"])
            stored = state["clock"]["remaining"]
            running = state["clock"]["running"]
        clock.advance(50_000)  # time passes; then the server is killed
    assert server.hub.store.actions(game_id)[-1].clock == tuple(stored)
    later = FakeClock(clock.ms + 3_600_000)  # restarted an hour later
    with server_factory(clock=later) as again:
        live = again.resumed().games[game_id]  # a timed game is loaded at start, to watch its clock
        assert live.clocks == stored and live.running() == running
        answer = again.client.get(f"/api/games/{game_id}").json()
        assert answer["clock"]["remaining"] == stored  # the downtime cost nobody anything
        later.advance(stored[running] + LAG_ALLOWANCE_MS)
        _wait(lambda: again.hub.store.get_game(game_id).status == "finished")
        assert again.hub.store.get_game(game_id).result["winner"] == 1 - running


def test_computer_thinking_and_chance_run_no_clock(server_factory, clock):
    with server_factory(clock=clock) as server:
        answer = server.client.post(
            "/api/games",
            json={
                "game": "akros",
                "mode": "computer",
                "seat": 1,
                "level": "beginner",
                "clock": "1+0",
            },
        ).json()
        with server.client.websocket_connect(f"/ws/games/{answer['id']}") as ws:
            state = hello(server, ws)
            assert state["clock"]["remaining"] == [None, 60_000]  # the computer has no clock
            for _ in range(6):
                while state["to_move"] != 1 and not state["over"]:
                    state = server.receive_state(ws, state["version"] + 1)
                if state["clock"]["running"] == 1:
                    break
                clock.advance(1_000)
                state = _move(server, ws, state)
            assert state["clock"]["running"] == 1
            spent = 60_000 - state["clock"]["remaining"][1]
            assert spent == 0  # every move so far was the first or came at once
            clock.advance(2_000 + LAG_ALLOWANCE_MS)
            state = _move(server, ws, state)
            assert state["clock"]["remaining"][1] == 58_000
            # While the computer and chance move, the person's clock stands still.
            assert state["clock"]["running"] is None


def test_a_bad_clock_is_refused_when_the_game_is_made(server):
    answer = server.client.post("/api/games", json={"game": "acadmu", "clock": "5 minutes"})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "bad_clock" and "M+S" in error["message"]
    assert server.client.get("/api/games").json() == {"games": []}
