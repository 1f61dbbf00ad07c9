"""An online game whose side does not make its first move in time aborts itself, as on lichess: 30 s
with a Fischer clock, a day for correspondence or no clock; each side's first move; no result,
nothing rated; with and without anyone connected, and across a restart; a game of invites from
when the friend takes the seat. Time is the test's
(:class:`FakeClock`): nothing sleeps."""

from __future__ import annotations

from typing import Any

from gamehall.web.base.clock import TimeControl
from gamehall.web.play.conduct import (
    FIRST_MOVE_SLOW_MS,
    FIRST_MOVE_TIMED_MS,
    first_move_due,
    first_move_limit_ms,
)
from tests.web.hall_helpers import counted, seek, signed_up, wait_for
from tests.web.web_helpers import FakeClock, greeted

LONG_NIM = {"heaps": 6, "max_heap": 9}


def _game(server: Any, clock: str | None, *, rated: bool = True) -> tuple[Any, Any, str]:
    ada, bob = signed_up(server, "Ada"), signed_up(server, "Bob")
    info = seek(ada, rated=rated, side=0, clock=clock, options=LONG_NIM).json()
    game = bob.post(f"/api/seeks/{info['id']}/accept").json()
    return ada, bob, game["id"]


def _status(server: Any, game_id: str) -> str:
    return server.hub.store.get_game(game_id).status


def test_the_limit_is_30_seconds_with_a_clock_and_a_day_otherwise():
    assert first_move_limit_ms(TimeControl.parse("3+2")) == FIRST_MOVE_TIMED_MS == 30_000
    assert first_move_limit_ms(TimeControl.parse("d3")) == FIRST_MOVE_SLOW_MS == 86_400_000
    assert first_move_limit_ms(None) == FIRST_MOVE_SLOW_MS
    rule = {"watched": True, "over": False, "humans": [0, 1], "since": 1_000, "control": None}
    assert first_move_due(to_move=1, moved={0}, **rule) == (1, 1_000 + FIRST_MOVE_SLOW_MS)
    assert first_move_due(to_move=0, moved={0}, **rule) is None  # its first move is made
    assert first_move_due(to_move=None, moved=set(), **rule) is None  # chance to move
    assert first_move_due(to_move=0, moved=set(), **{**rule, "watched": False}) is None
    assert first_move_due(to_move=0, moved=set(), **{**rule, "over": True}) is None


def test_the_first_side_that_does_not_move_in_30_seconds_aborts_the_game_unrated(timed_hall):
    server, clock = timed_hall
    ada, bob, game_id = _game(server, "3+2")
    with greeted(server, ada, bob, game_id) as (_, ws_b, state):
        late = state["to_move"]
        clock.advance(FIRST_MOVE_TIMED_MS - 1)
        assert clock.asleep()[0] == clock.ms + 1  # the game's timer looked, and waits on
        assert _status(server, game_id) == "ongoing"  # not yet
        clock.advance(1)
        final = server.receive_state(ws_b, state["version"] + 1)
        assert final["over"] and final["outcome"]["result"] == "*"
        assert final["outcome"]["winner"] is None
        names = server.hub.games[game_id].game.player_names
        assert (
            final["outcome"]["reason"] == f"Game aborted: {names[late].capitalize()} did not move"
        )
    entry = server.hub.store.actions(game_id)[-1]
    assert (entry.kind, entry.text, entry.mover) == ("abort", "no move", late)
    wait_for(server, lambda: counted(server, game_id))  # looked at, and not rated
    for name in ("Ada", "Bob"):
        assert ada.get(f"/api/players/{name}").json()["ratings"] == []


def test_the_second_side_has_30_seconds_from_the_first_move_and_nobody_need_be_connected(
    timed_hall,
):
    server, clock = timed_hall
    ada, bob, game_id = _game(server, "3+2")
    with greeted(server, ada, bob, game_id) as (ws_a, ws_b, state):
        sockets = {0: ws_a, 1: ws_b}
        first = state["to_move"]
        clock.advance(20_000)  # within the first side's time
        item = state["legal"][0]["text"]
        sockets[first].send_json({"type": "move", "version": state["version"], "action": item})
        state = server.receive_state(ws_a, state["version"] + 1)
        assert not state["over"] and state["to_move"] == 1 - first
    live = server.hub.games[game_id]
    wait_for(server, lambda: not live.connections)
    clock.advance(FIRST_MOVE_TIMED_MS - 1)  # 50 s since the game began, 30 s less 1 ms since
    assert clock.asleep()[0] == clock.ms + 1
    assert _status(server, game_id) == "ongoing"
    clock.advance(1)
    wait_for(server, lambda: _status(server, game_id) == "finished")
    entry = server.hub.store.actions(game_id)[-1]
    assert (entry.kind, entry.mover) == ("abort", 1 - first)


def test_once_both_sides_have_moved_nothing_aborts(
    timed_hall,
):
    server, clock = timed_hall
    ada, bob, game_id = _game(server, None, rated=False)
    with greeted(server, ada, bob, game_id) as (ws_a, ws_b, state):
        sockets = {0: ws_a, 1: ws_b}
        for _ in range(2):
            mover = state["to_move"]
            item = next(i for i in state["legal"] if i["text"].startswith("take 1 "))
            sockets[mover].send_json(
                {"type": "move", "version": state["version"], "action": item["text"]}
            )
            state = server.receive_state(ws_a, state["version"] + 1)
        live = server.hub.games[game_id]
        assert live.first_move() is None and not live.watches_first_moves()
        clock.advance(2 * FIRST_MOVE_SLOW_MS)
        assert clock.asleep(0) == []  # no timer waits: an untimed game has no flag either
        assert _status(server, game_id) == "ongoing"


def test_a_game_of_invites_is_watched_from_when_the_friend_takes_the_seat(timed_hall):
    server, clock = timed_hall
    ada, bob = signed_up(server, "Ada"), signed_up(server, "Bob")
    body = {"game": "nim", "options": LONG_NIM, "mode": "online", "clock": "3+2"}
    made = ada.post("/api/games", json=body).json()
    live = server.hub.games[made["id"]]
    # Waiting for the friend to open the link is no first move missed: nothing is watched.
    clock.advance(FIRST_MOVE_TIMED_MS * 10)
    assert _status(server, made["id"]) == "ongoing"
    assert live.first_move() is None and not live.watches_first_moves()
    token = made["invite"].split("?seat=")[1]
    assert bob.post(f"/api/games/{made['id']}/join", json={"seat": token}).status_code == 200
    seat, due = live.first_move()  # from the friend's arrival, not the game's creation
    assert due == clock.ms + FIRST_MOVE_TIMED_MS
    clock.advance(FIRST_MOVE_TIMED_MS - 1)
    assert _status(server, made["id"]) == "ongoing"
    clock.advance(1)
    wait_for(server, lambda: _status(server, made["id"]) == "finished")
    entry = server.hub.store.actions(made["id"])[-1]
    assert (entry.kind, entry.text, entry.mover) == ("abort", "no move", seat)


def test_an_untimed_game_waits_a_day_and_the_deadline_is_watched_after_a_restart(
    make_timed_hall,
):
    make = make_timed_hall  # called again for the restart
    clock = FakeClock()
    with make(clock) as server:
        _, _, game_id = _game(server, None, rated=False)
        live = server.hub.games[game_id]
        seat, due = live.first_move()
        assert due == clock.ms + FIRST_MOVE_SLOW_MS
        assert server.hub.store.get_game(game_id).pending  # loaded at start to watch it
        clock.advance(FIRST_MOVE_SLOW_MS - 60_000)
        assert clock.asleep()[0] == due
        assert _status(server, game_id) == "ongoing"
    later = FakeClock(clock.ms + 3_600_000)  # the server stops, and starts an hour later
    with make(later) as again:
        revived = again.resumed().games[game_id]  # loaded at start: a first move awaited
        # Counted again from the loading, as the clocks are: the downtime costs nobody.
        assert revived.first_move() == (seat, later.ms + FIRST_MOVE_SLOW_MS)
        later.advance(FIRST_MOVE_SLOW_MS)
        wait_for(again, lambda: _status(again, game_id) == "finished")
        entry = again.hub.store.actions(game_id)[-1]
        assert (entry.kind, entry.text, entry.mover) == ("abort", "no move", seat)
