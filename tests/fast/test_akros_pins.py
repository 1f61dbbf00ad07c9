"""Seeded Akros simulations are pinned: a faster kernel must play the very same games.

The figures below were taken from the kernel as it stood before it was optimised (issue 15's
speed work): for a seed and a game index, the same draws, the same decisions and the same results,
for every policy kind, the per-decision arrays, checked trajectories and the compiled MCTS that
runs on the same kernels. If the random stream or the order of legal actions ever has to change,
these pins change deliberately, with the reason in the commit.
"""

from __future__ import annotations

import hashlib

import numpy as np

from gamehall import fast
from gamehall.ai.mcts import MCTSAgent
from gamehall.core import find_game
from gamehall.kernels.simulator import Simulation


def digest(sim: Simulation) -> str:
    """A short digest of every array of a simulation (the per-decision ones when present)."""
    h = hashlib.sha256()
    arrays = [sim.returns, sim.scores, sim.actions, sim.decisions, sim.forced, sim.options]
    if sim.decision_game is not None:
        arrays += [sim.decision_game, sim.decision_player, sim.decision_options]
        arrays += [sim.decision_action]  # type: ignore[list-item]
    for a in arrays:
        kind = np.int64 if a.dtype.kind in "iu" else np.float64
        h.update(np.ascontiguousarray(a).astype(kind).tobytes())
    return h.hexdigest()[:16]


def test_random_games_are_pinned():
    sim = fast.simulate("akros", 5000, seed=1)
    assert sim.winners()[:12].tolist() == [1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    assert sim.actions[:12].tolist() == [42] * 12
    assert sim.options[:4].tolist() == [[122, 48], [110, 51], [113, 59], [115, 45]]
    assert sim.scores[:4].tolist() == [[1.0, 2.0], [1.0, 2.0], [1.0, 2.0], [1.0, 0.0]]
    assert digest(sim) == "f7d4925b18708280"


def test_greedy_games_and_their_decisions_are_pinned():
    sim = fast.simulate("akros", 500, seed=2, policy=("greedy", "random"), per_decision=True)
    assert digest(sim) == "8fc14c5709ea2598"


def test_weight_policies_are_pinned():
    game = find_game("akros")
    weights = np.ones(game.num_distinct_actions)
    weights[1:3] = 0.0
    weights[100:400] = 3.0
    assert digest(fast.simulate(game, 500, seed=3, policy=(weights, "greedy"))) == (
        "a582b52132233574"
    )


def test_checked_trajectories_are_pinned():
    game = find_game("akros")
    first = fast.play(game, seed=1, policy="random", index=0)
    seventh = fast.play(game, seed=1, policy="random", index=7)
    assert first is not None and seventh is not None
    assert [str(a) for a in first[:8]] == [
        "draw FSM", "keep M", "keep F discard S", "F4<5", "M17<13",
        "draw FSM", "keep F", "keep M discard S",
    ]  # fmt: skip
    assert [str(a) for a in seventh[:8]] == [
        "draw SSM", "keep S", "keep S discard M", "S6<5", "S16<7",
        "draw FFM", "keep M", "keep F discard F",
    ]  # fmt: skip
    assert hashlib.sha256(repr(first).encode()).hexdigest()[:16] == "7c0c5a3f66644069"
    assert hashlib.sha256(repr(seventh).encode()).hexdigest()[:16] == "0175c1c1c4a5e2f8"


def test_compiled_mcts_is_pinned():
    game = find_game("akros")
    actions = fast.play(game, seed=1, policy="random", index=7)
    assert actions is not None
    state = game.new_initial_state()
    for action in actions[:3]:
        state = state.apply(action)
    stats = MCTSAgent(simulations=3000, seed=5).analyse(state)[:5]
    assert [(str(m.action), m.visits, round(m.value, 6)) for m in stats] == [
        ("S15<14", 436, 0.298165),
        ("S9<5", 380, 0.284211),
        ("S15<10", 377, 0.278515),
        ("S9<10", 366, 0.273224),
        ("S9<14", 355, 0.267606),
    ]
