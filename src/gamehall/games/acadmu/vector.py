"""Äcädmü batched for :mod:`gamehall.vector`: the observation in compiled code, and the cached
batch loops (:mod:`gamehall.kernels.batch`) over the simulator's kernels (:mod:`.fast`).

:func:`observe` writes :class:`gamehall.games.acadmu.research.AcadmuEncoding`'s layout from the
kernels' state vector, entry for entry (``tests/vector`` checks it against the engine's).
"""

# ruff: noqa: ANN001, ANN201
from __future__ import annotations

import numpy as np
from numba import njit

from gamehall.core import Game, State
from gamehall.games.acadmu.fast import (
    DARK,
    FIRST,
    LIGHT,
    PASS_INDEX,
    PASSED,
    PHASE,
    SCORE,
    TO_MOVE,
    _can_capture,
    _pour,
    _side,
    apply,
    chance,
    count_captures,
    evaluate,
    legal,
    new_tree,
    nth_capture,
    player,
    returns,
    search,
)
from gamehall.games.acadmu.game import AcadmuGame
from gamehall.kernels import CHANCE, coin
from gamehall.kernels.batch import BatchEpisode, BatchKernels, reset_batch, step_batch

ROUND = 1
"""``config[EPISODE]`` for the episode ``round``: a single round (see :func:`begin`)."""


@njit(cache=True, inline="always")
def turn_legal(s, tab, moves, listed):
    """The batch loops' ``turn``: ``player(s, tab)`` and, for a player, ``legal(s, tab,
    moves)`` (only counted when ``listed`` is the other player), with one capture test instead
    of three. The mover's captures are worked out first: one means the round goes on (rule
    4); without one (the list is the pass) it goes on only if the other side has a capture and
    has not passed."""
    if s[PHASE] != 2:
        return CHANCE, 0
    mover = s[TO_MOVE]
    if listed >= 0 and mover != listed:
        captures = count_captures(s, tab, moves)  # what they are stays in ``moves`` for nth
    else:
        n = legal(s, tab, moves)
        captures = 0 if moves[0] == PASS_INDEX else n
    if captures:
        return mover, captures
    if s[PASSED] == -1 and _can_capture(s, _side(1 - mover), _side(mover), tab[1]):
        return mover, 1  # the pass (``legal`` wrote it when listing)
    return player(s, tab), 0  # the round is over: the match's end, or the next pour


@njit(cache=True, inline="always")
def nth(s, tab, k, moves):
    """The batch loops' ``nth``: the ``k``-th legal action, which ``turn_legal`` counted."""
    return nth_capture(k, moves)


@njit(cache=True, inline="always")
def observe(s, tab, me, mover, out):
    """The observation of state ``s`` for player ``me``, ``mover`` to move (``player(s, tab)``;
    see :mod:`.research` for the layout)."""
    other = 1 - me
    phase = s[PHASE]
    # every entry written once (no zeroing pass first): this runs for every game at every step
    for i in range(3):
        out[i] = i == phase
    if phase == 2:
        own = DARK if me == 0 else LIGHT
        theirs = LIGHT if me == 0 else DARK
        for p in range(9):
            out[3 + p] = s[own + p]
            out[12 + p] = s[theirs + p]
    else:
        for p in range(18):
            out[3 + p] = 0.0
    out[21] = me == 0
    out[22] = me == 1
    out[23] = mover == me
    out[24] = s[PASSED] == me
    out[25] = s[PASSED] == other
    out[26] = s[SCORE + me]
    out[27] = s[SCORE + other]
    out[28] = tab[0]
    out[29] = s[FIRST] == me
    out[30] = s[FIRST] == other
    out[31] = s[FIRST] < 0 and phase == 2


@njit(cache=True, inline="always")
def begin(s, tab, rng, co, episode):
    """The episode ``round`` (:func:`gamehall.games.acadmu.research.single_round`): both sides
    pour (the simulator's pour: every disc of Dark's set, then of Light's, face up with
    probability 1/2), then a fair coin says who moves first, in a bare round (no match around
    it). The outcome: the 18 up-face counts (Dark's, Light's), then who moves first."""
    _pour(s, tab, rng, co)
    first = coin(rng)
    co[18] = first
    s[PHASE] = 2
    s[TO_MOVE] = first
    s[PASSED] = -1
    s[SCORE] = 0
    s[SCORE + 1] = 0
    s[FIRST] = -1


BEGIN = begin


def round_state(game: Game, outcome: np.ndarray) -> State:
    """The engine's round that :func:`begin` drew (``outcome`` as it wrote it)."""
    assert isinstance(game, AcadmuGame)
    counts = [int(x) for x in outcome[:19]]
    return game.round_state(tuple(counts[0:9]), tuple(counts[9:18]), counts[18])


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


VECTOR = BatchKernels(
    reset=reset,
    step=step,
    observe=observe,
    episodes={"round": BatchEpisode(code=ROUND, width=19, state=round_state)},
)
