"""Computer players that work on any registered game through the core protocol.

Levels have the same names everywhere: ``beginner`` (random) and ``easy`` (greedy) so far.
"""

from __future__ import annotations

from gamehall.ai.basic import GreedyAgent, RandomAgent
from gamehall.core import Agent, GamehallError

LEVELS: dict[str, str] = {"beginner": "random", "easy": "greedy"}
"""Level names and the player each one is."""

PLAYERS = ("random", "greedy")


def make_agent(name: str, seed: int | None = None) -> Agent:
    """The computer player called ``name`` (a player or a level name)."""
    key = LEVELS.get(name.lower(), name.lower())
    if key == "random":
        return RandomAgent(seed)
    if key == "greedy":
        return GreedyAgent(seed)
    choices = ", ".join([*PLAYERS, *LEVELS])
    raise GamehallError(f"unknown player {name!r}; choose one of: {choices}")


__all__ = ["LEVELS", "PLAYERS", "GreedyAgent", "RandomAgent", "make_agent"]
