"""Issue 33's attacks on identities and accounts, over REST and the sockets: cookieless and
made-up identities store nothing, sign-ins and renames are limited, sessions are capped and
expire, and signing out closes the sockets of the sessions it ends."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from sqlalchemy import func, select
from starlette.websockets import WebSocketDisconnect

from gamehall.store.hall import players_table
from gamehall.web.hall.accounts import MAX_ADDRESS_SIGN_INS, MAX_SESSIONS, SESSION_IDLE
from gamehall.web.hall.players import MAX_ADDRESS_RENAMES, MAX_RENAMES
from gamehall.web.play.connection import SESSION_ENDED
from tests.web.hall_helpers import PASSWORD, lobby_receive, refused, signed_up, tick
from tests.web.web_helpers import hello


def players_stored(server: Any) -> int:
    with server.app.state.hall.store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(players_table)).scalar_one())


# --- point 5: identities ------------------------------------------------------------------------


def test_reading_stores_no_player_and_acting_stores_one(hall_server):
    before = players_stored(hall_server)
    for _ in range(5):
        reader = hall_server.browser()
        for path in ("/api/seeks", "/api/meta", "/api/me", "/api/games", "/lobby", "/"):
            assert reader.get(path).status_code == 200, path
        with reader.websocket_connect("/ws/lobby") as ws:
            ws.send_json({"type": "hello"})
            lobby_receive(ws, "lobby")
    assert players_stored(hall_server) == before
    player = hall_server.browser()
    shown = player.get("/api/me").json()["name"]
    player.post("/api/games", json={"game": "nim", "mode": "hotseat"})
    assert players_stored(hall_server) == before + 1
    assert player.get("/api/me").json()["name"] == shown  # the name it was shown is its own


def test_a_made_up_or_altered_identity_cookie_is_a_new_guest(hall_server):
    owner = hall_server.browser()
    game = owner.post("/api/games", json={"game": "nim", "mode": "hotseat"}).json()
    cookie = owner.cookies.get("gh_player")
    secret, _, mac = cookie.rpartition(".")
    assert secret and mac  # signed: the secret and its MAC
    altered = f"{secret}.{mac[:-1]}{'A' if mac[-1] != 'A' else 'B'}"
    for forged in ("A" * 43, altered, f"{'B' * 43}.{mac}", f"{secret}x.{mac}"):
        stranger = hall_server.browser()
        stranger.cookies.set("gh_player", forged)
        answer = stranger.get("/api/games")
        assert answer.json()["games"] == []  # none of the owner's games
        assert answer.cookies.get("gh_player") not in (None, forged)  # a new identity given
        assert stranger.get(f"/api/games/{game['id']}").json()["you"] == []
    assert [g["id"] for g in owner.get("/api/games").json()["games"]] == [game["id"]]


def test_an_older_servers_unsigned_cookie_is_signed_if_the_store_knows_it(hall_server):
    """Browsers of servers before signing keep their games; a made-up one is a new guest."""
    from gamehall.store.rows import player_key

    old = "O" * 43
    hall_store = hall_server.app.state.hall.store
    hall_store.ensure_player(player_key(old), lambda: ("Oldtimer", "oldtlmer"))
    browser = hall_server.browser()
    browser.cookies.set("gh_player", old)
    answer = browser.get("/api/me")
    assert answer.json()["name"] == "Oldtimer"
    assert answer.cookies.get("gh_player", "").startswith(old + ".")  # signed now
    page = hall_server.browser()
    page.cookies.set("gh_player", old)
    assert page.get("/lobby").cookies.get("gh_player", "").startswith(old + ".")  # a page too
    for path in ("/api/me", "/lobby"):
        stranger = hall_server.browser()
        stranger.cookies.set("gh_player", "N" * 43)  # unsigned, and no player of the store
        given = stranger.get(path).cookies.get("gh_player", "")
        assert given and given.partition(".")[0] != "N" * 43, path


def test_the_server_secret_is_made_once_in_the_data_directory_readable_by_its_owner(hall_server):
    from pathlib import Path

    from gamehall.web.http.signing import SECRET_FILE, data_folder

    path = Path(data_folder(hall_server.db_url)) / SECRET_FILE
    assert path.is_file() and path.stat().st_mode & 0o777 == 0o600


# --- point 10: sign-ins and sessions ------------------------------------------------------------


def test_sign_ins_that_succeed_are_limited_per_address_too(hall_server):
    signed_up(hall_server, "Ada")
    now = [1000.0]
    hall_server.app.state.hall.clock = lambda: now[0]
    for _ in range(MAX_ADDRESS_SIGN_INS):  # new browsers, one address: each a new session
        laptop = hall_server.browser(address="10.0.0.7")
        answer = laptop.post("/api/account/login", json={"username": "Ada", "password": PASSWORD})
        assert answer.status_code == 200, answer.text
    error = refused(
        laptop.post("/api/account/login", json={"username": "Ada", "password": PASSWORD}),
        429, "too_many_attempts",
    )  # fmt: skip
    assert f"{MAX_ADDRESS_SIGN_INS} sign-ins" in error["message"]
    other = hall_server.browser(address="10.0.0.8")  # another address is not held up
    answer = other.post("/api/account/login", json={"username": "Ada", "password": PASSWORD})
    assert answer.is_success
    assert other.get("/api/me").json()["sessions"] == MAX_SESSIONS  # the oldest were dropped
    now[0] += 3600
    answer = laptop.post("/api/account/login", json={"username": "Ada", "password": PASSWORD})
    assert answer.is_success


def test_an_unused_session_expires(hall_server):
    ada = signed_up(hall_server, "Ada")
    players = hall_server.app.state.hall.players
    start = datetime.datetime.now(datetime.UTC)
    players.wall = lambda: start + datetime.timedelta(seconds=SESSION_IDLE / 2)
    assert ada.get("/api/me").json()["account"] is True  # used: its last use moves on
    players.wall = lambda: start + datetime.timedelta(seconds=SESSION_IDLE * 1.4)
    assert ada.get("/api/me").json()["account"] is True  # unused for less than SESSION_IDLE
    # (the last use moved on to 1.4 now)
    players.wall = lambda: start + datetime.timedelta(seconds=SESSION_IDLE * 2.5)
    assert ada.get("/api/me").json()["account"] is False  # unused since 1.4: expired, refused
    with hall_server.app.state.hall.store.engine.connect() as conn:
        from gamehall.store.sessions import sessions_table

        assert conn.execute(select(func.count()).select_from(sessions_table)).scalar_one() == 0


# --- point 11: renames ------------------------------------------------------------------------


def test_renames_are_limited_and_watchers_are_shown_them_once_a_round(hall_server):
    host = hall_server.browser()
    game = host.post("/api/games", json={"game": "nim", "mode": "online"}).json()
    watcher = hall_server.browser()
    with watcher.websocket_connect(f"/ws/games/{game['id']}") as ws:
        hello(hall_server, ws)
        for n in range(MAX_RENAMES):
            assert host.put("/api/me/name", json={"name": f"Host{n}"}).status_code == 200
        error = refused(host.put("/api/me/name", json={"name": "HostX"}), 429, "over_limit")
        assert f"{MAX_RENAMES} renames" in error["message"]
        last = f"Host{MAX_RENAMES - 1}"
        assert host.get(f"/api/games/{game['id']}").json()["seats"][0]["player"] == last
        tick(hall_server)  # the round shows the renames: one state for all of them
        state = hall_server.receive_state(ws)
        assert state["seats"][0]["player"] == last
        ws.send_json({"type": "ping"})  # nothing else was sent before the answer to this
        assert hall_server.receive(ws)["type"] == "pong"


def test_fresh_guests_of_one_address_cannot_squat_names(hall_server):
    for n in range(MAX_ADDRESS_RENAMES):
        squatter = hall_server.browser(address="10.0.0.9")
        assert squatter.put("/api/me/name", json={"name": f"champion{n}"}).status_code == 200
    error = refused(
        hall_server.browser(address="10.0.0.9").put("/api/me/name", json={"name": "champion99"}),
        429, "over_limit",
    )  # fmt: skip
    assert "network address" in error["message"]
    someone = hall_server.browser(address="10.0.0.10")
    answer = someone.post(
        "/api/account/signup", json={"username": "champion99", "password": PASSWORD}
    )
    assert answer.status_code == 200, answer.text


# --- point 7: signing out closes sockets --------------------------------------------------------


def _closed_with(server: Any, ws: Any) -> int:
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            server.receive(ws)
    return closed.value.code


def test_signing_out_everywhere_closes_the_sessions_sockets(hall_server):
    ada = signed_up(hall_server, "Ada")
    game = ada.post("/api/games", json={"game": "nim", "mode": "online"}).json()
    watched = hall_server.browser().post("/api/games", json={"game": "nim", "mode": "online"})
    phone = hall_server.browser()
    phone.post("/api/account/login", json={"username": "Ada", "password": PASSWORD})
    with (
        ada.websocket_connect(f"/ws/games/{game['id']}") as seat,
        ada.websocket_connect(f"/ws/games/{watched.json()['id']}") as spectator,
        ada.websocket_connect("/ws/lobby") as lobby,
    ):
        assert hello(hall_server, seat)["you"] == [0]
        hello(hall_server, spectator)
        lobby.send_json({"type": "hello"})
        lobby_receive(lobby, "lobby")
        assert phone.post("/api/account/logout", json={"everywhere": True}).is_success
        for ws in (seat, spectator):
            assert _closed_with(hall_server, ws) == SESSION_ENDED
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                lobby_receive(lobby, "never")
        assert closed.value.code == SESSION_ENDED
    assert hall_server.hub.games[game["id"]].over is False  # nothing was done for Ada after
