"""The compiled search tree that :class:`~gamehall.ai.mcts.MCTSAgent` uses where a game offers a
compiled simulator (its plugin's ``simulator``): the same algorithm, every simulation compiled
(see :mod:`gamehall.kernels.tree`). This module owns the arrays, grows them, moves the root
for tree reuse, and reads the root's statistics back as engine actions."""

from __future__ import annotations

import os

import numpy as np

from gamehall.core import CHANCE, Action, State
from gamehall.kernels import seed_stream
from gamehall.kernels.simulator import Simulator
from gamehall.kernels.tree import (
    ACTION,
    FIRST,
    FULL,
    LEAF,
    LEAF0,
    LEAF1,
    META,
    MOVER,
    NEXT,
    NO_LEAF,
    NODES,
    PLAYER,
    POOL,
    SUM,
    VALUE_COLUMNS,
    VISITS,
)

MAX_KEPT_NODES = 100_000
"""A tree moved to a subtree keeps its other rows; past this many the tree starts afresh."""


class CompiledTree:
    """A search tree in arrays for one game, rooted at an engine state."""

    def __init__(self, simulator: Simulator, state: State, seed: int | None, horizon: bool) -> None:
        self.simulator = simulator
        self.game = state.game
        self.kernels = simulator.kernels()
        self.tab = simulator.table(self.game)
        self.horizon = horizon
        self.rng = np.zeros(1, dtype=np.uint64)
        stream = int.from_bytes(os.urandom(7), "little") if seed is None else seed
        seed_stream(self.rng, stream & ((1 << 63) - 1), 0)
        self.moves = np.zeros(self.game.num_distinct_actions + 1, dtype=np.int64)
        size = len(simulator.encode(state))
        self._allocate(1024, size, 1024 * 16 + 2 * len(self.moves))
        self.bounds = np.array([np.inf, -np.inf])
        self.reset(state)

    def _allocate(self, nodes: int, size: int, pool: int) -> None:
        self.meta = np.zeros((nodes, META), dtype=np.int64)
        self.value = np.zeros((nodes, VALUE_COLUMNS))
        self.states = np.zeros((nodes, size), dtype=np.int64)
        self.outcome = np.zeros((nodes, max(1, self.simulator.chance_width)), dtype=np.int64)
        self.pool = np.zeros(pool, dtype=np.int64)
        self.sizes = np.zeros(2, dtype=np.int64)

    def reset(self, state: State) -> None:
        """A fresh tree at ``state``."""
        self.root_state = state
        self.root = int(
            self.kernels.new_tree(
                self.meta, self.value, self.states, self.sizes, self.simulator.encode(state),
                self.horizon, self.tab,
            )
        )  # fmt: skip
        self.bounds[:] = (np.inf, -np.inf)

    def _grow(self) -> None:
        """Double the rows (or the action pool), keeping everything."""
        nodes, pool = int(self.sizes[NODES]), int(self.sizes[POOL])
        grow_nodes = nodes + 2 >= len(self.meta)
        grow_pool = pool + len(self.moves) >= len(self.pool)

        def bigger(array: np.ndarray, rows: int) -> np.ndarray:
            out = np.zeros((rows, *array.shape[1:]), dtype=array.dtype)
            out[: len(array)] = array
            return out

        if grow_nodes or not grow_pool:
            rows = 2 * len(self.meta)
            self.meta = bigger(self.meta, rows)
            self.value = bigger(self.value, rows)
            self.states = bigger(self.states, rows)
            self.outcome = bigger(self.outcome, rows)
        if grow_pool:
            self.pool = bigger(self.pool, 2 * len(self.pool) + len(self.moves))

    @property
    def root_visits(self) -> int:
        return int(self.meta[self.root, VISITS])

    @property
    def nodes(self) -> int:
        return int(self.sizes[NODES])

    def search(self, simulations: int, c: float, widening: float) -> int:
        """Run ``simulations`` simulations; return how many ran."""
        done = np.zeros(1, dtype=np.int64)
        while done[0] < simulations:
            status = self.kernels.search(
                self.meta, self.value, self.states, self.outcome, self.pool, self.sizes,
                self.bounds, self.root, simulations - int(done[0]), self.tab, self.rng,
                float(c), float(widening), self.horizon, done, self.moves,
            )  # fmt: skip
            if status == FULL:
                self._grow()
        return int(done[0])

    def children(self, node: int) -> list[int]:
        found = []
        child = int(self.meta[node, FIRST])
        while child >= 0:
            found.append(child)
            child = int(self.meta[child, NEXT])
        return found

    def root_stats(self) -> list[tuple[Action, int, float]]:
        """Each root action with its visits and the mover's mean return, in expansion order."""
        stats = []
        for child in self.children(self.root):
            visits = int(self.meta[child, VISITS])
            mean = float(self.value[child, SUM]) / visits if visits else 0.0
            stats.append((self.game.index_action(int(self.meta[child, ACTION])), visits, mean))
        return stats

    def action_of(self, node: int, parent_state: State) -> Action:
        """The engine action (or chance outcome) that leads to ``node`` from its parent."""
        if int(self.meta[node, MOVER]) == CHANCE:
            return self.simulator.chance_action(parent_state, self.outcome[node])
        return self.game.index_action(int(self.meta[node, ACTION]))

    def move_root(self, state: State, action: Action) -> bool:
        """Follow ``action`` from the root (``state``); False when the tree has no such child."""
        if self.nodes > MAX_KEPT_NODES:
            return False
        after = state.apply_trusted(action)
        if state.is_chance_node():
            target = self.simulator.encode(after)
            for child in self.children(self.root):
                if np.array_equal(self.states[child], target):
                    break
            else:
                return False
        else:
            index = self.game.action_index(action)
            for child in self.children(self.root):
                if int(self.meta[child, ACTION]) == index:
                    break
            else:
                return False
        self.root = child
        self.root_state = after
        return True

    def leaf_of(self, node: int) -> tuple[float, ...] | None:
        if int(self.meta[node, LEAF]) == NO_LEAF:
            return None
        return (float(self.value[node, LEAF0]), float(self.value[node, LEAF1]))

    def player_of(self, node: int) -> int:
        return int(self.meta[node, PLAYER])
