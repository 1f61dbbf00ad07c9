"""Hints, review and puzzles on a game with no solver and no judgement: estimates only, labelled,
no classes, no puzzles, and a clear word where a part is missing."""

from __future__ import annotations

import json

import pytest

from gamehall.ai.hints import advise
from gamehall.ai.review import Annotation
from gamehall.cli.app import main
from gamehall.core import Record, find_game


@pytest.fixture(autouse=True)
def _registered(nim):
    return nim


def test_hints_are_estimates_ranked_by_visits():
    state = find_game("nim").parse_state("3,4,5 f")
    advice = advise(state, count=3, seconds=0.3)
    assert advice.position is None and not advice.proven
    assert len(advice.hints) == 3
    for hint in advice.hints:
        assert not hint.exact and hint.evaluation.startswith("estimate")
        assert "First (you)" in hint.evaluation
    visits = [h.visits for h in advice.hints]
    assert visits == sorted(visits, reverse=True)


def test_review_without_a_solver_estimates_and_classes_nothing(capsys, tmp_path):
    path = tmp_path / "nim.pgn"
    main(["play", "nim", "--auto", "--seed", "2", "--first", "random", "--second", "random",
          "--save", str(path)])  # fmt: skip
    capsys.readouterr()
    main(["review", str(path), "--simulations", "50", "--json"])
    payload = json.loads(capsys.readouterr().out)
    assert payload["judgement"] is None and payload["moves"]
    for move in payload["moves"]:
        assert not move["exact"] and move["verdict"] is None
        note = Annotation.parse(move["comment"])
        assert note is not None and not note.exact and note.verdict is None
    annotated = Record.parse(str(Record.parse(path.read_text())))
    assert annotated.replay()


def test_puzzles_need_a_solver(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["puzzles", "generate", "nim", "--count", "1"])
    assert stopped.value.code == 2
    assert "no exact solver" in capsys.readouterr().err


def test_warm_up_passes_over_a_game_without_a_solver(capsys):
    main(["warm-up"])
    assert "nim" not in capsys.readouterr().out
