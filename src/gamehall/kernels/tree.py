"""The compiled Monte Carlo tree search behind :class:`gamehall.ai.mcts.MCTSAgent` (numba).

The same algorithm as the agent's Python search (see :mod:`gamehall.ai.mcts`: a closed-loop
tree, chance by sampling with progressive widening, min-max normalised UCT, returns of the player
who moved into a node, horizon leaves, random rollouts), over a game's kernel functions (see
:mod:`gamehall.kernels`). Each game's simulator module instantiates :func:`tree_search`
inside its own cached function with its kernels, so the whole simulation (descent, expansion,
rollout, backup) runs compiled.

The tree is a structure of arrays, one row per node, in ``meta`` (int64 columns below),
``value`` (float64: the mover's summed returns; columns 1, 2: the leaf's returns), ``states``
(one state vector per node) and ``outcome`` (the chance outcome that led to a chance child, as
the game's ``chance`` wrote it). Children form a list in insertion order (``FIRST``/``LAST`` of
the parent, ``NEXT`` of each child). A decision node's unexpanded actions sit in ``pool`` from
``PSTART`` on (``PCOUNT`` left); one is picked uniformly at each visit until none are left, as
the Python search pops a random one. A chance node keeps, per child, how many fresh draws gave
it (``DRAWS``) and in all (``FRESH``): picking an earlier fresh draw uniformly is picking a child
with probability ``DRAWS / FRESH``.

``sizes`` holds the rows in use: nodes, pool entries; the search stops early (and says so) when
either array is full, and the caller grows them and goes on.
"""

# ruff: noqa: ANN001, ANN201
from __future__ import annotations

import numpy as np
from numba import njit

from gamehall.kernels import CHANCE, TERMINAL, below

# meta columns
PLAYER, MOVER, VISITS, ACTION, FIRST, LAST, NEXT, NCHILD, PSTART, PCOUNT, DRAWS, FRESH, LEAF = (
    range(13)
)
META = 13
NO_LEAF, TERMINAL_LEAF, HORIZON_LEAF = 0, 1, 2
# value columns
SUM, LEAF0, LEAF1, SQUARES = 0, 1, 2, 3
VALUE_COLUMNS = 4
"""value[k]: the mover's summed returns, the leaf returns, the summed squared returns."""
# sizes
NODES, POOL = 0, 1
# status
DONE, FULL = 0, 1


@njit(cache=True, inline="always")
def _new_node(
    meta, value, states, s, mover, action, use_horizon, tab, player, returns, horizon, ret, sizes
):
    """Add a node for state ``s`` (moved into by ``mover``); return its row."""
    k = sizes[NODES]
    sizes[NODES] = k + 1
    states[k, :] = s
    p = player(s, tab)
    meta[k, PLAYER] = p
    meta[k, MOVER] = mover
    meta[k, VISITS] = 0
    meta[k, ACTION] = action
    meta[k, FIRST] = -1
    meta[k, LAST] = -1
    meta[k, NEXT] = -1
    meta[k, NCHILD] = 0
    meta[k, PSTART] = -1
    meta[k, PCOUNT] = 0
    meta[k, DRAWS] = 0
    meta[k, FRESH] = 0
    meta[k, LEAF] = NO_LEAF
    value[k, SUM] = 0.0
    value[k, SQUARES] = 0.0
    if p == TERMINAL:
        returns(s, tab, ret)
        meta[k, LEAF] = TERMINAL_LEAF
        value[k, LEAF0] = ret[0]
        value[k, LEAF1] = ret[1]
    elif use_horizon and horizon(s, tab, ret):
        meta[k, LEAF] = HORIZON_LEAF
        value[k, LEAF0] = ret[0]
        value[k, LEAF1] = ret[1]
    return k


@njit(cache=True, inline="always")
def _link(meta, parent, child):
    if meta[parent, LAST] < 0:
        meta[parent, FIRST] = child
    else:
        meta[meta[parent, LAST], NEXT] = child
    meta[parent, LAST] = child
    meta[parent, NCHILD] += 1


@njit(cache=True, inline="always")
def _rollout(
    s, tab, rng, moves, co, use_horizon, ret, player, legal, apply, chance, returns, horizon
):
    """Play on at random to the end or a resting point; the returns go to ``ret``."""
    while True:
        p = player(s, tab)
        if p == TERMINAL:
            returns(s, tab, ret)
            return
        if use_horizon and horizon(s, tab, ret):
            return
        if p == CHANCE:
            chance(s, tab, rng, co)
        else:
            n = legal(s, tab, moves)
            apply(s, tab, moves[below(rng, n)])


@njit(cache=True, inline="always")
def tree_search(
    meta, value, states, outcome, pool, sizes, bounds, root, simulations, tab, rng,
    c, widening, use_horizon, done, moves,
    player, legal, apply, chance, returns, horizon,
):  # fmt: skip
    """Run up to ``simulations`` simulations from node ``root``; ``done[0]`` counts them.
    ``moves`` is scratch room for one list of legal actions. Returns DONE, or FULL when the
    arrays ran out of room (nothing half-done is left)."""
    size = states.shape[1]
    s = np.empty(size, dtype=np.int64)
    co = np.zeros(64, dtype=np.int64)
    ret = np.zeros(2, dtype=np.float64)
    path = np.empty(4096, dtype=np.int64)
    width = outcome.shape[1]
    capacity = meta.shape[0]
    for _ in range(simulations):
        # Room for one more node and one more list of actions, whatever happens below.
        if sizes[NODES] + 1 >= capacity or sizes[POOL] + moves.shape[0] >= pool.shape[0]:
            return FULL
        node = root
        depth = 0
        path[0] = node
        while True:
            leaf = meta[node, LEAF]
            if leaf != NO_LEAF and node != root:
                ret[0] = value[node, LEAF0]
                ret[1] = value[node, LEAF1]
                break
            if meta[node, PLAYER] == CHANCE:
                if meta[node, NCHILD] < widening * np.sqrt(meta[node, VISITS] + 1.0):
                    s[:] = states[node]
                    chance(s, tab, rng, co)
                    meta[node, FRESH] += 1
                    child = meta[node, FIRST]
                    while child >= 0:
                        same = True
                        for i in range(size):
                            if states[child, i] != s[i]:
                                same = False
                                break
                        if same:
                            break
                        child = meta[child, NEXT]
                    if child >= 0:
                        meta[child, DRAWS] += 1
                        node = child
                        depth += 1
                        path[depth] = node
                        continue
                    child = _new_node(
                        meta, value, states, s, CHANCE, -1, use_horizon, tab,
                        player, returns, horizon, ret, sizes,
                    )  # fmt: skip
                    meta[child, DRAWS] = 1
                    outcome[child, :] = co[:width]
                    _link(meta, node, child)
                    depth += 1
                    path[depth] = child
                    if meta[child, LEAF] != NO_LEAF:
                        ret[0] = value[child, LEAF0]
                        ret[1] = value[child, LEAF1]
                    else:
                        _rollout(
                            s, tab, rng, moves, co, use_horizon, ret,
                            player, legal, apply, chance, returns, horizon,
                        )  # fmt: skip
                    break
                # An earlier fresh draw, uniformly: a child in proportion to its draws.
                x = below(rng, meta[node, FRESH])
                child = meta[node, FIRST]
                while x >= meta[child, DRAWS]:
                    x -= meta[child, DRAWS]
                    child = meta[child, NEXT]
                node = child
                depth += 1
                path[depth] = node
                continue
            if meta[node, PSTART] < 0:  # first visit: list the legal actions
                start = sizes[POOL]
                s[:] = states[node]
                n = legal(s, tab, moves)
                pool[start : start + n] = moves[:n]
                sizes[POOL] = start + n
                meta[node, PSTART] = start
                meta[node, PCOUNT] = n
            left = meta[node, PCOUNT]
            if left > 0:
                start = meta[node, PSTART]
                i = below(rng, left)
                a = pool[start + i]
                pool[start + i] = pool[start + left - 1]
                meta[node, PCOUNT] = left - 1
                s[:] = states[node]
                apply(s, tab, a)
                child = _new_node(
                    meta, value, states, s, meta[node, PLAYER], a, use_horizon, tab,
                    player, returns, horizon, ret, sizes,
                )  # fmt: skip
                _link(meta, node, child)
                depth += 1
                path[depth] = child
                if meta[child, LEAF] != NO_LEAF:
                    ret[0] = value[child, LEAF0]
                    ret[1] = value[child, LEAF1]
                else:
                    _rollout(
                        s, tab, rng, moves, co, use_horizon, ret,
                        player, legal, apply, chance, returns, horizon,
                    )  # fmt: skip
                break
            # UCT over the expanded children (all of them, by now).
            spread = bounds[1] - bounds[0]
            scale = 1.0 / spread if spread > 0 else 1.0
            explore = c * np.sqrt(np.log(meta[node, VISITS]))
            best = -1
            best_score = -np.inf
            child = meta[node, FIRST]
            while child >= 0:
                n = meta[child, VISITS]
                score = value[child, SUM] * scale / n + explore / np.sqrt(n)
                if score > best_score:
                    best = child
                    best_score = score
                child = meta[child, NEXT]
            node = best
            depth += 1
            path[depth] = node
        for r in range(2):
            if ret[r] < bounds[0]:
                bounds[0] = ret[r]
            if ret[r] > bounds[1]:
                bounds[1] = ret[r]
        for d in range(depth + 1):
            visited = path[d]
            meta[visited, VISITS] += 1
            mover = meta[visited, MOVER]
            if mover >= 0:
                value[visited, SUM] += ret[mover]
                value[visited, SQUARES] += ret[mover] * ret[mover]
        done[0] += 1
    return DONE


@njit(cache=True, inline="always")
def tree_root(meta, value, states, sizes, s, use_horizon, tab, player, returns, horizon):
    """Start a tree at state ``s`` (the root is searched even at a resting point)."""
    ret = np.zeros(2, dtype=np.float64)
    sizes[NODES] = 0
    sizes[POOL] = 0
    root = _new_node(
        meta, value, states, s, CHANCE, -1, use_horizon, tab, player, returns, horizon, ret, sizes
    )
    return root
