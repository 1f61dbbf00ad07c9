"""The analysis board's judge (gamehall.ai.analysis_board), shared by the web's board and the
terminal app's: every legal move of a position with its value, exact as the solver's where it
settles it and a labelled estimate elsewhere, best first, told in words with its notation;
chance steps list their outcomes with their probabilities; the end lists nothing; the position
said in a sentence."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from gamehall.ai.analysis_board import (
    MAX_OUTCOMES,
    chance_outcomes,
    evaluate_moves,
    probability_text,
)
from gamehall.ai.evaluation import Analyst
from gamehall.core import find_game
from gamehall.core.words import move_words, mover_name
from gamehall.protocol import AnalysisMove, AnalysisOutcome

SHORT_ROUND = "1,1,0,0,0,0,0,0,0/0,0,0,1,1,0,0,0,0 d -"
# Small positions the solver settles at once (from the games' starter puzzles), whose moves
# differ in value.
PUZZLE = {
    "acadmu": "0,0,4,1,0,0,0,1,1/0,0,0,2,3,0,1,0,2 d - 0-0 l",
    "akros": (
        "turn=5 step=jinn-keep bag=F0S3M1 temple=SMM/S/- draft=FMM jinn=- ifrit=- out=F "
        "regions=0,0,1J,1J,1J,1I,0,0,0,0,1I,1I,0J,0,0,0,0,1I,0"
    ),
}
SOLVED = [("acadmu", SHORT_ROUND), ("acadmu", PUZZLE["acadmu"]), ("akros", PUZZLE["akros"])]


def opening(name: str = "acadmu", seed: int = 1):
    """A game's first decision after its chance steps: far too big to solve at once."""
    state = find_game(name).new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state = state.apply(state.sample_chance(rng))
    return state


@pytest.mark.parametrize(("game", "position"), SOLVED)
def test_every_move_of_a_small_position_is_exact_and_agrees_with_the_solver(game, position):
    state = find_game(game).parse_state(position)
    mover, who = state.current_player, mover_name(state)
    # a budget only a broken solve runs out of (how fast is bench/'s business)
    board = evaluate_moves(state, seconds=60.0)
    assert board.to_move_name == who and board.proven
    assert sorted(str(m.action) for m in board.moves) == sorted(map(str, state.legal_actions()))
    analyst = Analyst(game)
    assert analyst.solver is not None
    for move in board.moves:
        assert move.method == "exact" and move.exact, move
        solved = analyst.solve(move.after, 60.0)
        assert solved is not None and solved.exact
        value = Fraction(solved.value_for(mover))
        assert Fraction(move.assessment.value) == value
        if game == "acadmu":
            assert move.value == (f"{int(value):+d}" if value else "0")
        assert move.text.startswith(who)  # its value in words, from the mover's side
        assert move.words == move_words(state, move.action)
        assert move.label == str(move.action)
        assert move.after == state.apply(move.action)
    values = [Fraction(move.assessment.value) for move in board.moves]
    assert values == sorted(values, reverse=True)
    if position in PUZZLE.values():
        assert len(set(values)) > 1  # the moves differ: the order means something
    ranks = [move.rank for move in board.moves]
    assert ranks == sorted(ranks, reverse=True)
    assert board.moves[0].best
    assert all(m.best == (m.rank == board.moves[0].rank) for m in board.moves)
    assert board.position_text.startswith(f"With best play: {who}")
    assert board.summary == board.position_text


def test_the_position_is_worth_its_best_move_and_told_in_words():
    state = find_game("acadmu").parse_state(PUZZLE["acadmu"])
    board = evaluate_moves(state, seconds=60.0)
    assert board.position is not None and board.position.exact
    assert board.position.value == board.moves[0].assessment.value == 1
    assert board.summary == "With best play: Dark ends +1"
    assert board.moves[0].value == "+1" and board.moves[0].text == "Dark ends +1"
    data = board.to_json()
    assert data["position"] == PUZZLE["acadmu"] and data["value"]["value"] == 1
    assert data["to_move"] == "Dark" and data["outcomes"] is None
    assert data["proven"] and [m["move"] for m in data["moves"]] == [m.label for m in board.moves]
    for move, told in zip(board.moves, data["moves"], strict=True):
        assert told["move"] == move.label and told["words"] == move.words
        assert told["method"] == "exact" and told["assessment"]["exact"] is True
        assert told["after"] == str(move.after)
        # without the assessment: what the web sends (AnalysisMove), field for field
        assert set(move.to_json(assessment=False)) == set(AnalysisMove.model_fields)


@pytest.mark.parametrize("game", ["acadmu", "akros"])
def test_moves_the_solver_cannot_settle_in_time_are_labelled_estimates(game):
    state = opening(game)
    board = evaluate_moves(state, seconds=0.3)
    assert board.to_move_name == mover_name(state)
    assert sorted(str(m.action) for m in board.moves) == sorted(map(str, state.legal_actions()))
    for move in board.moves:
        assert move.method in ("exact", "bounds", "estimate", "unknown")
        if move.method == "estimate":
            assert move.value.startswith("~") and "(an estimate)" in move.text
    if game == "acadmu":
        assert not board.proven, "the opening is not solved in 0.3 s"
        assert any(move.method == "estimate" for move in board.moves)
    assert board.proven == all(move.exact for move in board.moves)
    ranks = [move.rank for move in board.moves]
    assert ranks == sorted(ranks, reverse=True)
    assert board.summary


def test_chance_steps_list_outcomes_with_their_probabilities():
    akros = find_game("akros").new_initial_state()
    board = evaluate_moves(akros)
    assert board.chance and not board.moves and board.position is None
    assert board.to_move_name == "Chance"
    assert board.outcomes is not None and 1 < len(board.outcomes) <= MAX_OUTCOMES
    assert {o.action for o in board.outcomes} == {a for a, _ in akros.chance_outcomes()}
    total = sum(Fraction(p) for _, p in akros.chance_outcomes())
    assert total == 1
    assert abs(sum(o.probability for o in board.outcomes) - 1) < 1e-9
    probabilities = [o.probability for o in board.outcomes]
    assert probabilities == sorted(probabilities, reverse=True)
    for outcome in board.outcomes:
        assert outcome.words == move_words(akros, outcome.action)
        assert outcome.chance == probability_text(outcome.probability)
        assert outcome.after == akros.apply(outcome.action)
    assert board.summary == "Chance acts here: pick the outcome"
    listed = board.to_json()["outcomes"]
    assert [o["move"] for o in listed] == [o.label for o in board.outcomes]
    assert set(listed[0]) == set(AnalysisOutcome.model_fields)  # what the web sends


def test_a_chance_step_with_too_many_outcomes_is_not_listed():
    # thousands of outcomes (Äcädmü's first draw): none listed, a front end draws at random
    state = find_game("acadmu").new_initial_state()
    assert chance_outcomes(state) is None
    board = evaluate_moves(state)
    assert board.chance and board.outcomes is None and board.moves == ()
    assert board.summary == "Chance acts here: too many outcomes to list"


def test_the_end_has_no_moves_and_says_how_the_game_ended():
    state = find_game("acadmu").parse_state("0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 d -")
    board = evaluate_moves(state)
    assert board.over and board.moves == () and board.to_move_name == ""
    assert board.summary.startswith("The game is over, drawn")
    state = find_game("tictactoe").new_initial_state()
    for move in ("a1", "b1", "a2", "b2", "a3"):
        state = state.apply(state.parse_action(move))
    board = evaluate_moves(state)
    assert board.over and board.moves == ()
    assert board.summary.startswith("The game is over: Cross wins")


def test_probabilities_for_people():
    assert probability_text(0.25) == "1 in 4"
    assert probability_text(0.2600619195) == "26.0%"


def test_a_game_without_a_solver_gets_labelled_estimates_of_every_move():
    state = find_game("tictactoe").new_initial_state()
    board = evaluate_moves(state, seconds=0.3)
    assert {move.action for move in board.moves} == set(state.legal_actions())
    assert len(board.moves) == 9
    assert all(move.method == "estimate" and move.value.startswith("~") for move in board.moves)
    assert all(not move.exact and "(an estimate" in move.text for move in board.moves)
    assert board.moves[0].best and not board.proven and board.position_text == ""
    assert board.summary == board.moves[0].text  # the position: its best move's estimate
