"""Akros's register kernel for random play (``random_games``) plays the generic loop's games.

``simulate`` hands random-against-random batches to a kernel that keeps the state in registers
and never lists the legal actions; the generic loop over ``legal``/``apply``/``chance`` (which
``test_fast_engine`` checks against the rules engine) is the reference. From positions met in
random engine games (every step of every turn, on the default board and on a board of another
size), both give the same returns, scores, action counts, decision statistics and per-decision
arrays, and stop alike at ``max_actions``.
"""

from __future__ import annotations

import numpy as np
import pytest

from gamehall.core import Game, find_game
from gamehall.games.akros.fast import KERNELS, SIMULATOR
from tests.akros.akros_helpers import example_game
from tests.fast.test_fast_engine import random_positions


def run(kernel: object, game: Game, start: np.ndarray, games: int, seed: int, cap: int) -> list:
    """Every output array of ``games`` random games from ``start`` by ``kernel``."""
    kinds, weights = SIMULATOR.policies(game, "random")
    outputs = [np.zeros((games, 2)), np.zeros((games, 2)), np.zeros(games, dtype=np.int64)]
    outputs += [np.zeros((games, 2), dtype=np.int64) for _ in range(3)]
    counted = np.zeros(1, dtype=np.int64)
    decisions = [np.zeros(games * 40, dtype=np.int32) for _ in range(4)]
    kernel(  # type: ignore[operator]
        start, SIMULATOR.table(game), seed, 3, kinds, weights, False, cap, *outputs, counted,
        *decisions, np.zeros((0, 0, 2), dtype=np.int64), np.zeros(0, dtype=np.int64),
    )  # fmt: skip
    return [*outputs, counted, *decisions]


@pytest.mark.parametrize("which", ["dawn", "examples"])
def test_random_games_are_the_generic_loops_games(which):
    game = find_game("akros") if which == "dawn" else example_game()
    steps = set()
    for index, state in enumerate(random_positions(game, 300, seed=21)):
        steps.add(state.step)
        start = SIMULATOR.encode(state)
        for cap in (1_000_000, 3):
            fast = run(KERNELS.simulate, game, start, 8, index, cap)
            generic = run(KERNELS.simulate_generic, game, start, 8, index, cap)
            for mine, reference in zip(fast, generic, strict=True):
                assert np.array_equal(mine, reference), str(state)
    assert len(steps) == 6  # draws, both keeps, both placements, and finished games


def test_the_dispatch_keeps_the_generic_loop_for_other_policies():
    """Greedy play goes through the generic loop (the register kernel plays only random)."""
    game = find_game("akros")
    start = SIMULATOR.encode(game.new_initial_state())
    kinds, weights = SIMULATOR.policies(game, ("greedy", "random"))
    random_kinds, _ = SIMULATOR.policies(game, "random")
    results = []
    for kind in (kinds, random_kinds):
        returns = np.zeros((200, 2))
        zeros = [np.zeros((200, 2)), np.zeros(200, dtype=np.int64)]
        zeros += [np.zeros((200, 2), dtype=np.int64) for _ in range(3)]
        KERNELS.simulate(
            start, SIMULATOR.table(game), 1, 0, kind, weights, False, 1000, returns, *zeros,
            np.zeros(1, dtype=np.int64), *(np.zeros(0, dtype=np.int32) for _ in range(4)),
            np.zeros((0, 0, 2), dtype=np.int64), np.zeros(0, dtype=np.int64),
        )  # fmt: skip
        results.append(returns[:, 0].mean())
    assert results[0] > results[1] + 0.3  # a greedy Jinn wins far more often than a random one
