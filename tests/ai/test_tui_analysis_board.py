"""The analysis board's evaluation: every legal move valued, exact values as the solver's,
estimates labelled, chance outcomes listed, each move told in words with its notation."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from gamehall.ai.tui_analysis_board import MAX_OUTCOMES, analyse, evaluate_moves
from gamehall.ai.evaluation import Analyst
from gamehall.core import find_game
from gamehall.core.words import move_words

# Small positions the solver settles at once (from the games' starter puzzles).
SMALL = {
    "acadmu": "0,0,4,1,0,0,0,1,1/0,0,0,2,3,0,1,0,2 d - 0-0 l",
    "akros": (
        "turn=5 step=jinn-keep bag=F0S3M1 temple=SMM/S/- draft=FMM jinn=- ifrit=- out=F "
        "regions=0,0,1J,1J,1J,1I,0,0,0,0,1I,1I,0J,0,0,0,0,1I,0"
    ),
}


def opening(name: str = "acadmu", seed: int = 1):
    """A game's first decision after its chance steps: far too big to solve at once."""
    state = find_game(name).new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state = state.apply(state.sample_chance(rng))
    return state


def _small(key: str):
    game = find_game(key.split("-")[0])
    return game.parse_state(SMALL[key])


@pytest.mark.parametrize("key", ["acadmu", "akros"])
def test_exact_values_are_the_solvers_best_first(key):
    state = _small(key)
    mover = state.current_player
    # a budget only a broken solve runs out of (how fast is bench/'s business)
    moves = evaluate_moves(state, 60.0)
    assert sorted(str(m.action) for m in moves) == sorted(str(a) for a in state.legal_actions())
    analyst = Analyst(state.game.name)
    for move in moves:
        assert move.exact, move
        solved = analyst.solve(state.apply(move.action), 60.0)
        assert solved is not None and solved.exact
        assert Fraction(move.evaluation.value) == Fraction(solved.value_for(mover))
        assert "(exact)" in move.value_words and move.value_words.startswith(
            state.player_name(mover).capitalize()
        )
    values = [Fraction(m.evaluation.value) for m in moves]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) > 1  # the positions tell the moves apart: the order means something


def test_the_position_is_worth_its_best_move_and_told_in_words():
    state = _small("acadmu")
    found = analyse(state, 60.0)
    assert found.proven and found.position is not None and found.position.exact
    assert found.position.value == found.moves[0].evaluation.value == 1
    assert found.position_words == "Dark ends +1 with best play (exact)"
    assert found.moves[0].text == "+1"
    data = found.to_json()
    assert data["position"] == SMALL["acadmu"] and data["value"]["value"] == 1
    assert data["proven"] and [m["move"] for m in data["moves"]] == [m.label for m in found.moves]


def test_each_move_is_told_in_words_with_its_notation_as_a_label():
    state = _small("acadmu")
    for move in evaluate_moves(state, 60.0):
        assert move.words == move_words(state, move.action)
        assert move.label == str(move.action)
        data = move.to_json()
        assert data["move"] == move.label and data["words"] == move.words
        assert data["exact"] is True and data["value"]["exact"] is True


def test_a_large_position_in_a_short_budget_gives_labelled_estimates():
    state = opening()
    legal = state.legal_actions()
    moves = evaluate_moves(state, 0.3)
    assert len(moves) == len(legal)
    estimated = [m for m in moves if not m.exact]
    assert estimated, "the opening is not solved in 0.3 s"
    for move in estimated:
        if move.evaluation is not None and move.evaluation.estimate is not None:
            assert move.text.startswith("~")
            assert "(an estimate)" in move.value_words
        assert "(exact)" not in move.value_words
    ranks = [m.evaluation.rank for m in moves]
    assert ranks == sorted(ranks, reverse=True)


def test_a_game_without_a_solver_gets_estimates():
    state = find_game("tictactoe").new_initial_state()
    found = analyse(state, 0.3)
    assert len(found.moves) == 9 and not found.proven
    assert all(not m.exact and m.text.startswith("~") for m in found.moves)
    assert all("(an estimate)" in m.value_words for m in found.moves)


def test_a_chance_step_lists_its_outcomes_with_their_probabilities():
    state = find_game("akros").new_initial_state()
    assert state.is_chance_node()
    found = analyse(state, 0.1)
    assert found.listed and found.position is None
    assert 1 < len(found.moves) <= MAX_OUTCOMES
    chances = [m.probability for m in found.moves]
    assert sum(chances) == 1 and chances == sorted(chances, reverse=True)
    assert all(m.evaluation is None and m.text.endswith("%") for m in found.moves)
    assert {m.action for m in found.moves} == {a for a, _ in state.chance_outcomes()}


def test_a_chance_step_with_too_many_outcomes_is_not_listed():
    state = find_game("acadmu").new_initial_state()
    assert state.is_chance_node()
    found = analyse(state, 0.1)
    assert not found.listed and found.moves == []
    assert "too many outcomes" in found.position_words


def test_the_end_of_the_game_has_no_moves():
    game = find_game("tictactoe")
    state = game.new_initial_state()
    for move in ("a1", "b1", "a2", "b2", "a3"):
        state = state.apply(state.parse_action(move))
    assert state.is_terminal()
    found = analyse(state, 0.1)
    assert found.moves == [] and found.position_words.startswith("The game is over: Cross wins")
