"""Challenges over REST and the lobby WebSocket: Ada challenges Bob by name, Bob's lobby hears
of it at once, and he accepts (both are taken to the game), declines or lets it lapse; every
rule and refusal (a clear 4xx that changes nothing)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from gamehall.web.hall.challenges import (
    LIFETIME,
    MAX_INCOMING,
    MAX_OUTGOING,
    MAX_PER_ADDRESS,
    SLOW_LIFETIME,
)
from gamehall.web.hall.pairing import MAX_RATED_PER_PAIR
from gamehall.web.http.challenge_routes import HOME_SHOWN
from tests.web.hall_helpers import PASSWORD, lobby_receive, refused, seek, signed_up, tick

NIM = {"heaps": 3, "max_heap": 5}


def challenge(browser: Any, name: str, **body: Any) -> Any:
    return browser.post(
        "/api/challenges", json={"name": name, "game": "nim", "clock": "5+3", **body}
    )


def _lobby(browser: Any) -> Any:
    ws = browser.websocket_connect("/ws/lobby")
    lobby = ws.__enter__()
    lobby.send_json({"type": "hello"})
    lobby_receive(lobby, "lobby")
    return ws, lobby


def _ids(listing: list[dict[str, Any]]) -> list[str]:
    return [c["id"] for c in listing]


def test_bob_hears_of_adas_challenge_live_and_accepting_takes_both_to_the_game(hall_server):
    ada, bob = signed_up(hall_server, "Ada"), signed_up(hall_server, "Bob")
    with ada.websocket_connect("/ws/lobby") as a, bob.websocket_connect("/ws/lobby") as b:
        for ws in (a, b):
            ws.send_json({"type": "hello"})
            lobby_receive(ws, "lobby")
            assert lobby_receive(ws, "challenges") == {
                "type": "challenges", "incoming": [], "outgoing": [], "note": None,
            }  # fmt: skip
        sent = challenge(ada, "bob", rated=True, side=1, options=NIM)  # names ignore case
        assert sent.status_code == 201, sent.text
        info = sent.json()
        assert (info["challenger"], info["challenged"], info["mine"]) == ("Ada", "Bob", True)
        assert info["rated"] and info["side"] == 1 and info["clock"] == "5+3"
        assert info["options"]["heaps"] == 3 and 0 < info["expires_in"] <= LIFETIME
        heard = lobby_receive(b, "challenges")  # live: no reload
        assert _ids(heard["incoming"]) == [info["id"]] and heard["outgoing"] == []
        assert heard["incoming"][0]["mine"] is False
        assert _ids(lobby_receive(a, "challenges")["outgoing"]) == [info["id"]]
        listed = bob.get("/api/challenges").json()
        assert _ids(listed["incoming"]) == [info["id"]] and listed["outgoing"] == []
        game = bob.post(f"/api/challenges/{info['id']}/accept")
        assert game.status_code == 200, game.text
        game = game.json()
        assert game["you"] == [0]  # Ada asked for seat 1
        assert lobby_receive(a, "challenges")["outgoing"] == []
        paired = lobby_receive(a, "paired")  # Ada's page goes to the game
        assert paired["id"] == game["id"] and paired["rated"] and paired["clock"] == "5+3"
    live = hall_server.hub.games[game["id"]]
    assert live.players == {1: "Ada", 0: "Bob"} and live.hall == {"rated": True, "clock": "5+3"}
    assert live.row.options["heaps"] == 3
    assert bob.get("/api/challenges").json() == {"incoming": [], "outgoing": []}
    refused(bob.post(f"/api/challenges/{info['id']}/accept"), 404, "unknown_challenge")


def test_declining_tells_the_challenger_and_cancelling_tells_the_challenged(hall_server):
    ada, bob = hall_server.browser(), hall_server.browser()
    ada.put("/api/me/name", json={"name": "Ada"})
    bob.put("/api/me/name", json={"name": "Bob"})  # guests: casual challenges only
    first = challenge(ada, "Bob").json()
    ws, a = _lobby(ada)
    try:
        assert _ids(lobby_receive(a, "challenges")["outgoing"]) == [first["id"]]
        refused(ada.post(f"/api/challenges/{first['id']}/decline"), 403, "not_your_challenge")
        refused(ada.post(f"/api/challenges/{first['id']}/accept"), 403, "not_your_challenge")
        refused(bob.post(f"/api/challenges/{first['id']}/cancel"), 403, "not_your_challenge")
        assert bob.post(f"/api/challenges/{first['id']}/decline").status_code == 200
        told = lobby_receive(a, "challenges")
        assert told["outgoing"] == [] and told["note"] == "Bob declined your challenge to nim"
    finally:
        ws.__exit__(None, None, None)
    second = challenge(ada, "Bob").json()  # one at a time to Bob: the first is gone
    ws, b = _lobby(bob)
    try:
        assert _ids(lobby_receive(b, "challenges")["incoming"]) == [second["id"]]
        assert ada.post(f"/api/challenges/{second['id']}/cancel").status_code == 200
        told = lobby_receive(b, "challenges")
        assert told["incoming"] == [] and "Ada cancelled" in told["note"]
    finally:
        ws.__exit__(None, None, None)
    refused(bob.post(f"/api/challenges/{second['id']}/accept"), 404, "unknown_challenge")
    refused(bob.post("/api/challenges/c_nothing/decline"), 404, "unknown_challenge")


def test_who_may_be_challenged_and_to_what(hall_server):
    ada = signed_up(hall_server, "Ada")
    guest = hall_server.browser()
    guest.put("/api/me/name", json={"name": "Gus"})
    error = refused(challenge(ada, "Nobody"), 404, "unknown_player")
    assert "Nobody" in error["message"]
    refused(challenge(ada, "Ada"), 409, "self_challenge")
    error = refused(challenge(ada, "Gus", rated=True), 403, "account_needed")
    assert "Gus plays as a guest" in error["message"]
    refused(challenge(guest, "Ada", rated=True), 403, "account_needed")
    refused(challenge(ada, "Gus", clock="5"), 400, "bad_clock")
    refused(challenge(ada, "Gus", game="chess"), 404, "unknown_game")
    refused(challenge(ada, "Gus", options={"heaps": 999}), 400, "bad_option")
    refused(challenge(ada, "Gus", side=2), 400, "bad_seat")
    refused(challenge(ada, "Gus", colour="dark"), 400, "bad_request")
    refused(challenge(ada, "G\x00us"), 400, "bad_text")
    assert ada.get("/api/challenges").json() == {"incoming": [], "outgoing": []}
    # A guest may be challenged casual, and may challenge casual.
    assert challenge(ada, "Gus", clock=None).status_code == 201
    assert challenge(guest, "Ada", clock="d3").json()["expires_in"] > LIFETIME
    refused(challenge(ada, "Gus"), 409, "challenge_open")


def test_a_player_has_a_bounded_number_of_challenges_out_and_in(hall_server):
    ada = signed_up(hall_server, "Ada")
    names = []
    for index in range(MAX_OUTGOING + 1):
        other = hall_server.browser(f"203.0.113.{index + 1}")
        name = f"Player{index}"
        other.put("/api/me/name", json={"name": name})
        names.append((name, other))
    for name, _ in names[:MAX_OUTGOING]:
        assert challenge(ada, name).status_code == 201
    error = refused(challenge(ada, names[-1][0]), 429, "too_many_challenges")
    assert f"{MAX_OUTGOING} open challenges" in error["message"]
    # Many challengers cannot flood one player: at most MAX_INCOMING wait for them.
    bob = signed_up(hall_server, "Bob")
    for index in range(MAX_INCOMING):
        sender = hall_server.browser(f"198.51.100.{index + 1}")
        assert challenge(sender, "Bob").status_code == 201
    late = hall_server.browser("192.0.2.1")
    error = refused(challenge(late, "Bob"), 429, "too_many_challenges")
    assert f"Bob has {MAX_INCOMING} challenges waiting" in error["message"]
    assert len(bob.get("/api/challenges").json()["incoming"]) == MAX_INCOMING


def test_new_identities_from_one_address_cannot_send_challenges_without_end(hall_server):
    targets = []
    for index in range(MAX_PER_ADDRESS // MAX_OUTGOING + 1):
        target = hall_server.browser(f"203.0.113.{index + 1}")
        target.put("/api/me/name", json={"name": f"Target{index}"})
        targets.append(f"Target{index}")
    sent = 0
    for target in targets:
        for _ in range(MAX_OUTGOING):
            if sent == MAX_PER_ADDRESS:
                break
            fresh = hall_server.browser("198.51.100.9")  # a new identity, the same address
            assert challenge(fresh, target).status_code == 201
            sent += 1
    error = refused(
        challenge(hall_server.browser("198.51.100.9"), targets[-1]), 429, "too_many_challenges"
    )
    assert "network address" in error["message"]


def test_a_challenge_lapses_in_its_time_and_both_players_are_told(hall_server):
    ada, bob = signed_up(hall_server, "Ada"), signed_up(hall_server, "Bob")
    challenges = hall_server.app.state.hall.challenges
    start = datetime.datetime.now(datetime.UTC)
    challenges.wall = lambda: start  # the challenges' time is the test's
    quick = challenge(ada, "Bob").json()
    slow = challenge(bob, "Ada", clock="d2").json()
    assert quick["expires_in"] == LIFETIME and slow["expires_in"] == SLOW_LIFETIME
    ws, b = _lobby(bob)
    try:
        lobby_receive(b, "challenges")
        challenges.wall = lambda: start + datetime.timedelta(seconds=LIFETIME)
        tick(hall_server)
        told = lobby_receive(b, "challenges")
        assert told["incoming"] == [] and _ids(told["outgoing"]) == [slow["id"]]
        assert told["note"] == "Ada's challenge (nim) lapsed"
    finally:
        ws.__exit__(None, None, None)
    refused(bob.post(f"/api/challenges/{quick['id']}/accept"), 404, "unknown_challenge")
    challenges.wall = lambda: start + datetime.timedelta(seconds=SLOW_LIFETIME)
    assert ada.get("/api/challenges").json() == {"incoming": [], "outgoing": []}  # lapsed
    refused(ada.post(f"/api/challenges/{slow['id']}/accept"), 404, "unknown_challenge")


def test_rated_challenges_keep_the_rated_games_rules(hall_server):
    ada = signed_up(hall_server, "Ada")
    # Two accounts of one browser: one person on both sides of a rated game.
    tab = hall_server.browser()
    tab.cookies.set("gh_player", ada.cookies.get("gh_player"))
    answer = tab.post("/api/account/signup", json={"username": "Eve", "password": PASSWORD})
    assert answer.status_code == 200
    error = refused(challenge(ada, "Eve", rated=True), 409, "self_pairing")
    assert "Eve" in error["message"]
    assert challenge(ada, "Eve").status_code == 201  # casual is fine
    # A day's rated games between two players, checked when sent and again when accepted.
    bob = signed_up(hall_server, "Bob")
    for _ in range(MAX_RATED_PER_PAIR - 1):
        info = challenge(ada, "Bob", rated=True, options=NIM).json()
        assert bob.post(f"/api/challenges/{info['id']}/accept").status_code == 200
    waiting = challenge(bob, "Ada", rated=True).json()  # sent while one more was allowed
    last = challenge(ada, "Bob", rated=True).json()
    assert bob.post(f"/api/challenges/{last['id']}/accept").status_code == 200
    error = refused(challenge(ada, "Bob", rated=True), 429, "rated_limit")
    assert "Bob" in error["message"]
    refused(ada.post(f"/api/challenges/{waiting['id']}/accept"), 429, "rated_limit")
    assert _ids(ada.get("/api/challenges").json()["incoming"]) == [waiting["id"]]  # still open
    assert challenge(ada, "Bob").status_code == 201  # a casual one is fine


@pytest.mark.parametrize("act", ["accept", "decline", "cancel"])
def test_a_challenge_is_answered_once(hall_server, act):
    ada, bob = signed_up(hall_server, "Ada"), signed_up(hall_server, "Bob")
    info = challenge(ada, "Bob").json()
    who = ada if act == "cancel" else bob
    assert who.post(f"/api/challenges/{info['id']}/{act}").status_code == 200
    for again in ("accept", "decline"):
        refused(bob.post(f"/api/challenges/{info['id']}/{again}"), 404, "unknown_challenge")
    refused(ada.post(f"/api/challenges/{info['id']}/cancel"), 404, "unknown_challenge")


# --- the home page's view of the hall -----------------------------------------------------------


def test_the_home_page_sees_a_few_live_games_and_open_seeks(hall_server):
    visitor = hall_server.browser()
    assert visitor.get("/api/hall/now").json() == {"games": [], "seeks": []}
    ada, bob = signed_up(hall_server, "Ada"), signed_up(hall_server, "Bob")
    open_seek = seek(ada, clock="3+2").json()
    info = challenge(ada, "Bob", options=NIM).json()
    game = bob.post(f"/api/challenges/{info['id']}/accept").json()
    now = visitor.get("/api/hall/now").json()
    assert [g["id"] for g in now["games"]] == [game["id"]]
    assert sorted(now["games"][0]["players"]) == ["Ada", "Bob"]
    assert [s["id"] for s in now["seeks"]] == [open_seek["id"]] and not now["seeks"][0]["mine"]
    assert ada.get("/api/hall/now").json()["seeks"][0]["mine"]
    for index in range(HOME_SHOWN + 1):  # more seeks than the page shows
        seek(hall_server.browser(f"203.0.113.{index + 1}"))
    assert len(visitor.get("/api/hall/now").json()["seeks"]) == HOME_SHOWN
