"""A game as it stands, as a plain value: what the work off the event loop is given.

:mod:`gamehall.web.play` builds a :class:`Position` from a game in play
(:meth:`~gamehall.web.play.live.LiveGame.position`); :mod:`gamehall.web.compute` (hints, reviews)
reads it and never sees the live game, its lock, its connections or its clocks. It is frozen:
a hint or a review worked out for it holds for that version of the game, whatever happens next.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from gamehall.core import Game, State
from gamehall.web.base.engine import start_state


@dataclass(frozen=True)
class Position:
    """Game ``game_id`` at ``version``: the game and its options, how it is played (``mode``:
    computer, hotseat or online), its seed and setup, every action so far with who played it
    (``-1``: chance), and the state they come to. ``record`` is the game's record text when the
    builder was asked for it (a review needs it), else None. ``over``: the game has ended, by
    the rules (``state`` is terminal) or off the board (a resignation, a flag, a claim, an abort)."""

    game_id: str
    game: Game
    mode: str
    seed: str
    setup: str | None
    actions: tuple[str, ...]
    movers: tuple[int, ...]
    version: int
    state: State
    record: str | None = None
    over: bool = False  # the game has ended: by its rules, or off the board (resigned, ...)

    def decisions(self) -> int:
        """How many of the game's actions were a player's choice (every action but chance)."""
        return sum(1 for mover in self.movers if mover >= 0)

    def states(self) -> list[State]:
        """Every position of the game: ``states()[k]`` is the one after ``k`` actions."""
        state = start_state(self.game, self.setup)
        states = [state]
        for text in self.actions:
            state = state.apply_trusted(self.game.parse_action(text))
            states.append(state)
        return states


Load = Callable[[str], Awaitable[Position]]
"""Finds the position of a game by id (ProtocolError ``not_found`` for none)."""
StoreCall = Callable[..., Awaitable[Any]]
"""Runs a store method off the event loop: ``await db(store.method, *args)``."""

__all__ = ["Load", "Position", "StoreCall"]
