"""The analysis board's judge (gamehall.ai.analysis_board): every legal move of a position
with its value, exact where the solver settles it and a labelled estimate elsewhere, best
first, told in words; chance steps list their outcomes; the end lists nothing."""

from __future__ import annotations

from fractions import Fraction

from gamehall.ai.analysis_board import chance_outcomes, evaluate_moves, probability_text
from gamehall.ai.evaluation import Analyst
from gamehall.core import find_game
from gamehall.core.search import Limit
from gamehall.core.words import move_words

SHORT_ROUND = "1,1,0,0,0,0,0,0,0/0,0,0,1,1,0,0,0,0 d -"


def test_every_move_of_a_small_round_is_exact_and_agrees_with_the_solver():
    state = find_game("acadmu").parse_state(SHORT_ROUND)
    board = evaluate_moves(state, seconds=2.0)
    assert board.to_move_name == "Dark" and board.proven
    assert {move.action for move in board.moves} == set(state.legal_actions())
    solver = Analyst("acadmu").solver
    assert solver is not None
    for move in board.moves:
        assert move.method == "exact"
        value = solver.solve(move.after, Limit(seconds=5)).value_for(state.current_player)
        assert move.value == (f"{int(value):+d}" if value else "0")
        assert move.words == move_words(state, move.action)
        assert move.label == str(move.action)
    ranks = [move.rank for move in board.moves]
    assert ranks == sorted(ranks, reverse=True)
    assert board.moves[0].best
    assert all(m.best == (m.rank == board.moves[0].rank) for m in board.moves)
    assert board.position_text.startswith("With best play: Dark")


def test_moves_the_solver_cannot_settle_in_time_are_labelled_estimates():
    game = find_game("akros")
    state = game.new_initial_state()
    state = state.apply(chance_outcomes(state)[0].action)  # the Jinn keeps a tile
    board = evaluate_moves(state, seconds=0.5)
    assert board.to_move_name == "Jinn"
    assert {move.action for move in board.moves} == set(state.legal_actions())
    for move in board.moves:
        assert move.method in ("exact", "bounds", "estimate", "unknown")
        if move.method == "estimate":
            assert move.value.startswith("~") and "(an estimate)" in move.text
    assert not board.proven or all(move.exact for move in board.moves)


def test_chance_steps_list_outcomes_with_their_probabilities():
    akros = find_game("akros").new_initial_state()
    board = evaluate_moves(akros)
    assert board.chance and not board.moves
    assert board.outcomes is not None
    total = sum(Fraction(p) for _, p in akros.chance_outcomes())
    assert total == 1
    assert abs(sum(o.probability for o in board.outcomes) - 1) < 1e-9
    probabilities = [o.probability for o in board.outcomes]
    assert probabilities == sorted(probabilities, reverse=True)
    # thousands of outcomes (Äcädmü's first draw): none listed, a front end draws at random
    assert chance_outcomes(find_game("acadmu").new_initial_state()) is None


def test_the_end_has_no_moves():
    state = find_game("acadmu").parse_state("0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 d -")
    board = evaluate_moves(state)
    assert board.over and board.moves == () and board.to_move_name == ""


def test_probabilities_for_people():
    assert probability_text(0.25) == "1 in 4"
    assert probability_text(0.2600619195) == "26.0%"


def test_a_game_without_a_solver_gets_labelled_estimates_of_every_move():
    state = find_game("tictactoe").new_initial_state()
    board = evaluate_moves(state, seconds=0.3)
    assert {move.action for move in board.moves} == set(state.legal_actions())
    assert all(move.method == "estimate" and move.value.startswith("~") for move in board.moves)
    assert all("(an estimate" in move.text for move in board.moves)
    assert board.moves[0].best and not board.proven and board.position_text == ""
