"""Tic-tac-toe in the terminal: the board with its file and rank names, the last move and the
winning line marked, then whose turn it is or how the game ended. Reads the state through the
protocol only (``view()``, ``outcome()``, ``player_name()``)."""

from __future__ import annotations

from typing import Any

from gamehall.core import State
from rich.console import Group, RenderableType
from rich.text import Text

from gamehall_tictactoe.game import Place

STYLES = {"x": "bold red", "o": "bold blue", ".": "dim"}


def render(state: State, last_action: Any = None) -> RenderableType:
    view = state.view()
    line = set(view["line"] or ())
    last = str(last_action) if last_action is not None else None
    rows = []
    for rank in (2, 1, 0):
        row = Text(f"{rank + 1} ", style="dim")
        for file in range(3):
            square = file + 3 * rank
            mark = view["marks"][square]
            style = STYLES[mark] + (" reverse" if square in line else "")
            if last == str(Place(square)):
                style += " underline"
            row.append(f" {mark.upper() if mark != '.' else '·'} ", style=style)
        rows.append(row)
    rows.append(Text("   a  b  c", style="dim"))
    outcome = state.outcome()
    if outcome is not None:
        rows.append(Text(f"over: {outcome.reason}", style="bold"))
    else:
        rows.append(Text(f"{state.player_name()} to move"))
    return Group(*rows)
