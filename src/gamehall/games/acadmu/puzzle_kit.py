"""Äcädmü's puzzle themes and situations (the plugin's ``puzzle_themes`` and ``situation``).

A theme is read off the position and the answer (and the solution line), never guessed: the
capture's kind, whether it leaves the other player without a capture, whether a capture by
shape was there to be had and turned down, and how much is left on the table."""

from __future__ import annotations

from collections.abc import Sequence

from gamehall.core import Action, State
from gamehall.games.acadmu.game import DARK, PASS, AcadmuState, Move

SIDES = ("Dark", "Light")
ENDGAME_TOKENS = 8
"""At most this many tokens on the table: a "last tokens" puzzle, counted to the end."""
LONG_LINE_PLIES = 5
"""A solution line this long or longer: "a long line"."""

BY_SHAPE = "Capture by shape"
BY_COLOUR = "Capture by colour"
ONE_NOT_TWO = "One, not two"
FORCED_PASS = "Forced pass"
AFTER_A_PASS = "After a pass"
LAST_TOKENS = "Last tokens"
LONG_LINE = "A long line"
THEMES = (BY_SHAPE, BY_COLOUR, ONE_NOT_TWO, FORCED_PASS, AFTER_A_PASS, LAST_TOKENS, LONG_LINE)
"""Every theme this game names, as a player reads it."""


def themes(state: State, answer: Action, line: Sequence[Action]) -> tuple[str, ...]:
    """The puzzle's themes (of :data:`THEMES`), from the position, the answer and the line."""
    assert isinstance(state, AcadmuState) and isinstance(answer, Move)
    found = []
    if answer.by_shape:
        found.append(BY_SHAPE)
    else:
        found.append(BY_COLOUR)
        if any(isinstance(m, Move) and m.by_shape for m in state.legal_actions()):
            found.append(ONE_NOT_TWO)  # a capture by shape was there, and is worse
    after = state.apply_trusted(answer)
    if after.current_player >= 0 and after.legal_actions() == (PASS,):
        found.append(FORCED_PASS)  # the answer leaves the other player no capture
    if state.passed >= 0:
        found.append(AFTER_A_PASS)
    if sum(state.dark) + sum(state.light) <= ENDGAME_TOKENS:
        found.append(LAST_TOKENS)
    if len(line) >= LONG_LINE_PLIES:
        found.append(LONG_LINE)
    return tuple(found)


def situation(state: State) -> str:
    """Where the match stands and what follows from it, for a puzzle's prompt."""
    assert isinstance(state, AcadmuState)
    mover = SIDES[state.to_move]
    other = SIDES[1 - state.to_move]
    dark, light = state.match_score
    score = f"Match {SIDES[DARK]} {dark}, {SIDES[1 - DARK]} {light}, first to {state.game.target}"
    tokens = f"{mover} has {sum(state.tokens(state.to_move))} tokens, {other} " + str(
        sum(state.tokens(1 - state.to_move))
    )
    if state.passed >= 0:
        follows = (
            f"{other} has passed, so {mover} takes every turn until no capture is left; "
            "then the round ends and the larger heap scores the difference"
        )
    else:
        follows = (
            "the round ends when neither player can capture, and the larger heap scores "
            "the difference"
        )
    return f"{score}. {tokens}: {follows}."


__all__ = ["THEMES", "situation", "themes"]
