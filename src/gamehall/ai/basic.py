"""The simplest players, for any game on the core protocol: random and greedy."""

from __future__ import annotations

import random

from gamehall.core import Action, Agent, State


class RandomAgent(Agent):
    """Plays a uniformly random legal action (level ``beginner``)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Action:
        return self.rng.choice(state.legal_actions())


class GreedyAgent(Agent):
    """Plays the action whose resulting state the game's heuristic rates best for the mover,
    looking one action ahead; ties are broken at random (level ``easy``)."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Action:
        me = state.current_player
        best: list[Action] = []
        best_value = float("-inf")
        for action in state.legal_actions():
            value = state.apply_trusted(action).evaluate(me)
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return self.rng.choice(best)
