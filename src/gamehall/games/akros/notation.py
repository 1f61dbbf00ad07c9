"""Akros notation: actions and positions as text, both ways (``parse(str(x)) == x``).

Actions (tiles are ``F`` Forest, ``S`` Sea, ``M`` Mountain):

============================  ====================================================================
``draw FMM``                  chance: the Jinn draws these three tiles from the bag (sorted F S M)
``keep F``                    the Jinn keeps a Forest (also the Ifrit's lone keep on turn 9)
``keep S discard M``          the Ifrit keeps the Sea, discards the Mountain to the Temple
``M5<10``                     a Mountain tile on region 5; the servant on region 10 moves onto it
``remove M``                  the kept Mountain has no legal place and leaves the game
============================  ====================================================================

Positions are one line of ``key=value`` fields in this order::

    turn=3 step=ifrit-place bag=F4S3M4 temple=MS/-/- draft=- jinn=F ifrit=M out=- regions=0,1J,…

* ``turn``: 1 to 9. ``step``: ``draw`` (chance; turns 1–6), ``jinn-keep``, ``ifrit-keep``,
  ``ifrit-place``, ``jinn-place``, or ``over`` (after turn 9; shown with ``turn=9``).
* ``bag``: how many tiles of each environment are still in the bag (``F6S6M7`` at the start;
  ``F0S0M0`` once the last tile has been removed after turn 6).
* ``temple``: Temple piles 7, 8 and 9 as sorted tile letters, ``-`` for an empty pile.
* ``draft``: the tiles in hand during the draft (the three drawn, then the ones passed to the Ifrit).
* ``jinn`` / ``ifrit``: each player's kept tile waiting to be placed, or ``-``.
* ``out``: the tiles removed from the game (unplaceable tiles and the bag's last tile).
* ``regions``: one comma-separated entry per region, in id order: the number of tiles stacked on it,
  then ``J`` or ``I`` if a Jinn or Ifrit servant stands there.

The start of a game on the default board (Ifrit on 5, 10, 11, 14; Jinn on 2, 7, 13, 18)::

    turn=1 step=draw bag=F6S6M7 temple=-/-/- draft=- jinn=- ifrit=- out=- regions=0,0J,0,0,0I,0,0J,0,0,0I,0I,0,0J,0I,0,0,0,0J,0

Parsing checks syntax here (:class:`NotationError`); the game then checks that the position can
occur (:class:`InvalidStateError`: tiles that do not add up to the bag, wrong servant counts, a
draft of the wrong size for the step, …).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gamehall.core.errors import NotationError
from gamehall.games.akros.rules import (
    ENVIRONMENT_LETTERS,
    STEP_NAMES,
    Draw,
    Keep,
    KeepDiscard,
    Place,
    Remove,
    tiles_text,
)

ACTION_FORMS = "'draw FMM', 'keep F', 'keep S discard M', 'M5<10' or 'remove M'"

_TILE = "([FSMfsm])"
_KEEP = re.compile(rf"^keep\s+{_TILE}$", re.IGNORECASE)
_KEEP_DISCARD = re.compile(rf"^keep\s+{_TILE}\s+discard\s+{_TILE}$", re.IGNORECASE)
_REMOVE = re.compile(rf"^remove\s+{_TILE}$", re.IGNORECASE)
_DRAW = re.compile(r"^draw\s+([FSMfsm]+)$", re.IGNORECASE)
_PLACE = re.compile(rf"^{_TILE}([0-9]{{1,4}})<([0-9]{{1,4}})$")


def _tile(letter: str) -> int:
    return ENVIRONMENT_LETTERS.index(letter.upper())


def parse_action(text: str) -> Draw | Keep | KeepDiscard | Place | Remove:
    """Read an action's notation (syntax only)."""
    stripped = text.strip()
    if match := _PLACE.match(stripped):
        return Place(_tile(match[1]), int(match[2]), int(match[3]))
    if match := _KEEP.match(stripped):
        return Keep(_tile(match[1]))
    if match := _KEEP_DISCARD.match(stripped):
        return KeepDiscard(_tile(match[1]), _tile(match[2]))
    if match := _REMOVE.match(stripped):
        return Remove(_tile(match[1]))
    if match := _DRAW.match(stripped):
        tiles = tuple(sorted(_tile(letter) for letter in match[1]))
        if len(tiles) != 3:
            raise NotationError("action", text, "a draw of three tiles like 'draw FMM'")
        return Draw(tiles)
    raise NotationError("action", text, ACTION_FORMS)


# --- positions -----------------------------------------------------------------------------------

FIELDS = ("turn", "step", "bag", "temple", "draft", "jinn", "ifrit", "out", "regions")


@dataclass(frozen=True)
class PositionFields:
    """A position's fields as read from text, before the game checks they can occur."""

    turn: int
    step: int
    bag: tuple[int, int, int]
    temple: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    draft: tuple[int, ...]
    jinn_tile: int | None
    ifrit_tile: int | None
    removed: tuple[int, int, int]
    stacks: tuple[int, ...]
    jinn: tuple[int, ...]
    ifrit: tuple[int, ...]


def format_position(
    turn: int,
    step: int,
    bag: tuple[int, int, int],
    temple: tuple[tuple[int, ...], ...],
    draft: tuple[int, ...],
    jinn_tile: int | None,
    ifrit_tile: int | None,
    removed: tuple[int, int, int],
    stacks: tuple[int, ...],
    jinn: tuple[int, ...],
    ifrit: tuple[int, ...],
) -> str:
    """A position as one line of text (see the module docstring)."""
    marks = [""] * (len(stacks) + 1)
    for region in jinn:
        marks[region] = "J"
    for region in ifrit:
        marks[region] = "I"
    regions = ",".join(f"{height}{marks[i]}" for i, height in enumerate(stacks, 1))
    out = tuple(e for e in range(3) for _ in range(removed[e]))
    return (
        f"turn={turn} step={STEP_NAMES[step]} "
        f"bag=F{bag[0]}S{bag[1]}M{bag[2]} "
        f"temple={'/'.join(tiles_text(pile) for pile in temple)} "
        f"draft={tiles_text(draft)} "
        f"jinn={_hand_text(jinn_tile)} ifrit={_hand_text(ifrit_tile)} "
        f"out={tiles_text(out)} regions={regions}"
    )


def _hand_text(tile: int | None) -> str:
    return "-" if tile is None else ENVIRONMENT_LETTERS[tile]


_BAG = re.compile(r"^F([0-9]{1,4})S([0-9]{1,4})M([0-9]{1,4})$")
_TILES = re.compile(r"^(-|[FSM]+)$")
_REGION = re.compile(r"^([0-9]{1,4})([JI]?)$")


def parse_position(text: str) -> PositionFields:
    """Read a position's text into its fields; raises NotationError saying what was expected."""
    parts = text.split()
    if len(parts) != len(FIELDS):
        raise NotationError(
            "position", text, f"{len(FIELDS)} fields: " + " ".join(f"{f}=…" for f in FIELDS)
        )
    values = {}
    for part, name in zip(parts, FIELDS, strict=True):
        key, sep, value = part.partition("=")
        if not sep or key != name:
            raise NotationError("position field", part, f"{name}=…")
        values[name] = value

    turn_text = values["turn"]
    if not re.fullmatch("[1-9]", turn_text):
        raise NotationError("turn", turn_text, "a turn from 1 to 9")
    if values["step"] not in STEP_NAMES:
        raise NotationError("step", values["step"], " or ".join(STEP_NAMES))
    bag = _BAG.match(values["bag"])
    if bag is None:
        raise NotationError("bag", values["bag"], "tile counts like F6S6M7")
    piles = values["temple"].split("/")
    if len(piles) != 3:
        raise NotationError("temple", values["temple"], "piles 7, 8 and 9 like MS/-/- ")
    temple = tuple(_tiles(pile, "temple pile") for pile in piles)
    jinn_tile = _hand(values["jinn"], "jinn tile")
    ifrit_tile = _hand(values["ifrit"], "ifrit tile")
    out = _tiles(values["out"], "removed tiles")

    stacks, jinn, ifrit = [], [], []
    for region, entry in enumerate(values["regions"].split(","), 1):
        match = _REGION.match(entry)
        if match is None:
            raise NotationError(
                f"region {region}", entry, "a stack height with J or I for a servant, like 2J"
            )
        stacks.append(int(match[1]))
        if match[2] == "J":
            jinn.append(region)
        elif match[2] == "I":
            ifrit.append(region)
    return PositionFields(
        turn=int(turn_text),
        step=STEP_NAMES.index(values["step"]),
        bag=(int(bag[1]), int(bag[2]), int(bag[3])),
        temple=(temple[0], temple[1], temple[2]),
        draft=_tiles(values["draft"], "draft"),
        jinn_tile=jinn_tile,
        ifrit_tile=ifrit_tile,
        removed=(out.count(0), out.count(1), out.count(2)),
        stacks=tuple(stacks),
        jinn=tuple(jinn),
        ifrit=tuple(ifrit),
    )


def _tiles(text: str, kind: str) -> tuple[int, ...]:
    if _TILES.match(text) is None:
        raise NotationError(kind, text, "tile letters F, S, M (like FMM) or - for none")
    if text == "-":
        return ()
    return tuple(sorted(ENVIRONMENT_LETTERS.index(letter) for letter in text))


def _hand(text: str, kind: str) -> int | None:
    if text == "-":
        return None
    if len(text) != 1 or text not in ENVIRONMENT_LETTERS:
        raise NotationError(kind, text, "one tile letter F, S or M, or - for none")
    return ENVIRONMENT_LETTERS.index(text)
