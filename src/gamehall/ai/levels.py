"""Computer levels with the same names everywhere (command line and web).

=========  ===========================================================================
level      player
=========  ===========================================================================
beginner   random legal moves
easy       greedy: the best move one action ahead by the game's own evaluation
medium     MCTS, about 0.2 s a move (Äcädmü 800 simulations, Akros 500)
hard       MCTS, about 2 s a move (Äcädmü 8,000 simulations, Akros 5,000), exact where exact is fast:
           Akros from turn 5 on (exact expectimax), Äcädmü wherever the exact
           solver finishes within 0.5 s
perfect    Äcädmü: the exact solver (a bounded search when it cannot finish in 2 s);
           Akros: exact from turn 4 on, MCTS before
=========  ===========================================================================

A level is a :class:`LevelAgent` that picks its player when it first sees a state, so one name
serves every game: game-specific parts (exact solvers) plug in through :data:`SPECIALISTS` and
every other game gets the generic search. Budgets are simulation counts, so a level is
reproducible for a seed; a time cap (3× the expected time) bounds a slow machine.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from gamehall.ai.basic import GreedyAgent, RandomAgent
from gamehall.ai.mcts import MCTSAgent
from gamehall.core import Action, Agent, GamehallError, State

MEDIUM_SIMULATIONS = 800
HARD_SIMULATIONS = 8000

LEVEL_NAMES = ("beginner", "easy", "medium", "hard", "perfect")

Factory = Callable[[int | None], Agent]


def _generic(level: str) -> Factory:
    if level == "beginner":
        return RandomAgent
    if level == "easy":
        return GreedyAgent
    if level == "medium":
        return lambda seed: MCTSAgent(simulations=MEDIUM_SIMULATIONS, seconds=1.0, seed=seed)
    # hard, and perfect for games without an exact player: the strongest generic search.
    return lambda seed: MCTSAgent(simulations=HARD_SIMULATIONS, seconds=6.0, seed=seed)


# Akros's engine runs about 2,500 simulations a second against Äcädmü's 4,000: its budgets are
# scaled so that each level thinks about as long in both games.
AKROS_MEDIUM_SIMULATIONS = 500
AKROS_HARD_SIMULATIONS = 5000
_AKROS_SEARCH = {"mcts_simulations": AKROS_HARD_SIMULATIONS, "mcts_seconds": 6.0}

SPECIALISTS: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {
    ("akros", "medium"): (
        "gamehall.ai.mcts:MCTSAgent",
        {"simulations": AKROS_MEDIUM_SIMULATIONS, "seconds": 1.0},
    ),
    ("akros", "hard"): (
        "gamehall.ai.solvers.akros:AkrosHardAgent",
        {"exact_from_turn": 5, "time_limit": 10.0, **_AKROS_SEARCH},
    ),
    ("akros", "perfect"): (
        "gamehall.ai.solvers.akros:AkrosHardAgent",
        {"exact_from_turn": 4, "time_limit": 60.0, **_AKROS_SEARCH},
    ),
    ("acadmu", "hard"): (
        "gamehall.ai.solvers.acadmu_hard:AcadmuHardAgent",
        {"exact_time": 0.5, "simulations": HARD_SIMULATIONS, "seconds": 6.0},
    ),
    ("acadmu", "perfect"): ("gamehall.ai.solvers.acadmu:PerfectAgent", {"time_limit": 2.0}),
}
"""(game, level) → a game-specific player, as ``module:Class`` and keyword arguments."""


def player_for(game_name: str, level: str, seed: int | None) -> Agent:
    """The player a level means in a given game."""
    special = SPECIALISTS.get((game_name, level))
    if special is not None:
        target, kwargs = special
        module_name, _, class_name = target.partition(":")
        try:
            cls = getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError):
            cls = None  # the specialist is not available in this build: use the generic one
        if cls is not None:
            return cls(seed=seed, **kwargs)
    return _generic(level)(seed)


class LevelAgent(Agent):
    """A computer level: the right player for whichever game it is asked to play."""

    def __init__(self, level: str, seed: int | None = None) -> None:
        if level not in LEVEL_NAMES:
            raise GamehallError(f"unknown level {level!r}; levels are: {', '.join(LEVEL_NAMES)}")
        self.level = level
        self.name = level
        self.seed = seed
        self._inner: Agent | None = None
        self._game: str | None = None

    def inner(self, state: State) -> Agent:
        """The player for ``state``'s game (made on first use, kept for the game)."""
        if self._inner is None or self._game != state.game.name:
            self._game = state.game.name
            self._inner = player_for(state.game.name, self.level, self.seed)
        return self._inner

    def choose(self, state: State) -> Action:
        return self.inner(state).choose(state)

    def observe(self, state: State, action: Action) -> None:
        if self._inner is not None and self._game == state.game.name:
            self._inner.observe(state, action)

    def describe_last_choice(self) -> str | None:
        return self._inner.describe_last_choice() if self._inner is not None else None

    def __repr__(self) -> str:
        return f"LevelAgent({self.level!r}, seed={self.seed!r})"
