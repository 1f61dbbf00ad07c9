"""What a finished self-play game tells us: the observer a game's plugin may supply.

A :class:`Collector` watches every action of one game (``play_game``'s ``on_action``) and then
reads the final state, giving one flat row of the game's own columns. Lists (one entry per
round, per turn) go in as JSON text so the row stays flat for SQLite and pandas. The generic part
counts player decisions and the forced ones; a game without a collector of its own gets just that.
"""

from __future__ import annotations

from typing import Any, ClassVar

from gamehall.core.game import Action, State

SQLType = str
"""A column's SQLite type: ``INTEGER``, ``REAL`` or ``TEXT``."""


class Collector:
    """Watches one game. The generic part: counts player decisions and forced ones."""

    columns: ClassVar[dict[str, SQLType]] = {}
    """Game-specific columns this collector fills, with their SQLite types."""

    def __init__(self) -> None:
        self.decisions = 0
        self.forced = 0

    def observe(self, before: State, action: Action, after: State) -> None:
        """Told of every action: ``before`` is the state it was chosen in."""
        if before.is_chance_node():
            return
        self.decisions += 1
        options = len(before.legal_actions())
        if options == 1:
            self.forced += 1
        self.decision(before, action, after, options)

    def decision(self, before: State, action: Action, after: State, options: int) -> None:
        """A player's decision among ``options`` legal actions (games add to this)."""

    def finish(self, final: State) -> dict[str, Any]:
        """The game-specific columns, read once the game is over."""
        return {}


__all__ = ["Collector", "SQLType"]
