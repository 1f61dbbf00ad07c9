"""Rich views of game states for the terminal, one module per game, found by game name.

A view module defines ``render(state, last_action=None) -> rich.console.RenderableType`` and reads
only the state's public, documented attributes. The core and the games import nothing from here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from gamehall.core import State


def view_for(game_name: str) -> Callable[..., RenderableType]:
    """The render function for ``game_name``, or a plain text fallback."""
    try:
        module = importlib.import_module(f"gamehall.cli.views.{game_name}")
    except ModuleNotFoundError:
        return _plain
    return module.render


def _plain(state: State, last_action: Any = None) -> RenderableType:
    return Text(str(state))
