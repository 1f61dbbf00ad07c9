"""The terminal view of an Äcädmü state: both sides' tokens as coloured shapes with counts.

Reads only the core protocol: ``state.view()`` (phase, ``pairings``, ``dark`` / ``light`` counts
by pairing, ``to_move`` / ``passed`` / ``first`` as side letters, ``match_score``, ``target``,
``round_difference``) plus ``is_terminal()``, ``is_chance_node()`` and ``outcome()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from gamehall.core import State

GLYPHS = {"T": "▲", "S": "■", "C": "●"}
STYLES = {"R": "bold red", "B": "bold blue", "Y": "bold yellow"}
SIDES = "dl"
NAMES = ("Dark", "Light")


def _side(letter: str | None) -> int | None:
    """A side letter of the view (``d`` / ``l``) as 0 / 1; None stays None."""
    return None if letter is None else SIDES.index(letter)


def _tokens(pairings: Sequence[str], counts: Sequence[int]) -> list[Text]:
    cells = []
    for pairing, count in zip(pairings, counts, strict=True):
        colour, shape = pairing[0], pairing[1]
        cell = Text()
        if count:
            cell.append(GLYPHS[shape], style=STYLES[colour])
            cell.append(f"×{count}")
        else:
            cell.append("·", style="dim")
        cells.append(cell)
    return cells


def render(state: State, last_action: Any = None) -> RenderableType:
    """Both sides' tokens, grouped by pairing, with the score, the turn and the last move."""
    view = state.view()
    to_move = _side(view["to_move"])
    assert to_move is not None
    parts: list[RenderableType] = []
    header = Text()
    header.append("Äcädmü", style="bold")
    if view["first"] is not None:
        dark, light = view["match_score"]
        header.append(f"   match {dark}-{light} (to {view['target']})")
    parts.append(header)
    if view["phase"] == "draw":
        parts.append(Text("Drawing a disc each to decide who goes first…"))
    elif view["phase"] == "pour":
        parts.append(Text(f"{NAMES[to_move]} will go first. Pouring the discs…"))
    else:
        pairings: list[str] = view["pairings"]
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        table.add_column("")
        for pairing in pairings:
            table.add_column(Text(pairing, style=STYLES[pairing[0]]), justify="center")
        table.add_column("total", justify="right")
        passed = _side(view["passed"])
        for side, counts in ((0, view["dark"]), (1, view["light"])):
            label = Text(NAMES[side], style="bold" if side == to_move else "")
            if passed == side:
                label.append(" (passed)", style="dim")
            table.add_row(label, *_tokens(pairings, counts), str(sum(counts)))
        parts.append(table)
        diff = view["round_difference"]
        lead = "level" if diff == 0 else f"{NAMES[0 if diff > 0 else 1]} leads by {abs(diff)}"
        status = Text(f"Round: {lead}. ")
        if state.is_terminal() or state.is_chance_node():
            status.append("The round is over.", style="bold")
        else:
            status.append(f"{NAMES[to_move]} to move.", style="bold")
        parts.append(status)
    if last_action is not None:
        parts.append(Text(f"Last move: {last_action}", style="italic"))
    outcome = state.outcome()
    if outcome is not None:
        parts.append(Text(f"Game over: {outcome.reason}.", style="bold green"))
    return Group(*parts)
