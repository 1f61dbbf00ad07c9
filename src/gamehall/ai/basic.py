"""The simplest players, for any game on the core protocol: random, greedy, and a mix of the two."""

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


class MixedAgent(Agent):
    """Plays greedy with probability ``greedy`` and a random legal action otherwise: a player
    between ``beginner`` and ``easy``, a stepping stone when the levels' ratings are measured."""

    def __init__(self, greedy: float, seed: int | None = None) -> None:
        if not 0.0 <= greedy <= 1.0:
            raise ValueError(f"the greedy share is between 0 and 1, not {greedy}")
        self.name = f"greedy:{greedy:g}"
        self.share = greedy
        self.rng = random.Random(seed)
        self.random = RandomAgent(self.rng.getrandbits(32))
        self.greedy = GreedyAgent(self.rng.getrandbits(32))

    def choose(self, state: State) -> Action:
        chosen = self.greedy if self.rng.random() < self.share else self.random
        return chosen.choose(state)
