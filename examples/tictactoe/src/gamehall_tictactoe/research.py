"""Tic-tac-toe for research libraries: the observation encoding and the declared facts.

The observation, from the side of the player it is for: three planes of the board, shape
``(3, 3, 3)``, indexed ``[plane, rank, file]`` (rank 0 is rank 1, file 0 is file a), each entry
0 or 1::

    plane 0   the square is empty
    plane 1   the square holds the player's own mark
    plane 2   the square holds the opponent's mark
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from gamehall.core import Game, State
from gamehall.core.encoding import GameFacts

from gamehall_tictactoe.game import EMPTY, MARKS, TicTacToeState


@dataclass(frozen=True)
class TicTacToeEncoding:
    shape: tuple[int, ...] = (3, 3, 3)
    high: float = 1.0
    layout: str = __doc__ or ""

    def encode(self, state: State, player: int) -> np.ndarray:
        assert isinstance(state, TicTacToeState)
        out = np.zeros(self.shape, dtype=np.float32)
        for square, mark in enumerate(state.board):
            plane = 0 if mark == EMPTY else 1 if mark == MARKS[player] else 2
            out[plane, square // 3, square % 3] = 1.0
        return out


def encoding(game: Game) -> TicTacToeEncoding:
    return TicTacToeEncoding()


def facts(game: Game) -> GameFacts:
    """Returns ±1 (0 for a draw), no chance, at most nine moves."""
    return GameFacts(-1.0, 1.0, max_chance_outcomes=0, max_game_length=9)
