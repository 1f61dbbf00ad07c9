"""Computer levels with the same names everywhere (command line, terminal app and web).

=========  ===========================================================================
level      player (generic; a game's plugin may override a level, see below)
=========  ===========================================================================
beginner   random legal moves
easy       greedy: the best move one action ahead by the game's own evaluation
medium     MCTS, 800 simulations a move
hard       MCTS, 8,000 simulations a move
perfect    the game's exact solver, MCTS where it cannot finish; MCTS in games without one
=========  ===========================================================================

A game's plugin tunes levels with :class:`~gamehall.core.search.LevelOverride` values: another
search budget, and whether (and where, and for how long) its exact solver is tried first. A level
is a :class:`LevelAgent` that picks its player when it first sees a state, so one name serves
every game. Budgets are simulation counts, so a level is reproducible for a seed; a time cap
(several times the expected time) bounds a slow machine.
"""

from __future__ import annotations

import random

from gamehall.ai.basic import GreedyAgent, RandomAgent
from gamehall.ai.mcts import MCTSAgent
from gamehall.core import Action, Agent, GamehallError, State, find_plugin
from gamehall.core.search import LevelOverride, Limit, Solution, Solver

MEDIUM_SIMULATIONS = 800
HARD_SIMULATIONS = 8000

LEVEL_NAMES = ("beginner", "easy", "medium", "hard", "perfect")

GENERIC: dict[str, LevelOverride] = {
    "medium": LevelOverride(simulations=MEDIUM_SIMULATIONS, seconds=1.0),
    "hard": LevelOverride(simulations=HARD_SIMULATIONS, seconds=6.0),
    "perfect": LevelOverride(simulations=HARD_SIMULATIONS, seconds=6.0, exact_seconds=2.0),
}
"""The search levels as every game plays them unless its plugin says otherwise."""


class ExactOrSearchAgent(Agent):
    """Plays an optimal move where the game's solver finishes in time, and searches elsewhere.

    Ties among optimal moves are broken by a seeded generator. Where ``override.exact_when``
    (default: the solver's own :meth:`~gamehall.core.search.Solver.reaches`) says no, or the
    solver runs out of time, the move comes from MCTS, or, with ``fallback="solver"``, from the
    solver's bounded search.
    """

    def __init__(
        self, name: str, override: LevelOverride, solver: Solver | None, seed: int | None
    ) -> None:
        self.name = name
        self.override = override
        self.solver = solver if override.exact_seconds is not None else None
        self.rng = random.Random(seed)
        simulations = override.simulations
        self.mcts = (
            MCTSAgent(simulations=simulations, seconds=override.seconds, seed=seed)
            if simulations is not None or override.seconds is not None
            else None
        )
        self._note: str | None = None
        self._warm = False
        self.last_solution: Solution | None = None
        """What the solver said about the last position it was asked (None: not asked)."""

    def _tries_exact(self, state: State) -> bool:
        if self.solver is None:
            return False
        when = self.override.exact_when
        return when(state) if when is not None else self.solver.reaches(state)

    def choose(self, state: State) -> Action:
        legal = state.legal_actions()
        if not legal:
            raise GamehallError(f"the {self.name} player chooses at decisions only, not {state}")
        if len(legal) == 1:
            self._note = "the only legal move"
            return legal[0]
        fallback = ""
        self.last_solution = None
        if self._tries_exact(state):
            assert self.solver is not None and self.override.exact_seconds is not None
            if not self._warm:  # load the compiled search before its time limit starts
                self.solver.warm_up()
                self._warm = True
            limit = Limit(seconds=self.override.exact_seconds)
            solution = self.solver.solve(state, limit, best=self.override.exact_moves)
            self.last_solution = solution
            if solution.exact and solution.best:
                choice = self.rng.choice(list(solution.best))
                mover = state.player_name().capitalize()
                value = self.solver.describe(solution.value_for(state.current_player), mover)
                others = f", one of {len(solution.best)} optimal" if len(solution.best) > 1 else ""
                self._note = f"exact: {value}{others}"
                return choice
            if self.override.fallback == "solver" and solution.best:
                self._note = solution.note or "bounded search"
                return solution.best[0]
            fallback = f" (the exact search passed {limit.seconds:g} s)"
        if self.mcts is None:
            self.mcts = MCTSAgent(
                simulations=HARD_SIMULATIONS, seconds=6.0, seed=self.rng.getrandbits(32)
            )
        action = self.mcts.choose(state)
        self._note = f"{self.mcts.describe_last_choice()}{fallback}"
        return action

    def observe(self, state: State, action: Action) -> None:
        if self.mcts is not None:
            self.mcts.observe(state, action)

    def describe_last_choice(self) -> str | None:
        return self._note


def level_override(game_name: str, level: str) -> LevelOverride | None:
    """How ``game_name`` plays ``level`` (its plugin's override, else the generic one)."""
    return find_plugin(game_name).load_levels().get(level) or GENERIC.get(level)


def player_for(game_name: str, level: str, seed: int | None) -> Agent:
    """The player a level means in a given game."""
    if level == "beginner":
        return RandomAgent(seed)
    if level == "easy":
        return GreedyAgent(seed)
    override = level_override(game_name, level)
    if override is None:
        raise GamehallError(f"unknown level {level!r}; levels are: {', '.join(LEVEL_NAMES)}")
    solver = find_plugin(game_name).load_solver() if override.exact_seconds is not None else None
    if solver is None:  # a search level, or no exact solver for this game: MCTS alone
        if override.exact_seconds is not None:
            override = GENERIC["hard"]
        return MCTSAgent(simulations=override.simulations, seconds=override.seconds, seed=seed)
    return ExactOrSearchAgent(level, override, solver, seed)


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
