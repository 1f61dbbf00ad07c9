"""Random against random in Akros (the bulk of research runs and ``analyze``), faster than the
generic loop: :func:`random_games` plays the same games with the state in registers, counting
legal placements with popcounts instead of listing them (about three times as fast).
:func:`gamehall.games.akros.fast.simulate` picks it; the generic loop is the reference it is
tested against.
"""

# ruff: noqa: ANN001, ANN201
from __future__ import annotations

import numpy as np
from numba import njit

from gamehall.games.akros.compiled_rules import (
    BAG,
    DRAFT,
    IM,
    IT,
    JM,
    JT,
    REMOVED,
    STACKS,
    STEP,
    TEMPLE,
    TURN,
    _contested,
    _low,
)
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
from gamehall.kernels import below, popcount, seed_stream


@njit(cache=True, inline="always")
def _nth(x, k):
    """The index of the ``k``-th lowest set bit of ``x`` (k = 0: the lowest)."""
    for _ in range(k):
        x &= x - 1
    return _low(x)


@njit(cache=True)
def random_games(
    start, tab, seed, first_index, max_actions, out_returns, out_scores, out_actions,
    out_decisions, out_forced, out_options, dec_count, dec_game, dec_player, dec_options,
    dec_action,
):  # fmt: skip
    """:func:`simulate` for random against random, with the state in registers.

    The very games of the generic loop over :func:`legal`, :func:`apply` and :func:`chance`
    (the same random numbers drawn for the same things, the same outputs), from any start: the
    state is a handful of integers (the Temple packed four bits per pile and environment) and
    the regions' stacks. A random choice among ``n`` legal actions needs only ``n`` and the
    chosen one, so no list is written: a placement's ``n`` is counted with popcounts over the
    board's bitmasks and the ``k``-th action (in the engine's ascending order) found from them.
    """
    games = out_returns.shape[0]
    regions = tab[0]
    envs = 5 + regions  # tab[envs + r]: region r's environment
    stacks = np.empty(regions + 1, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    keep = dec_game.shape[0]
    kept = dec_count[0]
    temple_start = 0
    for i in range(9):
        temple_start |= start[TEMPLE + i] << (4 * i)
    for g in range(games):
        seed_stream(rng, seed, first_index + g)
        turn = start[TURN]
        step = start[STEP]
        b0, b1, b2 = start[BAG], start[BAG + 1], start[BAG + 2]
        d0, d1, d2 = start[DRAFT], start[DRAFT + 1], start[DRAFT + 2]
        x0, x1, x2 = start[REMOVED], start[REMOVED + 1], start[REMOVED + 2]
        jt = start[JT]
        it = start[IT]
        jm = start[JM]
        im = start[IM]
        temple = temple_start
        for r in range(1, regions + 1):
            stacks[r] = start[STACKS + r]
        jd = jf = jo = 0  # the Jinn's decisions, forced decisions and options
        id_ = if_ = io = 0  # the Ifrit's
        count = 0
        while step != OVER:
            if count >= max_actions:
                count = -1
                break
            count += 1
            if step == DRAW:  # "three drawn at random from the bag", one tile at a time
                d0 = d1 = d2 = 0
                for _ in range(3):
                    pick = below(rng, b0 + b1 + b2)
                    if pick < b0:
                        b0 -= 1
                        d0 += 1
                    elif pick < b0 + b1:
                        b1 -= 1
                        d1 += 1
                    else:
                        b2 -= 1
                        d2 += 1
                step = JINN_KEEP
                continue
            if step == JINN_KEEP:  # he keeps one tile of the draft (an environment in it)
                p = JINN
                n = (d0 > 0) + (d1 > 0) + (d2 > 0)
                k = below(rng, n)
                if d0 > 0 and k == 0:
                    a = 0
                    d0 -= 1
                elif d1 > 0 and k == (d0 > 0):
                    a = 1
                    d1 -= 1
                else:
                    a = 2
                    d2 -= 1
                jt = a
                step = IFRIT_KEEP
            elif step == IFRIT_KEEP:  # she keeps one, the other goes to the Temple
                p = IFRIT
                first = 0 if d0 else (1 if d1 else 2)
                if d0 + d1 + d2 < 2:  # turn 9: the lone tile
                    n = 1
                    a = first
                    it = first
                else:
                    second = 2 if d2 else (1 if d1 else 0)
                    n = 1 if first == second else 2
                    if below(rng, n) == 0:
                        it, discard = first, second
                    else:
                        it, discard = second, first
                    a = 3 + 3 * it + discard
                    pile = 0 if turn <= 3 else (1 if turn <= 6 else 2)
                    temple += 1 << (4 * (3 * pile + discard))
                d0 = d1 = d2 = 0
                step = IFRIT_PLACE
            elif step == IFRIT_PLACE:  # an Ifrit move onto a free region of her tile's kind
                p = IFRIT
                tile = it
                free = tab[1 + tile] & ~(jm | im)
                reach = 0
                y = im
                while y:
                    reach |= tab[4 + _low(y)]
                    y &= y - 1
                targets = free & reach
                n = 0
                y = targets
                while y:
                    n += popcount(tab[4 + _low(y)] & im)
                    y &= y - 1
                if n == 0:
                    n = 1
                    a = 12 + tile  # removed: no legal place
                    if tile == 0:
                        x0 += 1
                    elif tile == 1:
                        x1 += 1
                    else:
                        x2 += 1
                else:
                    k = below(rng, n)
                    y = targets
                    while True:
                        r = _low(y)
                        sources = tab[4 + r] & im
                        c = popcount(sources)
                        if k < c:
                            break
                        k -= c
                        y &= y - 1
                    source = _nth(sources, k)
                    a = 15 + (tile * regions + r - 1) * regions + source - 1
                    stacks[r] += 1
                    im ^= (1 << r) | (1 << source)
                it = -1
                step = JINN_PLACE
            else:  # JINN_PLACE: a Jinn move onto a free, uncontested region of his tile's kind
                p = JINN
                tile = jt
                contested = _contested(im, tab)
                targets = tab[1 + tile] & ~(jm | im) & ~contested
                movers = jm & contested
                if movers == 0:
                    movers = jm
                m = popcount(movers)
                n = popcount(targets) * m
                if n == 0:
                    n = 1
                    a = 12 + tile
                    if tile == 0:
                        x0 += 1
                    elif tile == 1:
                        x1 += 1
                    else:
                        x2 += 1
                else:
                    k = below(rng, n)
                    r = _nth(targets, k // m)
                    source = _nth(movers, k % m)
                    a = 15 + (tile * regions + r - 1) * regions + source - 1
                    stacks[r] += 1
                    jm ^= (1 << r) | (1 << source)
                # the turn ends
                jt = -1
                it = -1
                turn += 1
                if turn > 9:
                    turn = 9
                    step = OVER
                elif turn <= 6:
                    step = DRAW
                else:
                    step = JINN_KEEP
                    if turn == 7:  # "after turn 6 the last tile in the bag is removed unseen"
                        x0 += b0
                        x1 += b1
                        x2 += b2
                        b0 = b1 = b2 = 0
                    shift = 12 * (turn - 7)
                    d0 = (temple >> shift) & 15
                    d1 = (temple >> (shift + 4)) & 15
                    d2 = (temple >> (shift + 8)) & 15
                    temple &= ~(4095 << shift)
            if p == JINN:
                jd += 1
                jo += n
                jf += n == 1
            else:
                id_ += 1
                io += n
                if_ += n == 1
            if kept < keep:
                dec_game[kept] = g
                dec_player[kept] = p
                dec_options[kept] = n
                dec_action[kept] = a
                kept += 1
        # the end: each environment's scores and who claims it
        j0 = j1 = j2 = 0
        i0 = i1 = i2 = 0
        y = jm
        while y:
            r = _low(y)
            y &= y - 1
            e = tab[envs + r]
            if e == 0:
                j0 += 1 + stacks[r]
            elif e == 1:
                j1 += 1 + stacks[r]
            else:
                j2 += 1 + stacks[r]
        y = im
        while y:
            r = _low(y)
            y &= y - 1
            e = tab[envs + r]
            if e == 0:
                i0 += 1 + stacks[r]
            elif e == 1:
                i1 += 1 + stacks[r]
            else:
                i2 += 1 + stacks[r]
        jinn = (j0 > i0) + (j1 > i1) + (j2 > i2)
        ifrit = (i0 > j0) + (i1 > j1) + (i2 > j2)
        if count >= 0:
            win = 1.0 if jinn > ifrit else -1.0
            out_returns[g, JINN] = win
            out_returns[g, IFRIT] = -win
        else:
            out_returns[g, JINN] = 0.0
            out_returns[g, IFRIT] = 0.0
        out_scores[g, JINN] = jinn
        out_scores[g, IFRIT] = ifrit
        out_actions[g] = count
        out_decisions[g, JINN] += jd
        out_decisions[g, IFRIT] += id_
        out_forced[g, JINN] += jf
        out_forced[g, IFRIT] += if_
        out_options[g, JINN] += jo
        out_options[g, IFRIT] += io
    dec_count[0] = kept
