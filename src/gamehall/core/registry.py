"""The game registry: front ends and AI find games by name, never by importing them.

Games are listed as import paths so that ``core`` imports no game (dependencies point one way).
"""

from __future__ import annotations

import importlib
from typing import Any

from gamehall.core.errors import UnknownGameError
from gamehall.core.game import Game

_GAMES: dict[str, str] = {
    "acadmu": "gamehall.games.acadmu.game:AcadmuGame",
    "akros": "gamehall.games.akros.game:AkrosGame",
}
_ALIASES = {"äcädmü": "acadmu", "tokens": "acadmu"}


def register_game(name: str, target: str) -> None:
    """Register a game class by import path ``module:Class``."""
    _GAMES[name] = target


def game_names() -> list[str]:
    """The registered games that can be imported."""
    names = []
    for name in _GAMES:
        try:
            game_class(name)
        except UnknownGameError:
            continue
        names.append(name)
    return names


def game_class(name: str) -> type[Game]:
    """The class of the game called ``name``."""
    key = _ALIASES.get(name.strip().lower(), name.strip().lower())
    target = _GAMES.get(key)
    if target is None:
        raise UnknownGameError(f"unknown game {name!r}; games are: {', '.join(_GAMES)}")
    module_name, _, class_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name and module_name.startswith(error.name):
            raise UnknownGameError(f"game {name!r} is not available in this build") from None
        raise
    return getattr(module, class_name)


def find_game(name: str, **options: Any) -> Game:
    """Make the game called ``name`` with the given options (validated)."""
    return game_class(name)(**options)
