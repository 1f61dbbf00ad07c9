"""The analysis board's API (POST /api/analysis/{game}): a position text, a stored game's
position or the start, a line played from it, every legal move valued where it ends; bad
positions refused in the game's own words, changing nothing; its limits; and a game played on
from a position text (CreateGame.position)."""

from __future__ import annotations

import random

import pytest

from tests.web.web_helpers import hello, play_random

SMALL_DISCS = "RT:BS,RS:BT,YC:BS,BC:YT,YS:RC,RC:YT,BT:YS,YT:RS"
SMALL = {"discs": SMALL_DISCS, "target": 1}
# A round in play of the default disc set (the plugin's sample): solved within a second.
ROUND = "3,4,1,0,1,0,2,4,1/1,0,1,3,3,4,2,0,5 d - 0-0 d"
SHORT_ROUND = "1,1,0,0,0,0,0,0,0/0,0,0,1,1,0,0,0,0 d -"


@pytest.fixture
def analysis_server(server_factory):
    def make(**kwargs):
        kwargs.setdefault("hint_seconds", 1.0)
        return server_factory(**kwargs)

    return make


def _analyse(client, game="acadmu", **body):
    return client.post(f"/api/analysis/{game}", json=body)


def test_a_position_text_gets_every_legal_move_valued_best_first(analysis_server):
    with analysis_server() as server:
        answer = _analyse(server.client, position=SHORT_ROUND)
        assert answer.status_code == 200, answer.text
        data = answer.json()
        assert data["position"] == SHORT_ROUND
        assert data["to_move_name"] == "Dark"
        legal = {item["text"] for item in data["legal"]}
        assert {move["move"] for move in data["moves"]} == legal
        assert all(move["method"] == "exact" for move in data["moves"])
        assert data["proven"] and data["headline"].startswith("With best play: Dark")
        assert data["moves"][0]["best"]
        for move in data["moves"]:
            assert move["words"] and move["text"] and move["after"]
        # best first: the exact values never rise down the list
        values = [int(move["value"]) for move in data["moves"]]
        assert values == sorted(values, reverse=True)


def test_a_line_is_played_from_the_position_and_the_end_judged(analysis_server):
    with analysis_server() as server:
        first = _analyse(server.client, position=ROUND).json()
        move = first["moves"][0]
        answer = _analyse(server.client, position=ROUND, line=[move["move"]])
        assert answer.status_code == 200, answer.text
        data = answer.json()
        assert data["start"] == ROUND
        assert [step["played"]["text"] for step in data["steps"]] == [move["move"]]
        assert data["steps"][0]["position"] == data["position"] == move["after"]
        assert data["to_move_name"] == "Light"
        assert data["moves"]
        # the same position asked for as a text answers alike (kept, not worked out again)
        again = _analyse(server.client, position=move["after"]).json()
        assert again["moves"] == data["moves"]


def test_chance_steps_list_their_outcomes_or_draw_one(analysis_server):
    with analysis_server() as server:
        akros = _analyse(server.client, game="akros").json()
        assert akros["to_move_name"] == "Chance" and akros["to_move"] == -1
        assert akros["chance"] and not akros["chance_random"]
        assert abs(sum(o["probability"] for o in akros["chance"]) - 1) < 1e-4
        outcome = akros["chance"][0]
        after = _analyse(server.client, game="akros", line=[outcome["move"]]).json()
        assert after["position"] == outcome["after"] and after["to_move_name"] == "Jinn"
        # Äcädmü's first draw has thousands of outcomes: only a random draw is offered
        start = _analyse(server.client).json()
        assert start["chance"] is None and start["chance_random"]
        drawn = _analyse(server.client, draw=True).json()
        assert len(drawn["steps"]) == 1 and drawn["steps"][0]["played"]["mover"] == -1


def test_a_stored_game_position_is_analysed_with_its_options(analysis_server):
    with analysis_server() as server:
        made = server.client.post(
            "/api/games", json={"game": "acadmu", "options": SMALL, "mode": "hotseat"}
        ).json()
        with server.client.websocket_connect(f"/ws/games/{made['id']}") as ws:
            state = hello(server, ws)
            state = play_random(server, state, seats={0: ws, 1: ws}, rng=random.Random(4))
        steps = state["version"]
        answer = _analyse(server.client, start={"game_id": made["id"], "step": steps - 1})
        assert answer.status_code == 200, answer.text
        data = answer.json()
        assert data["options"] == SMALL
        replay = server.client.get(f"/api/games/{made['id']}/replay").json()
        assert data["position"] == replay["states"][steps - 1]["position"]
        # the line is the game's own, from its start
        assert data["start"] == replay["states"][0]["position"]
        played = [step["played"]["text"] for step in data["steps"]]
        assert played == [item["text"] for item in replay["actions"][: steps - 1]]


def test_bad_positions_are_refused_in_the_games_words(analysis_server):
    with analysis_server() as server:
        garbled = _analyse(server.client, position="this is no position")
        assert garbled.status_code == 400
        assert garbled.json()["error"]["code"] == "bad_position"
        assert "Äcädmü position" in garbled.json()["error"]["message"]
        # parses, but cannot occur: more Red Triangles than the disc set shows
        impossible = _analyse(server.client, position="9,0,0,0,0,0,0,0,0/0,0,0,1,1,0,0,0,0 d -")
        assert impossible.status_code == 400
        error = impossible.json()["error"]
        assert error["code"] == "impossible_position"
        assert "Red Triangle" in error["message"] or "RT" in error["message"]
        # an edited Akros position with three Jinn servants on one region... or too few
        start = _analyse(server.client, game="akros").json()["position"]
        edited = start.replace("0J,", "0,", 1)
        wrong = _analyse(server.client, game="akros", position=edited)
        assert wrong.status_code == 400
        assert wrong.json()["error"]["code"] == "impossible_position"
        # an illegal move in the line
        illegal = _analyse(server.client, position=SHORT_ROUND, line=["pass"])
        assert illegal.status_code == 400
        assert illegal.json()["error"]["code"] == "illegal_move"
        assert "move 1 of the line" in illegal.json()["error"]["message"]
        # too long a text, unknown games, bad options
        long = _analyse(server.client, position="1" * 2001)
        assert long.status_code == 400 and long.json()["error"]["code"] == "bad_request"
        unknown = _analyse(server.client, game="chess")
        assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "unknown_game"
        option = _analyse(server.client, options={"discs_file": "/etc/passwd"})
        assert option.json()["error"]["code"] == "bad_option"
        assert server.app.state.assist.analysis._kept == {}  # nothing was worked out


def test_online_games_in_play_are_not_analysed(analysis_server):
    with analysis_server() as server:
        made = server.client.post("/api/games", json={"game": "acadmu", "mode": "online"}).json()
        answer = _analyse(server.client, start={"game_id": made["id"], "step": 0})
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "no_hints"


def test_evaluations_are_limited_per_address(analysis_server):
    with analysis_server() as server:
        service = server.app.state.assist.analysis
        service.addresses.at_once = 0  # every address is at its bound: refused before any work
        answer = _analyse(server.client, position=SHORT_ROUND)
        assert answer.status_code == 429
        assert answer.json()["error"]["code"] == "rate_limited"
        assert "network address" in answer.json()["error"]["message"]
        assert service._kept == {}
        # chance steps and ends cost nothing: they are answered still
        assert _analyse(server.client, game="akros").status_code == 200


def test_a_full_lane_says_busy_and_names_the_job(analysis_server):
    with analysis_server() as server:
        server.app.state.assist.analysis_lane.limit = 0
        answer = _analyse(server.client, position=SHORT_ROUND)
        assert answer.status_code == 503 and answer.json()["error"]["code"] == "busy"
        assert "position evaluation jobs" in answer.json()["error"]["message"]


def test_evaluations_are_limited_per_player(analysis_server):
    with analysis_server() as server:
        service = server.app.state.assist.analysis
        service.limit.count = 1
        assert _analyse(server.client, position=SHORT_ROUND).status_code == 200
        kept = _analyse(server.client, position=SHORT_ROUND)  # kept: free
        assert kept.status_code == 200
        other = _analyse(server.client, position=ROUND)
        assert other.status_code == 429
        assert "position evaluations every 60 s" in other.json()["error"]["message"]


def test_play_on_from_a_position_text(analysis_server):
    with analysis_server() as server:
        made = server.client.post(
            "/api/games", json={"game": "acadmu", "mode": "hotseat", "position": ROUND}
        )
        assert made.status_code == 200, made.text
        state = server.client.get(f"/api/games/{made.json()['id']}").json()
        assert state["view"]["position"] == ROUND
        bad = server.client.post(
            "/api/games", json={"game": "acadmu", "mode": "hotseat", "position": "nonsense"}
        )
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_position"
        over = server.client.post(
            "/api/games",
            json={
                "game": "acadmu",
                "mode": "hotseat",
                "position": "0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 d -",
            },
        )
        assert over.status_code == 400


def test_each_games_position_editor_is_served_from_its_package(analysis_server):
    with analysis_server() as server:
        games = {g["name"]: g for g in server.client.get("/api/meta").json()["games"]}
        for name in ("acadmu", "akros"):
            assert games[name]["editor_module"] == f"/games/{name}/editor.js"
            source = server.client.get(f"/games/{name}/editor.js")
            assert source.status_code == 200
            assert source.headers["content-type"].startswith("text/javascript")
            assert "export class Editor" in source.text
        assert games["tictactoe"]["editor_module"] is None
        missing = server.client.get("/games/tictactoe/editor.js")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_board"
