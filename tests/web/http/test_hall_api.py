"""The hall over REST and the lobby WebSocket: names, accounts, seeks, quick pairing, rated
games, profiles and leaderboards, and every wrong use (a clear 4xx that changes nothing)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import threading
from typing import Any

from gamehall.core import register_plugin, unregister_plugin
from gamehall.web.hall.accounts import (
    HASHING_AT_ONCE,
    MAX_ADDRESS_FAILURES,
    MAX_ADDRESS_SIGNUPS,
    MAX_FAILURES,
    SIGNUP_WINDOW,
)
from gamehall.web.hall.pairing import LEAVE_GRACE, MAX_SEEKS_PER_ADDRESS, MAX_SEEKS_PER_PLAYER
from tests.nim.plugin import PLUGIN
from tests.web.conftest import TEST_SETTINGS
from tests.web.hall_helpers import (
    CHEAP,
    PASSWORD,
    lobby_receive,
    lobby_until,
    refused,
    seek,
    signed_up,
    tick,
    wait_for,
)
from tests.web.web_helpers import hello, play_random

# --- names ------------------------------------------------------------------------------------


def test_a_new_browser_is_a_player_with_a_readable_name_it_may_change(hall_server):
    browser = hall_server.browser()
    me = browser.get("/api/me").json()
    assert me["account"] is False and 3 <= len(me["name"]) <= 20
    assert browser.get("/api/me").json()["name"] == me["name"]  # the cookie keeps it
    assert browser.put("/api/me/name", json={"name": "Ada"}).json()["name"] == "Ada"
    other = hall_server.browser()
    refused(other.put("/api/me/name", json={"name": "ADA"}), 409, "name_taken")
    cyrillic, marked = "\u0410\u0501\u0430", "A\u0301da"  # Аԁа, Áda
    refused(other.put("/api/me/name", json={"name": cyrillic}), 409, "name_taken")
    refused(other.put("/api/me/name", json={"name": marked}), 409, "name_taken")
    error = refused(other.put("/api/me/name", json={"name": "\u0410da"}), 400, "bad_name")
    assert "one script" in error["message"]  # a Cyrillic А among Latin letters
    refused(other.put("/api/me/name", json={"name": "A\x00da"}), 400, "bad_text")
    refused(other.put("/api/me/name", json={"name": "A" * 1000}), 400, "bad_request")
    error = refused(other.put("/api/me/name", json={"name": "x<b>x</b>"}), 400, "bad_name")
    assert "letters, digits" in error["message"] and "<" in error["message"]
    refused(other.put("/api/me/name", json={"name": "ab"}), 400, "bad_name")
    refused(other.put("/api/me/name", json={"nom": "Ada"}), 400, "bad_request")
    assert other.get("/api/me").json()["name"] != "Ada"


def test_each_seat_of_the_state_carries_its_players_name(hall_server):
    host, guest = hall_server.browser(), hall_server.browser()
    host.put("/api/me/name", json={"name": "Host"})
    guest.put("/api/me/name", json={"name": "Guest"})
    created = host.post("/api/games", json={"game": "nim", "mode": "online"}).json()
    state = host.get(f"/api/games/{created['id']}").json()
    assert [s["player"] for s in state["seats"]] == ["Host", None]
    token = created["invite"].rpartition("seat=")[2]
    guest.post(f"/api/games/{created['id']}/join", json={"seat": token})
    state = host.get(f"/api/games/{created['id']}").json()
    assert [s["player"] for s in state["seats"]] == ["Host", "Guest"]
    listed = guest.get("/api/games").json()["games"][0]
    assert [s["player"] for s in listed["seats"]] == ["Host", "Guest"]


# --- accounts -----------------------------------------------------------------------------------


def test_sign_up_in_and_out_and_the_password_is_never_sent_back_or_logged(hall_server, caplog):
    caplog.set_level(logging.DEBUG)
    ada = signed_up(hall_server, "Ada")
    assert ada.cookies.get("gh_session")
    assert ada.get("/api/me").json() == {
        "name": "Ada",
        "account": True,
        "sessions": 1,
        "bot": False,
    }
    refused(ada.post("/api/account/signup", json={"username": "Ada2", "password": PASSWORD}),
            409, "signed_in")  # fmt: skip
    refused(ada.put("/api/me/name", json={"name": "Other"}), 409, "signed_in")
    other = hall_server.browser()
    refused(other.post("/api/account/signup", json={"username": "ada", "password": PASSWORD}),
            409, "name_taken")  # fmt: skip
    refused(other.post("/api/account/signup", json={"username": "Bob", "password": "short"}),
            400, "bad_password")  # fmt: skip
    refused(other.post("/api/account/signup", json={"username": "a b", "password": PASSWORD}),
            400, "bad_name")  # fmt: skip
    logged_in = other.post("/api/account/login", json={"username": "ADA", "password": PASSWORD})
    assert logged_in.json() == {"name": "Ada", "account": True, "sessions": 2, "bot": False}
    out = ada.post("/api/account/logout")
    assert out.json()["account"] is False and out.json()["name"] != "Ada"
    assert ada.get("/api/me").json()["account"] is False
    refused(ada.post("/api/account/logout"), 403, "account_needed")
    assert other.get("/api/me").json()["account"] is True
    assert PASSWORD not in caplog.text
    for response in (logged_in, out):
        assert PASSWORD not in response.text


def test_a_wrong_password_is_refused_and_sign_ins_are_rate_limited(hall_server):
    signed_up(hall_server, "Ada")
    now = [1000.0]
    hall_server.app.state.hall.clock = lambda: now[0]
    guesser = hall_server.browser()  # at the test client's address
    for _ in range(MAX_FAILURES):
        refused(guesser.post("/api/account/login", json={"username": "Ada", "password": "x" * 8}),
                401, "wrong_password")  # fmt: skip
    # Now even the right password waits, for this username from this address...
    good = {"username": "Ada", "password": PASSWORD}
    error = refused(guesser.post("/api/account/login", json=good), 429, "too_many_attempts")
    assert f"{MAX_FAILURES} failed sign-ins as this username" in error["message"]
    assert "seconds" in error["message"]
    assert guesser.get("/api/me").json()["account"] is False
    # ... and an unknown username answers as a wrong password does.
    refused(guesser.post("/api/account/login", json={"username": "Nobody", "password": PASSWORD}),
            401, "wrong_password")  # fmt: skip
    now[0] += 301
    assert guesser.post("/api/account/login", json=good).json()["account"] is True
    # One address trying many usernames is stopped too (later: many people may share one).
    for index in range(MAX_ADDRESS_FAILURES):
        guess = {"username": f"User{index}", "password": PASSWORD}
        refused(guesser.post("/api/account/login", json=guess), 401, "wrong_password")
    error = refused(guesser.post("/api/account/login", json=good), 429, "too_many_attempts")
    assert f"{MAX_ADDRESS_FAILURES} failed sign-ins from your network address" in error["message"]


def test_a_strangers_failed_sign_ins_do_not_lock_the_owner_out(hall_server):
    """Limits are per address and username and per address, never per username alone: an
    attacker failing as Ada, even past every limit, leaves Ada free to sign in from home."""
    signed_up(hall_server, "Ada")
    now = [1000.0]
    hall_server.app.state.hall.clock = lambda: now[0]
    attacker = hall_server.browser()
    for _ in range(MAX_ADDRESS_FAILURES + 1):
        attacker.post("/api/account/login", json={"username": "Ada", "password": "x" * 8})
    good = {"username": "Ada", "password": PASSWORD}
    refused(attacker.post("/api/account/login", json=good), 429, "too_many_attempts")
    home = hall_server.browser("198.51.100.7")
    assert home.post("/api/account/login", json=good).json()["account"] is True
    # Ada's own mistyping at home counts at home only, and a good sign-in clears it.
    for _ in range(MAX_FAILURES - 1):
        refused(home.post("/api/account/login", json={"username": "Ada", "password": "y" * 8}),
                401, "wrong_password")  # fmt: skip
    assert home.post("/api/account/login", json=good).json()["account"] is True
    refused(home.post("/api/account/login", json={"username": "Ada", "password": "y" * 8}),
            401, "wrong_password")  # fmt: skip
    assert home.post("/api/account/login", json=good).json()["account"] is True


def test_accounts_made_from_one_address_are_limited(hall_server):
    now = [1000.0]
    hall_server.app.state.hall.clock = lambda: now[0]
    for index in range(MAX_ADDRESS_SIGNUPS):
        signed_up(hall_server, f"Maker{index}")
    late = hall_server.browser()
    body = {"username": "OneTooMany", "password": PASSWORD}
    error = refused(late.post("/api/account/signup", json=body), 429, "too_many_attempts")
    assert "network address" in error["message"] and "seconds" in error["message"]
    assert late.get("/api/me").json()["account"] is False
    assert late.get("/api/players/OneTooMany").status_code == 404
    now[0] += SIGNUP_WINDOW + 1
    assert late.post("/api/account/signup", json=body).json()["account"] is True


def test_password_hashing_runs_a_bounded_number_at_once(hall_server):
    hall = hall_server.app.state.hall
    hashes = 8
    running, most, done, changed = [0], [0], [0], threading.Condition()

    def held_hash() -> None:
        """Holds on until as many hashes run as ever can at once (the bound, or every hash not
        yet done): a bound of one would never get there (the wait times out), a missing bound
        shows in ``most``."""
        with changed:
            running[0] += 1
            most[0] = max(most[0], running[0])
            changed.notify_all()
            together = changed.wait_for(
                lambda: running[0] >= min(HASHING_AT_ONCE, hashes - done[0]), timeout=20
            )
            alongside = running[0]
            running[0] -= 1
            done[0] += 1
            changed.notify_all()
        assert together, f"only {alongside} hashes ran at once"

    async def many() -> None:
        await asyncio.gather(*(hall._hashing_work(held_hash) for _ in range(hashes)))

    hall_server.client.portal.call(many)
    assert most[0] == HASHING_AT_ONCE and done[0] == hashes


def test_the_session_cookie_keeps_the_identity_cookies_rules(server_factory):
    register_plugin(PLUGIN)
    try:
        settings = dataclasses.replace(TEST_SETTINGS, https=True)
        with server_factory(passwords=CHEAP, settings=settings) as server:
            browser = server.browser()
            body = {"username": "Ada", "password": PASSWORD}
            answer = browser.post("/api/account/signup", json=body)
            cookies = {c.split("=")[0]: c for c in answer.headers.get_list("set-cookie")}
            for name in ("gh_player", "gh_session"):
                flags = cookies[name].lower()
                assert "httponly" in flags and "samesite=lax" in flags and "secure" in flags, flags
    finally:
        unregister_plugin(PLUGIN.name)


def test_signing_out_everywhere_ends_every_session(hall_server):
    ada = signed_up(hall_server, "Ada")
    phone = hall_server.browser()
    phone.post("/api/account/login", json={"username": "Ada", "password": PASSWORD})
    assert phone.get("/api/me").json()["sessions"] == 2
    answer = ada.post("/api/account/logout", json={"everywhere": True})
    assert answer.status_code == 200
    assert phone.get("/api/me").json()["account"] is False
    assert ada.get("/api/me").json()["account"] is False
    refused(ada.post("/api/account/logout", json={"everywhere": "yes"}), 400, "bad_request")


def test_signing_in_moves_the_anonymous_players_games_to_the_account(hall_server):
    signed_up(hall_server, "Ada").post("/api/account/logout")
    laptop = hall_server.browser()
    game = laptop.post("/api/games", json={"game": "nim", "mode": "hotseat"}).json()
    assert [g["id"] for g in laptop.get("/api/games").json()["games"]] == [game["id"]]
    laptop.post("/api/account/login", json={"username": "Ada", "password": PASSWORD})
    assert [g["id"] for g in laptop.get("/api/games").json()["games"]] == [game["id"]]
    profile = laptop.get("/api/players/ada").json()
    assert [g["id"] for g in profile["games"]] == [game["id"]]
    laptop.post("/api/account/logout")
    assert laptop.get("/api/games").json()["games"] == []  # the games are the account's now


# --- seeks ------------------------------------------------------------------------------------


def test_seeks_are_made_listed_and_cancelled_by_their_creator_only(hall_server):
    host, other = hall_server.browser(), hall_server.browser()
    made = seek(host, side=1)
    assert made.status_code == 201, made.text
    info = made.json()
    assert (info["game"], info["clock"], info["side"], info["mine"]) == ("nim", "5+3", 1, True)
    listed = other.get("/api/seeks").json()["seeks"]
    assert [(s["id"], s["mine"]) for s in listed] == [(info["id"], False)]
    refused(other.delete(f"/api/seeks/{info['id']}"), 403, "not_your_seek")
    assert host.delete(f"/api/seeks/{info['id']}").json()["id"] == info["id"]
    refused(host.delete(f"/api/seeks/{info['id']}"), 404, "unknown_seek")
    assert other.get("/api/seeks").json()["seeks"] == []


def test_every_wrong_seek_is_refused_and_changes_nothing(hall_server):
    host = hall_server.browser()
    refused(seek(host, game="chess"), 404, "unknown_game")
    refused(seek(host, clock="5"), 400, "bad_clock")
    refused(seek(host, side=2), 400, "bad_seat")
    refused(seek(host, side="first"), 400, "bad_request")
    refused(seek(host, options={"heaps": 99}), 400, "bad_option")
    refused(seek(host, rated=True), 403, "account_needed")
    refused(seek(host, colour="white"), 400, "bad_request")
    refused(host.post("/api/seeks", content=b"{", headers={"content-type": "application/json"}),
            400, "bad_request")  # fmt: skip
    assert host.get("/api/seeks").json()["seeks"] == []
    for _ in range(MAX_SEEKS_PER_PLAYER):
        assert seek(host).status_code == 201
    refused(seek(host), 429, "too_many_seeks")
    assert len(host.get("/api/seeks").json()["seeks"]) == MAX_SEEKS_PER_PLAYER
    mine = host.get("/api/seeks").json()["seeks"][0]["id"]
    refused(host.post(f"/api/seeks/{mine}/accept"), 409, "own_seek")
    refused(host.post("/api/seeks/s_nothing/accept"), 404, "unknown_seek")
    anonymous = hall_server.browser()
    rated = seek(signed_up(hall_server, "Ada"), rated=True).json()
    refused(anonymous.post(f"/api/seeks/{rated['id']}/accept"), 403, "account_needed")
    assert len(anonymous.get("/api/seeks").json()["seeks"]) == MAX_SEEKS_PER_PLAYER + 1


def test_new_identities_from_one_address_cannot_fill_the_lobby(hall_server):
    for _ in range(MAX_SEEKS_PER_ADDRESS // MAX_SEEKS_PER_PLAYER):
        spammer = hall_server.browser()
        for _ in range(MAX_SEEKS_PER_PLAYER):
            assert seek(spammer).status_code == 201
    error = refused(seek(hall_server.browser()), 429, "too_many_seeks")
    assert "network address" in error["message"]
    assert len(hall_server.browser().get("/api/seeks").json()["seeks"]) == MAX_SEEKS_PER_ADDRESS


def test_accepting_a_seek_seats_both_players_and_tells_the_creator(hall_server):
    host, guest = hall_server.browser(), hall_server.browser()
    host.put("/api/me/name", json={"name": "Host"})
    guest.put("/api/me/name", json={"name": "Guest"})
    with host.websocket_connect("/ws/lobby") as lobby:
        lobby.send_json({"type": "hello"})
        lobby_receive(lobby, "lobby")
        info = seek(host, side=0).json()
        created = guest.post(f"/api/seeks/{info['id']}/accept")
        assert created.status_code == 200, created.text
        game = created.json()
        assert game["you"] == [1]
        assert [s["player"] for s in game["seats"]] == ["Host", "Guest"]
        paired = lobby_receive(lobby, "paired")
        assert paired["id"] == game["id"] and paired["clock"] == "5+3"
        assert paired["url"] == f"/game/{game['id']}"  # no invite: the server keeps the seat
        assert host.get(f"/api/games/{game['id']}").json()["you"] == [0]
        shown = lobby_until(lobby, lambda m: m["games"])
        assert shown["seeks"] == []
        assert shown["games"][0]["players"] == ["Host", "Guest"]
    refused(guest.post(f"/api/seeks/{info['id']}/accept"), 404, "unknown_seek")
    assert guest.get(f"/api/games/{game['id']}").json()["you"] == [1]
    assert hall_server.browser().get(f"/api/games/{game['id']}").json()["you"] == []  # watches


def _second_account_in_the_same_browser(server: Any, browser: Any, name: str) -> Any:
    """Another tab of ``browser`` (its identity cookie), signed up as ``name``: one person
    with two accounts in one browser."""
    tab = server.browser()
    tab.cookies.set("gh_player", browser.cookies.get("gh_player"))
    answer = tab.post("/api/account/signup", json={"username": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return tab


def test_two_accounts_of_one_browser_cannot_play_a_rated_game(hall_server):
    ada = signed_up(hall_server, "Ada")
    bob = _second_account_in_the_same_browser(hall_server, ada, "Bob")
    with ada.websocket_connect("/ws/lobby") as lobby:
        lobby.send_json({"type": "hello"})
        lobby_receive(lobby, "lobby")
        rated = seek(ada, rated=True).json()
        error = refused(bob.post(f"/api/seeks/{rated['id']}/accept"), 409, "self_pairing")
        assert "Ada" in error["message"] and "rated" in error["message"]
        assert [s["id"] for s in bob.get("/api/seeks").json()["seeks"]] == [rated["id"]]
        # Casual games between them are fine, and a stranger may take the rated one.
        casual = seek(ada, rated=False).json()
        assert bob.post(f"/api/seeks/{casual['id']}/accept").status_code == 200
        carol = signed_up(hall_server, "Carol")
        assert carol.post(f"/api/seeks/{rated['id']}/accept").status_code == 200


def test_a_browser_seen_holding_both_accounts_sessions_is_one_person(hall_server):
    """Ada seeks from her phone; the laptop where she signed in before has since switched to
    Bob (signing in as him without signing out): Bob may not take her rated seek, there or
    from his own browser."""
    bob_home = signed_up(hall_server, "Bob")
    laptop = signed_up(hall_server, "Ada")
    phone = hall_server.browser()
    phone.post("/api/account/login", json={"username": "Ada", "password": PASSWORD})
    laptop.post("/api/account/login", json={"username": "Bob", "password": PASSWORD})
    assert laptop.get("/api/me").json()["name"] == "Bob"
    with phone.websocket_connect("/ws/lobby") as lobby:
        lobby.send_json({"type": "hello"})
        lobby_receive(lobby, "lobby")
        rated = seek(phone, rated=True).json()
        refused(laptop.post(f"/api/seeks/{rated['id']}/accept"), 409, "self_pairing")
        refused(bob_home.post(f"/api/seeks/{rated['id']}/accept"), 409, "self_pairing")
        carol = signed_up(hall_server, "Carol")
        assert carol.post(f"/api/seeks/{rated['id']}/accept").status_code == 200


def test_quick_pairing_never_rates_two_accounts_of_one_browser(hall_server):
    ada = signed_up(hall_server, "Ada")
    bob = _second_account_in_the_same_browser(hall_server, ada, "Bob")
    with ada.websocket_connect("/ws/lobby") as a, bob.websocket_connect("/ws/lobby") as b:
        for ws in (a, b):
            ws.send_json({"type": "hello"})
            lobby_receive(ws, "lobby")
        a.send_json({"type": "pair", "game": "nim", "clock": "3+2", "rated": True})
        lobby_until(a, lambda m: m["waiting"])
        b.send_json({"type": "pair", "game": "nim", "clock": "3+2", "rated": True})
        error = lobby_receive(b, "error")
        assert error["code"] == "self_pairing" and "Ada" in error["message"]
        tick(hall_server)
        assert hall_server.app.state.hall.lobby.pools() == {("nim", "3+2", True): 1}  # Ada's
        # A casual wait of the same two is paired as usual.
        a.send_json({"type": "pair", "game": "nim", "clock": "3+2"})
        b.send_json({"type": "pair", "game": "nim", "clock": "3+2"})
        lobby_until(b, lambda m: m["waiting"])
        tick(hall_server)
        assert lobby_receive(a, "paired")["rated"] is False


def test_a_seek_for_a_game_with_a_file_option_can_be_accepted(hall_server):
    host, guest = hall_server.browser(), hall_server.browser()
    info = seek(host, game="acadmu", options={"target": 1}).json()
    assert info["options"]["target"] == 1 and "discs_file" not in info["options"]
    created = guest.post(f"/api/seeks/{info['id']}/accept")
    assert created.status_code == 200, created.text
    assert created.json()["you"] in ([0], [1])


def test_a_seek_lapses_when_its_creator_leaves_the_lobby(hall_server):
    host = hall_server.browser()
    host.get("/api/me")  # the page asks first, so the socket comes with the identity cookie
    with host.websocket_connect("/ws/lobby") as lobby:
        lobby.send_json({"type": "hello"})
        lobby_receive(lobby, "lobby")
        info = seek(host).json()
    hall = hall_server.app.state.hall
    (left,) = hall.away.values()
    tick(hall_server, left + LEAVE_GRACE / 2)
    assert [s["id"] for s in host.get("/api/seeks").json()["seeks"]] == [info["id"]]
    tick(hall_server, left + LEAVE_GRACE + 1)
    assert host.get("/api/seeks").json()["seeks"] == []
    assert hall_server.client.portal.call(hall.db, hall.store.stored_seeks) == []


# --- the lobby's WebSocket and quick pairing --------------------------------------------------------


def test_quick_pairing_matches_two_waiting_players(hall_server):
    one, two = hall_server.browser(), hall_server.browser()
    one.get("/api/me"), two.get("/api/me")
    with one.websocket_connect("/ws/lobby") as a, two.websocket_connect("/ws/lobby") as b:
        for ws in (a, b):
            ws.send_json({"type": "hello"})
            first = lobby_receive(ws, "lobby")
            assert first["controls"] and first["waiting"] is None
        a.send_json({"type": "pair", "game": "nim", "clock": "3+2"})
        waiting = lobby_until(a, lambda m: m["waiting"])
        assert waiting["waiting"] == {"game": "nim", "clock": "3+2", "rated": False}
        assert waiting["pools"] == [{"game": "nim", "clock": "3+2", "rated": False, "waiting": 1}]
        b.send_json({"type": "pair", "game": "nim", "clock": "5+3"})  # another pool
        lobby_until(b, lambda m: m["waiting"])
        tick(hall_server)
        b.send_json({"type": "pair", "game": "nim", "clock": "3+2"})
        lobby_until(b, lambda m: m["waiting"] and m["waiting"]["clock"] == "3+2")
        tick(hall_server)
        paired_a, paired_b = lobby_receive(a, "paired"), lobby_receive(b, "paired")
        assert paired_a["id"] == paired_b["id"] and paired_a["url"] == f"/game/{paired_a['id']}"
        state_url = paired_a["url"].replace("/game/", "/api/games/")
        seats = [browser.get(state_url).json()["you"] for browser in (one, two)]
        assert sorted(seats) == [[0], [1]]  # each holds their own seat, on the server
        lobby_until(a, lambda m: m["waiting"] is None and m["games"])
        b.send_json({"type": "pair", "game": "nim", "clock": "3+2"})
        lobby_until(b, lambda m: m["waiting"])
        b.send_json({"type": "unpair"})
        assert lobby_until(b, lambda m: m["waiting"] is None)["pools"] == []


def test_every_bad_lobby_message_gets_an_error_and_changes_nothing(hall_server):
    browser = hall_server.browser()
    with browser.websocket_connect("/ws/lobby") as ws:  # no identity cookie yet: cannot wait
        ws.send_json({"type": "pair", "game": "nim"})
        assert "identity cookie" in lobby_receive(ws, "error")["message"]
    browser.get("/api/me")
    with browser.websocket_connect("/ws/lobby") as ws:
        for text, code in [
            ("not json", "bad_json"),
            ("[1]", "bad_json"),
            ('{"type": "dance"}', "bad_message"),
            ('{"type": "pair"}', "bad_message"),
            ('{"type": "pair", "game": "nim", "rated": "yes"}', "bad_message"),
            ('{"type": "pair", "game": "chess"}', "unknown_game"),
            ('{"type": "pair", "game": "nim", "clock": "forever"}', "bad_clock"),
            ('{"type": "pair", "game": "nim", "rated": true}', "account_needed"),
        ]:
            ws.send_text(text)
            assert lobby_receive(ws, "error")["code"] == code, text
        ws.send_json({"type": "ping"})
        lobby_receive(ws, "pong")
        ws.send_json({"type": "hello"})
        assert lobby_receive(ws, "lobby")["waiting"] is None
    assert hall_server.app.state.hall.lobby.waiting == {}


# --- rated games, profiles, leaderboards -----------------------------------------------------------


def _play_to_the_end(server: Any, sockets: dict[int, Any]) -> dict[str, Any]:
    states = [hello(server, ws) for ws in sockets.values()]
    assert len({state["version"] for state in states}) == 1
    return play_random(server, states[0], seats=sockets, rng=random.Random(7))


def test_a_rated_game_rates_both_players_and_shows_on_profiles_and_the_leaderboard(hall_server):
    ada, bob = signed_up(hall_server, "Ada"), signed_up(hall_server, "Bob")
    info = seek(ada, rated=True, side=0).json()
    assert info["rating"] == 1500
    game = bob.post(f"/api/seeks/{info['id']}/accept").json()
    ada_game = ada.get("/api/games").json()["games"][0]
    assert ada_game["id"] == game["id"]
    token = hall_server.hub.games[game["id"]].row.seats[0].token  # as the lobby tells Ada
    ada.post(f"/api/games/{game['id']}/join", json={"seat": token})
    assert ada.get(f"/api/games/{game['id']}").json()["you"] == [0]
    with (
        ada.websocket_connect(f"/ws/games/{game['id']}") as ws_a,
        bob.websocket_connect(f"/ws/games/{game['id']}") as ws_b,
    ):
        final = _play_to_the_end(hall_server, {0: ws_a, 1: ws_b})
    assert final["over"]
    winner = final["outcome"]["winner"]
    hall = hall_server.app.state.hall

    def counted() -> bool:
        row = hall_server.client.portal.call(hall.db, hall.store.hall_game, game["id"])
        return bool(row[2])

    wait_for(hall_server, counted)
    profiles = {name: ada.get(f"/api/players/{name}").json() for name in ("Ada", "Bob")}
    for seat, name in enumerate(("Ada", "Bob")):
        (rating,) = profiles[name]["ratings"]
        assert rating["game"] == "nim" and rating["games"] == 1 and rating["provisional"]
        won = winner == seat
        assert (rating["rating"] > 1500) == won and rating["rating"] != 1500
        assert [p["game_id"] for p in rating["history"]] == [game["id"]]
        assert rating["seats"] == [
            {"seat": seat, "name": ("first", "second")[seat], "wins": int(won), "draws": 0,
             "losses": int(not won)}
        ]  # fmt: skip
        (shown,) = profiles[name]["games"]
        assert shown["rated"] and shown["replay"] == f"/replay/{game['id']}"
        assert [s["player"] for s in shown["seats"]] == ["Ada", "Bob"]
    board = ada.get("/api/leaderboard/nim").json()
    names = [row["name"] for row in board["players"]]
    assert names == (["Ada", "Bob"] if winner == 0 else ["Bob", "Ada"])
    assert [row["rank"] for row in board["players"]] == [1, 2]
    # counted once: another look (or a restart's recount) changes nothing
    hall_server.client.portal.call(hall.finished, hall_server.hub.games[game["id"]])
    assert ada.get("/api/players/Ada").json()["ratings"][0]["games"] == 1


def test_an_unfinished_rated_game_does_not_count_and_casual_games_never_do(hall_server):
    ada, bob = signed_up(hall_server, "Ada"), signed_up(hall_server, "Bob")
    rated = seek(ada, rated=True).json()
    bob.post(f"/api/seeks/{rated['id']}/accept")
    casual = seek(ada).json()
    bob.post(f"/api/seeks/{casual['id']}/accept")
    assert ada.get("/api/players/Ada").json()["ratings"] == []
    assert ada.get("/api/leaderboard/nim").json()["players"] == []


def test_profiles_and_leaderboards_of_what_does_not_exist(hall_server):
    browser = hall_server.browser()
    refused(browser.get("/api/players/Nobody"), 404, "unknown_player")
    refused(browser.get("/api/leaderboard/chess"), 404, "unknown_game")
    name = browser.get("/api/me").json()["name"]
    refused(browser.get(f"/api/players/{name}"), 404, "unknown_player")  # a guest, not stored
    browser.post("/api/games", json={"game": "nim", "mode": "hotseat"})  # now it is, so named
    profile = browser.get(f"/api/players/{name.upper()}").json()
    assert profile["name"] == name and profile["ratings"] == [] and not profile["account"]
