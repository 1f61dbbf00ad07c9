"""Akros batched for :mod:`gamehall.vector`: the observation in compiled code, and the cached
batch loops (:mod:`gamehall.kernels.batch`) over the simulator's kernels (:mod:`.fast`).

:func:`observe` writes :class:`gamehall.games.akros.research.AkrosEncoding`'s layout from the
kernels' state vector, entry for entry (``tests/vector`` checks it against the engine's).
"""

# ruff: noqa: ANN001, ANN201
from __future__ import annotations

from numba import njit

from gamehall.games.akros.fast import (
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
    new_tree,
    player,
    returns,
    search,
)
from gamehall.kernels.batch import BatchKernels, reset_batch, step_batch


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


@njit(cache=True)
def reset(
    states, rngs, start, tab, seeds, config, weights, obs, mask, legal_rows, legal_count,
    to_move, events, event_count, width, tree,
):  # fmt: skip
    reset_batch(
        states, rngs, start, tab, seeds, config, weights, obs, mask, legal_rows, legal_count,
        to_move, events, event_count, width, tree,
        player, legal, apply, chance, evaluate, observe, new_tree, search,
    )  # fmt: skip


@njit(cache=True)
def step(
    states, rngs, start, tab, actions, config, weights, illegal_reward, obs, mask, legal_rows,
    legal_count, to_move, rewards, terminated, illegal, final_obs, events, event_count, width,
    tree,
):  # fmt: skip
    step_batch(
        states, rngs, start, tab, actions, config, weights, illegal_reward, obs, mask,
        legal_rows, legal_count, to_move, rewards, terminated, illegal, final_obs, events,
        event_count, width, tree,
        player, legal, apply, chance, returns, evaluate, observe, new_tree, search,
    )  # fmt: skip


VECTOR = BatchKernels(reset=reset, step=step, observe=observe)
