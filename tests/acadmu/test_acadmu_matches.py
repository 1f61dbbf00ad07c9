"""Whole matches: random ones play to a winner at the target, and greedy play beats random play.

The balance statistics of random matches are a benchmark: ``bench/acadmu_matches.py``.
"""

from __future__ import annotations

import pytest

from gamehall.ai import GreedyAgent, RandomAgent
from gamehall.core import play_game
from gamehall.games.acadmu import DARK, LIGHT, AcadmuGame


def check_finished(played, target: int) -> None:
    final = played.final
    assert final.is_terminal()
    outcome = final.outcome()
    assert outcome.winner in (DARK, LIGHT)
    scores = outcome.scores
    assert scores[outcome.winner] >= target > scores[1 - outcome.winner]
    assert final.returns()[outcome.winner] == 1.0
    assert sum(final.returns()) == 0


@pytest.mark.parametrize(
    "options", [{}, {"target": 1}, {"target": 24}, {"shape_capture_takes_one_if_last": True}]
)
def test_random_matches_play_to_a_winner_at_the_target(options):
    """Invariants only; how often each side wins under random play is bench/acadmu_matches.py."""
    game = AcadmuGame(**options)
    for seed in range(10):
        played = play_game(
            game, [RandomAgent(seed), RandomAgent(seed + 1)], seed=seed, max_actions=20_000
        )
        check_finished(played, game.target)


def test_greedy_beats_random():
    game = AcadmuGame()
    greedy_wins = 0
    for seed in range(50):
        greedy_side = seed % 2
        agents = [RandomAgent(seed), RandomAgent(seed)]
        agents[greedy_side] = GreedyAgent(seed)
        played = play_game(game, agents, seed=seed, max_actions=20_000)
        check_finished(played, game.target)
        greedy_wins += played.final.outcome().winner == greedy_side
    assert greedy_wins >= 35, greedy_wins
