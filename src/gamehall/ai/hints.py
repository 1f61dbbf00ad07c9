"""Hints: the best few moves of a position with their evaluations, fast enough to wait for.

Where the game has an exact solver that finishes within the budget, every move gets its exact
value in the game's own unit (a final score difference, or a probability of winning). Elsewhere MCTS ranks the moves by visits and gives each a win rate (or mean
return) and its visit count.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from gamehall.ai.mcts import MCTSAgent
from gamehall.core import Action, Limit, State, find_plugin


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


def exact_hints(state: State, seconds: float) -> list[Hint] | None:
    """Every legal move with its exact value, or None when that does not finish in time (or the
    game has no solver, or the solver does not reach this position quickly)."""
    solver = find_plugin(state.game.name).load_solver()
    if solver is None or not solver.reaches(state):
        return None
    solver.warm_up()  # compile the solver's kernels before the clock starts
    deadline = time.perf_counter() + seconds
    mover = state.current_player
    name = state.player_name(mover).capitalize()
    hints = []
    for action in state.legal_actions():
        left = deadline - time.perf_counter()
        if left <= 0:
            return None
        child = state.apply_trusted(action)
        solution = solver.solve(child, Limit(seconds=left), best="none")
        value = solution.value_for(mover)
        if value is None:
            return None
        hints.append(Hint(action, f"exact: {solver.describe(value, name)}", float(value), True))
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
        has_solver = find_plugin(state.game.name).solver is not None
        found = search_hints(state, seconds / 2 if has_solver else seconds, seed)
    found.sort(key=lambda hint: -hint.value)
    return found[:count]
