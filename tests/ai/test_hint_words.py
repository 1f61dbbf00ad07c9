"""Hints told for people (gamehall.ai.hint_words): a plain first sentence from the move in words and
what it is worth, one word for exact or estimated, the statistics and the line of play as details,
hints that cannot be told apart said to be so, and the same lines on every terminal."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from gamehall.ai.evaluation import Evaluation
from gamehall.ai.hint_words import WHATEVER_IS_DRAWN, about_equal, line_words, tell
from gamehall.ai.hints import Advice, Hint, advise
from gamehall.cli.app import main
from gamehall.core import find_game, find_plugin
from gamehall.core.search import ValueKind
from gamehall.core.words import move_words

SMALL_ROUND = "1,0,0,4,0,0,0,0,2/0,2,2,1,1,0,2,0,0 d -"
LATE_AKROS = (
    "turn=9 step=jinn-keep bag=F0S0M0 temple=-/-/- draft=FM jinn=- ifrit=- out=FS "
    "regions=2I,0,0,1,1,1J,0,0,1J,1,2I,1I,1J,0,1,1,1I,0,1J"
)
POINTS, CHANCE = ValueKind.POINTS, ValueKind.PROBABILITY


def _advice(state, facts, *, position=None, proven=False):
    """Advice made by hand: the hints' values are given, so the words are what is tested."""
    hints = [
        Hint(
            action,
            "",
            facts[action].rank,
            facts[action].exact,
            facts[action].visits or None,
            facts[action],
        )
        for action in facts
    ]
    return Advice(state, state.current_player, hints, position, proven, 1.0)


def _akros_first_keep():
    """The Jinn's first keep of a game, with three different tiles drafted."""
    game = find_game("akros")
    for seed in range(50):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while state.is_chance_node():
            state = state.apply_trusted(state.sample_chance(rng))
        if len(state.legal_actions()) == 3:
            return state
    raise AssertionError("no draft of three different tiles")


def test_acadmu_outlook_is_the_round_in_points():
    solver = find_plugin("acadmu").load_solver()
    assert solver.outlook(2, exact=True) == "you win the round by 2 points"
    assert solver.outlook(1, exact=True) == "you win the round by 1 point"
    assert solver.outlook(-3, exact=True) == "you lose the round by 3 points"
    assert solver.outlook(0, exact=True) == "the round ends level (nobody scores)"
    assert solver.outlook(0.84, exact=False) == "you win the round by about 0.8 points"
    assert solver.outlook(-0.03, exact=False) == "the round ends about level (nobody scores)"


def test_akros_outlook_is_the_chance_of_winning():
    solver = find_plugin("akros").load_solver()
    assert solver.outlook(Fraction(1), exact=True) == "you win for certain"
    assert solver.outlook(Fraction(0), exact=True) == "you lose for certain"
    assert solver.outlook(Fraction(5, 12), exact=True) == "you win 41.7% of the time"
    assert solver.outlook(Fraction(1, 2), exact=True) == "you win 50% of the time"
    assert solver.outlook(0.387, exact=False) == "you win about 39% of the time"


def test_an_exact_acadmu_hint_is_a_sentence_from_the_move_in_words():
    state = find_game("acadmu").parse_state(SMALL_ROUND)
    advice = advise(state, count=2, seconds=30.0)  # a small round: settled long before that
    told = tell(advice)
    assert advice.proven and all(h.exact for h in advice.hints)
    best, second = told.hints
    solver = find_plugin("acadmu").load_solver()
    value = advice.hints[0].assessment.value
    assert best.sentence == (
        f"Best: {move_words(state, advice.hints[0].action)}: with best play "
        f"{solver.outlook(value, exact=True)}"
    )
    assert best.method == second.method == "exact"
    assert best.notation == str(advice.hints[0].action)
    assert told.headline == f"With best play {solver.outlook(advice.position.value, exact=True)}."
    # The line of play is told in words, the move itself left out (the sentence says it).
    assert best.line_kind == "Perfect play after it" and best.line
    after = state.apply_trusted(advice.hints[0].action)
    assert best.line[0] == move_words(after, advice.hints[0].line[0])
    second_value = advice.hints[1].assessment.value
    assert second.label == ("Equally good" if second_value == value else "Second best")
    assert told.note == ""  # proven: nothing to warn of
    assert told.unit == "Values are the final count difference of the round, from your side."


def test_an_estimated_acadmu_hint_says_estimate_and_keeps_the_statistics_for_details():
    state = find_game("acadmu").parse_state(SMALL_ROUND)
    first, second = state.legal_actions()[:2]
    facts = {
        first: Evaluation(POINTS, None, -2, 3, 0.84, (0.62, 1.04), 2913),
        second: Evaluation(POINTS, None, -4, 1, -1.2, (-1.5, -0.9), 512),
    }
    told = tell(_advice(state, facts))
    best, other = told.hints
    assert best.method == other.method == "estimate"
    assert best.sentence == (
        f"Best: {move_words(state, first)}: with best play you win the round by about 0.8 points"
    )
    assert other.sentence.startswith("Second best: ")
    assert other.outlook == "with best play you lose the round by about 1.2 points"
    assert best.details == (
        "Estimated from 2,913 simulated games (95% interval: +0.6 to +1.0).",
        "The solver proved it lies between -2 and +3.",
    )
    assert told.headline == "" and told.summary == ""
    assert told.note.startswith("Not every move is settled")


def test_exact_akros_hints_say_who_wins():
    state = find_game("akros").parse_state(LATE_AKROS)
    advice = advise(state, count=2, seconds=30.0)
    told = tell(advice)
    assert [h.method for h in told.hints] == ["exact", "exact"]
    assert told.hints[0].outlook == "with best play you win for certain"
    assert told.hints[1].sentence == (
        f"Second best: {move_words(state, advice.hints[1].action)}: with best play you lose for "
        "certain"
    )
    assert told.headline == "With best play you win for certain."


def test_akros_hints_that_cannot_be_told_apart_say_so():
    state = _akros_first_keep()
    a, b, c = state.legal_actions()
    overlapping = {
        a: Evaluation(CHANCE, None, 0, 1, 0.39, (0.35, 0.43), 700),
        b: Evaluation(CHANCE, None, 0, 1, 0.38, (0.34, 0.42), 650),
        c: Evaluation(CHANCE, None, 0, 1, 0.37, (0.33, 0.41), 600),
    }
    told = tell(_advice(state, overlapping))
    assert told.summary == "All three are about equal: no one of them is clearly better."
    assert [h.label for h in told.hints] == ["Best", "About as good", "About as good"]
    assert told.hints[0].outlook == "with best play you win about 39% of the time"
    assert all("pp" not in line for line in told.lines())
    # Within two percentage points counts as equal even where many simulations tell them apart.
    close = {
        a: Evaluation(CHANCE, None, 0, 1, 0.400, (0.399, 0.401), 90000),
        b: Evaluation(CHANCE, None, 0, 1, 0.390, (0.389, 0.391), 90000),
    }
    assert about_equal(CHANCE, close[a], close[b])
    assert tell(_advice(state, close)).summary.startswith("Both are about equal")
    # Exactly equal exact values are "equally good"; clearly different ones are ranked.
    exact = {
        a: Evaluation.exactly(CHANCE, Fraction(1, 3)),
        b: Evaluation.exactly(CHANCE, Fraction(1, 3)),
    }
    told = tell(_advice(state, exact))
    assert told.summary == "Both are equally good." and told.hints[1].label == "Equally good"
    apart = {
        a: Evaluation(CHANCE, None, 0, 1, 0.60, (0.57, 0.63), 900),
        b: Evaluation(CHANCE, None, 0, 1, 0.30, (0.27, 0.33), 900),
    }
    told = tell(_advice(state, apart))
    assert told.summary == "" and told.hints[1].label == "Second best"


def test_a_line_of_play_stops_at_a_draw_rather_than_show_a_sampled_one():
    state = _akros_first_keep()
    rng = random.Random(2)
    line, walk = [], state
    while len(line) < 12 and not walk.is_terminal():
        action = walk.sample_chance(rng) if walk.is_chance_node() else walk.legal_actions()[0]
        line.append(action)
        walk = walk.apply_trusted(action)
    told = line_words(state, tuple(line))
    drawn = told.index(WHATEVER_IS_DRAWN)
    assert told[-1] == WHATEVER_IS_DRAWN and drawn < len(line)  # nothing after the draw
    assert told[0] == move_words(state, line[0])


@pytest.mark.parametrize(("game", "position"), [("acadmu", SMALL_ROUND), ("akros", LATE_AKROS)])
def test_the_hint_command_speaks_the_same_sentences_with_no_padding(capsys, game, position):
    main(["hint", game, position, "--count", "2", "--seconds", "30"])
    out = capsys.readouterr().out.splitlines()
    state = find_game(game).parse_state(position)
    told = tell(advise(state, count=2, seconds=30.0))
    assert out == told.lines(width=80)
    assert out[1].startswith("1. Best: ") and "(exact; " in " ".join(out[1:3])
    assert all(line == line.rstrip() for line in out)  # no trailing spaces
    assert all("pp" not in line.split() for line in out)


def test_the_only_move_is_said_to_be_so():
    state = find_game("acadmu").parse_state("0,0,0,0,0,0,0,0,1/1,0,0,0,0,0,0,0,0 d -")
    (only,) = state.legal_actions()
    told = tell(advise(state, seconds=5.0))
    assert told.hints[0].label == "Only move" and told.summary == ""
    assert told.hints[0].sentence.startswith(f"Only move: {move_words(state, only)}: ")
    # Nothing known of it in time: it is still the only move, with no promise of details.
    unknown = tell(_advice(state, {only: Evaluation(POINTS)}))
    assert unknown.hints[0].sentence == f"Only move: {move_words(state, only)}"
    assert unknown.hints[0].details == () and unknown.note == ""


def test_a_game_without_a_solver_is_told_by_its_search():
    state = find_game("tictactoe").new_initial_state()
    told = tell(advise(state, count=2, seconds=0.3))
    assert [h.method for h in told.hints] == ["estimate", "estimate"]
    first = told.hints[0]
    assert first.sentence == f"Best: {first.move}: {first.outlook}"
    assert first.outlook.startswith("the search wins about ")
    assert first.outlook.endswith("% of its games with it")
    assert told.headline == told.unit == told.note == ""
