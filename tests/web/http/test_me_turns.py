"""The header's questions: GET /api/me/turns (the games where it is the caller's move, over all
their games) and GET /api/account/rules (the sign-up rules, as the server checks them)."""

from __future__ import annotations

import random

from gamehall.web.hall import names
from gamehall.web.hall.accounts import MAX_PASSWORD, MIN_PASSWORD
from tests.web.hall_helpers import PASSWORD, refused, signed_up
from tests.web.web_helpers import hello, play_random


def turns(browser) -> dict:
    answer = browser.get("/api/me/turns")
    assert answer.status_code == 200, answer.text
    found = answer.json()
    assert found["count"] == len(found["games"])
    return found


def create(browser, **body) -> dict:
    answer = browser.post("/api/games", json={"game": "nim", **body})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_turns_follow_the_move_from_one_player_to_the_other(hall_server):
    ada = signed_up(hall_server, "Ada")
    bob = hall_server.browser()
    assert turns(ada) == {"count": 0, "games": [], "looked": 0}
    online = create(ada, mode="online", seat=0)
    token = online["invite"].split("?seat=")[1]
    assert bob.post(f"/api/games/{online['id']}/join", json={"seat": token}).status_code == 200
    bob_name = bob.get("/api/me").json()["name"]

    # The first player (Ada) is to move once the heaps are dealt: her game, not Bob's.
    state = ada.get(f"/api/games/{online['id']}").json()
    assert state["to_move"] == 0
    mine = turns(ada)
    assert [g["id"] for g in mine["games"]] == [online["id"]]
    game = mine["games"][0]
    assert (game["seat"], game["seat_name"], game["opponents"]) == (0, "first", [bob_name])
    assert game["url"] == f"/game/{online['id']}" and game["mode"] == "online"
    assert turns(bob)["count"] == 0

    # Ada moves: now it is Bob's move, not hers.
    with ada.websocket_connect(f"/ws/games/{online['id']}") as ws:
        state = hello(hall_server, ws, known=state)
        state = play_random(hall_server, state, seats={0: ws}, rng=random.Random(1), moves=1)
    assert state["to_move"] == 1
    assert turns(ada)["count"] == 0
    theirs = turns(bob)
    assert [(g["id"], g["seat"], g["opponents"]) for g in theirs["games"]] == [
        (online["id"], 1, ["Ada"])
    ]

    # A stored game (out of memory) is replayed to say whose move it is: the same answer.
    hall_server.hub.games.pop(online["id"])
    assert [g["id"] for g in turns(bob)["games"]] == [online["id"]]
    assert turns(ada)["count"] == 0
    assert online["id"] not in hall_server.hub.games  # asking keeps no game in memory


def test_turns_count_computer_games_but_not_hot_seat_or_finished_ones(hall_server):
    ada = signed_up(hall_server, "Ada")
    computer = create(ada, mode="computer", seat=0, level="beginner")
    create(ada, mode="hotseat")  # both seats hers: nobody waits on her
    assert [g["id"] for g in turns(ada)["games"]] == [computer["id"]]
    assert turns(ada)["games"][0]["opponents"] == ["computer (beginner)"]
    with ada.websocket_connect(f"/ws/games/{computer['id']}") as ws:
        state = hello(hall_server, ws)
        ws.send_json({"type": "resign"})
        while not state["over"]:
            state = hall_server.receive_state(ws)
    assert turns(ada)["count"] == 0
    assert turns(hall_server.browser())["count"] == 0  # a stranger: none of hers


def test_account_rules_are_the_ones_sign_up_applies(hall_server):
    rules = hall_server.client.get("/api/account/rules").json()
    assert (rules["name_min"], rules["name_max"]) == (names.MIN_LENGTH, names.MAX_LENGTH)
    assert (rules["password_min"], rules["password_max"]) == (MIN_PASSWORD, MAX_PASSWORD)
    assert rules["name_rules"] and rules["password_rules"]
    assert f"{names.MIN_LENGTH} to {names.MAX_LENGTH} characters" in rules["name_rules"][0]
    browser = hall_server.browser()
    signup = "/api/account/signup"
    too_long = "a" * (rules["name_max"] + 1)
    refused(
        browser.post(signup, json={"username": too_long, "password": PASSWORD}), 400, "bad_name"
    )
    short = "p" * (rules["password_min"] - 1)
    refused(browser.post(signup, json={"username": "Cleo", "password": short}), 400, "bad_password")
    just = "p" * rules["password_min"]
    assert browser.post(signup, json={"username": "Cleo", "password": just}).status_code == 200


def test_the_new_pages_are_the_app(hall_server):
    for path in ["/leaderboard", "/signin", "/signup", "/your-move", "/signin?next=%2Flobby"]:
        answer = hall_server.client.get(path)
        assert answer.status_code == 200 and "gamehall test" in answer.text, path
