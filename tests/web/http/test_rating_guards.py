"""Ratings that cannot be farmed (issue 33, point 2), over REST and the WebSockets: a resignation
before both sides have moved is an abort that rates no one; a browser stays one browser after
signing out, so its two accounts still cannot play each other rated; rated games between the
same two players are limited per day; the leaderboard lists only players with several
different opponents."""

from __future__ import annotations

from typing import Any

import anyio

from gamehall.web.hall.pairing import MAX_RATED_PER_PAIR
from tests.web.hall_helpers import (
    PASSWORD,
    lobby_receive,
    lobby_until,
    refused,
    seek,
    signed_up,
    tick,
)
from tests.web.web_helpers import hello


def _wait_for(server: Any, check: Any) -> None:
    for _ in range(500):
        if check():
            return
        server.client.portal.call(anyio.sleep, 0.02)
    raise AssertionError("it did not happen")


def _counted(server: Any, game_id: str) -> bool:
    hall = server.app.state.hall
    row = server.client.portal.call(hall.db, hall.store.hall_game, game_id)
    return bool(row and row[2])


def _rated_game(server: Any, first: Any, second: Any) -> str:
    """A rated Nim game made from ``first``'s seek (seat 0) accepted by ``second`` (seat 1)."""
    info = seek(first, rated=True, side=0).json()
    answer = second.post(f"/api/seeks/{info['id']}/accept")
    assert answer.status_code == 200, answer.text
    return answer.json()["id"]


# --- a resignation before both sides have moved ------------------------------------------------


def test_a_resignation_before_both_sides_have_moved_is_an_abort(server):
    creator, guest = server.client, server.browser()
    answer = creator.post("/api/games", json={"game": "acadmu", "mode": "online"}).json()
    game_id = answer["id"]
    guest.post(f"/api/games/{game_id}/join", json={"seat": answer["invite"].split("?seat=")[1]})
    with (
        creator.websocket_connect(f"/ws/games/{game_id}") as ws0,
        guest.websocket_connect(f"/ws/games/{game_id}") as ws1,
    ):
        state = hello(server, ws0)
        hello(server, ws1)
        sockets = {0: ws0, 1: ws1}
        mover = state["to_move"]  # one side moves; the other resigns before its first move
        sockets[mover].send_json(
            {"type": "move", "version": state["version"], "action": state["legal"][0]["text"]}
        )
        state = server.receive_state(ws0, state["version"] + 1)
        server.receive_state(ws1, state["version"])
        sockets[1 - mover].send_json({"type": "resign"})
        over = server.receive_state(sockets[mover], state["version"] + 1)
    side = ("Dark", "Light")[1 - mover]
    reason = f"Game aborted: {side} resigned before both sides had moved"
    assert over["over"] and over["outcome"] == {
        "winner": None, "winner_name": None, "reason": reason, "scores": [0.0, 0.0],
        "result": "*",
    }  # fmt: skip
    assert server.hub.store.actions(game_id)[-1].kind == "abort"
    record = creator.get(f"/api/games/{game_id}/record").text
    assert '[Result "*"]' in record and reason in record


def test_a_rated_game_resigned_at_once_rates_no_one(hall_server):
    ada, bob = signed_up(hall_server, "Ada"), signed_up(hall_server, "Bob")
    game_id = _rated_game(hall_server, ada, bob)
    with bob.websocket_connect(f"/ws/games/{game_id}") as ws:
        state = hello(hall_server, ws)
        assert state["you"] == [1]
        ws.send_json({"type": "resign"})
        over = hall_server.receive_state(ws, state["version"] + 1)
    assert over["outcome"]["result"] == "*" and over["outcome"]["winner"] is None
    assert over["outcome"]["reason"] == "Game aborted: Second resigned before both sides had moved"
    _wait_for(hall_server, lambda: _counted(hall_server, game_id))
    for name in ("Ada", "Bob"):
        profile = ada.get(f"/api/players/{name}").json()
        assert profile["ratings"] == []
        (shown,) = profile["games"]
        assert shown["rated"] and shown["result"]["result"] == "*"
    assert ada.get("/api/leaderboard/nim").json()["players"] == []


# --- the browser's marker ---------------------------------------------------------------------


def test_signing_out_does_not_make_a_browser_a_stranger_to_its_accounts(hall_server):
    """Ada seeks a rated game, signs out, and signs up as Bob in the same browser: the identity
    cookie is new, the marker is not, and Bob may not take Ada's rated seek (nor may Ada, from
    her phone, take a rated seek Bob makes there)."""
    browser = signed_up(hall_server, "Ada")
    marker = browser.cookies.get("gh_browser")
    identity = browser.cookies.get("gh_player")
    assert marker and identity
    rated = seek(browser, rated=True).json()
    assert browser.post("/api/account/logout").status_code == 200
    assert browser.cookies.get("gh_browser") == marker  # kept through signing out
    answer = browser.post("/api/account/signup", json={"username": "Bob", "password": PASSWORD})
    assert answer.status_code == 200 and browser.cookies.get("gh_player") != identity
    error = refused(browser.post(f"/api/seeks/{rated['id']}/accept"), 409, "self_pairing")
    assert "Ada" in error["message"]
    bobs = seek(browser, rated=True).json()
    phone = hall_server.browser()
    phone.post("/api/account/login", json={"username": "Ada", "password": PASSWORD})
    refused(phone.post(f"/api/seeks/{bobs['id']}/accept"), 409, "self_pairing")
    # Another person's browser may take either.
    carol = signed_up(hall_server, "Carol")
    assert carol.post(f"/api/seeks/{rated['id']}/accept").status_code == 200


def test_an_account_that_only_signed_up_and_out_is_known_by_the_browser(hall_server):
    """Ada signs up and straight out again (no other request); Bob, signed up in the same
    browser, seeks a rated game: Ada, from her phone, may not take it."""
    browser = signed_up(hall_server, "Ada")
    assert browser.post("/api/account/logout").status_code == 200
    answer = browser.post("/api/account/signup", json={"username": "Bob", "password": PASSWORD})
    assert answer.status_code == 200
    bobs = seek(browser, rated=True).json()
    phone = hall_server.browser()
    phone.post("/api/account/login", json={"username": "Ada", "password": PASSWORD})
    refused(phone.post(f"/api/seeks/{bobs['id']}/accept"), 409, "self_pairing")


# --- a day's rated games between two players ---------------------------------------------------


def test_two_players_play_at_most_a_days_rated_games_with_each_other(hall_server):
    """Ten rated games between Ada and Bob (going on counts): the eleventh rated seek between
    them is refused with the reason, and nothing changes; a casual game between them, and a
    rated one with someone else, are fine."""
    ada, bob = signed_up(hall_server, "Ada"), signed_up(hall_server, "Bob")
    for _ in range(MAX_RATED_PER_PAIR):
        _rated_game(hall_server, ada, bob)
    last = seek(bob, rated=True).json()  # Bob's seek this time: either way round counts
    games = len(ada.get("/api/games").json()["games"])
    error = refused(ada.post(f"/api/seeks/{last['id']}/accept"), 429, "rated_limit")
    assert "Bob" in error["message"] and f"{MAX_RATED_PER_PAIR} rated games" in error["message"]
    assert len(ada.get("/api/games").json()["games"]) == games  # no game was made
    assert [s["id"] for s in ada.get("/api/seeks").json()["seeks"]] == [last["id"]]  # still open
    casual = seek(bob).json()
    assert ada.post(f"/api/seeks/{casual['id']}/accept").status_code == 200
    carol = signed_up(hall_server, "Carol")
    assert carol.post(f"/api/seeks/{last['id']}/accept").status_code == 200


def test_an_aborted_rated_game_does_not_count_towards_the_days_games(hall_server):
    ada, bob = signed_up(hall_server, "Ada"), signed_up(hall_server, "Bob")
    aborted = _rated_game(hall_server, ada, bob)
    with bob.websocket_connect(f"/ws/games/{aborted}") as ws:
        state = hello(hall_server, ws)
        ws.send_json({"type": "resign"})
        hall_server.receive_state(ws, state["version"] + 1)
    for _ in range(MAX_RATED_PER_PAIR):
        _rated_game(hall_server, ada, bob)  # all ten accepted: the aborted one is not one
    info = seek(ada, rated=True).json()
    refused(bob.post(f"/api/seeks/{info['id']}/accept"), 429, "rated_limit")


def test_quick_pairing_pairs_two_players_past_their_days_games_with_others(hall_server):
    ada, bob, carol = (signed_up(hall_server, n) for n in ("Ada", "Bob", "Carol"))
    for _ in range(MAX_RATED_PER_PAIR):
        _rated_game(hall_server, ada, bob)
    with (
        ada.websocket_connect("/ws/lobby") as a,
        bob.websocket_connect("/ws/lobby") as b,
        carol.websocket_connect("/ws/lobby") as c,
    ):
        for ws in (a, b, c):
            ws.send_json({"type": "hello"})
            lobby_receive(ws, "lobby")
        pool = {"type": "pair", "game": "nim", "clock": "3+2", "rated": True}
        a.send_json(pool)
        lobby_until(a, lambda m: m["waiting"])
        b.send_json(pool)
        lobby_until(b, lambda m: m["waiting"])
        waiting = hall_server.app.state.hall.lobby.waiting
        tick(hall_server)
        assert len(waiting) == 2  # Ada and Bob are not paired with each other
        c.send_json(pool)
        lobby_until(c, lambda m: m["waiting"])
        tick(hall_server)
        paired = lobby_receive(c, "paired")
        assert paired["rated"] is True
        assert len(waiting) == 1  # Ada or Bob waits on
