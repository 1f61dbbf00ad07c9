"""Players (agents) share one interface: given a state, return an action.

The same interface serves random and greedy play, search players, a human at the terminal and
a seat in the web app. Agents that keep state between moves (a search tree) may also watch every
action through :meth:`Agent.observe`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from gamehall.core.game import Action, State


class Agent(ABC):
    """Something that chooses moves."""

    name: str = "agent"

    @abstractmethod
    def choose(self, state: State) -> Action:
        """Return a legal action for the player to move in ``state`` (a decision node)."""

    def observe(self, state: State, action: Action) -> None:  # noqa: B027 - optional hook
        """Told of every action applied, by anyone, including chance (default: ignore)."""

    def describe_last_choice(self) -> str | None:
        """A short note on how the last move was chosen (e.g. 'exact' or '1000 simulations')."""
        return None
