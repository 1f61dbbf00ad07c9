"""Game review: values before and after every move equal independent exact values; annotated
records round-trip; estimates are labelled; the command writes, prints and replays them."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamehall.ai import RandomAgent
from gamehall.ai.review import Annotation, review
from gamehall.cli.app import main
from gamehall.core import Limit, Record, RecordError, find_game, find_plugin, make_record, play_game
from gamehall.core.search import VERDICTS
from gamehall.games.acadmu.solver import reference_values


def _record_from(state, seed: int) -> Record:
    """Random play from ``state`` to the end, as a record with ``state`` as its SetUp."""
    game = state.game
    played = play_game(game, [RandomAgent(seed), RandomAgent(seed + 1)], seed=seed, start=state)
    return make_record(game, played.actions, setup=state, final=played.final)


def _acadmu_value(state, player: int) -> int:
    """The pure-Python minimax value of a bare round position, from ``player``'s side."""
    if state.round_over:
        diff = state.round_difference()
        return diff if player == 0 else -diff
    value, _ = reference_values(state)
    return value if state.to_move == player else -value


@cache
def _akros_value(state, player: int) -> Fraction:
    """The win probability of ``player`` under perfect play, by plain expectimax."""
    if state.is_terminal():
        return Fraction(1 if state.returns()[player] > 0 else 0)
    if state.is_chance_node():
        return sum(
            p * _akros_value(state.apply_trusted(a), player) for a, p in state.chance_outcomes()
        )
    values = [_akros_value(state.apply_trusted(a), player) for a in state.legal_actions()]
    return max(values) if state.current_player == player else min(values)


def _check_against(result, value_of) -> None:
    """Every move of ``result`` is exact and agrees with ``value_of(state, player)``."""
    judgement = result.judgement
    states = result.record.replay()
    assert result.moves, "the fixture has moves to judge"
    for move in result.moves:
        before_state, after_state = states[move.number - 1], states[move.number]
        assert move.exact
        assert move.before.value == value_of(before_state, move.player)
        assert move.after.value == value_of(after_state, move.player)
        assert move.cost == move.before.value - move.after.value >= 0
        assert move.verdict == judgement.classify(move.cost)
        if move.verdict != "best":
            best_after = before_state.apply_trusted(move.best)
            assert value_of(best_after, move.player) == move.before.value


SETTLED = 60.0
"""The solver's budget on each position where every solve finishes (in milliseconds): one only
a broken solve runs out of, costing nothing (a solve returns once exact). The tests say what a
review finds; how fast it finds it is bench/'s to measure."""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_acadmu_review_equals_the_reference_minimax(seed):
    game = find_game("acadmu")
    start = find_plugin("acadmu").load_deal()(game, random.Random(seed), 7)
    result = review(_record_from(start, seed), seconds=SETTLED)
    _check_against(result, _acadmu_value)
    assert {m.verdict for m in result.moves} - {"best"}, "random play makes some mistakes"


def _akros_turn(seed: int, turn: int):
    game = find_game("akros")
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not (state.turn == turn and state.current_player >= 0):
        state = state.apply_trusted(
            state.sample_chance(rng)
            if state.is_chance_node()
            else rng.choice(state.legal_actions())
        )
    return state


@pytest.mark.parametrize("seed", [4, 5])
def test_akros_review_equals_plain_expectimax(seed):
    result = review(_record_from(_akros_turn(seed, 8), seed), seconds=SETTLED)
    _check_against(result, _akros_value)


@pytest.mark.slow
def test_a_full_size_acadmu_round_is_reviewed_exactly_with_the_solver_values():
    game = find_game("acadmu")
    start = find_plugin("acadmu").load_deal()(game, random.Random(11), None)
    record = _record_from(start, 11)
    result = review(record, seconds=60.0)
    solver = find_plugin("acadmu").load_solver()

    def solved(state, player):
        return solver.solve(state, Limit(), best="none").value_for(player)

    _check_against(result, solved)


def test_annotated_records_round_trip():
    game = find_game("acadmu")
    start = find_plugin("acadmu").load_deal()(game, random.Random(6), 6)
    result = review(_record_from(start, 6), seconds=5.0)
    annotated = result.annotated()
    text = str(annotated)
    assert Record.parse(text) == annotated
    assert str(Record.parse(text)) == text
    assert Record.parse(text).replay() == result.record.replay()
    for move in result.moves:
        comment = annotated.comments[move.number]
        note = Annotation.parse(comment)
        assert note == move.annotation() and str(note) == comment
        assert note.exact and note.verdict == move.verdict
    assert "DarkReview" in annotated.tags and "Annotator" in annotated.tags


def test_the_issue_example_comment_reads_back():
    text = "value +1 → 0, cost 1, mistake, best RCxRT+BT"
    note = Annotation.parse(text)
    assert note == Annotation("+1", "0", "1", "mistake", "RCxRT+BT")
    assert str(note) == text and note.exact
    estimate = Annotation.parse("value ~34% → ~30%, cost ~4 pp, good, best keep M discard F")
    assert estimate is not None and not estimate.exact and estimate.best == "keep M discard F"
    assert Annotation.parse("a remark of a human") is None
    forced = Annotation.parse("value -3 → -3, cost 0, best, only move")
    assert forced is not None and forced.forced and forced.best is None


comment_text = (
    st.text(
        st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="{}"),
        min_size=1,
        max_size=40,
    )
    .map(str.strip)
    .filter(bool)
)


@settings(max_examples=60, deadline=None)
@given(comments=st.dictionaries(st.integers(1, 4), comment_text, max_size=4))
def test_any_comment_round_trips(comments):
    record = Record(
        {"Game": "acadmu"},
        ["draw RT:BS/YC:RT", "pour 1,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,1", "RTxYC", "pass"],
        comments,
    )
    parsed = Record.parse(str(record))
    assert parsed == record
    assert str(parsed) == str(record)


def test_bad_comments_are_refused():
    with pytest.raises(RecordError, match="numbered action"):
        Record.parse('[Game "acadmu"]\n\n1. draw RT:BS/YC:RT {one {two}}\n')
    with pytest.raises(RecordError, match="braces"):
        str(Record({"Game": "acadmu"}, ["pass"], {1: "a } b"}))
    plain = Record.parse('[Game "acadmu"]\n\n1. draw RT:BS/YC:RT {}\n')
    assert plain.comments == {}


def test_estimates_are_labelled_where_the_solver_does_not_finish():
    """Akros from the start with a tiny budget: early moves are estimates (~), late ones exact."""
    record = _record_from(find_game("akros").new_initial_state(), 8)
    result = review(record, seconds=0.05, simulations=60, estimate_seconds=0.5)
    estimated = [m for m in result.moves if not m.exact]
    exact = [m for m in result.moves if m.exact]
    assert estimated and exact
    assert max(m.number for m in estimated) < max(m.number for m in exact)
    for move in result.moves:
        note = move.annotation()
        assert Annotation.parse(str(note)) == note
        assert note.exact == move.exact
        assert move.cost is not None and move.cost >= 0
        assert move.verdict in VERDICTS
        if not move.exact:
            assert "~" in str(note)
            assert move.before.estimate is not None or move.before.exact


def test_review_command_writes_prints_and_replays(tmp_path, capsys):
    game = find_game("acadmu")
    start = find_plugin("acadmu").load_deal()(game, random.Random(9), 6)
    path = tmp_path / "game.pgn"
    path.write_text(str(_record_from(start, 9)), encoding="utf-8")
    main(["review", str(path)])
    printed = capsys.readouterr().out
    annotated = Record.parse(printed)
    assert annotated.comments and all(Annotation.parse(c) for c in annotated.comments.values())

    out = tmp_path / "reviewed.pgn"
    main(["review", str(path), "--json", "--out", str(out)])
    payload = json.loads(capsys.readouterr().out)
    assert Record.parse(out.read_text(encoding="utf-8")) == annotated
    assert payload["moves"] and payload["summary"]["dark"]["moves"] >= 1
    first = payload["moves"][0]
    assert first["comment"] == annotated.comments[first["number"]]

    main(["replay", str(out)])
    shown = capsys.readouterr().out
    assert "{value " in shown and "cost " in shown


def test_review_command_bad_input(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["review", str(tmp_path / "missing.pgn")])
    assert stopped.value.code == 2
    assert "cannot read" in capsys.readouterr().err
