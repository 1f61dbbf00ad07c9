"""The referee is a pure function: every rule of accepting a move, without an event loop."""

from __future__ import annotations

import random

import pytest

from gamehall.core import find_game
from gamehall.protocol import ErrorCode, Move, ProtocolError
from gamehall.web.play.referee import referee


def _move(version: int, action: str) -> Move:
    return Move(type="move", version=version, action=action)


def _finished(game):
    rng = random.Random(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        legal = state.legal_actions()
        state = state.apply_trusted(rng.choice(legal) if legal else state.sample_chance(rng))
    return state


def _refused(state, version, seats, message) -> ProtocolError:
    with pytest.raises(ProtocolError) as refusal:
        referee(state, version, frozenset(seats), message)
    assert refusal.value.message
    return refusal.value


@pytest.mark.parametrize("name", ["acadmu", "akros"])
def test_every_legal_action_is_accepted_for_the_seat_to_move(name):
    game = find_game(name)
    state = game.deal(3)
    player = state.current_player
    for action in state.legal_actions():
        assert referee(state, 7, frozenset({player}), _move(7, str(action))) == action
        # Hot-seat: a client holding every seat plays for whoever is to move.
        assert (
            referee(state, 7, frozenset(range(game.num_players)), _move(7, str(action))) == action
        )


def test_refusals_come_in_the_documented_order():
    game = find_game("acadmu", target=1)
    state = game.deal(1)
    player = state.current_player
    other = 1 - player
    legal = str(state.legal_actions()[0])
    over = _finished(game)
    # game_over comes first, whoever asks and whatever the version.
    assert _refused(over, 3, set(), _move(0, "pass")).code == ErrorCode.GAME_OVER
    # A spectator is told so before anything about versions or turns.
    assert _refused(state, 2, set(), _move(9, legal)).code == ErrorCode.NOT_YOUR_SEAT
    # A stale version before whose turn it is.
    assert _refused(state, 2, {other}, _move(1, legal)).code == ErrorCode.STALE_VERSION
    assert _refused(state, 2, {player}, _move(3, legal)).code == ErrorCode.STALE_VERSION
    error = _refused(state, 2, {other}, _move(2, legal))
    assert error.code == ErrorCode.NOT_YOUR_TURN
    names = [name.capitalize() for name in game.player_names]  # as people read them
    assert f"it is {names[player]}'s turn; you play {names[other]}" == error.message
    # Illegal, and unreadable, moves name the move and the legal ones.
    error = _refused(state, 2, {player}, _move(2, "fly to the moon"))
    assert error.code == ErrorCode.ILLEGAL_MOVE
    assert "fly to the moon" in error.message and legal in error.message


def test_nobody_moves_for_chance():
    game = find_game("akros")
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcome = str(state.chance_outcomes()[0][0])
    error = _refused(state, 0, {0, 1}, _move(0, outcome))
    assert error.code == ErrorCode.NOT_YOUR_TURN and "chance" in error.message


def test_an_illegal_akros_move_is_refused_with_the_legal_ones():
    game = find_game("akros")
    state = game.deal(5)
    player = state.current_player
    error = _refused(state, 1, {player}, _move(1, "remove F"))
    assert error.code == ErrorCode.ILLEGAL_MOVE
    assert "remove F" in error.message and str(state.legal_actions()[0]) in error.message
