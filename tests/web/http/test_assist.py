"""Hints, reviews and puzzles on the web: who may have hints, reviews computed once and kept with
the game (across a restart), positions of a game played on from, puzzles answered and
remembered. Small Äcädmü rounds (eight discs a side) keep every solve instant."""

from __future__ import annotations

import asyncio
import json
import random
import threading

import anyio
import pytest
from argon2 import PasswordHasher

from gamehall.ai.evaluation import Analyst
from gamehall.ai.hints import advise
from gamehall.analysis.puzzles import PuzzleStore, examine
from gamehall.core import Record, find_game, find_plugin
from gamehall.store import Store
from gamehall.web.hall.accounts import Passwords
from tests.web.web_helpers import hello, play_random

SMALL_DISCS = "RT:BS,RS:BT,YC:BS,BC:YT,YS:RC,RC:YT,BT:YS,YT:RS"
SMALL = {"discs": SMALL_DISCS, "target": 1}
FAST_REVIEW = {"seconds": 2.0, "simulations": 200, "estimate_seconds": 0.5, "total_seconds": 30.0}


@pytest.fixture
def assisted(server_factory, tmp_path):
    """A server with a short hint budget, a quick review budget and its own puzzle folder."""

    def make(**kwargs):
        kwargs.setdefault("hint_seconds", 1.0)
        kwargs.setdefault("review_budget", FAST_REVIEW)
        kwargs.setdefault("puzzles_dir", tmp_path / "puzzles")
        return server_factory(**kwargs)

    return make


def _new(client, mode="hotseat", **extra):
    body = {"game": "acadmu", "options": SMALL, "mode": mode, **extra}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def _finished_game(server, rng_seed=3):
    """A hot-seat game of one small round, played to its end by random moves."""
    answer = _new(server.client)
    with server.client.websocket_connect(f"/ws/games/{answer['id']}") as ws:
        state = hello(server, ws)
        state = play_random(server, state, seats={0: ws, 1: ws}, rng=random.Random(rng_seed))
    assert state["over"]
    return answer["id"], state


def _wait_review(server, game_id, timeout=60.0):
    """The review's answer once its job is over (its task, awaited on the server's loop; the
    timeout only fails a broken run)."""

    async def over() -> None:
        job = server.app.state.assist.reviews.jobs.get(game_id)
        if job is not None and job.task is not None:
            with anyio.fail_after(timeout):
                await asyncio.shield(job.task)

    server.client.portal.call(over)
    answer = server.client.get(f"/api/games/{game_id}/review").json()
    assert answer["status"] in ("done", "failed"), answer
    return answer


# --- hints ---------------------------------------------------------------------------------------


def test_the_app_serves_at_once_and_tells_when_its_workers_are_warm(assisted):
    told: list[object] = []
    warm = threading.Event()

    def on_warm(seconds: float) -> None:
        told.append(("warm", seconds))
        warm.set()

    with assisted(
        on_ready=told.append, on_warm=on_warm, on_stop=lambda: told.append("stopped")
    ) as server:
        helper = server.app.state.assist
        # The workers warm up in the background (tests/web/http/test_warm_start.py): the app
        # says it serves first, then that they are warm.
        assert warm.wait(60), "the workers never said they were warm"
        assert isinstance(told[0], float)
        assert told[1] == ("warm", server.hub.warmed_in)
        assert helper._warming is not None and helper._warming.done()
        assert helper.puzzles.ready.is_set()
    assert told[2:] == ["stopped"]  # and it is told when the app stops serving


def test_a_hint_gives_the_solvers_best_moves_in_words_with_their_lines(assisted):
    with assisted() as server:
        answer = _new(server.client)
        state = server.client.get(f"/api/games/{answer['id']}").json()
        assert state["to_move"] in (0, 1)  # the opening chance is drawn
        hint = server.client.post(f"/api/games/{answer['id']}/hint", json={}).json()
        assert hint["version"] == state["version"] and hint["to_move"] == state["to_move"]
        position = find_game("acadmu", **SMALL).parse_state(state["position"])
        every = advise(position, count=len(state["legal"]), seconds=10.0, lines=False)
        assert every.proven, "a small round is settled exactly"
        value = {str(h.action): h.assessment.value for h in every.hints}
        shown = [value[h["move"]] for h in hint["hints"]]
        # The hints are the best moves, best first (ties in any order).
        assert shown == sorted(value.values(), reverse=True)[: len(shown)]
        assert shown[0] == every.position.value
        assert all(h["method"] == "exact" for h in hint["hints"])
        assert hint["hints"][0]["evaluation"].startswith("exact: ")
        # The first line is a sentence from the move in words; the details and the line in words
        # come with it, as the terminal says them.
        first = hint["hints"][0]
        assert first["sentence"] == f"Best: {first['words']}: {first['outlook']}"
        assert first["outlook"].startswith("with best play ")
        assert first["details"] == []  # nothing to add to "exact" but the line of play
        assert hint["headline"].startswith("With best play ")
        assert first["line"] and first["line_exact"]
        assert first["line_kind"] == "Perfect play after it" and first["line_words"]
        legal = {item["text"] for item in state["legal"]}
        assert {h["move"] for h in hint["hints"]} <= legal
        # Asked again for the same position: the same answer, not worked out again.
        again = server.client.post(
            f"/api/games/{answer['id']}/hint", json={"version": state["version"]}
        ).json()
        assert again == hint


def test_hints_are_refused_in_online_games_to_watchers_and_out_of_turn(assisted):
    with assisted() as server:
        online = _new(server.client, mode="online")
        refused = server.client.post(f"/api/games/{online['id']}/hint", json={})
        assert refused.status_code == 403
        assert refused.json()["error"]["code"] == "no_hints"
        assert "online" in refused.json()["error"]["message"]

        game = _new(server.client)
        watcher = server.browser()
        refused = watcher.post(f"/api/games/{game['id']}/hint", json={})
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_your_seat"
        stale = server.client.post(f"/api/games/{game['id']}/hint", json={"version": 0})
        assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_version"

        # Against the computer: the person's seat only, when it is to move.
        vs = _new(server.client, mode="computer", seat=0, level="beginner")
        with server.client.websocket_connect(f"/ws/games/{vs['id']}") as ws:
            state = play_random(
                server, hello(server, ws), seats={0: ws}, rng=random.Random(0),
                until=lambda s: s["to_move"] == 0,
            )  # fmt: skip
        assert state["to_move"] == 0
        assert server.client.post(f"/api/games/{vs['id']}/hint", json={}).status_code == 200


def test_hints_are_rate_limited_per_player(assisted):
    with assisted() as server:
        server.app.state.assist.hints.limit.count = 2
        games = [_new(server.client) for _ in range(3)]
        codes = [
            server.client.post(f"/api/games/{g['id']}/hint", json={}).status_code for g in games
        ]
        assert codes == [200, 200, 429]
        refused = server.client.post(f"/api/games/{games[2]['id']}/hint", json={}).json()
        assert refused["error"]["code"] == "rate_limited"
        assert "at most 2 hints every 60 s" in refused["error"]["message"]
        # Another player is not held up by the first one's hints.
        other = server.browser()
        mine = _new(other)
        assert other.post(f"/api/games/{mine['id']}/hint", json={}).status_code == 200


# --- reviews -------------------------------------------------------------------------------------


def test_a_review_is_started_by_a_player_or_a_signed_in_account_only(assisted):
    cheap = Passwords(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    with assisted(passwords=cheap) as server:
        game_id, _ = _finished_game(server)
        stranger = server.browser()
        refused = stranger.post(f"/api/games/{game_id}/review")
        assert refused.status_code == 403, refused.text
        error = refused.json()["error"]
        assert error["code"] == "account_needed" and "game's players" in error["message"]
        assert server.client.get(f"/api/games/{game_id}/review").json()["status"] == "none"
        body = {"username": "Watcher", "password": "a long password"}
        assert stranger.post("/api/account/signup", json=body).status_code == 200
        started = stranger.post(f"/api/games/{game_id}/review")
        assert started.status_code == 200 and started.json()["status"] in (
            "queued",
            "running",
            "done",
        )
        # Once started, anyone may follow it (asking again starts nothing).
        again = server.browser().post(f"/api/games/{game_id}/review")
        assert again.status_code == 200, again.text
        assert _wait_review(server, game_id)["status"] == "done"


def test_a_finished_game_is_reviewed_once_and_the_review_survives_a_restart(assisted, db_url):
    with assisted() as server:
        game_id, state = _finished_game(server)
        unfinished = _new(server.client)
        refused = server.client.post(f"/api/games/{unfinished['id']}/review")
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_finished"
        assert server.client.get(f"/api/games/{game_id}/review").json()["status"] == "none"
        over = server.client.post(f"/api/games/{game_id}/hint", json={})  # nothing to hint
        assert over.status_code == 409 and over.json()["error"]["code"] == "game_over"
        for unknown in (
            server.client.get("/api/games/g_nothing/review"),
            server.client.post("/api/games/g_nothing/review"),
            server.client.post("/api/games/g_nothing/hint", json={}),
        ):
            assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "unknown_game"

        first = server.client.post(f"/api/games/{game_id}/review").json()
        assert first["status"] in ("queued", "running", "done")
        judged = sum(1 for m in state["movers"] if m >= 0)
        assert first["total"] == judged
        second = server.browser().post(f"/api/games/{game_id}/review").json()  # someone else
        assert second["status"] in ("queued", "running", "done")
        done = _wait_review(server, game_id)
        assert done["status"] == "done" and done["done"] == done["total"] == judged
        review = done["review"]
        assert review["kind"] == "points" and review["perspective"] == "dark"
        assert [m["number"] for m in review["moves"]] == [
            n for n, mover in enumerate(state["movers"], 1) if mover >= 0
        ]
        assert all(m["exact"] for m in review["moves"]), "small rounds are solved exactly"
        # The series: the value before each judged move and after the last, from Dark's side.
        assert len(review["series"]) == len(review["moves"]) + 1
        assert all(p["exact"] and p["low"] == p["high"] == p["value"] for p in review["series"])
        for point, move in zip(review["series"], review["moves"], strict=False):
            mover_value = int(move["before"]) if move["before"] != "0" else 0
            assert point["value"] == (mover_value if move["player"] == 0 else -mover_value)
        assert len(review["summary"]) == 2 and review["summary"][0]["name"] == "dark"
        for move in review["moves"]:
            if move["verdict"] != "best" and not move["forced"]:
                assert move["best"] and move["best_item"]["text"] == move["best"]
                assert move["best_view"] is not None
        annotated = server.client.get(f"/api/games/{game_id}/review/record")
        record = Record.parse(annotated.text)
        assert record.comments and record.tags["DarkReview"] == review["summary"][0]["text"]

    # Computed once: one stored row, and a restarted server answers from the store.
    store = Store(db_url)
    row = store.get_review(game_id)
    store.dispose()
    assert row is not None and row.status == "done"
    stored = json.loads(row.result)
    with assisted() as server:
        again = server.client.get(f"/api/games/{game_id}/review").json()
        assert again["status"] == "done" and again["review"]["moves"] == review["moves"]
        asked = server.client.post(f"/api/games/{game_id}/review").json()
        assert asked["status"] == "done" and not server.app.state.assist.reviews.jobs
    assert json.loads(Store(db_url).get_review(game_id).result) == stored


def test_a_review_left_unfinished_is_carried_on_at_the_next_start(assisted, db_url):
    with assisted() as server:
        game_id, _ = _finished_game(server, rng_seed=4)
    store = Store(db_url)
    _, claimed = store.claim_review(game_id, FAST_REVIEW)  # as if a server died on it
    assert claimed
    assert store.claim_review(game_id, FAST_REVIEW)[1] is False  # asked twice: one claim
    store.dispose()
    with assisted() as server:
        done = _wait_review(server, game_id)
        assert done["status"] == "done"


# --- playing on from a position ------------------------------------------------------------------


def test_a_game_starts_from_a_position_of_another_and_replays_from_there(assisted):
    with assisted() as server:
        game_id, state = _finished_game(server, rng_seed=5)
        step = 4
        new = server.client.post(
            "/api/games",
            json={
                "game": "acadmu",
                "mode": "computer",
                "seat": 0,
                "level": "beginner",
                "start": {"game_id": game_id, "step": step},
            },
        ).json()
        fresh = server.client.get(f"/api/games/{new['id']}").json()
        source = server.client.get(f"/api/games/{game_id}/replay").json()
        game = find_game("acadmu", **SMALL)
        expected = game.new_initial_state()
        for text in state["actions"][:step]:
            expected = expected.apply(game.parse_action(text))
        assert fresh["game"] == "acadmu" and fresh["actions"][:0] == []
        replay = server.client.get(f"/api/games/{new['id']}/replay").json()
        assert replay["states"][0] == source["states"][step] == expected.view()
        record = Record.parse(server.client.get(f"/api/games/{new['id']}/record").text)
        assert record.tags["SetUp"] == str(expected)
        assert record.replay()[0] == expected

        over = server.client.post(
            "/api/games",
            json={"game": "acadmu", "start": {"game_id": game_id, "step": len(state["actions"])}},
        )
        assert over.status_code == 400 and over.json()["error"]["code"] == "bad_start"
        past = server.client.post(
            "/api/games", json={"game": "acadmu", "start": {"game_id": game_id, "step": 999}}
        )
        assert past.status_code == 400 and "not 999" in past.json()["error"]["message"]
        start = {"game_id": game_id, "step": 1}
        other = server.client.post("/api/games", json={"game": "akros", "start": start})
        assert other.status_code == 400 and "not of akros" in other.json()["error"]["message"]
        options = server.client.post(
            "/api/games", json={"game": "acadmu", "options": {"target": 3}, "start": start}
        )
        assert options.status_code == 400 and options.json()["error"]["code"] == "bad_start"


# --- puzzles -------------------------------------------------------------------------------------


def _store_puzzles(directory, count=2):
    """A few small-round puzzles stored in ``directory`` (found from seeded random play)."""
    game = find_game("acadmu", **SMALL)
    analyst = Analyst("acadmu")
    rng = random.Random(1)
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply_trusted(state.sample_chance(rng))
                continue
            puzzle = examine(analyst, state, 2.0, "test")
            if puzzle is not None and all(p.id != puzzle.id for p in found):
                found.append(puzzle)
                break
            state = state.apply_trusted(rng.choice(state.legal_actions()))
    PuzzleStore(directory).add(found)
    return found


def test_puzzles_are_offered_checked_and_remembered_per_player(assisted, tmp_path, monkeypatch):
    monkeypatch.setattr("gamehall.web.compute.puzzles.starter_puzzles", lambda game: [])
    with assisted() as server:
        empty = server.client.get("/api/puzzles/acadmu").json()
        assert empty["puzzle"] is None and empty["total"] == 0
        assert "gamehall puzzles generate acadmu" in empty["how"]
        assert empty["rating"] == 1500 and empty["provisional"] is True

        stored = {p.id: p for p in _store_puzzles(tmp_path / "puzzles")}
        first = server.client.get("/api/puzzles/acadmu").json()
        assert first["total"] == 2 and first["solved"] == first["failed"] == 0
        shown = first["puzzle"]
        puzzle = stored[shown["id"]]
        assert "answer" not in json.dumps(shown)
        assert shown["legal"] and shown["attempted"] is None
        assert shown["themes"] and shown["difficulty"] in ("easy", "medium", "hard")
        assert "Match Dark 0, Light 0" in shown["situation"]
        wrong = next(i["text"] for i in shown["legal"] if i["text"] != puzzle.answer)

        bad = server.client.post(f"/api/puzzles/acadmu/{shown['id']}/answer", json={"move": "xx"})
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "illegal_move"
        # A wrong answer: why (its exact cost, and the refutation in words), not the answer.
        verdict = server.client.post(
            f"/api/puzzles/acadmu/{shown['id']}/answer", json={"move": wrong}
        ).json()
        assert verdict["correct"] is False and verdict["counted"] is True
        assert verdict["answer"] is None and verdict["line"] == []
        lost = puzzle.value - puzzle.alternatives[wrong]
        assert verdict["cost"].startswith(verdict["move_words"])
        assert f"costs {lost} point" in verdict["cost"]
        refutation = [i["text"] for i in verdict["refutation"]]
        assert refutation == [wrong, *puzzle.refutations[wrong]][: len(refutation)]
        assert all(i["words"] for i in verdict["refutation"])
        assert len(verdict["refutation_views"]) == len(refutation)
        assert verdict["failed"] == 1 and verdict["solved"] == 0
        assert verdict["rating"] < 1500 and verdict["rating_change"] < 0
        # Tried again and right: a failure for the record, as on lichess; the rating stays.
        again = server.client.post(
            f"/api/puzzles/acadmu/{shown['id']}/answer", json={"move": puzzle.answer}
        ).json()
        assert again["correct"] is True and again["counted"] is False and again["failed"] == 1
        assert again["rating_change"] is None and again["rating"] == verdict["rating"]
        assert again["answer"] == puzzle.answer and again["answer_words"]
        assert [i["text"] for i in again["line"]] == puzzle.line[: len(again["line"])]
        assert (
            server.client.get(f"/api/puzzles/acadmu/{shown['id']}").json()["puzzle"]["attempted"]
            is False
        )

        nxt = server.client.get("/api/puzzles/acadmu").json()
        other_id = next(key for key in stored if key != shown["id"])
        assert nxt["puzzle"]["id"] == other_id and nxt["rating"] == verdict["rating"]
        right = server.client.post(
            f"/api/puzzles/acadmu/{other_id}/answer", json={"move": stored[other_id].answer}
        ).json()
        assert right["correct"] and right["solved"] == 1 and right["failed"] == 1
        assert right["rating_change"] > 0 and right["counted"]
        done = server.client.get("/api/puzzles/acadmu").json()
        assert done["puzzle"] is None and "tried all 2" in done["how"]
        # Another player starts afresh; asking for the solution first is a failure.
        browser = server.browser()
        other = browser.get("/api/puzzles/acadmu").json()
        assert other["solved"] == 0 and other["rating"] == 1500
        shown = browser.post(f"/api/puzzles/acadmu/{other['puzzle']['id']}/solution").json()
        assert shown["answer"] == stored[other["puzzle"]["id"]].answer and shown["line"]
        assert shown["counted"] and shown["failed"] == 1 and shown["rating_change"] < 0

        missing = server.client.get("/api/puzzles/acadmu/nothing")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_puzzle"
        unknown = server.client.get("/api/puzzles/chess")
        assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "unknown_game"


@pytest.mark.slow
@pytest.mark.parametrize("game", ["acadmu", "akros"])
def test_each_game_ships_puzzles_that_hold(game):
    """The shipped sets load, are made under today's rules, with the commands that made them
    beside them; and the answers of a seeded sample are unique by the solver: the position
    examined again, every alternative solved exactly, gives the same answer, alternatives and
    values."""
    from gamehall.analysis.puzzles import starter_puzzles

    plugin = find_plugin(game)
    puzzles = starter_puzzles(game)
    assert len(puzzles) >= 100
    made = json.loads(plugin.resource_text(plugin.starter_puzzles + ".command.json"))
    assert made["puzzles"] <= len(puzzles) and made["runs"][0]["command"].startswith(
        f"gamehall puzzles generate {game} "
    )
    analyst = Analyst(game)
    for puzzle in random.Random(34).sample(puzzles, 12):
        state = puzzle.state()
        assert puzzle.check(puzzle.answer) and puzzle.line[0] == puzzle.answer
        again = examine(analyst, state, 60.0)
        assert again is not None, puzzle.id
        assert again.answer == puzzle.answer and again.id == puzzle.id
        assert again.alternatives == puzzle.alternatives and again.value == puzzle.value
