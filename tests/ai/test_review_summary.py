"""A review summed up for players: accuracy as lichess defines it (from the value each move
gave up), mistakes and blunders counted, the worst moment with the better move in words; the
same words in the annotated record, the command's text and the web's review."""

from __future__ import annotations

import dataclasses
import math
import random
from fractions import Fraction

import pytest

from gamehall.ai import RandomAgent
from gamehall.ai.evaluation import Evaluation
from gamehall.ai.review import review
from gamehall.ai.review_summary import (
    BLUNDER_PERCENT,
    accuracy,
    loss_percent,
    move_accuracy,
    points_percent,
    value_change,
)
from gamehall.cli.app import main
from gamehall.core import Record, find_game, find_plugin, make_record, play_game
from gamehall.core.search import ValueKind
from gamehall.core.words import move_words
from gamehall.protocol import ReviewSummary
from gamehall.web.compute.review import _current_summary, review_data

SETTLED = 60.0


def _lichess(loss: float) -> float:
    """Lichess's formula (https://lichess.org/page/accuracy), written out again."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * loss) - 3.1669))


def _acadmu_review(seed: int, tokens: int = 7):
    game = find_game("acadmu")
    start = find_plugin("acadmu").load_deal()(game, random.Random(seed), tokens)
    played = play_game(game, [RandomAgent(seed), RandomAgent(seed + 1)], seed=seed, start=start)
    record = make_record(game, played.actions, setup=start, final=played.final)
    return review(record, seconds=SETTLED)


def _akros_review(seed: int):
    game = find_game("akros")
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not (state.turn == 8 and state.current_player >= 0):
        state = state.apply_trusted(
            state.sample_chance(rng)
            if state.is_chance_node()
            else rng.choice(state.legal_actions())
        )
    played = play_game(game, [RandomAgent(seed), RandomAgent(seed + 1)], seed=seed, start=state)
    record = make_record(game, played.actions, setup=state, final=played.final)
    return review(record, seconds=SETTLED)


def test_move_accuracy_is_lichess_curve_of_the_winning_chance_given_up():
    assert move_accuracy(0) == pytest.approx(100.0, abs=1e-3)
    for loss in (1, 5, 10, 20, 37.5, 60):
        assert move_accuracy(loss) == pytest.approx(_lichess(loss))
    assert move_accuracy(10) == pytest.approx(63.6, abs=0.1)
    assert move_accuracy(100) == 0.0  # never below nothing
    losses = [0, 2, 5, 10, 20, 40, 80]
    scores = [move_accuracy(x) for x in losses]
    assert scores == sorted(scores, reverse=True)


def test_a_points_game_counts_its_blunder_line_as_a_probability_game_does():
    acadmu = find_plugin("acadmu").judgement
    akros = find_plugin("akros").judgement
    # Akros: the win probability's drop, in percentage points.
    assert loss_percent(ValueKind.PROBABILITY, Fraction(1, 4), akros) == 25.0
    assert loss_percent(ValueKind.PROBABILITY, akros.blunder, akros) == BLUNDER_PERCENT
    # Äcädmü: a point is 10 percentage points, so its lines fall on Akros's.
    assert points_percent(acadmu) == 10.0
    for line in ("inaccuracy", "mistake", "blunder"):
        points = loss_percent(ValueKind.POINTS, getattr(acadmu, line), acadmu)
        assert points == pytest.approx(100 * getattr(akros, line))
    assert loss_percent(ValueKind.POINTS, -1, acadmu) == 0.0


def test_acadmu_accuracy_is_the_average_over_the_moves_chosen():
    result = _acadmu_review(3)
    for player in (0, 1):
        mine = [m for m in result.moves if m.player == player and not m.forced]
        assert all(m.exact for m in mine)
        expected = sum(_lichess(10 * float(m.cost)) for m in mine) / len(mine)
        assert accuracy(
            result.moves and [m for m in result.moves if m.player == player],
            result.kind,
            result.judgement,
        ) == pytest.approx(expected)
        summary = result.players()[player]
        assert summary.accuracy == pytest.approx(expected)
        assert summary.accuracy_exact
        assert summary.mistakes == sum(m.verdict == "mistake" for m in mine)
        assert summary.blunders == sum(m.verdict == "blunder" for m in mine)
    # A forced move (an only move) is no choice: it does not count.
    first = result.moves[0]
    forced = dataclasses.replace(first, forced=True, cost=5)
    assert accuracy([forced], result.kind, result.judgement) is None


def test_the_worst_moment_is_the_costliest_move_with_the_better_move_in_words():
    result = _acadmu_review(2)
    states = result.record.replay()
    for player, summary in enumerate(result.players()):
        mine = [m for m in result.moves if m.player == player and not m.forced]
        costly = [m for m in mine if m.cost]
        if not costly:
            assert summary.worst is None and summary.accuracy == pytest.approx(100, abs=1e-3)
            continue
        top = max(m.cost for m in costly)
        worst = min((m for m in costly if m.cost == top), key=lambda m: m.number)
        assert summary.worst.number == worst.number
        before = states[worst.number - 1]
        assert summary.worst.words == move_words(before, worst.action)
        assert summary.worst.best_words == move_words(before, worst.best)
        text = summary.text()
        assert f"Worst moment, move {worst.number}: {summary.worst.words}" in text
        assert f"Best was: {summary.worst.best_words}." in text
        assert "gave up" not in text and " pp" not in text


def test_akros_summary_speaks_of_the_chance_of_winning():
    result = _akros_review(4)
    states = result.record.replay()
    first = next(m for m in result.moves if len(states[m.number - 1].legal_actions()) > 1)
    before = states[first.number - 1]
    other = next(a for a in before.legal_actions() if a != first.action)
    jinn = dataclasses.replace(
        first,
        best=other,
        best_words=move_words(before, other),
        before=Evaluation.exactly(result.kind, Fraction(3, 4)),
        after=Evaluation.exactly(result.kind, Fraction(1, 2)),
        cost=Fraction(1, 4),
        verdict="blunder",
        forced=False,
    )
    best = dataclasses.replace(jinn, number=jinn.number + 2, cost=0, verdict="best", best=None)
    result = dataclasses.replace(result, moves=[jinn, best])
    summary = result.players()[jinn.player]
    assert summary.accuracy == pytest.approx((_lichess(25) + _lichess(0)) / 2)
    assert summary.counts_text() == "0 mistakes, 1 blunder"
    name = summary.name
    assert jinn.words == move_words(before, jinn.action)
    assert summary.worst_text() == (
        f"Worst moment, move {jinn.number}: {jinn.words} (a blunder: {name}'s chance of winning "
        f"fell from 75% to 50%). Best was: {move_words(before, other)}."
    )
    other = result.players()[1 - jinn.player]
    assert other.accuracy is None and other.worst is None
    assert (
        other.text()
        == "0 moves judged (0 exact). Accuracy: no move to judge; no mistakes or blunders."
    )


def test_one_source_of_words_for_the_record_the_command_and_the_web():
    result = _acadmu_review(5, tokens=6)
    data = review_data(result)
    annotated = result.annotated()
    for player, name in enumerate(result.game.player_names):
        text = result.summary_text(name)
        assert annotated.tags[f"{name.capitalize()}Review"] == text
        web = data["summary"][player]
        assert web["text"] == text
        assert web["accuracy_text"] in text and web["counts_text"] in text
        assert web["mistakes"] == result.players()[player].mistakes
        assert "given_up" not in web
    assert all(m["words"] for m in data["moves"])
    for move, shown in zip(result.moves, data["moves"], strict=True):
        name = result.game.player_names[move.player].capitalize()
        assert shown["value_words"].startswith(f"with best play {name} would finish ")


def test_what_a_move_did_to_the_value_in_words():
    points, chance = ValueKind.POINTS, ValueKind.PROBABILITY
    assert value_change(points, "Dark", 2, 0, exact=True) == (
        "with best play Dark would finish 2 points ahead; after it, level"
    )
    assert value_change(points, "Light", -1, -1, exact=True) == (
        "with best play Light would finish 1 point behind, before it and after"
    )
    assert value_change(points, "Dark", 1.5, 0.4, exact=False) == (
        "with best play Dark would finish about 1.5 points ahead; after it, 0.4 points ahead"
    )
    assert value_change(chance, "Jinn", 0.62, 0.38, exact=True) == (
        "Jinn's chance of winning fell from 62% to 38%"
    )
    assert value_change(chance, "Ifrit", 0.5, 0.5, exact=False) == (
        "Ifrit's chance of winning stayed at about 50%"
    )


def test_the_command_prints_each_players_summary_in_the_records_words(tmp_path, capsys):
    game = find_game("acadmu")
    start = find_plugin("acadmu").load_deal()(game, random.Random(2), 7)
    played = play_game(game, [RandomAgent(2), RandomAgent(3)], seed=2, start=start)
    path, out = tmp_path / "game.txt", tmp_path / "reviewed.txt"
    path.write_text(str(make_record(game, played.actions, setup=start, final=played.final)))
    main(["review", str(path), "--out", str(out), "--seconds", str(SETTLED)])
    printed = " ".join(capsys.readouterr().out.split())  # the terminal wraps long lines
    tags = Record.parse(out.read_text(encoding="utf-8")).tags
    for name in ("Dark", "Light"):
        said = " ".join(tags[f"{name}Review"].split())
        assert f"{name}: {said}" in printed
        assert "Accuracy" in said and "gave up" not in said


def test_a_review_stored_before_the_summary_changed_is_still_read():
    stored = {
        "player": 0,
        "name": "dark",
        "moves": 3,
        "exact": 3,
        "given_up": "2",
        "given_up_estimated": None,
        "classes": {"best": 1, "good": 0, "inaccuracy": 0, "mistake": 1, "blunder": 1},
        "text": "3 moves (3 exact), gave up 2; 1 mistake, 1 blunder",
    }
    summary = ReviewSummary(**_current_summary(stored))
    assert (summary.mistakes, summary.blunders) == (1, 1)
    assert summary.accuracy is None and summary.worst is None
