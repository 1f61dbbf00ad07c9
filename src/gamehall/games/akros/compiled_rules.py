"""Akros's rules over a flat vector, in compiled code (the kernels of :mod:`gamehall.kernels`):
the rules of :mod:`gamehall.games.akros.rules`, one function each.

The state vector (int64), for a board of ``N`` regions (``N`` ≤ 62: region sets are bitmasks)::

    index   field
    0       turn (1-9)
    1       step (rules.DRAW ... rules.OVER)
    2-4     the bag: tiles left of Forest, Sea, Mountain
    5-7     the draft: tiles in hand of each environment (the draft is a multiset)
    8, 9    the Jinn's and the Ifrit's kept tile waiting to be placed (-1: none)
    10-12   tiles out of the game, per environment
    13, 14  the Jinn's and the Ifrit's servants as a region bitmask (bit r: region r)
    15-23   the Temple: tiles of environment e on pile 7+p at 15 + 3p + e
    24-     tiles stacked on region r at 23 + r (r = 1..N)

The table (int64): ``N``, the environment masks (3), each region's neighbour mask (index 4 + r,
r = 0..N) and each region's environment (index 5 + N + r).

Actions are the engine's dense indices (:func:`rules.action_index`): ``legal`` lists them in
ascending order, which for placements is by (region, source) as the engine lists them. A draw
takes three tiles one at a time, each uniformly from the bag (the same hypergeometric law as
:func:`rules.draw_outcomes`); the trajectory records it as the counts drawn per environment.
"""

# ruff: noqa: ANN001, ANN201
from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from gamehall.games.akros.rules import (
    DRAW,
    IFRIT,
    IFRIT_KEEP,
    IFRIT_PLACE,
    JINN,
    JINN_KEEP,
    JINN_PLACE,
    OVER,
)
from gamehall.kernels import CHANCE, TERMINAL, below

TURN, STEP, BAG, DRAFT, JT, IT, REMOVED, JM, IM, TEMPLE, STACKS = (
    0,
    1,
    2,
    5,
    8,
    9,
    10,
    13,
    14,
    15,
    23,
)
"""Offsets in the state vector (``STACKS + r`` for region r)."""
MAX_REGIONS = 62

_PLAYER_OF_STEP = np.array([CHANCE, JINN, IFRIT, IFRIT, JINN, TERMINAL], dtype=np.int64)


@njit(cache=True, inline="always")
def _low(x):
    """The index of the lowest set bit of ``x`` (x > 0)."""
    return trailing_zeros(x)


@njit(cache=True, inline="always")
def player(s, tab):
    return _PLAYER_OF_STEP[s[STEP]]


@njit(cache=True, inline="always")
def _contested(im, tab):
    """Contested: "a region adjacent to two or more regions that hold an Ifrit servant"."""
    once = 0
    twice = 0
    x = im
    while x:
        r = _low(x)
        x &= x - 1
        around = tab[4 + r]
        twice |= once & around
        once |= around
    return twice


@njit(cache=True, inline="always")
def legal(s, tab, out):
    step = s[STEP]
    n = 0
    if step == JINN_KEEP:
        for e in range(3):
            if s[DRAFT + e]:
                out[n] = e
                n += 1
        return n
    if step == IFRIT_KEEP:
        first = -1
        second = -1
        for e in range(3):
            for _ in range(s[DRAFT + e]):
                if first < 0:
                    first = e
                else:
                    second = e
        if second < 0:  # turn 9: the lone tile
            out[0] = first
            return 1
        out[0] = 3 + 3 * first + second
        if first == second:
            return 1
        out[1] = 3 + 3 * second + first
        return 2
    if step != IFRIT_PLACE and step != JINN_PLACE:
        return 0
    regions = tab[0]
    occupied = s[JM] | s[IM]
    if step == IFRIT_PLACE:
        tile = s[IT]
        free = tab[1 + tile] & ~occupied
        movers = s[IM]
        reach = 0
        x = movers
        while x:
            reach |= tab[4 + _low(x)]
            x &= x - 1
        targets = free & reach
    else:
        tile = s[JT]
        contested = _contested(s[IM], tab)
        targets = tab[1 + tile] & ~occupied & ~contested
        movers = s[JM] & contested
        if movers == 0:
            movers = s[JM]
    base = 15 + tile * regions * regions
    while targets:
        r = _low(targets)
        targets &= targets - 1
        x = movers
        while x:
            source = _low(x)
            x &= x - 1
            if step == JINN_PLACE or (tab[4 + source] >> r) & 1:
                out[n] = base + (r - 1) * regions + source - 1
                n += 1
    if n == 0:
        out[0] = 12 + tile  # remove: no legal place
        return 1
    return n


@njit(cache=True, inline="always")
def _discard_pile(turn):
    if turn <= 3:
        return 0
    if turn <= 6:
        return 1
    return 2


@njit(cache=True)
def _end_turn(s):
    """A turn ends after the Jinn places; the next one draws from the bag or the Temple."""
    turn = s[TURN] + 1
    s[JT] = -1
    s[IT] = -1
    if turn > 9:
        s[TURN] = 9
        s[STEP] = OVER
        return
    s[TURN] = turn
    if turn <= 6:
        s[STEP] = DRAW
        return
    s[STEP] = JINN_KEEP
    if turn == 7:  # "after turn 6 the last tile in the bag is removed unseen"
        for e in range(3):
            s[REMOVED + e] += s[BAG + e]
            s[BAG + e] = 0
    pile = turn - 7
    for e in range(3):
        s[DRAFT + e] = s[TEMPLE + 3 * pile + e]
        s[TEMPLE + 3 * pile + e] = 0


@njit(cache=True, inline="always")
def apply(s, tab, a):
    step = s[STEP]
    if step == JINN_KEEP:
        s[DRAFT + a] -= 1
        s[JT] = a
        s[STEP] = IFRIT_KEEP
        return
    if step == IFRIT_KEEP:
        if a < 3:
            kept = a
        else:
            kept = (a - 3) // 3
            discard = (a - 3) % 3
            s[TEMPLE + 3 * _discard_pile(s[TURN]) + discard] += 1
        for e in range(3):
            s[DRAFT + e] = 0
        s[IT] = kept
        s[STEP] = IFRIT_PLACE
        return
    regions = tab[0]
    mask = JM if step == JINN_PLACE else IM
    if a < 15:  # remove
        s[REMOVED + a - 12] += 1
    else:
        rest = a - 15
        source = rest % regions + 1
        region = (rest // regions) % regions + 1
        s[STACKS + region] += 1
        s[mask] ^= (1 << region) | (1 << source)
    if step == IFRIT_PLACE:
        s[IT] = -1
        s[STEP] = JINN_PLACE
    else:
        _end_turn(s)


@njit(cache=True, inline="always")
def chance(s, tab, rng, co):
    """Draft: "three drawn at random from the bag", one tile at a time."""
    co[0] = 0
    co[1] = 0
    co[2] = 0
    for _ in range(3):
        pick = below(rng, s[BAG] + s[BAG + 1] + s[BAG + 2])
        tile = 0 if pick < s[BAG] else (1 if pick < s[BAG] + s[BAG + 1] else 2)
        s[BAG + tile] -= 1
        co[tile] += 1
    for e in range(3):
        s[DRAFT + e] = co[e]
    s[STEP] = JINN_KEEP


@njit(cache=True, inline="always")
def _claims(s, tab):
    """End: each environment's scores ("1 per servant plus the tiles stacked under it") and
    who claims it. Returns the Jinn's claims, the Ifrit's, and the Ifrit's summed score minus
    the Jinn's."""
    regions = tab[0]
    j0 = j1 = j2 = 0
    i0 = i1 = i2 = 0
    x = s[JM]
    while x:
        r = _low(x)
        x &= x - 1
        e = tab[5 + regions + r]
        if e == 0:
            j0 += 1 + s[STACKS + r]
        elif e == 1:
            j1 += 1 + s[STACKS + r]
        else:
            j2 += 1 + s[STACKS + r]
    x = s[IM]
    while x:
        r = _low(x)
        x &= x - 1
        e = tab[5 + regions + r]
        if e == 0:
            i0 += 1 + s[STACKS + r]
        elif e == 1:
            i1 += 1 + s[STACKS + r]
        else:
            i2 += 1 + s[STACKS + r]
    jinn = (j0 > i0) + (j1 > i1) + (j2 > i2)
    ifrit = (i0 > j0) + (i1 > j1) + (i2 > j2)
    return jinn, ifrit, (i0 + i1 + i2) - (j0 + j1 + j2)


@njit(cache=True)
def returns(s, tab, out):
    if s[STEP] != OVER:
        out[0] = 0.0
        out[1] = 0.0
        return
    jinn, ifrit, _ = _claims(s, tab)
    win = 1.0 if jinn > ifrit else -1.0
    out[0] = win
    out[1] = -win


@njit(cache=True)
def scores(s, tab, out):
    jinn, ifrit, _ = _claims(s, tab)
    out[0] = jinn
    out[1] = ifrit


@njit(cache=True)
def horizon(s, tab, out):
    return False


@njit(cache=True)
def evaluate(s, tab, p):
    """The engine's ``evaluate``: the claims margin and a tenth of the score margins."""
    jinn, ifrit, spread = _claims(s, tab)
    if s[STEP] == OVER:
        win = 1.0 if jinn > ifrit else -1.0
        return win if p == JINN else -win
    margin = (ifrit - jinn) + 0.5
    margin += 0.1 * spread
    value = margin / (1 + abs(margin))
    return value if p == IFRIT else -value
