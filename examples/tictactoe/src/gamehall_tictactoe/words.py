"""Tic-tac-toe's moves told for people (see gamehall's ``gamehall.core.words``)."""

from __future__ import annotations

from gamehall.core import Action, State

from gamehall_tictactoe.game import Place

PLACES = {4: "the centre", 0: "a corner", 2: "a corner", 6: "a corner", 8: "a corner"}
"""Where a square is on the board; the others are edges."""


def describe_move(state: State, action: Action) -> str:
    """``action`` played in ``state``: 'Cross marks b2, the centre'."""
    assert isinstance(action, Place)
    mover = state.player_name(state.current_player).capitalize()
    return f"{mover} marks {action}, {PLACES.get(action.square, 'an edge')}"
