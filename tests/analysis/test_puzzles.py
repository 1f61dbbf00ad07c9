"""Puzzles: each stored answer is unique, every alternative checked exactly and independently."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from functools import cache

import pytest

from gamehall.ai.evaluation import Analyst
from gamehall.analysis.puzzles import (
    PuzzleStore,
    examine,
    find_puzzles,
    record_candidates,
    selfplay_candidates,
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
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 2 and all(r["answer"] == r["line"][0] for r in rows)
    for row in rows:
        puzzle = PuzzleStore(tmp_path).get("acadmu", row["id"])
        assert min(_acadmu_alternatives_cost(puzzle)) >= 1
    with pytest.raises(SystemExit) as stopped:
        main(["puzzles", "generate", "acadmu", "--players", "easy", "--dir", str(tmp_path)])
    assert stopped.value.code == 2
    with pytest.raises(GamehallError):
        PuzzleStore(tmp_path).get("acadmu", "nope")
