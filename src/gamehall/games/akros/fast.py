"""Akros's compiled simulator: the rules of :mod:`gamehall.games.akros.rules` over a flat vector.

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

Random against random (the bulk of research runs and ``analyze``) does not go through the generic
loop: :func:`random_games` plays the same games with the state in registers, counting legal
placements with popcounts instead of listing them (about three times as fast). :func:`simulate`
picks it; ``simulate_generic`` is the generic loop, the reference it is tested against.
"""

# ruff: noqa: ANN001, ANN201
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from gamehall.core.game import Action, Game, State
from gamehall.games.akros.game import AkrosGame, AkrosState
from gamehall.games.akros.rules import (
    DRAW,
    IFRIT,
    IFRIT_KEEP,
    IFRIT_PLACE,
    JINN,
    JINN_KEEP,
    JINN_PLACE,
    OVER,
    Draw,
)
from gamehall.kernels import (
    CHANCE,
    POLICY_RANDOM,
    TERMINAL,
    below,
    seed_stream,
    simulate_games,
)
from gamehall.kernels.simulator import Simulator
from gamehall.kernels.tree import tree_root, tree_search

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


@njit(cache=True, inline="always")
def _bits(x):
    """How many bits of ``x`` are set (LLVM turns this loop into one popcount)."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


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
                    n += _bits(tab[4 + _low(y)] & im)
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
                        c = _bits(sources)
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
                m = _bits(movers)
                n = _bits(targets) * m
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


@njit(cache=True)
def simulate_generic(
    start, tab, seed, first_index, kinds, weights, stop_at_horizon, max_actions,
    out_returns, out_scores, out_actions, out_decisions, out_forced, out_options,
    dec_count, dec_game, dec_player, dec_options, dec_action, traj, traj_len,
):  # fmt: skip
    """The generic loop (:func:`gamehall.kernels.simulate_games`) over this game's kernels."""
    simulate_games(
        start, tab, seed, first_index, kinds, weights, stop_at_horizon, max_actions,
        out_returns, out_scores, out_actions, out_decisions, out_forced, out_options,
        dec_count, dec_game, dec_player, dec_options, dec_action, traj, traj_len,
        player, legal, apply, chance, returns, horizon, evaluate, scores,
    )  # fmt: skip


@njit(cache=True)
def simulate(
    start, tab, seed, first_index, kinds, weights, stop_at_horizon, max_actions,
    out_returns, out_scores, out_actions, out_decisions, out_forced, out_options,
    dec_count, dec_game, dec_player, dec_options, dec_action, traj, traj_len,
):  # fmt: skip
    """Random against random without trajectories runs :func:`random_games`; anything else the
    generic loop. Akros has no resting point before its end, so ``stop_at_horizon`` changes
    nothing."""
    if traj.shape[0] == 0 and kinds[0] == POLICY_RANDOM and kinds[1] == POLICY_RANDOM:
        random_games(
            start, tab, seed, first_index, max_actions, out_returns, out_scores, out_actions,
            out_decisions, out_forced, out_options, dec_count, dec_game, dec_player,
            dec_options, dec_action,
        )  # fmt: skip
    else:
        simulate_generic(
            start, tab, seed, first_index, kinds, weights, stop_at_horizon, max_actions,
            out_returns, out_scores, out_actions, out_decisions, out_forced, out_options,
            dec_count, dec_game, dec_player, dec_options, dec_action, traj, traj_len,
        )  # fmt: skip


@njit(cache=True)
def search(
    meta, value, states, outcome, pool, sizes, bounds, root, simulations, tab, rng,
    c, widening, use_horizon, done, moves,
):  # fmt: skip
    return tree_search(
        meta, value, states, outcome, pool, sizes, bounds, root, simulations, tab, rng,
        c, widening, use_horizon, done, moves,
        player, legal, apply, chance, returns, horizon,
    )  # fmt: skip


@njit(cache=True)
def new_tree(meta, value, states, sizes, s, use_horizon, tab):
    return tree_root(meta, value, states, sizes, s, use_horizon, tab, player, returns, horizon)


KERNELS = SimpleNamespace(
    player=player,
    legal=legal,
    apply=apply,
    chance=chance,
    returns=returns,
    horizon=horizon,
    evaluate=evaluate,
    scores=scores,
    simulate=simulate,
    simulate_generic=simulate_generic,
    random_games=random_games,
    search=search,
    new_tree=new_tree,
)


class AkrosSimulator(Simulator):
    """Akros in compiled code, on any board of up to 62 regions."""

    chance_width = 3

    def unsupported(self, game: Game) -> str | None:
        assert isinstance(game, AkrosGame)
        if game.board.size > MAX_REGIONS:
            return (
                f"the board has {game.board.size} regions; the kernel takes at most {MAX_REGIONS}"
            )
        return None

    def table(self, game: Game) -> np.ndarray:
        assert isinstance(game, AkrosGame)
        cached = game.__dict__.get("_fast_table")
        if cached is not None:
            return cached
        board = game.board
        n = board.size
        tab = np.zeros(6 + 2 * n, dtype=np.int64)
        tab[0] = n
        tab[1:4] = board.environment_masks
        tab[4 : 5 + n] = board.neighbour_masks
        tab[5 + n : 6 + 2 * n] = board.environments
        game.__dict__["_fast_table"] = tab
        return tab

    def encode(self, state: State) -> np.ndarray:
        assert isinstance(state, AkrosState)
        s = np.zeros(STACKS + 1 + state.game.board.size, dtype=np.int64)
        s[TURN] = state.turn
        s[STEP] = state.step
        s[BAG : BAG + 3] = state.bag
        for tile in state.draft:
            s[DRAFT + tile] += 1
        s[JT] = -1 if state.jinn_tile is None else state.jinn_tile
        s[IT] = -1 if state.ifrit_tile is None else state.ifrit_tile
        s[REMOVED : REMOVED + 3] = state.removed
        s[JM] = sum(1 << r for r in state.jinn)
        s[IM] = sum(1 << r for r in state.ifrit)
        for pile, tiles in enumerate(state.temple):
            for tile in tiles:
                s[TEMPLE + 3 * pile + tile] += 1
        s[STACKS + 1 :] = state.stacks
        return s

    def decode(self, game: Game, vector: np.ndarray) -> AkrosState:
        assert isinstance(game, AkrosGame)
        v = [int(x) for x in vector]
        n = game.board.size

        def tiles(counts: list[int]) -> tuple[int, ...]:
            return tuple(e for e in range(3) for _ in range(counts[e]))

        def regions(mask: int) -> tuple[int, ...]:
            return tuple(r for r in range(1, n + 1) if mask >> r & 1)

        return AkrosState(
            game, v[TURN], v[STEP], (v[BAG], v[BAG + 1], v[BAG + 2]),
            tuple(tiles(v[TEMPLE + 3 * p : TEMPLE + 3 * p + 3]) for p in range(3)),  # type: ignore[arg-type]
            tiles(v[DRAFT : DRAFT + 3]), None if v[JT] < 0 else v[JT], None if v[IT] < 0 else v[IT],
            (v[REMOVED], v[REMOVED + 1], v[REMOVED + 2]), tuple(v[STACKS + 1 : STACKS + 1 + n]),
            regions(v[JM]), regions(v[IM]),
        )  # fmt: skip

    def chance_action(self, state: State, outcome: np.ndarray) -> Action:
        counts = [int(x) for x in outcome[:3]]
        return Draw(tuple(e for e in range(3) for _ in range(counts[e])))

    def kernels(self) -> Any:
        return KERNELS


SIMULATOR = AkrosSimulator()
