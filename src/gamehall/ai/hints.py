"""Hints: the best few moves of a position with their evaluations, fast enough to wait for.

Where the game has an exact solver that finishes within the budget, every move gets its exact
value (Äcädmü: the mover's final count difference under perfect play; Akros: the mover's exact
win probability). Elsewhere MCTS ranks the moves by visits and gives each a win rate (or mean
return) and its visit count.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from gamehall.ai.mcts import MCTSAgent
from gamehall.core import Action, GamehallError, State


@dataclass(frozen=True)
class Hint:
    """One move and how good it is for the player to move."""

    action: Action
    evaluation: str
    """In words: 'exact +2', 'wins with probability 3/7', 'win rate 63% (812 visits)'."""
    value: float
    """For sorting: higher is better for the player to move."""
    exact: bool
    visits: int | None = None


ExactValue = Callable[[State, int, float], "float | Fraction | None"]
"""(child state, the mover, seconds) → the mover's exact value after the move, or None."""


def _acadmu_value(child: State, mover: int, seconds: float) -> int | None:
    """The mover's final count difference after the move, under perfect play."""
    if child.is_terminal() or child.is_chance_node():  # the round is over
        diff = int(child.view()["round_difference"])
        return diff if mover == 0 else -diff
    solve = importlib.import_module("gamehall.ai.solvers.acadmu").solve
    result = solve(child, time_limit=seconds)
    if not result.exact or result.value is None:
        return None
    return result.value if child.current_player == mover else -result.value


def _akros_value(child: State, mover: int, seconds: float) -> Fraction | None:
    """The mover's exact win probability after the move."""
    if child.is_terminal():
        return Fraction(1 if child.returns()[mover] > 0 else 0)
    if child.view()["turn"] < 5:  # exact is fast from turn 5 on
        return None
    solve = importlib.import_module("gamehall.ai.solvers.akros").solve
    result = solve(child, time_limit=seconds)
    if not result.exact or result.ifrit_win is None:
        return None
    return result.ifrit_win if mover == 1 else 1 - result.ifrit_win


EXACT: dict[str, ExactValue] = {"acadmu": _acadmu_value, "akros": _akros_value}


def _describe_exact(game: str, value: float | Fraction) -> str:
    if game == "akros":
        fraction = Fraction(value)
        return f"exact: wins with probability {fraction} ({float(fraction):.1%})"
    return f"exact: final difference {int(value):+d}"


def exact_hints(state: State, seconds: float) -> list[Hint] | None:
    """Every legal move with its exact value, or None when that does not finish in time."""
    exact = EXACT.get(state.game.name)
    if exact is None:
        return None
    try:  # compile the solver's kernels before the clock starts
        importlib.import_module(f"gamehall.ai.solvers.{state.game.name}").warm_up()
    except (ImportError, AttributeError, GamehallError):
        return None
    deadline = time.perf_counter() + seconds
    mover = state.current_player
    hints = []
    for action in state.legal_actions():
        left = deadline - time.perf_counter()
        if left <= 0:
            return None
        try:
            value = exact(state.apply_trusted(action), mover, left)
        except (ImportError, GamehallError):
            return None
        if value is None:
            return None
        hints.append(Hint(action, _describe_exact(state.game.name, value), float(value), True))
    return hints


def search_hints(state: State, seconds: float, seed: int | None) -> list[Hint]:
    """Moves ranked by an MCTS search of ``seconds``."""
    agent = MCTSAgent(seconds=seconds, seed=seed)
    stats = agent.analyse(state)
    total = sum(stat.visits for stat in stats) or 1
    hints = []
    for stat in stats:
        text = agent.value_text(stat.value)
        hints.append(
            Hint(
                stat.action,
                f"{text} ({stat.visits} of {total} visits)",
                stat.visits + stat.value * 1e-6,
                False,
                stat.visits,
            )
        )
    return hints


def hints(
    state: State, *, count: int = 3, seconds: float = 2.0, seed: int | None = 0
) -> list[Hint]:
    """The best ``count`` moves for the player to move, best first."""
    if state.is_terminal() or state.is_chance_node():
        return []
    legal = state.legal_actions()
    if len(legal) == 1:
        return [Hint(legal[0], "the only legal move", 0.0, True)]
    found = exact_hints(state, seconds / 2)
    if found is None:
        found = search_hints(state, seconds / 2 if state.game.name in EXACT else seconds, seed)
    found.sort(key=lambda hint: -hint.value)
    return found[:count]
