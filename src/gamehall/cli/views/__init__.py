"""Terminal views of game states: each game's own (named by its plugin), else a plain one.

A view is ``render(state, last_action=None) -> rich.console.RenderableType`` reading the state
through the core protocol. A game without a view of its own is shown by :func:`plain_view`:
its position text, whose turn it is, the score and, at the end, the outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from gamehall.core import State, find_plugin


def view_for(game_name: str) -> Callable[..., RenderableType]:
    """The render function for ``game_name``: the game's own, or the plain fallback."""
    return find_plugin(game_name).load_view() or plain_view


def plain_view(state: State, last_action: Any = None) -> RenderableType:
    """Any game, drawn from the protocol alone."""
    names = [name.capitalize() for name in state.game.player_names]
    lines = [Text(str(state), style="bold")]
    if last_action is not None:
        lines.append(Text(f"last: {last_action}", style="dim"))
    scores = ", ".join(f"{n} {v:g}" for n, v in zip(names, state.scores(), strict=False))
    lines.append(Text(f"score: {scores}"))
    outcome = state.outcome()
    if outcome is not None:
        lines.append(Text(f"over: {outcome.reason}", style="bold"))
    elif state.is_chance_node():
        lines.append(Text("a draw by chance next"))
    else:
        lines.append(Text(f"{names[state.current_player]} to move"))
    return Group(*lines)
