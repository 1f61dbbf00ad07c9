"""The REST API: meta, creating games, errors, lists, records, replays, rematches, rules, pages."""

from __future__ import annotations

import random

import pytest

from gamehall.ai import LEVELS
from gamehall.core import Record, game_names
from tests.web.web_helpers import hello, play_out, play_random


def _create(client, **body):
    body = {"game": "acadmu", "options": {"target": 1}, "mode": "hotseat", **body}
    return client.post("/api/games", json=body)


def _play(server, client, game_id, moves, seed=0):
    """Play ``moves`` random moves for the seats ``client`` holds (hot-seat)."""
    state = client.get(f"/api/games/{game_id}").json()
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        state = hello(server, ws, known=state)
        seats = dict.fromkeys(state["you"], ws)
        return play_random(server, state, seats=seats, rng=random.Random(seed), moves=moves)


def test_meta_lists_games_options_and_levels(server):
    meta = server.client.get("/api/meta").json()
    assert meta["protocol"] == 1
    assert [g["name"] for g in meta["games"]] == game_names()
    acadmu = next(g for g in meta["games"] if g["name"] == "acadmu")
    assert acadmu["seats"] == ["dark", "light"]
    target = next(o for o in acadmu["options"] if o["name"] == "target")
    assert target["default"] == 12 and target["kind"] == "int" and target["help"]
    assert (target["minimum"], target["maximum"], target["choices"]) == (1, 999, None)
    assert meta["levels"] == list(LEVELS)
    # Every option is described by its kind, so the home page needs no per-game code.
    akros = next(g for g in meta["games"] if g["name"] == "akros")
    kinds = {o["name"]: o["kind"] for o in akros["options"]}
    assert kinds == {"board": "choice", "board_data": "data", "board_file": "path"}
    board = next(o for o in akros["options"] if o["name"] == "board")
    assert board["default"] in board["choices"] and "dawn" in board["choices"]
    assert all(g["rules_version"] == "1" for g in meta["games"])


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "chess"}, 404, "unknown_game"),
        ({"options": {"target": "many"}}, 400, "bad_option"),
        ({"options": {"colour": "red"}}, 400, "bad_option"),
        ({"options": {"discs": "/etc/passwd"}}, 400, "bad_option"),
        ({"options": {"discs": "pyproject.toml"}}, 400, "bad_option"),
        ({"mode": "computer", "level": "grandmaster"}, 400, "bad_level"),
        ({"mode": "computer", "level": "mcts:100000"}, 400, "bad_level"),  # unbounded search
        ({"mode": "computer", "level": "greedy:0.5"}, 400, "bad_level"),
        ({"mode": "online", "seat": 2}, 400, "bad_seat"),
        ({"mode": "solitaire"}, 400, "bad_request"),
        ({"options": [1, 2]}, 400, "bad_request"),
    ],
)
def test_bad_create_requests_say_why(server, body, status, code):
    answer = _create(server.client, **body)
    assert answer.status_code == status
    error = answer.json()["error"]
    assert error["code"] == code and error["message"]
    assert server.client.get("/api/games").json()["games"] == []


def test_bad_json_body(server):
    answer = server.client.post(
        "/api/games", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_request"


def test_unknown_game_everywhere(server):
    for path in [
        "/api/games/g_missing123",
        "/api/games/g_missing123/record",
        "/api/games/x/replay",
    ]:
        answer = server.client.get(path)
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "unknown_game"
    answer = server.client.post("/api/games/g_missing123/join", json={"seat": "x"})
    assert answer.json()["error"]["code"] == "unknown_game"


def test_create_each_mode_and_list_my_games(server):
    hotseat = _create(server.client).json()
    assert hotseat["you"] == [0, 1] and hotseat["url"].endswith(f"/game/{hotseat['id']}")
    assert hotseat["id"].startswith("g_") and len(hotseat["id"]) == 12
    computer = _create(server.client, mode="computer", seat=1, level="beginner").json()
    assert computer["you"] == [1]
    assert [s["kind"] for s in computer["seats"]] == ["computer", "human"]
    online = _create(server.client, mode="online").json()
    assert online["you"] == [0] and "?seat=" in online["invite"]
    assert hotseat["invite"] is None and computer["invite"] is None

    mine = server.client.get("/api/games").json()["games"]
    assert {g["id"] for g in mine} == {hotseat["id"], computer["id"], online["id"]}
    assert all(g["status"] == "ongoing" and g["version"] >= 2 for g in mine)
    assert server.browser().get("/api/games").json()["games"] == []

    state = server.client.get(f"/api/games/{online['id']}").json()
    assert (
        state["type"] == "state" and state["you"] == [0] and state["seats"][1]["connected"] is False
    )
    assert server.browser().get(f"/api/games/{online['id']}").json()["you"] == []


def test_join_with_a_bad_token_is_refused(server):
    online = _create(server.client, mode="online").json()
    guest = server.browser()
    answer = guest.post(f"/api/games/{online['id']}/join", json={"seat": "wrong"})
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "bad_seat_token"
    token = online["invite"].split("?seat=")[1]
    assert guest.post(f"/api/games/{online['id']}/join", json={"seat": token}).json()["you"] == [1]
    assert guest.get(f"/api/games/{online['id']}").json()["you"] == [1]
    assert [g["id"] for g in guest.get("/api/games").json()["games"]] == [online["id"]]


def test_record_download_replays(server):
    game = _create(server.client).json()
    state = _play(server, server.client, game["id"], 8)
    answer = server.client.get(f"/api/games/{game['id']}/record")
    assert answer.headers["content-type"].startswith("text/plain")
    assert "attachment" in answer.headers["content-disposition"]
    record = Record.parse(answer.text)
    states = record.replay()
    assert record.tags["Game"] == "acadmu" and record.actions == state["actions"]
    assert str(states[-1]) == state["position"]
    assert record.game().options["target"] == 1


def test_replay_gives_every_state(server):
    game = _create(server.client).json()
    state = _play(server, server.client, game["id"], 5)
    replay = server.client.get(f"/api/games/{game['id']}/replay").json()
    assert [a["text"] for a in replay["actions"]] == state["actions"]
    assert [a["mover"] for a in replay["actions"]] == state["movers"]
    assert replay["actions"][-1] == state["last"]
    assert len(replay["states"]) == len(replay["actions"]) + 1
    assert replay["states"][-1] == state["view"]
    assert replay["seats"] == ["dark", "light"]
    # The first-player draw (drawn again on a tie) and the pour are chance's; the moves are the
    # seats', with their parts.
    kinds = [a["kind"] for a in replay["actions"]]
    draws = next(i for i, kind in enumerate(kinds) if kind != "draw")
    assert draws >= 1 and kinds[draws] == "pour"
    assert all(a["mover"] == -1 for a in replay["actions"][: draws + 1])
    for action in replay["actions"][draws + 1 :]:
        if action["mover"] >= 0:
            assert action["kind"] in ("capture", "pass")
    # Each in words, with its round (the draw comes before round 1).
    for action in replay["actions"]:
        if action["kind"] == "draw":
            assert action["chapter"] == "Who goes first"
            assert action["words"].startswith("Draw for first: Dark shows a ")
        else:
            assert action["chapter"] == "Round 1"
            assert action["words"].startswith(("Dark", "Light", "Both pour their discs"))


def test_rematch_swaps_seats_and_is_made_once(server):
    online = _create(server.client, mode="online").json()
    guest = server.browser()
    guest.post(f"/api/games/{online['id']}/join", json={"seat": online["invite"].split("=")[1]})
    play_out(server, [server.client, guest], online["id"])
    again = server.client.post(f"/api/games/{online['id']}/rematch").json()
    assert again["id"] != online["id"] and again["you"] == [1]
    # The other player holds their swapped seat through their identity, and asking for a
    # rematch again gives the same new game.
    assert guest.get(f"/api/games/{again['id']}").json()["you"] == [0]
    assert guest.post(f"/api/games/{online['id']}/rematch").json()["id"] == again["id"]
    assert server.client.get(f"/api/games/{online['id']}").json()["rematch"] == again["id"]
    assert again["id"] in {g["id"] for g in guest.get("/api/games").json()["games"]}
    refused = server.browser().post(f"/api/games/{online['id']}/rematch")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_your_seat"


def test_computer_rematch_keeps_options_and_level(server):
    game = _create(server.client, mode="computer", seat=0, level="beginner").json()
    play_out(server, [server.client], game["id"])
    again = server.client.post(f"/api/games/{game['id']}/rematch").json()
    assert again["you"] == [1]
    assert again["seats"][0] == {
        "index": 0,
        "name": "dark",
        "kind": "computer",
        "level": "beginner",
        "player": None,
        "bot": False,
    }
    state = server.client.get(f"/api/games/{again['id']}").json()
    assert state["view"]["target"] == 1


def test_rules_text_is_served_from_the_package(server):
    for name in game_names():
        answer = server.client.get(f"/api/rules/{name}")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/markdown")
        assert answer.text.startswith("# ")
    assert server.client.get("/api/rules/chess").json()["error"]["code"] == "unknown_game"


def test_pages_serve_the_single_page_app(server):
    for path in ["/", "/game/g_abc", "/replay/g_abc", "/rules/acadmu"]:
        answer = server.client.get(path)
        assert answer.status_code == 200 and "gamehall test" in answer.text
    script = server.client.get("/static/app.js")
    assert script.status_code == 200 and "ok = true" in script.text
    assert server.client.get("/static/nope.js").status_code == 404
    assert server.client.get("/api/nothing").json()["error"]["code"] == "not_found"


def test_a_player_cookie_is_set_once(server):
    first = server.client.get("/api/games")
    assert "gh_player" in first.cookies
    assert "gh_player" not in server.client.get("/api/games").cookies
