"""Colours, shapes and pairings, and who beats whom.

A token's up-face shows one of 9 pairings. Pairings are numbered colour-major in the order the
position notation uses::

    index   0  1  2  3  4  5  6  7  8
    name   RT RS RC BT BS BC YT YS YC     (Red Blue Yellow × Triangle Square Circle)

so ``colour = index // 3`` and ``shape = index % 3``. Both circles run in index order:
Red beats Blue beats Yellow beats Red; Triangle beats Square beats Circle beats Triangle. So a
colour or shape ``x`` beats ``(x + 1) % 3``.
"""

from __future__ import annotations

from typing import Final

from gamehall.core.errors import NotationError

COLOURS: Final = ("Red", "Blue", "Yellow")
SHAPES: Final = ("Triangle", "Square", "Circle")
COLOUR_LETTERS: Final = "RBY"
SHAPE_LETTERS: Final = "TSC"
PAIRINGS: Final = tuple(c + s for c in COLOUR_LETTERS for s in SHAPE_LETTERS)
"""The 9 pairing names in index order: RT RS RC BT BS BC YT YS YC."""

COLOUR_PAIRS: Final = tuple((a, b) for a in range(3) for b in range(a, 3))
"""The colours of the two tokens a capture by shape takes, as sorted pairs, in the order of the
dense action index (and of the solver's move numbers): (R,R) (R,B) (R,Y) (B,B) (B,Y) (Y,Y)."""

_INDEX = {name: index for index, name in enumerate(PAIRINGS)}


def colour_of(pairing: int) -> int:
    return pairing // 3


def shape_of(pairing: int) -> int:
    return pairing % 3


def pairing(colour: int, shape: int) -> int:
    return (colour % 3) * 3 + shape % 3


def colour_beats(a: int, b: int) -> bool:
    """'Red beats Blue beats Yellow beats Red' (one by colour)."""
    return (b - a) % 3 == 1


def shape_beats(a: int, b: int) -> bool:
    """'Triangle beats Square beats Circle beats Triangle' (two by shape)."""
    return (b - a) % 3 == 1


def beaten(x: int) -> int:
    """The colour (or shape) that ``x`` beats."""
    return (x + 1) % 3


def pairing_index(name: str) -> int:
    """The index of a pairing name such as ``RT`` (case-insensitive)."""
    index = _INDEX.get(name.strip().upper())
    if index is None:
        raise NotationError(
            "pairing",
            name,
            "a colour R/B/Y and a shape T/S/C, e.g. RT; one of " + " ".join(PAIRINGS),
        )
    return index


def pairing_name(index: int) -> str:
    return PAIRINGS[index]


def describe(index: int) -> str:
    """A pairing in words: 'Red Triangle'."""
    return f"{COLOURS[colour_of(index)]} {SHAPES[shape_of(index)]}"
