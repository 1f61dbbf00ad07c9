"""The Akros board for the terminal: hexes coloured by environment, stacks, servants, contests.

Each region is drawn as a cell ``[ 5F2J]``: the region id, its environment letter, the tiles
stacked on it and the servant standing there (``J`` Jinn, ``I`` Ifrit). Cells sit at their
board positions (doubled-width hex coordinates: one column unit is half a hex, four characters).
A contested region is marked with ``!`` and drawn in bold red. Reads only public state attributes.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from gamehall.core import State

_LETTERS = "FSM"
_NAMES = ("Forest", "Sea", "Mountain")
_STYLES = ("black on green", "white on blue", "black on bright_black")
_HALF_HEX = 4


def _tiles(tiles: tuple[int, ...]) -> str:
    return "".join(_LETTERS[t] for t in tiles) or "-"


def _board(state: Any) -> Text:
    board = state.board
    contested = state.contested()
    jinn, ifrit = set(state.jinn), set(state.ifrit)
    min_col = min(r.col for r in board.regions)
    text = Text()
    for row in sorted({r.row for r in board.regions}):
        cursor = 0
        for region in sorted((r for r in board.regions if r.row == row), key=lambda r: r.col):
            start = (region.col - min_col) * _HALF_HEX
            text.append(" " * max(0, start - cursor))
            servant = "J" if region.id in jinn else "I" if region.id in ifrit else " "
            mark = "!" if region.id in contested else " "
            height = state.stacks[region.id - 1]
            cell = f"{mark}{region.id:>2}{_LETTERS[region.environment]}{height or ' '}{servant} "
            style = _STYLES[region.environment]
            if region.id in contested:
                style += " bold"
            text.append(cell[:1], style="bold red")
            servant_style = "bold yellow" if servant == "J" else "bold magenta"
            text.append(cell[1:5], style=style)
            text.append(cell[5:7], style=f"{servant_style} {style.split(' on ')[-1]}".strip())
            text.append(" ")
            cursor = start + len(cell) + 1
        text.append("\n")
    return text


def _side(state: Any) -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold")
    table.add_column()
    piles = "  ".join(f"{7 + i}: {_tiles(pile)}" for i, pile in enumerate(state.temple))
    table.add_row("Temple", piles)
    table.add_row("Bag", "  ".join(f"{_LETTERS[e]} {n}" for e, n in enumerate(state.bag)))
    table.add_row("Draft", _tiles(state.draft))
    table.add_row("Jinn keeps", "-" if state.jinn_tile is None else _NAMES[state.jinn_tile])
    table.add_row("Ifrit keeps", "-" if state.ifrit_tile is None else _NAMES[state.ifrit_tile])
    removed = tuple(e for e in range(3) for _ in range(state.removed[e]))
    table.add_row("Removed", _tiles(removed))
    return table


def _scores(state: Any) -> Table:
    table = Table(title="Score now", show_edge=False, pad_edge=False)
    table.add_column("")
    table.add_column("Jinn", justify="right")
    table.add_column("Ifrit", justify="right")
    table.add_column("claimed by")
    for score in state.environment_scores():
        claimed = {0: "Jinn", 1: "Ifrit"}.get(score.claimed_by, "—")
        table.add_row(score.name, str(score.jinn), str(score.ifrit), claimed)
    return table


def render(state: State, last_action: object = None) -> RenderableType:
    """The whole Akros position: board, Temple, bag, hands and the current score."""
    akros: Any = state
    title = f"Akros · turn {akros.turn} · {akros.step_name}"
    if state.is_terminal():
        outcome = state.outcome()
        assert outcome is not None
        title += f" · {state.player_name(outcome.winner).capitalize()} wins"
    elif not state.is_chance_node():
        title += f" · {state.player_name().capitalize()} to play"
    parts: list[RenderableType] = [_board(akros)]
    if last_action is not None:
        parts.append(Text(f"last: {last_action}", style="dim"))
    parts.append(Text("J Jinn  I Ifrit  ! contested  digit: tiles stacked", style="dim"))
    grid = Table.grid(padding=(0, 3))
    grid.add_row(_side(akros), _scores(akros))
    parts.append(grid)
    return Panel(Group(*parts), title=title, expand=False)
