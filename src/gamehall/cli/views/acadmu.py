"""The terminal view of an Äcädmü state: both sides' tokens as coloured shapes with counts."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from gamehall.games.acadmu import AcadmuState

GLYPHS = ("▲", "■", "●")
STYLES = ("bold red", "bold blue", "bold yellow")
NAMES = ("Dark", "Light")


def _tokens(counts: tuple[int, ...]) -> list[Text]:
    cells = []
    for index, count in enumerate(counts):
        colour, shape = divmod(index, 3)
        cell = Text()
        if count:
            cell.append(GLYPHS[shape], style=STYLES[colour])
            cell.append(f"×{count}")
        else:
            cell.append("·", style="dim")
        cells.append(cell)
    return cells


def render(state: AcadmuState, last_action: Any = None) -> RenderableType:
    """Both sides' tokens, grouped by pairing, with the score, the turn and the last move."""
    parts: list[RenderableType] = []
    header = Text()
    header.append("Äcädmü", style="bold")
    if state.first is not None:
        dark, light = state.match_score
        header.append(f"   match {dark}-{light} (to {state.game.target})")
    parts.append(header)
    if state.phase == "draw":
        parts.append(Text("Drawing a disc each to decide who goes first…"))
    elif state.phase == "pour":
        parts.append(Text(f"{NAMES[state.to_move]} will go first. Pouring the discs…"))
    else:
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        table.add_column("")
        for index in range(9):
            colour, shape = divmod(index, 3)
            table.add_column(
                Text("RBY"[colour] + "TSC"[shape], style=STYLES[colour]), justify="center"
            )
        table.add_column("total", justify="right")
        for side, counts in ((0, state.dark), (1, state.light)):
            label = Text(NAMES[side], style="bold" if side == state.to_move else "")
            if state.passed == side:
                label.append(" (passed)", style="dim")
            table.add_row(label, *_tokens(counts), str(sum(counts)))
        parts.append(table)
        diff = state.round_difference()
        lead = "level" if diff == 0 else f"{NAMES[0 if diff > 0 else 1]} leads by {abs(diff)}"
        status = Text(f"Round: {lead}. ")
        if state.is_terminal() or state.is_chance_node():
            status.append("The round is over.", style="bold")
        else:
            status.append(f"{NAMES[state.to_move]} to move.", style="bold")
        parts.append(status)
    if last_action is not None:
        parts.append(Text(f"Last move: {last_action}", style="italic"))
    outcome = state.outcome()
    if outcome is not None:
        parts.append(Text(f"Game over: {outcome.reason}.", style="bold green"))
    return Group(*parts)
