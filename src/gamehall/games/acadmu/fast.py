"""Äcädmü's compiled simulator: the match, the draw, the pour and the captures over a flat vector.

The state vector (int64)::

    index   field
    0       phase: 0 the first-player draw, 1 the pour of round 1, 2 a round in play
    1       the side to move (0 Dark, 1 Light); in phase 1, who will start the round
    2       the side that has passed (-1: nobody)
    3, 4    the match score (Dark, Light) before this round
    5       who went first in this round (-1: a bare one-round position)
    6-14    Dark's up-face counts per pairing (RT RS RC BT BS BC YT YS YC)
    15-23   Light's

The table (int64): the target, the variant ``shape_capture_takes_one_if_last`` (0/1), the number
of discs ``n``, then the discs' fronts (``n``) and backs (``n``).

Actions are the engine's dense indices (:meth:`AcadmuGame.action_index`): single takes
``own * 9 + taken``, double takes by shape ``81 + own * 6 + colour pair``, ``135`` pass; ``legal``
lists each resulting position once, ascending. The pour tosses every disc of Dark's set, then of
Light's, each face up with probability exactly 1/2 (a bit each of one 64-bit draw per 64
discs); the draw picks a disc uniformly and tosses it. A trajectory records a pour as the 18
up-face counts and a draw as the four faces.
"""

# ruff: noqa: ANN001, ANN201
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
from numba import njit

from gamehall.core.game import Action, Game, State
from gamehall.games.acadmu.game import NO_ONE, AcadmuGame, AcadmuState, Draw, Pour
from gamehall.kernels import CHANCE, TERMINAL, below, coin, next_u64, popcount, simulate_games
from gamehall.kernels.simulator import Simulator
from gamehall.kernels.tree import tree_root, tree_search

PHASE, TO_MOVE, PASSED, SCORE, FIRST, DARK, LIGHT = 0, 1, 2, 3, 5, 6, 15
"""Offsets in the state vector (``DARK + pairing``, ``LIGHT + pairing``)."""
SIZE = 24
PHASES = ("draw", "pour", "play")
PASS_INDEX = 135

# The colours of the two tokens a capture by shape takes, in dense-index order (tokens.COLOUR_PAIRS).
_PAIR_A = np.array([0, 0, 0, 1, 1, 2], dtype=np.int64)
_PAIR_B = np.array([0, 1, 2, 1, 2, 2], dtype=np.int64)


@njit(cache=True, inline="always")
def _beaten(x):
    return (x + 1) % 3


@njit(cache=True)
def _can_capture(s, own, other, take_one):
    """Whether ``own`` has any capture (rule 3: a player without one must pass)."""
    for mine in range(9):
        if not s[own + mine]:
            continue
        victim = _beaten(mine // 3) * 3
        if s[other + victim] or s[other + victim + 1] or s[other + victim + 2]:
            return True
        shape = _beaten(mine % 3)
        left = s[other + shape] + s[other + 3 + shape] + s[other + 6 + shape]
        if left >= 2 or (take_one and left == 1):
            return True
    return False


@njit(cache=True, inline="always")
def _side(who):
    return DARK if who == 0 else LIGHT


@njit(cache=True)
def _round_over(s, tab):
    """Rule 4: 'when neither player can capture, the round ends'."""
    mover = s[TO_MOVE]
    if _can_capture(s, _side(mover), _side(1 - mover), tab[1]):
        return False
    return s[PASSED] != -1 or not _can_capture(s, _side(1 - mover), _side(mover), tab[1])


@njit(cache=True, inline="always")
def _difference(s):
    total = 0
    for p in range(9):
        total += s[DARK + p] - s[LIGHT + p]
    return total


@njit(cache=True, inline="always")
def player(s, tab):
    if s[PHASE] != 2:
        return CHANCE
    if not _round_over(s, tab):
        return s[TO_MOVE]
    if s[FIRST] < 0:
        return TERMINAL
    diff = _difference(s)
    dark = s[SCORE] + max(diff, 0)
    light = s[SCORE + 1] + max(-diff, 0)
    return TERMINAL if max(dark, light) >= tab[0] else CHANCE


@njit(cache=True, inline="always")
def _present(s, side):
    """The pairings ``side`` shows as a bitmask (bit p: at least one up-face of pairing p)."""
    bits = 0
    for p in range(9):
        bits |= np.int64(s[side + p] != 0) << p  # no branch: the counts are anyone's guess
    return bits


@njit(cache=True, inline="always")
def _shape_pairs(s, other, shape):
    """The colour pairs (bit ``pair``, as :data:`_PAIR_A`/:data:`_PAIR_B`) of two of ``other``'s
    tokens of ``shape`` there are to take: RR, RB, RY, BB, BY, YY."""
    r = s[other + shape]
    b = s[other + 3 + shape]
    y = s[other + 6 + shape]
    red = np.int64(r > 0)
    blue = np.int64(b > 0)
    yellow = np.int64(y > 0)
    return (
        np.int64(r >= 2)
        | ((red & blue) << 1)
        | ((red & yellow) << 2)
        | (np.int64(b >= 2) << 3)
        | ((blue & yellow) << 4)
        | (np.int64(y >= 2) << 5)
    )


@njit(cache=True, inline="always")
def _targets(s, tab):
    """What the mover can take, as bitmasks: the pairings the mover shows (``mine``), those the
    other side shows (``theirs``), per shape of the other side's (6 bits each) the colour pairs
    to take by shape, and, in the variant, bit ``shape`` of ``lone`` when the other side has
    exactly one token of that shape (the lone take)."""
    mover = s[TO_MOVE]
    own = _side(mover)
    other = _side(1 - mover)
    shapes = 0
    lone = 0
    for shape in range(3):
        shapes |= _shape_pairs(s, other, shape) << (6 * shape)
        left = s[other + shape] + s[other + 3 + shape] + s[other + 6 + shape]
        lone |= (np.int64(left == 1) & tab[1]) << shape
    return _present(s, own), _present(s, other), shapes, lone


@njit(cache=True, inline="always")
def _single_takes(token, theirs, lone):
    """The pairings a token takes alone: any token of the colour its colour beats (the three
    pairings ``7 << 3 * beaten(colour)``), or, in the variant, the lone token of the shape its
    shape beats (``0b001001001 << beaten(shape)``)."""
    shape = _beaten(token % 3)
    by_colour = theirs & (7 << (3 * _beaten(token // 3)))
    return by_colour | (theirs & (73 << shape) & -((lone >> shape) & 1))


@njit(cache=True, inline="always")
def _double_takes(token, shapes):
    """The colour pairs a token takes by shape: two of the shape its shape beats."""
    return (shapes >> (6 * _beaten(token % 3))) & 63


_BIT = np.array(
    [[b for b in range(9) if m >> b & 1] + [0] * (9 - bin(m).count("1")) for m in range(512)],
    dtype=np.int64,
)
"""``_BIT[m, j]``: the index of the ``j``-th lowest set bit of ``m`` (0 past the last)."""


@njit(cache=True, inline="always")
def legal(s, tab, out):
    """The mover's captures, each resulting position once (ascending index), else pass.

    Single takes (``token * 9 + taken``) come before the takes by shape (``81 + token * 6 +
    colour pair``), each in order of the mover's tokens. ``out`` has room for every action:
    a few entries past the count are written as scratch (each token's takes are written nine
    or six at a time, without a branch, and the count moves on by as many as there are)."""
    mine, theirs, shapes, lone = _targets(s, tab)
    n = 0
    for token in range(9):
        hits = _single_takes(token, theirs, lone) & -((mine >> token) & 1)
        for j in range(9):
            out[n + j] = token * 9 + _BIT[hits, j]
        n += popcount(hits)
    for token in range(9):
        pairs = _double_takes(token, shapes) & -((mine >> token) & 1)
        for j in range(6):
            out[n + j] = 81 + token * 6 + _BIT[pairs, j]
        n += popcount(pairs)
    if n == 0:
        out[0] = PASS_INDEX
        return 1
    return n


@njit(cache=True, inline="always")
def count_captures(s, tab, room):
    """How many captures the mover has (the length of :func:`legal`'s list, the pass aside),
    without listing them: ``room[token]`` and ``room[9 + token]`` keep each token's single
    takes and takes by shape (bitmasks) for :func:`nth_capture`."""
    mine, theirs, shapes, lone = _targets(s, tab)
    n = 0
    for token in range(9):
        on = -((mine >> token) & 1)
        hits = _single_takes(token, theirs, lone) & on
        pairs = _double_takes(token, shapes) & on
        room[token] = hits
        room[9 + token] = pairs
        n += popcount(hits) + popcount(pairs)
    return n


@njit(cache=True, inline="always")
def nth_capture(k, room):
    """The ``k``-th action of :func:`legal`'s list, from what :func:`count_captures` kept in
    ``room`` (the pass when there is no capture)."""
    for i in range(18):
        bits = room[i]
        c = popcount(bits)
        if k < c:
            return (i * 9 if i < 9 else 81 + (i - 9) * 6) + _BIT[bits, k]
        k -= c
    return PASS_INDEX


@njit(cache=True, inline="always")
def apply(s, tab, a):
    mover = s[TO_MOVE]
    other = 1 - mover
    if a == PASS_INDEX:
        s[PASSED] = mover
        s[TO_MOVE] = other
        return
    own = _side(mover)
    theirs = _side(other)
    if a < 81:
        s[own + a // 9] -= 1
        s[theirs + a % 9] -= 1
    else:
        mine = (a - 81) // 6
        pair = (a - 81) % 6
        shape = _beaten(mine % 3)
        s[own + mine] -= 1
        s[theirs + _PAIR_A[pair] * 3 + shape] -= 1
        s[theirs + _PAIR_B[pair] * 3 + shape] -= 1
    # 'the opponent then takes consecutive turns': after a pass the mover keeps the turn.
    s[TO_MOVE] = mover if s[PASSED] == other else other


@njit(cache=True, inline="always")
def _faces_beat(a, b):
    """'The colour that beats the other goes first; if equal, the shape' (-1: both equal)."""
    ca = a // 3
    cb = b // 3
    if ca != cb:
        return 0 if (cb - ca) % 3 == 1 else 1
    sa = a % 3
    sb = b % 3
    if sa != sb:
        return 0 if (sb - sa) % 3 == 1 else 1
    return -1


@njit(cache=True)
def _pour(s, tab, rng, co):
    """'Every disc of both players lands with a uniformly random face up.'"""
    n = tab[2]
    for side in range(2):
        base = DARK if side == 0 else LIGHT
        for p in range(9):
            s[base + p] = 0
        bits = np.uint64(0)
        for d in range(n):
            if d % 64 == 0:  # 64 fair tosses from one draw
                bits = next_u64(rng)
            back = np.int64((bits >> np.uint64(d % 64)) & np.uint64(1))
            s[base + tab[3 + d + n * back]] += 1  # its front (``3 + d``) or its back up
        for p in range(9):
            co[9 * side + p] = s[base + p]


@njit(cache=True, inline="always")
def chance(s, tab, rng, co):
    phase = s[PHASE]
    n = tab[2]
    if phase == 0:  # the first-player draw: a disc each, tossed
        for side in range(2):
            d = below(rng, n)
            front = tab[3 + d]
            back = tab[3 + n + d]
            if coin(rng):
                front, back = back, front
            co[2 * side] = front
            co[2 * side + 1] = back
        winner = _faces_beat(co[0], co[2])
        if winner < 0:
            winner = _faces_beat(co[1], co[3])
        if winner < 0:
            return  # both faces tie: draw again
        s[PHASE] = 1
        s[TO_MOVE] = winner
        s[PASSED] = -1
        s[FIRST] = -1
        return
    if phase == 1:
        first = s[TO_MOVE]
    else:  # a round is over: count it; the other player starts the next
        first = 1 - s[FIRST]
        diff = _difference(s)
        s[SCORE] += max(diff, 0)
        s[SCORE + 1] += max(-diff, 0)
    _pour(s, tab, rng, co)
    s[PHASE] = 2
    s[TO_MOVE] = first
    s[PASSED] = -1
    s[FIRST] = first


@njit(cache=True)
def returns(s, tab, out):
    out[0] = 0.0
    out[1] = 0.0
    if player(s, tab) != TERMINAL:
        return
    diff = _difference(s)
    if s[FIRST] < 0:
        out[0] = diff
        out[1] = -diff
        return
    dark = s[SCORE] + max(diff, 0)
    light = s[SCORE + 1] + max(-diff, 0)
    out[0] = 1.0 if dark > light else -1.0
    out[1] = -out[0]


@njit(cache=True)
def scores(s, tab, out):
    diff = _difference(s) if s[PHASE] == 2 else 0
    if s[FIRST] < 0:
        out[0] = max(diff, 0)
        out[1] = max(-diff, 0)
    elif s[PHASE] == 2 and _round_over(s, tab):
        out[0] = s[SCORE] + max(diff, 0)
        out[1] = s[SCORE + 1] + max(-diff, 0)
    else:
        out[0] = s[SCORE]
        out[1] = s[SCORE + 1]


@njit(cache=True)
def horizon(s, tab, out):
    """Between rounds of a match: the lead over the target, within (-0.99, 0.99)."""
    if s[FIRST] < 0 or s[PHASE] != 2 or not _round_over(s, tab):
        return False
    if player(s, tab) == TERMINAL:
        return False
    diff = _difference(s)
    lead = ((s[SCORE] + max(diff, 0)) - (s[SCORE + 1] + max(-diff, 0))) / tab[0]
    value = max(-0.99, min(0.99, lead))
    out[0] = value
    out[1] = -value
    return True


@njit(cache=True)
def evaluate(s, tab, p):
    """The engine's ``evaluate``: match points, then the round's token difference."""
    if player(s, tab) == TERMINAL:
        ret = np.zeros(2)
        returns(s, tab, ret)
        return 1000.0 * ret[p] if s[FIRST] >= 0 else ret[p]
    sign = 1 if p == 0 else -1
    points = s[SCORE] - s[SCORE + 1]
    diff = _difference(s) if s[PHASE] == 2 else 0
    return sign * (10.0 * points + diff)


@njit(cache=True)
def simulate(
    start, tab, seed, first_index, kinds, weights, stop_at_horizon, max_actions,
    out_returns, out_scores, out_actions, out_decisions, out_forced, out_options,
    dec_count, dec_game, dec_player, dec_options, dec_action, traj, traj_len,
):  # fmt: skip
    simulate_games(
        start, tab, seed, first_index, kinds, weights, stop_at_horizon, max_actions,
        out_returns, out_scores, out_actions, out_decisions, out_forced, out_options,
        dec_count, dec_game, dec_player, dec_options, dec_action, traj, traj_len,
        player, legal, apply, chance, returns, horizon, evaluate, scores,
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
    search=search,
    new_tree=new_tree,
)


class AcadmuSimulator(Simulator):
    """Äcädmü in compiled code: matches, bare rounds, every variant and disc set."""

    chance_width = 18

    def table(self, game: Game) -> np.ndarray:
        assert isinstance(game, AcadmuGame)
        cached = game.__dict__.get("_fast_table")
        if cached is not None:
            return cached
        discs = game.disc_set.discs
        n = len(discs)
        tab = np.zeros(3 + 2 * n, dtype=np.int64)
        tab[0] = game.target
        tab[1] = int(game.take_one_if_last)
        tab[2] = n
        tab[3 : 3 + n] = [front for front, _ in discs]
        tab[3 + n :] = [back for _, back in discs]
        game.__dict__["_fast_table"] = tab
        return tab

    def encode(self, state: State) -> np.ndarray:
        assert isinstance(state, AcadmuState)
        s = np.zeros(SIZE, dtype=np.int64)
        s[PHASE] = PHASES.index(state.phase)
        s[TO_MOVE] = state.to_move
        s[PASSED] = state.passed
        s[SCORE : SCORE + 2] = state.match_score
        s[FIRST] = -1 if state.first is None else state.first
        if state.phase == "play":
            s[DARK : DARK + 9] = state.dark
            s[LIGHT : LIGHT + 9] = state.light
        return s

    def decode(self, game: Game, vector: np.ndarray) -> AcadmuState:
        assert isinstance(game, AcadmuGame)
        v = [int(x) for x in vector]
        phase = PHASES[v[PHASE]]
        play = phase == "play"
        return AcadmuState(
            game,
            phase,  # type: ignore[arg-type]
            tuple(v[DARK : DARK + 9]) if play else (),
            tuple(v[LIGHT : LIGHT + 9]) if play else (),
            v[TO_MOVE],
            v[PASSED] if v[PASSED] >= 0 else NO_ONE,
            (v[SCORE], v[SCORE + 1]),
            None if v[FIRST] < 0 else v[FIRST],
        )

    def chance_action(self, state: State, outcome: np.ndarray) -> Action:
        assert isinstance(state, AcadmuState)
        v = [int(x) for x in outcome]
        if state.phase == "draw":
            return Draw((v[0], v[1]), (v[2], v[3]))
        return Pour(tuple(v[0:9]), tuple(v[9:18]))

    def kernels(self) -> Any:
        return KERNELS


SIMULATOR = AcadmuSimulator()
