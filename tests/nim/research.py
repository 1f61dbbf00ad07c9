"""Nim for research libraries: the observation encoding and the declared facts.

The observation, for ``H`` heaps (``2H + 3`` floats), from the side of the player it is for::

    offset  size  what
    0       H     each heap's objects (0 until it is dealt)
    H       H     each heap dealt (1) or not yet (0)
    2H      2     whose observation: (1, 0) the first player, (0, 1) the second
    2H + 2  1     that player's move now (1) or not (0)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gamehall.core import Game, State
from gamehall.core.encoding import GameFacts
from tests.nim.game import FixedNim, NimGame, NimState


@dataclass(frozen=True)
class NimEncoding:
    heaps: int
    high: float
    shape: tuple[int, ...] = field(init=False)
    layout: str = __doc__ or ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", (2 * self.heaps + 3,))

    def encode(self, state: State, player: int) -> np.ndarray:
        assert isinstance(state, NimState)
        out = np.zeros(self.shape, dtype=np.float32)
        for index, size in enumerate(state.heaps):
            out[index] = size or 0
            out[self.heaps + index] = size is not None
        out[2 * self.heaps + player] = 1
        out[2 * self.heaps + 2] = state.current_player == player
        return out


def encoding(game: Game) -> NimEncoding:
    assert isinstance(game, NimGame)
    return NimEncoding(game.heaps, float(game.max_heap))


def facts(game: Game) -> GameFacts:
    """Returns ±1; a deal lists ``max_heap`` outcomes (none in Fixed Nim, which has no deal);
    a game is the deals and at most one take per object."""
    assert isinstance(game, NimGame)
    if isinstance(game, FixedNim):
        return GameFacts(-1.0, 1.0, max_chance_outcomes=0, max_game_length=sum(game.start))
    return GameFacts(
        -1.0,
        1.0,
        max_chance_outcomes=game.max_heap,
        max_game_length=game.heaps + game.heaps * game.max_heap,
    )
