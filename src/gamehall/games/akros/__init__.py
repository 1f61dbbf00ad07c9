"""Akros: the Jinn and the Ifrit shape a new world of Forest, Sea and Mountain regions."""

from gamehall.games.akros.board import Board, BoardError, load_board
from gamehall.games.akros.game import AkrosGame, AkrosState, EnvironmentScore
from gamehall.games.akros.rules import Draw, Keep, KeepDiscard, Place, Remove

__all__ = [
    "AkrosGame",
    "AkrosState",
    "Board",
    "BoardError",
    "Draw",
    "EnvironmentScore",
    "Keep",
    "KeepDiscard",
    "Place",
    "Remove",
    "load_board",
]
