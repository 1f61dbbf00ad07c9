"""Akros for research libraries: the observation encoding and the game's declared facts.

Akros has perfect information (the kept tiles are face up, the Temple is public, the bag follows
by counting), so both players observe the same things; the last two entries say whose
observation it is. The layout, for a board of ``N`` regions (``41 + 7N`` floats, 174 on the
default board)::

    offset      size  what
    0           9     the turn, one-hot (turns 1-9)
    9           6     the step, one-hot (draw, jinn-keep, ifrit-keep, ifrit-place, jinn-place,
                      over)
    15          3     tiles left in the bag: Forest, Sea, Mountain
    18          3     tiles in hand during the draft, per environment
    21          3     the Jinn's kept tile waiting to be placed, one-hot (all 0: none)
    24          3     the Ifrit's kept tile, one-hot
    27          3     tiles out of the game, per environment
    30          9     the Temple: pile 7's tiles per environment, then pile 8's, then pile 9's
    39          7N    per region 1..N: its environment one-hot (3), tiles stacked on it, a Jinn
                      servant there (0/1), an Ifrit servant there (0/1), contested (0/1)
    39 + 7N     2     whose observation: (1, 0) the Jinn, (0, 1) the Ifrit
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gamehall.core.encoding import GameFacts
from gamehall.core.game import Game, State
from gamehall.games.akros.game import AkrosGame, AkrosState
from gamehall.games.akros.rules import TURNS, contested_regions

LAYOUT = __doc__ or ""
"""The module docstring: the observation's layout (inside a class body ``__doc__`` is the
class's own docstring, not this)."""


@dataclass(frozen=True)
class AkrosEncoding:
    """The observation of an Akros state (see the module docstring for the layout)."""

    regions: int
    tiles: int
    shape: tuple[int, ...] = field(init=False)
    layout: str = LAYOUT
    high: float = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", (41 + 7 * self.regions,))
        object.__setattr__(self, "high", float(max(1, self.tiles)))

    def encode(self, state: State, player: int) -> np.ndarray:
        assert isinstance(state, AkrosState)
        out = np.zeros(self.shape, dtype=np.float32)
        out[state.turn - 1] = 1
        out[9 + state.step] = 1
        out[15:18] = state.bag
        for tile in state.draft:
            out[18 + tile] += 1
        if state.jinn_tile is not None:
            out[21 + state.jinn_tile] = 1
        if state.ifrit_tile is not None:
            out[24 + state.ifrit_tile] = 1
        out[27:30] = state.removed
        for pile, tiles in enumerate(state.temple):
            for tile in tiles:
                out[30 + 3 * pile + tile] += 1
        board = state.game.board
        contested = contested_regions(state.ifrit, board.neighbour_masks)
        jinn, ifrit = set(state.jinn), set(state.ifrit)
        for region in board.region_ids:
            base = 39 + 7 * (region - 1)
            out[base + board.environments[region]] = 1
            out[base + 3] = state.stacks[region - 1]
            out[base + 4] = region in jinn
            out[base + 5] = region in ifrit
            out[base + 6] = contested >> region & 1
        out[39 + 7 * self.regions + player] = 1
        return out


def encoding(game: Game) -> AkrosEncoding:
    assert isinstance(game, AkrosGame)
    return AkrosEncoding(game.board.size, game.board.tile_count)


def facts(game: Game) -> GameFacts:
    """Returns ±1; a draw lists at most 10 outcomes (multisets of three from three
    environments); a game is 9 turns of at most a draw, two keeps and two placements."""
    return GameFacts(
        min_return=-1.0, max_return=1.0, max_chance_outcomes=10, max_game_length=5 * TURNS
    )
