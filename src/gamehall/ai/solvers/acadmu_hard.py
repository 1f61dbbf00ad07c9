"""Äcädmü's ``hard`` level: MCTS, and the exact solver once a round is small enough.

Early in a round (many tokens) the solver cannot finish in a move's time, so the move comes from
MCTS (about 2 s). Once both sides together hold at most :data:`EXACT_TOKENS` tokens the solver is
tried with a short budget; when it finishes, an optimal move is played.
"""

from __future__ import annotations

import random

from gamehall.ai.mcts import MCTSAgent
from gamehall.core import Action, Agent, State

EXACT_TOKENS = 36
"""Try the exact solver once the two sides hold at most this many tokens together."""


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
                result = solve(state, time_limit=self.exact_time)
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
