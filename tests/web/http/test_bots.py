"""Bot accounts (docs/bots.md): only a person's account makes them, they sign in with their
token, they are marked as bots in every wire model that names a player (the lobby's seeks
and live games, a game's seats, profiles, the leaderboard, ``/api/me``), and a bot is never
paired rated with its owner or another bot of the same owner, by seek or quick pairing."""

from __future__ import annotations

import random
from typing import Any

from tests.web.hall_helpers import lobby_receive, lobby_until, refused, seek, signed_up, tick
from tests.web.web_helpers import hello, play_random


def make_bot(server: Any, owner: Any, name: str) -> Any:
    """``owner`` makes the bot ``name``; a new browser signed in as it."""
    made = owner.post("/api/account/bots", json={"name": name})
    assert made.status_code == 201, made.text
    answer = made.json()
    assert answer["name"] == name and len(answer["token"]) >= 32
    bot = server.browser()
    signed = bot.post("/api/account/login", json={"username": name, "password": answer["token"]})
    assert signed.status_code == 200, signed.text
    assert signed.json()["bot"] is True
    return bot


def test_only_a_persons_account_makes_bots_and_a_few_at_most(hall_server):
    guest = hall_server.browser()
    refused(guest.post("/api/account/bots", json={"name": "Robo"}), 403, "account_needed")
    ada = signed_up(hall_server, "Ada")
    assert ada.get("/api/me").json()["bot"] is False
    bot = make_bot(hall_server, ada, "Robo")
    assert bot.get("/api/me").json() == {
        "name": "Robo",
        "account": True,
        "sessions": 1,
        "bot": True,
    }
    refused(bot.post("/api/account/bots", json={"name": "Robo2"}), 403, "bot_account")
    refused(ada.post("/api/account/bots", json={"name": "ROBO"}), 409, "name_taken")
    refused(ada.post("/api/account/bots", json={"name": "a<b"}), 400, "bad_name")
    for n in range(2, 6):
        make_bot(hall_server, ada, f"Robo{n}")
    refused(ada.post("/api/account/bots", json={"name": "Robo6"}), 429, "too_many_bots")
    assert hall_server.browser().get("/api/players/Robo6").status_code == 404  # nothing made
    # The bot's token is its password; a wrong one is refused like any.
    stranger = hall_server.browser()
    refused(
        stranger.post("/api/account/login", json={"username": "Robo", "password": "guess"}),
        401,
        "wrong_password",
    )


def test_a_bot_is_never_paired_rated_with_its_owner_or_its_owners_other_bots(hall_server):
    ada = signed_up(hall_server, "Ada")
    robo = make_bot(hall_server, ada, "Robo")
    twin = make_bot(hall_server, ada, "Twin")
    offered = seek(robo, rated=True).json()
    for same_person in (ada, twin):
        refused(same_person.post(f"/api/seeks/{offered['id']}/accept"), 409, "self_pairing")
        # ... and the lobby says so, instead of offering an Accept that can only be refused.
        shown = {s["id"]: s for s in same_person.get("/api/seeks").json()["seeks"]}
        assert shown[offered["id"]]["same_person"] is True
    stranger = signed_up(hall_server, "Bea")
    shown = {s["id"]: s for s in stranger.get("/api/seeks").json()["seeks"]}
    assert shown[offered["id"]]["same_person"] is False
    assert shown[offered["id"]]["bot"] is True
    # Casual is fine: nothing is rated.
    casual = seek(robo, rated=False).json()
    assert ada.post(f"/api/seeks/{casual['id']}/accept").status_code == 200
    # A rated challenge either way is refused; a casual one is fine.
    rated = {"name": "Robo", "game": "nim", "clock": "5+3", "rated": True}
    refused(ada.post("/api/challenges", json=rated), 409, "self_pairing")
    refused(robo.post("/api/challenges", json={**rated, "name": "Ada"}), 409, "self_pairing")
    assert ada.post("/api/challenges", json={**rated, "rated": False}).status_code == 201
    # Quick pairing in a rated pool keeps them apart too.
    with robo.websocket_connect("/ws/lobby") as one, ada.websocket_connect("/ws/lobby") as two:
        for socket in (one, two):
            socket.send_json({"type": "hello"})
            lobby_receive(socket, "lobby")
        one.send_json({"type": "pair", "game": "nim", "clock": "3+2", "rated": True})
        two.send_json({"type": "pair", "game": "nim", "clock": "3+2", "rated": True})
        error = lobby_receive(two, "error")
        assert error["code"] == "self_pairing"


def test_bots_are_marked_in_the_lobby_the_game_the_profile_and_the_leaderboard(hall_server):
    ada, bob = signed_up(hall_server, "Ada"), signed_up(hall_server, "Bob")
    robo = make_bot(hall_server, ada, "Robo")
    offered = seek(robo, rated=True).json()
    assert offered["bot"] is True
    assert seek(bob, rated=True).json()["bot"] is False
    with ada.websocket_connect("/ws/lobby") as lobby:
        lobby.send_json({"type": "hello"})
        shown = lobby_receive(lobby, "lobby")
        assert {(s["name"], s["bot"]) for s in shown["seeks"]} == {("Robo", True), ("Bob", False)}
        created = bob.post(f"/api/seeks/{offered['id']}/accept")
        assert created.status_code == 200, created.text
        game = created.json()
        assert {(s["player"], s["bot"]) for s in game["seats"]} == {("Robo", True), ("Bob", False)}
        tick(hall_server)
        # (the game may be listed a moment before its seats' names are read from the store)
        live = lobby_until(lobby, lambda m: m["games"] and all(m["games"][0]["players"]))
        live = live["games"][0]
        assert dict(zip(live["players"], live["bots"], strict=True)) == {"Robo": True, "Bob": False}
    seats = {s["player"]: s["index"] for s in game["seats"]}
    with (
        robo.websocket_connect(f"/ws/games/{game['id']}") as robo_ws,
        bob.websocket_connect(f"/ws/games/{game['id']}") as bob_ws,
    ):
        state = hello(hall_server, robo_ws)
        hello(hall_server, bob_ws)
        assert {(s["player"], s["bot"]) for s in state["seats"]} == {
            ("Robo", True),
            ("Bob", False),
        }
        end = play_random(
            hall_server,
            state,
            seats={seats["Robo"]: robo_ws, seats["Bob"]: bob_ws},
            rng=random.Random(3),
        )
        assert end["over"]
    assert robo.get("/api/players/Robo").json()["bot"] is True
    profile = bob.get("/api/players/Bob").json()
    assert profile["bot"] is False
    assert {(p["player"], p["bot"]) for p in profile["games"][0]["seats"]} == {
        ("Robo", True),
        ("Bob", False),
    }
    board = bob.get("/api/leaderboard/nim").json()["players"]
    assert {(row["name"], row["bot"]) for row in board} == {("Robo", True), ("Bob", False)}
