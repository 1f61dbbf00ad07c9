"""The Akros board for the terminal: hexes coloured by environment, stacks, servants, contests.

Each region is a cell two lines tall and seven characters wide, on its environment's colour::

    ! 9 Sea      the region id and its environment (``!``: contested)
     ≡2  J       the tiles stacked on it, and the servant standing there

The servant is a chip in its side's own colour (the Jinn gold, the Ifrit red), whatever the
environment beneath, so colour alone tells the sides apart. Cells sit at their board positions:
doubled-width hex coordinates, one column unit is half a hex (four characters), one row is two
lines. The full-screen app's board (:mod:`gamehall.games.akros.tui`) draws the same cells with
marks for the choices it offers.

Reads only the core protocol: ``state.view()`` (``turn``, ``step``, ``regions``, ``temple``,
``bag``, ``draft``, ``hands``, ``removed``, ``environments``) plus ``is_terminal()``,
``is_chance_node()``, ``outcome()`` and ``player_name()``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.style import Style
from rich.table import Table
from rich.text import Text

from gamehall.core import GamehallError, State

ENVIRONMENT_STYLES = {"F": "black on #6aa84f", "S": "#ffffff on #2f6fb3", "M": "black on #a8a8a8"}
SHORT_NAMES = {"F": "For", "S": "Sea", "M": "Mtn"}
SERVANT_STYLES = {"J": "bold black on #ffd700", "I": "bold #ffffff on #d70000"}
"""Each side's own colour: a servant looks the same on every environment."""
SIDE_STYLES = {"jinn": "bold #ffd700", "ifrit": "bold #ff3030"}
CONTESTED_STYLE = "bold bright_red"
HALF_HEX = 4
CELL_WIDTH = 7
LEGEND = "J Jinn  I Ifrit  ! contested  ≡2: two tiles stacked"

Mark = Literal["choice", "cursor", "chosen", "last"]
"""How the app marks a cell: a choice on offer (``›``), the choice under the cursor (reversed),
the region already chosen for a move (bold, reversed), the last move's region (``*``)."""


def tiles_text(tiles: Iterable[str]) -> str:
    return "".join(tiles) or "-"


def _cell_lines(region: Mapping[str, Any], last: bool) -> tuple[str, str]:
    mark = "!" if region["contested"] else " "
    top = f"{mark}{region['id']:>2} {SHORT_NAMES[region['environment']]}"
    stack = f"≡{region['stack']}" if region["stack"] else "  "
    bottom = f"{'*' if last else ' '}{stack} "
    return top.ljust(CELL_WIDTH)[:CELL_WIDTH], bottom


def board_text(
    regions: list[dict[str, Any]],
    marks: Mapping[int, Mark] | None = None,
    *,
    last_region: int | None = None,
    meta: bool = False,
) -> Text:
    """The hex board as two lines per row. ``marks`` gives cells a mark; with ``meta`` each cell
    carries ``{"region": id}`` in its style for mouse clicks."""
    marks = marks or {}
    min_col = min(r["col"] for r in regions)
    text = Text()
    for row in sorted({r["row"] for r in regions}):
        in_row = sorted((r for r in regions if r["row"] == row), key=lambda r: r["col"])
        lines = (Text(), Text())
        cursor = 0
        for region in in_row:
            start = 1 + (region["col"] - min_col) * HALF_HEX  # a column for the choice marks
            mark = marks.get(region["id"])
            pointer = "›" if mark in ("choice", "cursor") else " "
            base = Style.parse(ENVIRONMENT_STYLES[region["environment"]])
            if mark in ("cursor", "chosen"):
                base += Style(reverse=True, bold=True)
            if meta:
                base += Style(meta={"region": region["id"]})
            top, bottom = _cell_lines(region, last_region == region["id"])
            for line in lines:
                line.append(" " * max(0, start - 1 - cursor))
                line.append(pointer, style="bold bright_yellow")
            if region["contested"]:
                lines[0].append(top[0], style=base + Style.parse(CONTESTED_STYLE))
                lines[0].append(top[1:], style=base)
            else:
                lines[0].append(top, style=base)
            lines[1].append(bottom, style=base)
            servant = region["servant"]
            if servant:
                chip = Style.parse(SERVANT_STYLES[servant])
                if meta:
                    chip += Style(meta={"region": region["id"]})
                lines[1].append(f" {servant} ", style=chip)
            else:
                lines[1].append("   ", style=base)
            cursor = start + CELL_WIDTH
        if text:
            text.append("\n")
        text.append_text(lines[0])
        text.append("\n")
        text.append_text(lines[1])
    return text


def side_table(view: Mapping[str, Any]) -> Table:
    """The Temple piles, the bag, the draft, each player's kept tile and the removed tiles."""
    names = {e["environment"]: e["name"] for e in view["environments"]}
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold")
    table.add_column()
    piles = "  ".join(f"{number}: {tiles_text(pile)}" for number, pile in view["temple"].items())
    table.add_row("Temple", piles)
    table.add_row("Bag", "  ".join(f"{letter} {n}" for letter, n in view["bag"].items()))
    table.add_row("Draft", tiles_text(view["draft"]))
    for player in ("jinn", "ifrit"):
        tile = view["hands"][player]
        label = Text(f"{player.capitalize()} keeps", style=SIDE_STYLES[player])
        table.add_row(label, "-" if tile is None else names[tile])
    table.add_row("Removed", tiles_text(letter * n for letter, n in view["removed"].items()))
    return table


def score_table(view: Mapping[str, Any], title: str = "Score now") -> Table:
    """Each environment's score for both sides and who claims it now."""
    table = Table(title=title, show_edge=False, pad_edge=False)
    table.add_column("")
    table.add_column(Text("Jinn", style=SIDE_STYLES["jinn"]), justify="right")
    table.add_column(Text("Ifrit", style=SIDE_STYLES["ifrit"]), justify="right")
    table.add_column("claimed by")
    for score in view["environments"]:
        claimed = "—" if score["claimed_by"] is None else score["claimed_by"].capitalize()
        table.add_row(score["name"], str(score["jinn"]), str(score["ifrit"]), claimed)
    return table


def title_text(state: State) -> str:
    view = state.view()
    title = f"Akros · turn {view['turn']} · {view['step']}"
    if state.is_terminal():
        outcome = state.outcome()
        assert outcome is not None
        title += f" · {state.player_name(outcome.winner).capitalize()} wins"
    elif not state.is_chance_node():
        title += f" · {state.player_name().capitalize()} to play"
    return title


def last_region(last_action: object, state: State) -> int | None:
    """The region the last action placed a tile on, if it was a placement."""
    if last_action is None:
        return None
    try:
        parts = state.game.action_parts(state.game.parse_action(str(last_action)))
    except (GamehallError, ValueError):
        return None
    return parts.get("region") if parts.get("kind") == "place" else None


def render(state: State, last_action: object = None) -> RenderableType:
    """The whole Akros position: board, Temple, bag, hands and the current score."""
    view = state.view()
    parts: list[RenderableType] = [
        board_text(view["regions"], last_region=last_region(last_action, state))
    ]
    if last_action is not None:
        parts.append(Text(f"last: {last_action}", style="dim"))
    parts.append(Text(LEGEND, style="dim"))
    parts.append(SideBySide(side_table(view), score_table(view)))
    return Panel(Group(*parts), title=title_text(state), expand=False)


class SideBySide:
    """Two renderables beside each other where there is room (``WIDE_ENOUGH`` columns), else
    one above the other, so a narrow terminal never squeezes a table."""

    WIDE_ENOUGH = 72

    def __init__(self, left: RenderableType, right: RenderableType) -> None:
        self.left, self.right = left, right

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if options.max_width >= self.WIDE_ENOUGH:
            grid = Table.grid(padding=(0, 3))
            grid.add_row(self.left, self.right)
            yield grid
        else:
            yield Group(self.left, Text(""), self.right)
