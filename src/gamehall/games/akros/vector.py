"""Akros batched for :mod:`gamehall.vector`: the observation in compiled code, and the cached
batch loops (:mod:`gamehall.kernels.batch`) over the simulator's kernels (the rules of
:mod:`.compiled_rules`, the search of :mod:`.fast`).

:func:`observe` writes :class:`gamehall.games.akros.research.AkrosEncoding`'s layout from the
kernels' state vector, entry for entry (``tests/vector`` checks it against the engine's).
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
    apply,
    chance,
    evaluate,
    legal,
    player,
    returns,
)
from gamehall.games.akros.fast import new_tree, search
from gamehall.kernels.batch import BatchKernels, no_episode, reset_batch, step_batch

BEGIN = no_episode
"""Akros's batched episodes are whole games (the adapters offer no other)."""


@njit(cache=True, inline="always")
def turn_legal(s, tab, moves, listed):
    """The batch loops' ``turn``: the player to move and, for a player, its legal actions (at
    most 28: always listed)."""
    p = player(s, tab)
    if p < 0:
        return p, 0
    return p, legal(s, tab, moves)


@njit(cache=True, inline="always")
def nth(s, tab, k, moves):
    """The batch loops' ``nth``: the ``k``-th legal action, from ``turn_legal``'s list."""
    return moves[k]


@njit(cache=True, inline="always")
def observe(s, tab, me, mover, out):
    """The observation of state ``s`` for player ``me`` (see :mod:`.research` for the layout;
    ``mover``, who is to move, is in it already)."""
    regions = tab[0]
    # every entry written once (no zeroing pass first): this runs for every game at every step
    turn = s[TURN] - 1
    for i in range(9):
        out[i] = i == turn
    step = s[STEP]
    for i in range(6):
        out[9 + i] = i == step
    jt = s[JT]
    it = s[IT]
    for e in range(3):
        out[15 + e] = s[BAG + e]
        out[18 + e] = s[DRAFT + e]
        out[21 + e] = e == jt
        out[24 + e] = e == it
        out[27 + e] = s[REMOVED + e]
    for i in range(9):
        out[30 + i] = s[TEMPLE + i]
    jm = s[JM]
    im = s[IM]
    contested = _contested(im, tab)
    envs = 5 + regions
    for r in range(1, regions + 1):
        base = 32 + 7 * r  # 39 + 7 * (r - 1)
        e = tab[envs + r]
        out[base] = e == 0
        out[base + 1] = e == 1
        out[base + 2] = e == 2
        out[base + 3] = s[STACKS + r]
        out[base + 4] = (jm >> r) & 1
        out[base + 5] = (im >> r) & 1
        out[base + 6] = (contested >> r) & 1
    out[39 + 7 * regions] = me == 0
    out[40 + 7 * regions] = me == 1


def legal_room(tab: np.ndarray, start: np.ndarray) -> int:
    """The most legal actions an Akros position can have: a keep is one of at most three, a
    placement a target region of the tile's environment times a servant that moves there (a
    servant moves, so each player keeps the servants they start with), or the one removal."""
    regions = int(tab[0])
    most_targets = max(bin(int(tab[1 + e]) & ~1).count("1") for e in range(3))
    servants = max(bin(int(start[JM])).count("1"), bin(int(start[IM])).count("1"))
    return min(15 + 3 * regions * regions, max(3, most_targets * servants))


@njit(cache=True)
def reset(
    states, rngs, start, tab, seeds, config, weights, obs, mask, legal_rows, legal_count,
    to_move, events, event_count, tree,
):  # fmt: skip
    reset_batch(
        states, rngs, start, tab, seeds, config, weights, obs, mask, legal_rows, legal_count,
        to_move, events, event_count, tree,
        turn_legal, nth, apply, chance, evaluate, observe, new_tree, search, BEGIN,
    )  # fmt: skip


@njit(cache=True)
def step(
    states, rngs, start, tab, actions, config, weights, illegal_reward, obs, mask, legal_rows,
    legal_count, to_move, rewards, terminated, illegal, final_obs, events, event_count, tree,
):  # fmt: skip
    step_batch(
        states, rngs, start, tab, actions, config, weights, illegal_reward, obs, mask,
        legal_rows, legal_count, to_move, rewards, terminated, illegal, final_obs, events,
        event_count, tree,
        turn_legal, nth, apply, chance, returns, evaluate, observe, new_tree, search, BEGIN,
    )  # fmt: skip


VECTOR = BatchKernels(reset=reset, step=step, observe=observe, legal_room=legal_room)
