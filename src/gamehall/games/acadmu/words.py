"""Äcädmü's moves told for people, in the game's words (see :mod:`gamehall.core.words`).

``describe_move`` tells one action ("Dark's Red Circle takes two Red Triangles, by shape");
``chapter`` groups a game's actions by round and keeps each round's result
("Round 1: Dark +2, match 2–0") for the move lists.
"""

from __future__ import annotations

from gamehall.core.game import Action, State
from gamehall.core.words import Chapter
from gamehall.games.acadmu.game import (
    DARK,
    NO_ONE,
    AcadmuState,
    Draw,
    Move,
    Pour,
    draw_reason,
    first_player_by_draw,
)
from gamehall.games.acadmu.tokens import SHAPES, describe, shape_of

NAMES = ("Dark", "Light")


def describe_move(state: State, action: Action) -> str:
    """``action`` played in ``state``, in a sentence naming its player."""
    assert isinstance(state, AcadmuState)
    if isinstance(action, Move):
        return _move(state, action)
    if isinstance(action, Draw):
        return _draw(action)
    if isinstance(action, Pour):
        return _pour(state)
    raise TypeError(f"not an Äcädmü action: {action!r}")


def _move(state: AcadmuState, move: Move) -> str:
    """A capture by colour or by shape, or a pass ('a player with no capture must pass')."""
    mover, other = NAMES[state.to_move], NAMES[1 - state.to_move]
    if move.is_pass:
        # A pass is legal only while the other can still capture: they take every turn now.
        return f"{mover} has no capture and passes; {other} plays on alone"
    own = describe(move.own)
    if not move.by_shape:
        return f"{mover}'s {own} takes a {describe(move.taken[0])}, by colour"
    if len(move.taken) == 1:  # the variant: the last token of the beaten shape, alone
        taken = move.taken[0]
        return f"{mover}'s {own} takes the last {SHAPES[shape_of(taken)]}, a {describe(taken)}, by shape"
    first, second = move.taken
    if first == second:
        return f"{mover}'s {own} takes two {describe(first)}s, by shape"
    return f"{mover}'s {own} takes a {describe(first)} and a {describe(second)}, by shape"


def _draw(draw: Draw) -> str:
    """'Each player draws one of their own discs and lets it fall': who goes first and why."""
    shown = (
        f"Draw for first: Dark shows a {describe(draw.dark[0])}, Light a {describe(draw.light[0])}"
    )
    first = first_player_by_draw(draw)
    if first == NO_ONE:
        return f"{shown}; {draw_reason(draw)}"
    return f"{shown}; {draw_reason(draw)}, so {NAMES[first]} goes first"


def _pour(state: AcadmuState) -> str:
    """'Both players pour out all their discs'; who starts the round, and why."""
    if state.phase == "pour":
        first = state.to_move
        return f"Both pour their discs; {NAMES[first]} goes first, having won the draw"
    assert state.first is not None
    first = 1 - state.first
    return (
        f"Both pour their discs; {NAMES[first]} goes first, as {NAMES[state.first]} "
        "went first last round"
    )


def round_end(state: AcadmuState, number: str) -> str:
    """A finished round's result as the move list keeps it: 'Round 1: Dark +2, match 2–0'."""
    points = state.round_points()
    result = (
        "equal counts, nobody scores"
        if points == (0, 0)
        else (f"{NAMES[DARK if points[0] else 1 - DARK]} +{max(points)}")
    )
    if state.first is None:
        return f"Round over: {result}"
    dark, light = state.match_scores_after_round()
    return f"{number}: {result}, match {dark}–{light}"


def chapter(before: State, after: State, previous: Chapter | None) -> Chapter:
    """An action's round ("Who goes first", "Round 2") and, after the action that ends a round,
    the round's result. ``count`` is the rounds begun; a game set up in mid-round counts its
    rounds from there ("This round", then "Round 2 from here")."""
    assert isinstance(before, AcadmuState) and isinstance(after, AcadmuState)
    if previous is None:
        from_here = before.phase == "play"
        count = 0
    else:
        from_here = previous.heading == "This round" or previous.heading.endswith(" from here")
        count = previous.count
    if before.is_chance_node() and before.phase != "draw":
        count += 1  # a pour starts a round
    if before.phase == "draw":
        heading = "Who goes first"
    elif from_here:
        heading = "This round" if count == 0 else f"Round {count + 1} from here"
    else:
        heading = f"Round {count}"
    end = ""
    if after.phase == "play" and after.round_over and not before.round_over:
        end = round_end(after, heading)
    return Chapter(heading, end, count)


__all__ = ["chapter", "describe_move", "round_end"]
