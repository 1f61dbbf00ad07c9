"""Äcädmü as a picture (matplotlib), for the RL adapters' ``rgb_array`` and ``human`` renders.

Two rows of the nine pairings, Dark's above and Light's below: each pairing drawn as its shape
in its colour (a Red Triangle, a Blue Square, a Yellow Circle, ...) with its up-face count; the
title says the phase, who is to move and the match score. It reads only the state's ``view()`` and imports no drawing library: it is handed a
matplotlib ``Axes`` and draws with its ``fill`` and ``text``.
"""

from __future__ import annotations

import math
from typing import Any

from gamehall.core import State

COLOURS = {"R": "#d0312d", "B": "#2f6fb3", "Y": "#e8c100"}
SIDES = (("dark", "Dark"), ("light", "Light"))


def _shape(ax: Any, pairing: str, x: float, y: float) -> None:
    corners, radius, turn = {"T": (3, 0.38, math.pi / 2), "S": (4, 0.42, math.pi / 4)}.get(
        pairing[1], (24, 0.32, 0.0)
    )
    angles = [turn + 2 * math.pi * k / corners for k in range(corners)]
    ax.fill(
        [x + radius * math.cos(a) for a in angles],
        [y + radius * math.sin(a) for a in angles],
        facecolor=COLOURS[pairing[0]],
        edgecolor="k",
    )


def draw(ax: Any, state: State, last_action: Any = None) -> None:
    """Draw ``state`` on the matplotlib axes ``ax``."""
    view = state.view()
    ax.set_axis_off()
    ax.set_aspect("equal")
    ax.set_xlim(-1.6, 9.0)
    ax.set_ylim(-1.0, 3.6)
    for row, (key, name) in enumerate(SIDES):
        y = 2.0 - 1.6 * row
        ax.text(-0.7, y, name, ha="center", va="center", fontsize=9)
        counts = view[key] or [0] * len(view["pairings"])
        for column, (pairing, count) in enumerate(zip(view["pairings"], counts, strict=True)):
            _shape(ax, pairing, column, y)
            ax.text(column, y - 0.6, str(count), ha="center", va="center", fontsize=9)
    if state.is_terminal():
        status = "game over"
    elif view["phase"] != "play":
        status = "the pour" if view["phase"] == "pour" else "the draw for who goes first"
    else:
        status = f"{'Dark' if view['to_move'] == 'd' else 'Light'} to move"
    dark, light = view["match_score"]
    ax.text(3.7, 3.2, f"Äcädmü: {status}; match {dark}–{light}", ha="center", fontsize=10)
