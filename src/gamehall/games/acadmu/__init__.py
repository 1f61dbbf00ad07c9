"""Äcädmü ("Tokens"): a token-capturing game played in taverns."""

from gamehall.games.acadmu.game import (
    DARK,
    LIGHT,
    PASS,
    AcadmuGame,
    AcadmuState,
    Draw,
    Move,
    Pour,
)

__all__ = ["DARK", "LIGHT", "PASS", "AcadmuGame", "AcadmuState", "Draw", "Move", "Pour"]
