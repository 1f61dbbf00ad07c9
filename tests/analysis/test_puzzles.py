"""Puzzles: each stored answer is unique, every alternative checked exactly and independently."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from functools import cache

import pytest

from gamehall.ai.evaluation import Analyst
from gamehall.analysis.puzzles import (
    Puzzle,
    PuzzleStore,
    choose_near,
    difficulty,
    difficulty_score,
    examine,
    find_puzzles,
    puzzle_situation,
    puzzle_themes,
    record_candidates,
    selfplay_candidates,
    starter_puzzles,
    starting_ratings,
)
from gamehall.cli.app import main
from gamehall.core import GamehallError, IllegalActionError, find_game, find_plugin
from gamehall.games.acadmu.solver import reference_values

SMALL_DISCS = "RT:BS,RS:BT,YC:BS,BC:YT,YS:RC,RC:YT,BT:YS,YT:RS"
"""Eight discs a side: small rounds, solved in a blink by the pure-Python reference too."""


def _acadmu_alternatives_cost(puzzle) -> list[int]:
    """What every other move costs, by the pure-Python minimax (not the solver)."""
    state = puzzle.state()
    _, values = reference_values(state)
    answer = state.parse_action(puzzle.answer)
    return [values[answer] - v for move, v in values.items() if move != answer]


@cache
def _akros_value(state, player: int) -> Fraction:
    if state.is_terminal():
        return Fraction(1 if state.returns()[player] > 0 else 0)
    if state.is_chance_node():
        return sum(
            p * _akros_value(state.apply_trusted(a), player) for a, p in state.chance_outcomes()
        )
    values = [_akros_value(state.apply_trusted(a), player) for a in state.legal_actions()]
    return max(values) if state.current_player == player else min(values)


def test_acadmu_puzzles_from_self_play_have_unique_answers(tmp_path):
    game = find_game("acadmu", discs=SMALL_DISCS, target=3)
    margin = find_plugin("acadmu").judgement.puzzle_margin
    found = find_puzzles(game, 4, selfplay_candidates(game, ["easy", "random"], 1, 12), seconds=2)
    assert len(found) == 4
    assert len({p.source.split(", before")[0] for p in found}) == 4, "one puzzle a game"
    for puzzle in found:
        costs = _acadmu_alternatives_cost(puzzle)
        assert costs and min(costs) >= margin
        assert min(costs) == puzzle.margin
        assert len(costs) == len(puzzle.alternatives)
        state = puzzle.state()
        assert puzzle.line[0] == puzzle.answer
        for text in puzzle.line:  # the solution line is playable
            state = state.apply(state.parse_action(text))
        # Each other move has its refutation: perfect play after it, by the reference minimax.
        assert set(puzzle.refutations) == set(puzzle.alternatives)
        for move, reply in puzzle.refutations.items():
            state = puzzle.state().apply(puzzle.state().parse_action(move))
            for text in reply:
                assert state.current_player >= 0, "a refutation never shows a draw"
                _, values = reference_values(state)
                action = state.parse_action(text)
                assert values[action] == max(values.values())
                state = state.apply(action)
    store = PuzzleStore(tmp_path)
    assert store.add(found) == 4
    assert store.add(found) == 0  # the same positions are kept once
    loaded = store.load("acadmu")
    assert loaded == found
    assert all(p.check(p.answer) for p in loaded)
    assert not loaded[0].check(next(iter(loaded[0].alternatives)))
    with pytest.raises(IllegalActionError):
        loaded[0].check("RTxRT+RT")
    assert "answer" not in loaded[0].public() and loaded[0].public()["position"]


def test_akros_puzzles_have_unique_answers_by_expectimax():
    game = find_game("akros")
    margin = find_plugin("akros").judgement.puzzle_margin
    candidates = [c for c in selfplay_candidates(game, ["easy", "easy"], 3, 6) if c[0].turn >= 8]
    found = find_puzzles(game, 3, candidates, seconds=2, per_game=3)
    assert found
    for puzzle in found:
        state = puzzle.state()
        mover = state.current_player
        value = {a: _akros_value(state.apply_trusted(a), mover) for a in state.legal_actions()}
        answer = state.parse_action(puzzle.answer)
        assert value[answer] == max(value.values())
        assert all(value[answer] - v >= margin for a, v in value.items() if a != answer)
        assert Fraction(puzzle.value) == value[answer]
        # The solution line is perfect play, and stops where chance draws: never a draw shown.
        for text in puzzle.line:
            assert not text.startswith("draw")
            state = state.apply(state.parse_action(text))


def test_a_position_with_two_best_moves_is_no_puzzle():
    game = find_game("acadmu")
    analyst = Analyst("acadmu")
    ties = 0
    for seed in range(30):
        start = find_plugin("acadmu").load_deal()(game, random.Random(seed), 5)
        if start.current_player < 0:
            continue
        _, values = reference_values(start)
        best = [m for m, v in values.items() if v == max(values.values())]
        puzzle = examine(analyst, start, 1.0)
        if len(best) > 1:
            ties += 1
            assert puzzle is None
        elif puzzle is not None:
            assert start.parse_action(puzzle.answer) == best[0]
    assert ties


def test_reviewed_mistakes_come_first(tmp_path):
    from gamehall.ai import RandomAgent
    from gamehall.ai.review import review
    from gamehall.core import make_record, play_game

    game = find_game("acadmu", discs=SMALL_DISCS, target=2)
    played = play_game(game, [RandomAgent(4), RandomAgent(5)], seed=4)
    reviewed = review(make_record(game, played.actions, final=played.final), seconds=2).annotated()
    candidates = record_candidates(reviewed, "game.pgn")
    firsts = [int(c[1].rsplit(" ", 1)[1]) for c in candidates]
    hard = [n for n, text in reviewed.comments.items() if "mistake" in text or "blunder" in text]
    assert hard and sorted(firsts[: len(hard)]) == sorted(hard)


def test_puzzles_command(tmp_path, capsys):
    main(
        [
            "puzzles", "generate", "acadmu", "--count", "2", "--games", "6", "--seconds", "2",
            "--dir", str(tmp_path), "--variant", f"discs={SMALL_DISCS}", "--variant", "target=3",
        ]
    )  # fmt: skip
    assert "2 new puzzles stored" in capsys.readouterr().out
    main(["puzzles", "list", "acadmu", "--json", "--dir", str(tmp_path)])
    listed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    mine = {p.id for p in PuzzleStore(tmp_path).load("acadmu")}
    rows = [r for r in listed if r["id"] in mine]
    assert len(rows) == 2 and all(r["answer"] == r["line"][0] for r in rows)
    assert len(listed) == 2 + len(starter_puzzles("acadmu"))  # and the shipped set
    assert all(r["themes"] and r["difficulty"] in ("easy", "medium", "hard") for r in listed)
    for row in rows:
        puzzle = PuzzleStore(tmp_path).get("acadmu", row["id"])
        assert min(_acadmu_alternatives_cost(puzzle)) >= 1
    with pytest.raises(SystemExit) as stopped:
        main(["puzzles", "generate", "acadmu", "--players", "easy", "--dir", str(tmp_path)])
    assert stopped.value.code == 2
    with pytest.raises(GamehallError):
        PuzzleStore(tmp_path).get("acadmu", "nope")


def test_the_command_line_lists_the_shipped_set_as_the_web_does(tmp_path, capsys):
    """`gamehall puzzles list` counts the puzzles the game ships, not only the user's folder."""
    main(["puzzles", "list", "acadmu", "--dir", str(tmp_path)])
    out = capsys.readouterr().out
    shipped = len(starter_puzzles("acadmu"))
    assert shipped >= 100
    assert f"{shipped} Äcädmü puzzles: 0 of yours" in out and f"{shipped} shipped" in out
    assert "Match Dark" in out and "then " in out  # where the game stands; the line in words


def test_generation_goes_on_where_it_stopped(tmp_path, capsys):
    """--out keeps each puzzle as it is found and how far the self-play got beside the file: the
    same command again goes on with the next games (a partial run is kept and useful)."""
    out = tmp_path / "puzzles.jsonl"
    command = [
        "puzzles", "generate", "acadmu", "--count", "1", "--games", "30", "--seconds", "2",
        "--players", "greedy,greedy", "--out", str(out),
        "--variant", f"discs={SMALL_DISCS}", "--variant", "target=3",
    ]  # fmt: skip
    main(command)
    first = PuzzleStore(file=out).load("acadmu")
    made = json.loads(out.with_name("puzzles.jsonl.command.json").read_text())
    assert len(first) == 1 and made["puzzles"] == 1
    assert made["runs"][0]["command"].startswith("gamehall puzzles generate acadmu --count 1")
    main(command)
    second = PuzzleStore(file=out).load("acadmu")
    again = json.loads(out.with_name("puzzles.jsonl.command.json").read_text())
    assert len(second) == 2 and second[0] == first[0]
    assert again["runs"][1]["from_game"] == made["games_done"] >= 1
    capsys.readouterr()


def test_themes_are_read_off_the_position_and_answer():
    from gamehall.games.acadmu.puzzle_kit import BY_COLOUR, BY_SHAPE, FORCED_PASS, LAST_TOKENS
    from gamehall.games.acadmu.puzzle_kit import themes as acadmu_themes

    game = find_game("acadmu")
    # Dark's Blue Square takes Light's two Yellow Circles by shape (Square beats Circle) and
    # leaves Light's Blue Square nothing to take from Dark's Red Triangle: a forced pass.
    state = game.parse_state("1,0,0,0,1,0,0,0,0/0,0,0,0,1,0,0,0,2 d - 0-0 d")
    answer = state.parse_action("BSxYC+YC")
    found = acadmu_themes(state, answer, [answer])
    assert BY_SHAPE in found and FORCED_PASS in found and LAST_TOKENS in found
    assert BY_COLOUR not in found

    akros = find_game("akros")
    shipped = starter_puzzles("akros")
    keeps = [p for p in shipped if p.answer.startswith("keep")]
    assert keeps and all(
        "The draft" in puzzle_themes(p) or p.position.startswith("turn=9") for p in keeps
    )
    for puzzle in shipped[:40]:
        state = akros.parse_state(puzzle.position)
        said = puzzle_situation(puzzle)
        assert said.startswith(f"Turn {state.turn} of 9, the ")
        if state.turn == 9:
            assert "last turn" in said
        else:
            assert f"{9 - state.turn} more turn" in said


def test_difficulty_grows_with_the_choices_the_line_and_a_narrow_margin():
    base = starter_puzzles("acadmu")[0]
    few = Puzzle(**{**base.to_json(), "alternatives": {"a": 0}, "margin": 2, "line": ["x"]})
    many = Puzzle(**{**few.to_json(), "alternatives": {str(i): 0 for i in range(9)}})
    narrow = Puzzle(**{**many.to_json(), "margin": 1})
    long = Puzzle(**{**narrow.to_json(), "line": ["x"] * 9})
    scores = [difficulty_score(p) for p in (few, many, narrow, long)]
    assert scores == sorted(scores) and len(set(scores)) == 4
    assert difficulty(1000) == "easy" and difficulty(1500) == "medium"
    assert difficulty(1900) == "hard"
    # Starting ratings spread each game's set by rank: easy, medium and hard in both games.
    for game in ("acadmu", "akros"):
        puzzles = starter_puzzles(game)
        starts = starting_ratings(puzzles)
        assert all(1000 <= r <= 2000 for r in starts.values())
        by_score = sorted(puzzles, key=difficulty_score)
        assert starts[by_score[0].id] <= starts[by_score[-1].id]
        assert {difficulty(r) for r in starts.values()} == {"easy", "medium", "hard"}


def test_the_next_puzzle_is_near_the_players_rating():
    puzzles = starter_puzzles("akros")[:30]
    ratings = {p.id: 1000.0 + 50 * i for i, p in enumerate(puzzles)}
    rng = random.Random(5)
    near = {choose_near(puzzles, ratings, 1510.0, [], rng).id for _ in range(200)}
    expected = sorted(puzzles, key=lambda p: abs(ratings[p.id] - 1510.0))[:5]
    assert near == {p.id for p in expected}
    # Puzzles tried are never offered again; none left: None.
    tried = [p.id for p in expected]
    assert choose_near(puzzles, ratings, 1510.0, tried, rng).id not in tried
    assert choose_near(puzzles, ratings, 1510.0, [p.id for p in puzzles], rng) is None
