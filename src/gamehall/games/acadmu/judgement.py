"""How Äcädmü judges moves, in points: the round's final count difference under perfect play.

An exact cost is a whole number of points, so exact moves are ``best`` (nothing given up), a
``mistake`` (one point given up) or a ``blunder`` (two or more). ``good`` (under half a point)
and ``inaccuracy`` (half a point up to one) are left to estimates, where the cost is a mean. A
puzzle's single best move must win by at least a point over every other move.

The solver values a round on its own, so MCTS estimates search the bare round of a match
position (:func:`round_position`): its returns are the round's count difference, the solver's unit.
"""

from __future__ import annotations

from gamehall.core.game import State
from gamehall.core.search import Judgement
from gamehall.games.acadmu.game import AcadmuState

JUDGEMENT = Judgement(unit="points", inaccuracy=0.5, mistake=1, blunder=2, puzzle_margin=1)


def round_position(state: State) -> State:
    """The round of ``state`` as a game of its own (no match around it): the same tokens, the
    same player to move and the same pass, ending with the round (returns: the difference)."""
    if not isinstance(state, AcadmuState) or state.phase != "play":
        return state
    return AcadmuState(state.game, "play", state.dark, state.light, state.to_move, state.passed)
