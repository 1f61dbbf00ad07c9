"""Tic-tac-toe's own tests: gamehall's conformance suite from the installed kit, then a test per
rule, the notation both ways, and every diagram the plugin shows people."""

from __future__ import annotations

import pytest
from gamehall.core import (
    TERMINAL,
    Diagram,
    IllegalActionError,
    InvalidStateError,
    NotationError,
    find_game,
)
from gamehall.testing import GameConformance

from gamehall_tictactoe.game import CROSS, NOUGHT, Place, TicTacToeGame, TicTacToeState
from gamehall_tictactoe.plugin import PLUGIN


class TestTicTacToe(GameConformance):
    """Every promise of gamehall's core protocol, and the golden playthrough."""

    game = PLUGIN


def play(*moves: str) -> TicTacToeState:
    state = TicTacToeGame().new_initial_state()
    for move in moves:
        state = state.apply(state.parse_action(move))
    assert isinstance(state, TicTacToeState)
    return state


def test_it_is_registered_under_its_name_and_alias():
    assert isinstance(find_game("tictactoe"), TicTacToeGame)
    assert isinstance(find_game("noughts-and-crosses"), TicTacToeGame)


def test_cross_moves_first_then_the_players_take_turns():
    assert play().current_player == CROSS
    assert play("b2").current_player == NOUGHT
    assert play("b2", "a1").current_player == CROSS
    assert str(play("b2", "a1")) == ".../.x./o.."


def test_three_in_a_row_wins_at_once():
    state = play("a1", "a2", "b2", "a3", "c3")
    assert state.current_player == TERMINAL and state.legal_actions() == ()
    assert state.returns() == (1.0, -1.0)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == CROSS
    assert outcome.reason == "Cross has three in a row: a1 b2 c3"
    assert state.view()["line"] == [0, 4, 8]


def test_a_full_board_without_three_in_a_row_is_a_draw():
    state = play("b2", "a1", "c3", "a3", "a2", "c2", "b1", "b3", "c1")
    assert str(state) == "oox/xxo/oxx"
    assert state.is_terminal() and state.returns() == (0.0, 0.0)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None and outcome.result_tag() == "1/2-1/2"


def test_a_taken_square_is_refused_with_the_reason():
    state = play("b2")
    with pytest.raises(IllegalActionError, match="b2 is taken by cross"):
        state.parse_action("b2")
    assert str(state) == ".../.x./..."


def test_moves_round_trip_and_their_repr_reads_them_back():
    for square in range(9):
        move = Place(square)
        assert Place.parse(str(move)) == move and eval(repr(move)) == move
        assert TicTacToeGame().action_index(move) == square
    assert str(Place(0)) == "a1" and str(Place(4)) == "b2" and str(Place(8)) == "c3"
    assert Place.parse(" B2 ") == Place(4)


@pytest.mark.parametrize("text", ["d4", "b", "b22", "", "a0"])
def test_a_move_that_does_not_parse_says_what_would(text):
    with pytest.raises(NotationError, match="expected a square a1 to c3"):
        Place.parse(text)


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        ("x.o/.x.", NotationError, "three ranks"),
        ("x.o/.q./...", NotationError, "three ranks"),
        ("xx./.../...", InvalidStateError, "2 crosses and 0 noughts"),
        ("ooo/xx./xx.", InvalidStateError, "a move after Nought won"),
        ("xxx/oo./o..", InvalidStateError, "a move after Cross won"),
        ("xxx/ooo/...", InvalidStateError, "both sides"),
    ],
)
def test_a_position_that_cannot_be_is_refused(text, error, fragment):
    with pytest.raises(error, match=fragment):
        TicTacToeGame().parse_state(text)


def test_every_diagram_is_a_real_position_and_its_move_is_legal():
    page = PLUGIN.how_to_play_page() or []
    diagrams = [part for part in page if isinstance(part, Diagram)]
    assert len(diagrams) == 4 and PLUGIN.sample is not None
    game = TicTacToeGame()
    for diagram in [*diagrams, PLUGIN.sample]:
        state = game.parse_state(diagram.position)
        if diagram.action is not None:
            state.parse_action(diagram.action)  # raises if it is not legal there
        assert diagram.caption


def test_moves_are_told_in_words():
    from gamehall.core.words import move_words

    start = play()
    assert move_words(start, Place.parse("b2")) == "Cross marks b2, the centre"
    after = play("b2")
    assert move_words(after, Place.parse("a1")) == "Nought marks a1, a corner"
    assert move_words(after, Place.parse("b1")) == "Nought marks b1, an edge"
