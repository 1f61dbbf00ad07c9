"""The Akros board for the terminal: hexes coloured by environment, stacks, servants, contests.

Each region is drawn as a cell ``[ 5F2J]``: the region id, its environment letter, the tiles
stacked on it and the servant standing there (``J`` Jinn, ``I`` Ifrit). Cells sit at their
board positions (doubled-width hex coordinates: one column unit is half a hex, four characters).
A contested region is marked with ``!`` and drawn in bold red.

Reads only the core protocol: ``state.view()`` (``turn``, ``step``, ``regions``, ``temple``,
``bag``, ``draft``, ``hands``, ``removed``, ``environments``) plus ``is_terminal()``,
``is_chance_node()``, ``outcome()`` and ``player_name()``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from gamehall.core import State

_STYLES = {"F": "black on green", "S": "white on blue", "M": "black on bright_black"}
_HALF_HEX = 4


def _tiles(tiles: Iterable[str]) -> str:
    return "".join(tiles) or "-"


def _board(regions: list[dict[str, Any]]) -> Text:
    min_col = min(r["col"] for r in regions)
    text = Text()
    for row in sorted({r["row"] for r in regions}):
        cursor = 0
        for region in sorted((r for r in regions if r["row"] == row), key=lambda r: r["col"]):
            start = (region["col"] - min_col) * _HALF_HEX
            text.append(" " * max(0, start - cursor))
            servant = region["servant"] or " "
            contested = region["contested"]
            mark = "!" if contested else " "
            letter = region["environment"]
            cell = f"{mark}{region['id']:>2}{letter}{region['stack'] or ' '}{servant} "
            style = _STYLES[letter]
            if contested:
                style += " bold"
            text.append(cell[:1], style="bold red")
            servant_style = "bold yellow" if servant == "J" else "bold magenta"
            text.append(cell[1:5], style=style)
            text.append(cell[5:7], style=f"{servant_style} {style.split(' on ')[-1]}".strip())
            text.append(" ")
            cursor = start + len(cell) + 1
        text.append("\n")
    return text


def _side(view: Mapping[str, Any]) -> Table:
    names = {e["environment"]: e["name"] for e in view["environments"]}
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold")
    table.add_column()
    piles = "  ".join(f"{number}: {_tiles(pile)}" for number, pile in view["temple"].items())
    table.add_row("Temple", piles)
    table.add_row("Bag", "  ".join(f"{letter} {n}" for letter, n in view["bag"].items()))
    table.add_row("Draft", _tiles(view["draft"]))
    for player in ("jinn", "ifrit"):
        tile = view["hands"][player]
        table.add_row(f"{player.capitalize()} keeps", "-" if tile is None else names[tile])
    table.add_row("Removed", _tiles(letter * n for letter, n in view["removed"].items()))
    return table


def _scores(view: Mapping[str, Any]) -> Table:
    table = Table(title="Score now", show_edge=False, pad_edge=False)
    table.add_column("")
    table.add_column("Jinn", justify="right")
    table.add_column("Ifrit", justify="right")
    table.add_column("claimed by")
    for score in view["environments"]:
        claimed = "—" if score["claimed_by"] is None else score["claimed_by"].capitalize()
        table.add_row(score["name"], str(score["jinn"]), str(score["ifrit"]), claimed)
    return table


def render(state: State, last_action: object = None) -> RenderableType:
    """The whole Akros position: board, Temple, bag, hands and the current score."""
    view = state.view()
    title = f"Akros · turn {view['turn']} · {view['step']}"
    if state.is_terminal():
        outcome = state.outcome()
        assert outcome is not None
        title += f" · {state.player_name(outcome.winner).capitalize()} wins"
    elif not state.is_chance_node():
        title += f" · {state.player_name().capitalize()} to play"
    parts: list[RenderableType] = [_board(view["regions"])]
    if last_action is not None:
        parts.append(Text(f"last: {last_action}", style="dim"))
    parts.append(Text("J Jinn  I Ifrit  ! contested  digit: tiles stacked", style="dim"))
    grid = Table.grid(padding=(0, 3))
    grid.add_row(_side(view), _scores(view))
    parts.append(grid)
    return Panel(Group(*parts), title=title, expand=False)
