"""Compiled building blocks that every game's simulator kernel shares (numba).

A game that offers a compiled simulator (its plugin's ``simulator``) writes a handful of small
numba functions over a flat ``int64`` state vector ``s`` and a constant table ``tab`` (the board,
the disc set, the options), all with the same signatures:

==============================  =================================================================
``player(s, tab)``              the player to move, :data:`~gamehall.core.game.CHANCE` or
                                :data:`~gamehall.core.game.TERMINAL` (as the engine says)
``legal(s, tab, out)``          writes the legal actions' dense indices into ``out``, returns
                                how many (ascending order)
``apply(s, tab, a)``            plays the decision with dense index ``a`` (in place)
``chance(s, tab, rng, co)``     draws a chance outcome with the engine's exact law and applies
                                it (in place); writes the outcome into ``co`` for records
``returns(s, tab, out)``        each player's return (``out[0]``, ``out[1]``)
``horizon(s, tab, out)``        writes the engine's ``horizon_returns()`` and returns True at a
                                resting point, else returns False
``evaluate(s, tab, p)``         the engine's ``evaluate(p)`` (greedy play), bit for bit
``scores(s, tab, out)``         the engine's ``scores()``
==============================  =================================================================

The game's module then instantiates the generic loops here (:func:`simulate_games`, and
:mod:`gamehall.kernels.tree`'s search) inside its own ``@njit(cache=True)`` functions with its
functions as arguments: numba caches a compiled function only when the functions it calls are
fixed when it is compiled, so the game's wrapper is what lands in the on-disk cache.

Random numbers come from :func:`next_u64` (splitmix64) on a one-word ``uint64`` array: every game
of a batch is seeded from (run seed, game index), so a batch is reproducible and any game of it
can be played again alone. :func:`below` is exactly uniform (rejection, no modulo bias) and
:func:`coin` is an exact fair bit, so chance laws such as a pour of discs or a draw from a bag are
exact, not approximations.
"""

# ruff: noqa: ANN001, ANN201
# (numba kernels: untyped scalar and array arguments)
from __future__ import annotations

import numpy as np
from numba import njit
from numba.core import types
from numba.extending import intrinsic

from gamehall.kernels.cache import clear_stale_kernel_caches

clear_stale_kernel_caches()  # before numba loads a cached kernel compiled from older sources

CHANCE = -1
TERMINAL = -4

POLICY_RANDOM = 0
"""Uniform over the legal actions (level ``beginner``)."""
POLICY_WEIGHTS = 1
"""Proportional to a weight per dense action index (uniform if every legal weight is 0)."""
POLICY_GREEDY = 2
"""The best action one ahead by the game's ``evaluate``, ties at random (level ``easy``)."""

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@intrinsic
def popcount(typingctx, x):
    """How many bits of the integer ``x`` are set (one ``ctpop`` instruction)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@njit(cache=True, inline="always")
def next_u64(rng):
    """The next 64 random bits of a splitmix64 generator (state: ``rng[0]``, uint64)."""
    z = rng[0] + _GOLDEN
    rng[0] = z
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def seed_stream(rng, seed, index):
    """Seed ``rng`` for game ``index`` of a run seeded ``seed`` (both non-negative)."""
    rng[0] = np.uint64(seed) * _M1 + np.uint64(index) * _GOLDEN
    next_u64(rng)
    rng[0] = next_u64(rng) ^ np.uint64(index)


@njit(cache=True, inline="always")
def below(rng, n):
    """A uniform integer in ``range(n)``, exactly (rejection sampling on a bit mask)."""
    if n <= 1:
        return 0
    mask = n - 1
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    mask |= mask >> 32
    while True:
        x = np.int64(next_u64(rng) >> np.uint64(11)) & mask
        if x < n:
            return x


@njit(cache=True, inline="always")
def uniform(rng):
    """A float uniform in [0, 1) with 53 random bits."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def coin(rng):
    """A fair bit, exactly (0 or 1)."""
    return np.int64(next_u64(rng) >> np.uint64(63))


@njit(cache=True, inline="always")
def choose_action(s, tab, kind, weights, rng, moves, n, child, me, ties, apply, evaluate):
    """The action a simple policy picks for player ``me`` among the ``n`` legal ``moves`` (see
    POLICY_*; ``weights[me]`` are the player's weights)."""
    if n == 1:
        return moves[0]
    if kind == POLICY_WEIGHTS:
        total = 0.0
        for i in range(n):
            total += weights[me, moves[i]]
        if total > 0.0:
            x = uniform(rng) * total
            for i in range(n):
                x -= weights[me, moves[i]]
                if x < 0.0:
                    return moves[i]
            for i in range(n - 1, -1, -1):  # rounding: the last action with weight
                if weights[me, moves[i]] > 0.0:
                    return moves[i]
        return moves[below(rng, n)]
    if kind == POLICY_GREEDY:
        best = -np.inf
        count = 0
        for i in range(n):
            child[:] = s
            apply(child, tab, moves[i])
            value = evaluate(child, tab, me)
            if value > best:
                best = value
                ties[0] = moves[i]
                count = 1
            elif value == best:
                ties[count] = moves[i]
                count += 1
        return ties[below(rng, count)]
    return moves[below(rng, n)]


@njit(cache=True, inline="always")
def simulate_games(
    start,
    tab,
    seed,
    first_index,
    kinds,
    weights,
    stop_at_horizon,
    max_actions,
    out_returns,
    out_scores,
    out_actions,
    out_decisions,
    out_forced,
    out_options,
    dec_count,
    dec_game,
    dec_player,
    dec_options,
    dec_action,
    traj,
    traj_len,
    player,
    legal,
    apply,
    chance,
    returns,
    horizon,
    evaluate,
    scores,
):
    """Play ``len(out_returns)`` games from the state ``start``.

    Game ``g`` uses the random stream (``seed``, ``first_index + g``) and the policy
    ``kinds[p]`` (with ``weights[p]``) for player ``p``. With ``stop_at_horizon`` a game stops
    at its first resting point (the engine's ``horizon_returns``), whose estimate is its return.

    Per game: returns, scores, actions (chance included), decisions, forced decisions and legal
    options summed, per player. When ``dec_game`` has room, one entry per decision (game, player,
    legal options, action) from ``dec_count[0]`` on. When ``traj`` has rows, game ``g``'s actions
    go to ``traj[g]`` (column 0: who acted, player or CHANCE; then the action index, or the chance
    outcome as the game writes it) and its length to ``traj_len[g]`` (-1: longer than the room).
    A game still running after ``max_actions`` stops there with ``out_actions[g] = -1``.
    """
    games = out_returns.shape[0]
    size = start.shape[0]
    s = np.empty(size, dtype=np.int64)
    child = np.empty(size, dtype=np.int64)
    moves = np.empty(weights.shape[1] + 1, dtype=np.int64)
    ties = np.empty(weights.shape[1] + 1, dtype=np.int64)
    co = np.zeros(64, dtype=np.int64)
    ret = np.zeros(2, dtype=np.float64)
    rng = np.zeros(1, dtype=np.uint64)
    keep_decisions = dec_game.shape[0]
    keep_traj = traj.shape[0] > 0
    room = traj.shape[1]
    for g in range(games):
        seed_stream(rng, seed, first_index + g)
        s[:] = start
        count = 0
        while True:
            p = player(s, tab)
            if p == TERMINAL:
                returns(s, tab, ret)
                break
            if stop_at_horizon and horizon(s, tab, ret):
                break
            if count >= max_actions:
                count = -1
                ret[:] = 0.0
                break
            if p == CHANCE:
                chance(s, tab, rng, co)
                if keep_traj and count < room:
                    traj[g, count, 0] = CHANCE
                    traj[g, count, 1:] = co[: traj.shape[2] - 1]
            else:
                n = legal(s, tab, moves)
                a = choose_action(
                    s, tab, kinds[p], weights, rng, moves, n, child, p, ties, apply, evaluate
                )
                out_decisions[g, p] += 1
                out_options[g, p] += n
                if n == 1:
                    out_forced[g, p] += 1
                k = dec_count[0]
                if k < keep_decisions:
                    dec_game[k] = g
                    dec_player[k] = p
                    dec_options[k] = n
                    dec_action[k] = a
                    dec_count[0] = k + 1
                if keep_traj and count < room:
                    traj[g, count, 0] = p
                    traj[g, count, 1] = a
                apply(s, tab, a)
            count += 1
        out_returns[g, 0] = ret[0]
        out_returns[g, 1] = ret[1]
        scores(s, tab, ret)
        out_scores[g, 0] = ret[0]
        out_scores[g, 1] = ret[1]
        out_actions[g] = count
        if keep_traj:
            traj_len[g] = count if 0 <= count <= room else -1
