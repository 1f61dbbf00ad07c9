"""Akros as a picture (matplotlib), for the RL adapters' ``rgb_array`` and ``human`` renders.

The board's hexes at their doubled-width positions, each in its environment's colour, with its
id, the tiles stacked on it, its servant (the Jinn gold, the Ifrit red) and a red rim where it
is contested; above it the turn, who is to move, the bag, the hands and the Temple. It reads
only the state's ``view()``, as every front end does, and imports no drawing library: it is
handed a matplotlib ``Axes`` and draws with its ``fill`` and ``text``.
"""

from __future__ import annotations

import math
from typing import Any

from gamehall.core import State

ENVIRONMENT_COLOURS = {"F": "#6aa84f", "S": "#2f6fb3", "M": "#a8a8a8"}
SERVANT_COLOURS = {"J": "#ffd700", "I": "#d70000"}
CONTESTED_COLOUR = "#ff3030"
_ROOT3 = math.sqrt(3.0)


def polygon(
    x: float, y: float, radius: float, corners: int, turn: float = 0.0
) -> tuple[list[float], list[float]]:
    """The corners of a regular polygon around (x, y) (many corners: a circle)."""
    angles = [turn + 2 * math.pi * k / corners for k in range(corners)]
    return (
        [x + radius * math.cos(a) for a in angles],
        [y + radius * math.sin(a) for a in angles],
    )


def draw(ax: Any, state: State, last_action: Any = None) -> None:
    """Draw ``state`` on the matplotlib axes ``ax``."""
    view = state.view()
    ax.set_axis_off()
    ax.set_aspect("equal")
    xs, ys = [], []
    for region in view["regions"]:
        # doubled-width coordinates: one column is half a hex across, one row 3/4 of its height
        x, y = region["col"] * _ROOT3 / 2, -region["row"] * 1.5
        xs.append(x)
        ys.append(y)
        hx, hy = polygon(x, y, 0.97, 6, math.pi / 2)
        ax.fill(
            hx,
            hy,
            facecolor=ENVIRONMENT_COLOURS[region["environment"]],
            edgecolor=CONTESTED_COLOUR if region["contested"] else "white",
            linewidth=3 if region["contested"] else 1,
        )
        ax.text(x, y + 0.45, str(region["id"]), ha="center", va="center", fontsize=8)
        if region["stack"]:
            ax.text(x, y - 0.5, f"+{region['stack']}", ha="center", va="center", fontsize=8)
        if region["servant"]:
            cx, cy = polygon(x, y, 0.28, 24)
            ax.fill(cx, cy, facecolor=SERVANT_COLOURS[region["servant"]], edgecolor="k")
    ax.set_xlim(min(xs) - 1.2, max(xs) + 1.2)
    ax.set_ylim(min(ys) - 1.2, max(ys) + 2.6)
    hands = view["hands"]
    temple = "  ".join(f"{pile}:{''.join(tiles) or '-'}" for pile, tiles in view["temple"].items())
    bag = " ".join(f"{letter}{count}" for letter, count in view["bag"].items())
    mover = "game over" if state.is_terminal() else f"{view['to_move'].capitalize()} to move"
    lines = (
        f"Akros, turn {view['turn']}: {mover}",
        f"bag {bag}   draft {''.join(view['draft']) or '-'}   "
        f"Jinn holds {hands['jinn'] or '-'}, Ifrit holds {hands['ifrit'] or '-'}   "
        f"Temple {temple}",
    )
    ax.text(
        (min(xs) + max(xs)) / 2, max(ys) + 1.9, "\n".join(lines), ha="center", va="center",
        fontsize=8,
    )  # fmt: skip
