"""Äcädmü's ``hard`` level: MCTS, and the exact solver once a round is small enough.

Every move first gives the exact solver a short budget (0.5 s, for one optimal move). Most
positions, full pours included, finish inside it and an optimal move is played; where the solver
cannot finish in time, the move comes from MCTS (about 2 s).
"""

from __future__ import annotations

import random

from gamehall.ai.mcts import MCTSAgent
from gamehall.core import Action, Agent, State

EXACT_TOKENS = 54
"""Try the exact solver when the two sides hold at most this many tokens together (all)."""


class AcadmuHardAgent(Agent):
    """MCTS about 2 s a move; exact where exact is fast."""

    name = "hard"

    def __init__(
        self,
        seed: int | None = None,
        *,
        exact_time: float = 0.5,
        simulations: int = 8000,
        seconds: float | None = 6.0,
    ) -> None:
        self.rng = random.Random(seed)
        self.exact_time = exact_time
        self.mcts = MCTSAgent(simulations=simulations, seconds=seconds, seed=seed)
        self._last: str | None = None

    def choose(self, state: State) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            self._last = "the only legal move"
            return legal[0]
        tokens = sum(getattr(state, "dark", ())) + sum(getattr(state, "light", ()))
        if tokens <= EXACT_TOKENS:
            try:
                from gamehall.ai.solvers.acadmu import solve
            except ImportError:  # pragma: no cover - a build without the solver
                solve = None
            if solve is not None:
                result = solve(state, time_limit=self.exact_time, all_best=False)
                if result.exact and result.best:
                    self._last = f"exact: value {result.value:+d}"
                    return self.rng.choice(list(result.best))
        action = self.mcts.choose(state)
        self._last = self.mcts.describe_last_choice()
        return action

    def observe(self, state: State, action: Action) -> None:
        self.mcts.observe(state, action)

    def describe_last_choice(self) -> str | None:
        return self._last
