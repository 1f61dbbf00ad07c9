"""The compiled loops behind :mod:`gamehall.vector`: N games of one game stepped together (numba).

They work over a game's kernel functions (``legal``, ``apply``, ``chance``, ``returns``,
``evaluate``; see :mod:`gamehall.kernels`) and three more: ``turn(s, tab, moves, listed) -> (p,
n)``, ``player(s, tab)`` and, when ``p`` is a player, ``n = legal(s, tab, moves)`` (else 0) in
one call (a game can share the work: its round-over test and its legal list); when ``listed``
is a player other than ``p`` (-1: every player's list is wanted), the game may count the legal
actions without writing them, and ``nth(s, tab, k, moves)`` is then the ``k``-th of them in
``legal``'s order (a random opponent picks one of ``n`` and needs no list); and ``observe(s,
tab, me, mover, out)``, which writes the game's observation encoding of state ``s`` for player
``me`` into the ``float32`` row ``out``, exactly as the game's Python ``encoding`` does;
``mover`` is what ``player(s, tab)`` says (the loops know it already, so the observation need
not ask again). As with the simulator, each game's ``vector`` module instantiates
:func:`reset_batch` and :func:`step_batch` inside its own ``@njit(cache=True)`` functions, so
they land in numba's on-disk cache.

The batch, one row per game: ``states`` (the kernels' state vectors), ``rngs`` (one splitmix64
word per game: game ``g`` is seeded from (seed, g) and keeps drawing from its own stream, episode
after episode), and the outputs a learner reads: ``obs``, ``mask`` (a bool per dense action index;
kept up to date by clearing only the entries of ``legal[g, :count[g]]``, the legal actions it
set), ``to_move``, ``rewards`` (per player, non-zero only when a game ends), ``terminated``,
``illegal`` and ``final_obs`` (the observation of a game that ended this step, before the new
one starts in its row).

``config``: the learner's seat (-1: the learner plays both seats, self-play), the opponent's
policy kind (:data:`~gamehall.kernels.POLICY_RANDOM`, :data:`~gamehall.kernels.POLICY_GREEDY`
or :data:`POLICY_MCTS`), the room for events per game and step (0: none kept) and the MCTS
opponent's simulations. ``tree``: the search's arrays (one tree, reused for every search) and
its ``c`` and ``widening`` (a tuple: a call of more than 30 arguments would not inline). Chance and the opponent's moves are
played inside, from the game's stream, until the learner is to move again.

``config[EPISODE]``: :data:`WHOLE_GAME`, or the code of an episode that starts elsewhere (such
as a single round of a match, :class:`BatchEpisode`): every game of the row then starts with the
game's ``begin`` drawing that start.

Events: when there is room, every happening of a step is written to ``events[g]`` in order, one
row each, and counted in ``event_count[g]`` (a count above the room means rows were lost):
column 0 is who acted (a player, :data:`CHANCE`, :data:`NEW_GAME` when a game starts in the row,
:data:`ILLEGAL` for a refused action, column 1 the action, :data:`START` for an episode's
random start), then the dense action index or the
chance outcome as the game's ``chance`` wrote it. With them the engine plays the same games.
"""

# ruff: noqa: ANN001, ANN201
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from gamehall.kernels import CHANCE, POLICY_RANDOM, TERMINAL, below, choose_action, seed_stream
from gamehall.kernels.tree import ACTION, FIRST, NEXT, SUM, VISITS

NEW_GAME = -2
"""An event row: a new game starts in this row of the batch (the initial state)."""
ILLEGAL = -3
"""An event row: the learner's action (column 1) was not legal; the game ends there."""
START = -5
"""An event row: the episode's random start (an episode other than the whole game, such as a
single round), after :data:`NEW_GAME`; then its outcome as the game's ``begin`` wrote it."""

SEAT, OPPONENT, ROOM, SIMULATIONS, EPISODE = 0, 1, 2, 3, 4
"""Offsets in ``config``."""
WHOLE_GAME = 0
"""``config[EPISODE]`` for episodes that are whole games (from the start state, no ``begin``)."""
POLICY_MCTS = 3
"""The opponent's kind for the compiled MCTS (:mod:`gamehall.kernels.tree`) at
``config[SIMULATIONS]`` simulations a move, ``c`` and ``widening`` from the end of ``tree``, the
move with the most visits (then the best mean, then the first expanded), as the MCTS agent picks."""


@njit(cache=True, inline="always")
def _event(events, event_count, g, who, value, co, width):
    k = event_count[g]
    if k < events.shape[1]:
        events[g, k, 0] = who
        if who == CHANCE or who == START:  # noqa: SIM109 (plain compares for numba)
            for i in range(width):
                events[g, k, 1 + i] = co[i]
        else:
            events[g, k, 1] = value
    event_count[g] = k + 1


@njit(cache=True, inline="always")
def _search_move(s, tab, rng, config, tree, n, moves, new_tree, search):
    """The compiled MCTS's move at ``s`` among the ``n`` legal ``moves``."""
    if n == 1:
        return moves[0]
    meta, value, states, outcome, pool, sizes, bounds, scratch, done, params = tree
    root = new_tree(meta, value, states, sizes, s, True, tab)
    bounds[0] = np.inf
    bounds[1] = -np.inf
    done[0] = 0
    search(
        meta, value, states, outcome, pool, sizes, bounds, root, config[SIMULATIONS], tab, rng,
        params[0], params[1], True, done, scratch,
    )  # fmt: skip
    best = moves[0]
    best_visits = -1
    best_mean = -np.inf
    child = meta[root, FIRST]
    while child >= 0:  # in expansion order: the first of equals stays
        visits = meta[child, VISITS]
        mean = value[child, SUM] / visits if visits else 0.0
        if visits > best_visits or (visits == best_visits and mean > best_mean):
            best = meta[child, ACTION]
            best_visits = visits
            best_mean = mean
        child = meta[child, NEXT]
    return best


@njit(cache=True, inline="always")
def _advance(
    s, tab, rng, config, weights, moves, child, ties, co, events, event_count, g, width,
    tree, turn, nth, apply, chance, evaluate, new_tree, search,
):  # fmt: skip
    """Play chance and the opponent until the learner is to move or the game is over; return
    the player to move (or TERMINAL) and, for a player, the number of legal actions ``turn``
    wrote in ``moves``."""
    seat = config[SEAT]
    keep = config[ROOM] > 0
    # a random opponent's moves are counted, not listed: only the learner's list is wanted
    listed = seat if seat >= 0 and config[OPPONENT] == POLICY_RANDOM else -1
    while True:
        p, n = turn(s, tab, moves, listed)
        if p == TERMINAL:
            return p, 0
        if p == CHANCE:
            chance(s, tab, rng, co)
            if keep:
                _event(events, event_count, g, CHANCE, 0, co, width)
            continue
        if seat < 0 or p == seat:
            return p, n
        if config[OPPONENT] == POLICY_MCTS:
            a = _search_move(s, tab, rng, config, tree, n, moves, new_tree, search)
        elif listed >= 0:  # as choose_action's random pick: no draw for an only move
            a = nth(s, tab, below(rng, n), moves)
        else:
            a = choose_action(
                s, tab, config[OPPONENT], weights, rng, moves, n, child, p, ties, apply, evaluate
            )
        if keep:
            _event(events, event_count, g, p, a, co, width)
        apply(s, tab, a)


@njit(cache=True, inline="always")
def no_episode(s, tab, rng, co, episode):
    """The ``begin`` of a game whose batched episodes are whole games only (never called)."""


@njit(cache=True, inline="always")
def _begin(s, tab, rng, co, config, events, event_count, g, width, begin):
    """An episode other than the whole game: its random start (the game's ``begin``)."""
    if config[EPISODE] != WHOLE_GAME:
        begin(s, tab, rng, co, config[EPISODE])
        if config[ROOM] > 0:
            _event(events, event_count, g, START, 0, co, width)


@njit(cache=True, inline="always")
def _publish(
    s, tab, g, p, n, config, obs, mask, legal_rows, legal_count, to_move, observe, moves
):  # fmt: skip
    """Write game ``g``'s observation, mask and legal list for its player to move ``p``
    (``moves``: room for every action, holding the ``n`` legal actions ``turn`` wrote, copied
    to its row, which has room only for the most a position can have)."""
    row = legal_rows[g]
    if mask.shape[1] <= 256:  # a short row: cleared whole, at once
        mask[g, :] = False
    else:  # only the entries set last time
        for i in range(legal_count[g]):
            mask[g, row[i]] = False
    if p < 0:  # not a player's turn (the loops never publish one): no legal action
        n = 0
    if n > row.shape[0]:
        raise ValueError("more legal actions than the batch's legal lists have room for")
    legal_count[g] = n
    for i in range(n):
        a = moves[i]
        row[i] = a
        mask[g, a] = True
    to_move[g] = p
    observe(s, tab, p if config[SEAT] < 0 else config[SEAT], p, obs[g])


@njit(cache=True, inline="always")
def reset_batch(
    states, rngs, start, tab, seeds, config, weights, obs, mask, legal_rows, legal_count,
    to_move, events, event_count, tree,
    turn, nth, apply, chance, evaluate, observe, new_tree, search, begin,
):  # fmt: skip
    """Start a game in every row: row ``g`` seeded from (``seeds[g]``, ``g``)."""
    games = states.shape[0]
    size = start.shape[0]
    child = np.empty(size, dtype=np.int64)
    moves = np.empty(weights.shape[1] + 1, dtype=np.int64)
    ties = np.empty(weights.shape[1] + 1, dtype=np.int64)
    width = events.shape[2] - 1  # the columns of an outcome (a call of 31 arguments won't inline)
    co = np.zeros(max(64, width), dtype=np.int64)
    keep = config[ROOM] > 0
    for g in range(games):
        rng = rngs[g : g + 1]
        seed_stream(rng, seeds[g], g)
        s = states[g]
        s[:] = start
        event_count[g] = 0
        if keep:
            _event(events, event_count, g, NEW_GAME, 0, co, width)
        _begin(s, tab, rng, co, config, events, event_count, g, width, begin)
        p, n = _advance(
            s, tab, rng, config, weights, moves, child, ties, co, events, event_count, g,
            width, tree, turn, nth, apply, chance, evaluate, new_tree, search,
        )  # fmt: skip
        _publish(
            s, tab, g, p, n, config, obs, mask, legal_rows, legal_count, to_move, observe, moves,
        )  # fmt: skip


@njit(cache=True, inline="always")
def step_batch(
    states, rngs, start, tab, actions, config, weights, illegal_reward, obs, mask, legal_rows,
    legal_count, to_move, rewards, terminated, illegal, final_obs, events, event_count, tree,
    turn, nth, apply, chance, returns, evaluate, observe, new_tree, search, begin,
):  # fmt: skip
    """Play ``actions[g]`` in every row ``g`` (for the player to move there), then chance and
    the opponent; a game that ends is scored and a new one starts in its row (auto-reset)."""
    games = states.shape[0]
    actions_n = mask.shape[1]
    size = start.shape[0]
    child = np.empty(size, dtype=np.int64)
    moves = np.empty(weights.shape[1] + 1, dtype=np.int64)
    ties = np.empty(weights.shape[1] + 1, dtype=np.int64)
    width = events.shape[2] - 1  # the columns of an outcome (a call of 31 arguments won't inline)
    co = np.zeros(max(64, width), dtype=np.int64)
    ret = np.zeros(2, dtype=np.float64)
    keep = config[ROOM] > 0
    seat = config[SEAT]
    for g in range(games):
        rng = rngs[g : g + 1]
        s = states[g]
        event_count[g] = 0
        rewards[g, 0] = 0.0
        rewards[g, 1] = 0.0
        a = actions[g]
        p = to_move[g]
        mover = p  # who is to move in the state the game ends in, if it ends
        n = 0
        done = False
        if a < 0 or a >= actions_n or not mask[g, a]:
            if keep:
                _event(events, event_count, g, ILLEGAL, a, co, width)
            rewards[g, p] = illegal_reward
            illegal[g] = True
            done = True
        else:
            illegal[g] = False
            if keep:
                _event(events, event_count, g, p, a, co, width)
            apply(s, tab, a)
            q, n = _advance(
                s, tab, rng, config, weights, moves, child, ties, co, events, event_count, g,
                width, tree, turn, nth, apply, chance, evaluate, new_tree, search,
            )  # fmt: skip
            if q == TERMINAL:
                mover = TERMINAL
                returns(s, tab, ret)
                rewards[g, 0] = ret[0]
                rewards[g, 1] = ret[1]
                done = True
            else:
                p = q
        terminated[g] = done
        if done:
            observe(s, tab, p if seat < 0 else seat, mover, final_obs[g])
            s[:] = start
            if keep:
                _event(events, event_count, g, NEW_GAME, 0, co, width)
            _begin(s, tab, rng, co, config, events, event_count, g, width, begin)
            p, n = _advance(
                s, tab, rng, config, weights, moves, child, ties, co, events, event_count, g,
                width, tree, turn, nth, apply, chance, evaluate, new_tree, search,
            )  # fmt: skip
        _publish(
            s, tab, g, p, n, config, obs, mask, legal_rows, legal_count, to_move, observe, moves,
        )  # fmt: skip


class BatchEpisode(NamedTuple):
    """An episode the batch plays besides whole games (one of the adapters' episodes, by the
    same name): ``code`` is ``config[EPISODE]``, which the game's ``begin(s, tab, rng, co,
    code)`` receives to draw the episode's start from the start state (writing its outcome in
    ``co``); ``width`` is how many entries of ``co`` it writes; ``state(game, outcome)`` is the
    engine's start state from that outcome (for :meth:`gamehall.vector.VectorGame.replay`)."""

    code: int
    width: int
    state: Any


class BatchKernels(NamedTuple):
    """What a game's plugin names as its ``vector`` hook: its cached instantiations of
    :func:`reset_batch` and :func:`step_batch` (same arguments, less the kernel functions), and
    its compiled ``observe``. The rest (the state vector, the table, chance outcomes back to the
    engine's actions) comes from the game's compiled simulator. ``episodes``: the episodes
    besides whole games it plays, by name (the game's ``begin`` kernel, passed to the loops,
    draws their start; a game with none passes :func:`no_episode`)."""

    reset: Any
    step: Any
    observe: Any
    episodes: Any = None
    legal_room: Any = None
    """``legal_room(tab, start) -> int``: the most legal actions a position of the game (its
    table, from the start state) can have, the width of the batch's legal lists (None: every
    action); the loops refuse to write more (a ValueError, never past the row)."""
