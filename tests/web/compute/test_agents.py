"""A computer seat's agent kept between moves: in the server's own cache and in a worker process."""

from __future__ import annotations

import json
import os
import random

import pytest

from gamehall.ai import MCTSAgent
from gamehall.web.base.engine import game_of
from gamehall.web.compute.computers import AgentCache


def test_mcts_reuses_its_tree_from_move_to_move():
    """The agent cache keeps an MCTS agent between moves and tells it what happened, so its
    next search starts from the visits of the subtree that was played (as on the server)."""
    agents: list[MCTSAgent] = []

    def factory(level: str, seed: int | None) -> MCTSAgent:
        agents.append(MCTSAgent(simulations=300, seed=seed))
        return agents[-1]

    cache = AgentCache(factory)
    game = game_of("akros", {})
    rng = random.Random(2)
    state, actions, reused = game.new_initial_state(), [], []
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.sample_chance(rng)
        elif state.current_player == 0:
            action = game.parse_action(cache.choose(("g_test", 0), game, actions, "mcts", 1))
            reused.append(agents[-1].last_reused)
        else:
            action = rng.choice(state.legal_actions())
        actions.append(str(action))
        state = state.apply_trusted(action)
    assert len(agents) == 1 and cache.made == 1
    assert sum(1 for r in reused if r > 0) >= len(reused) // 2, reused
    cache.forget("g_test")
    assert ("g_test", 0) not in cache


@pytest.mark.slow
def test_a_worker_process_keeps_its_agents_and_catches_up():
    """A worker process (as ``gamehall serve`` runs them): one agent serves a seat's moves,
    catching up on what happened since; a history that does not continue what it saw makes a
    new one, and the worker leaves no process behind when stopped."""
    from gamehall.web.compute.workers import ProcessWorker

    game = game_of("akros", {})
    options = json.dumps(dict(game.options), sort_keys=True)
    worker = ProcessWorker("test", 1024)
    worker.spawn()
    try:
        worker.wait_ready()
        rng = random.Random(3)
        state, actions, moves = game.new_initial_state(), [], []
        while not state.is_terminal():
            if state.is_chance_node():
                action = state.sample_chance(rng)
            elif state.current_player == 0:
                request = (
                    "choose",
                    ("g_worker", 0),
                    "akros",
                    options,
                    None,
                    actions,
                    "beginner",
                    9,
                )
                _, text, how = worker.call((*request, 10.0, []), 10.0)
                assert how == "search"
                moves.append(text)
                action = game.parse_action(text)
            else:
                action = rng.choice(state.legal_actions())
            actions.append(str(action))
            state = state.apply_trusted(action)
        # The same seed and history give the same move, whether the agent was kept or made anew.
        first = actions.index(moves[0])
        request = (
            "choose",
            ("g_worker", 0),
            "akros",
            options,
            None,
            actions[:first],
            "beginner",
            9,
        )
        assert worker.call((*request, 10.0, ["g_worker"]), 10.0)[1] == moves[0]
    finally:
        pid = worker.pid
        worker.stop()
    assert not worker.alive and pid is not None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
