"""The room of a rated game shows the players' ratings and the time control, and each side's
change once the result counted (also when the finished game is opened later); a rating reads the
same in the lobby, the profile and the leaderboard (one rule: provisional marked "?")."""

from __future__ import annotations

import time
from typing import Any

from gamehall.web.hall.ratings import NEW_DEVIATION, NEW_RATING
from gamehall.web.hall.standings import PROVISIONAL_DEVIATION, rating_text, shown
from tests.web.hall_helpers import seek, signed_up, take_one, tick
from tests.web.web_helpers import greeted

LONG_NIM = {"heaps": 6, "max_heap": 9}


def _until_rated(server: Any, ws: Any) -> dict[str, Any]:
    """The first state whose table shows the rating changes (sent once they are stored)."""
    while True:
        state = server.receive_state(ws)
        table = state["table"]
        if table and table["ratings"] and table["ratings"][0]["change"] is not None:
            return state


def _profile_rating(browser: Any, name: str) -> dict[str, Any]:
    (rating,) = browser.get(f"/api/players/{name}").json()["ratings"]
    return rating


def test_the_display_pair_is_one_rule():
    assert shown(NEW_RATING, NEW_DEVIATION).model_dump() == {"rating": 1500, "provisional": True}
    assert shown(1661.6, PROVISIONAL_DEVIATION + 1).model_dump() == {
        "rating": 1662,
        "provisional": True,
    }
    assert not shown(1700, PROVISIONAL_DEVIATION).provisional
    assert rating_text(shown(1661.6, 300)) == "1662?"
    assert rating_text(shown(1661.6, 60)) == "1662"


def test_a_rated_room_shows_ratings_the_clock_and_the_change_at_the_end(hall_server):
    server = hall_server
    ada, bob = signed_up(server, "Ada"), signed_up(server, "Bob")
    info = seek(ada, rated=True, side=0, clock="3+2", options=LONG_NIM).json()
    game = bob.post(f"/api/seeks/{info['id']}/accept").json()
    with greeted(server, ada, bob, game["id"]) as (ws_a, ws_b, state):
        newcomer = {"rating": 1500, "provisional": True}
        assert state["table"] == {
            "rated": True,
            "clock": "3+2",
            "ratings": [
                {"seat": 0, "rating": newcomer, "after": None, "change": None},
                {"seat": 1, "rating": newcomer, "after": None, "change": None},
            ],
        }
        # The lobby's list of games being played shows the same ratings.
        (playing,) = server.app.state.hall.live_games()
        assert [r.model_dump() for r in playing.ratings] == [newcomer, newcomer]
        sockets = {0: ws_a, 1: ws_b}
        for _ in range(2):
            state = take_one(server, sockets, state)
        ws_a.send_json({"type": "resign"})
        final = _until_rated(server, ws_b)
    assert final["over"] and final["outcome"]["winner"] == 1
    ratings = {r["seat"]: r for r in final["table"]["ratings"]}
    for seat, name in ((0, "Ada"), (1, "Bob")):
        profile = _profile_rating(ada, name)
        after = ratings[seat]["after"]
        assert ratings[seat]["rating"] == newcomer
        assert after == {"rating": profile["rating"], "provisional": profile["provisional"]}
        assert ratings[seat]["change"] == after["rating"] - 1500
    assert ratings[0]["change"] < 0 < ratings[1]["change"]
    # Opened later, from the store (the game has left memory): the same changes.
    server.hub.games.pop(game["id"])
    again = ada.get(f"/api/games/{game['id']}").json()
    assert again["table"] == final["table"]


def test_a_casual_room_says_casual_with_its_clock_and_no_ratings(hall_server):
    server = hall_server
    ada, bob = signed_up(server, "Ada"), signed_up(server, "Bob")
    info = seek(ada, rated=False, side=0, clock="d3", options=LONG_NIM).json()
    game = bob.post(f"/api/seeks/{info['id']}/accept").json()
    state = ada.get(f"/api/games/{game['id']}").json()
    assert state["table"] == {"rated": False, "clock": "d3", "ratings": []}


def test_a_game_against_the_computer_has_no_table(hall_server):
    created = (
        hall_server.browser().post("/api/games", json={"game": "nim", "mode": "computer"}).json()
    )
    state = hall_server.browser().get(f"/api/games/{created['id']}").json()
    assert state["table"] is None


def test_the_lobby_and_the_profile_show_one_rating_with_one_mark(hall_server):
    """A seek made before its maker's rated game ended shows the rating after it, marked as
    the profile marks it (it used to keep the newcomer's 1500, unmarked)."""
    server = hall_server
    ada, bob = signed_up(server, "Ada"), signed_up(server, "Bob")
    waiting = seek(ada, rated=True, side=0, options=LONG_NIM).json()
    shown_new = server.client.get("/api/seeks").json()["seeks"]
    assert [(s["rating"], s["provisional"]) for s in shown_new] == [(1500, True)]
    first = seek(bob, rated=True, side=0, options=LONG_NIM).json()
    game = ada.post(f"/api/seeks/{first['id']}/accept").json()  # Ada plays Bob's seek
    with greeted(server, ada, bob, game["id"]) as (ws_a, ws_b, state):
        sockets = {1: ws_a, 0: ws_b}
        for _ in range(2):
            state = take_one(server, sockets, state)
        ws_b.send_json({"type": "resign"})  # Bob resigns: Ada wins
        _until_rated(server, ws_a)
    profile = _profile_rating(bob, "Ada")
    assert profile["rating"] > 1500 and profile["provisional"]
    tick(server, time.monotonic())
    listed = next(s for s in bob.get("/api/seeks").json()["seeks"] if s["id"] == waiting["id"])
    assert (listed["rating"], listed["provisional"]) == (profile["rating"], True)
    # The leaderboard (one game is enough here) marks it the same way.
    leaders = bob.get("/api/leaderboard/nim").json()["players"]
    ada_row = next(row for row in leaders if row["name"] == "Ada")
    assert (ada_row["rating"], ada_row["provisional"]) == (profile["rating"], True)
