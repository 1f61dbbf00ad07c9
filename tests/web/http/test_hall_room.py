"""The hall and the game room together: a rated game ends as the room ends it (on time, by an
abort) and is rated from that ending, once; a rated game of the lobby runs its seek's clock, and
the lobby shows the clocks running."""

from __future__ import annotations

from typing import Any

from tests.web.hall_helpers import counted, seek, signed_up, take_one, wait_for
from tests.web.web_helpers import greeted

LONG_NIM = {"heaps": 6, "max_heap": 9}
"""A Nim game long enough for both sides to move a few times."""


def _rated_game(server: Any, clock: str | None) -> tuple[Any, Any, dict[str, Any]]:
    ada, bob = signed_up(server, "Ada"), signed_up(server, "Bob")
    info = seek(ada, rated=True, side=0, clock=clock, options=LONG_NIM).json()
    game = bob.post(f"/api/seeks/{info['id']}/accept").json()
    return ada, bob, game


def test_a_rated_timed_game_lost_on_time_changes_the_ratings_once(timed_hall):
    server, clock = timed_hall
    ada, bob, game = _rated_game(server, "1+0")
    live = server.hub.games[game["id"]]
    assert live.control is not None and str(live.control) == "1+0"  # the seek's time control
    with greeted(server, ada, bob, game["id"]) as (ws_a, ws_b, state):
        sockets = {0: ws_a, 1: ws_b}
        assert state["you"] == [0] and state["clock"]["control"] == "1+0"
        for _ in range(4):  # both sides move twice: both clocks have started
            state = take_one(server, sockets, state)
        loser = state["to_move"]
        assert state["clock"]["running"] == loser
        # The lobby lists the game with its clocks, the loser's running.
        (shown,) = server.app.state.hall.live_games()
        assert shown.id == game["id"] and shown.clocks is not None
        assert shown.clocks.running == loser
        clock.advance(61_000)  # the loser's minute runs out: the server ends the game
        final = server.receive_state(ws_a, state["version"] + 1)
        assert final["over"] and final["outcome"]["winner"] == 1 - loser
        assert "on time" in final["outcome"]["reason"]
    wait_for(server, lambda: counted(server, game["id"]))
    names = ("Ada", "Bob")
    for seat, name in enumerate(names):
        (rating,) = ada.get(f"/api/players/{name}").json()["ratings"]
        assert rating["games"] == 1
        assert (rating["rating"] > 1500) == (seat != loser), (name, rating["rating"])
    assert server.app.state.hall.live_games() == []  # over: no longer shown
    # Counted once: another look at the ended game (a restart's recount) changes nothing.
    hall = server.app.state.hall
    server.client.portal.call(hall.finished, server.hub.games[game["id"]])
    before = ada.get("/api/players/Ada").json()["ratings"]
    assert before[0]["games"] == 1


def test_an_aborted_rated_game_changes_no_rating(timed_hall):
    server, _ = timed_hall
    ada, bob, game = _rated_game(server, "5+3")
    with greeted(server, ada, bob, game["id"]) as (ws_a, ws_b, state):
        assert state["abortable"]
        ws_a.send_json({"type": "abort"})
        final = server.receive_state(ws_b, state["version"] + 1)
        assert final["over"] and final["outcome"]["result"] == "*"
    wait_for(server, lambda: counted(server, game["id"]))  # looked at, and set aside
    for name in ("Ada", "Bob"):
        assert ada.get(f"/api/players/{name}").json()["ratings"] == []
    assert ada.get("/api/leaderboard/nim").json()["players"] == []
