"""Computer levels: the same names everywhere, the right player for each game."""

from __future__ import annotations

import random

import pytest

from gamehall.ai import LEVELS, LevelAgent, MCTSAgent, make_agent
from gamehall.ai.basic import GreedyAgent, RandomAgent
from gamehall.ai.levels import player_for
from gamehall.core import GamehallError, find_game


def test_levels_are_named_in_order():
    assert list(LEVELS) == ["beginner", "easy", "medium", "hard", "perfect"]


def test_unknown_level_or_player_names_the_choices():
    with pytest.raises(GamehallError, match="beginner"):
        make_agent("grandmaster")


@pytest.mark.parametrize(
    ("game", "level", "kind"),
    [
        ("acadmu", "beginner", RandomAgent),
        ("acadmu", "easy", GreedyAgent),
        ("acadmu", "medium", MCTSAgent),
        ("akros", "beginner", RandomAgent),
        ("akros", "easy", GreedyAgent),
        ("akros", "medium", MCTSAgent),
    ],
)
def test_generic_levels(game, level, kind):
    assert isinstance(player_for(game, level, 1), kind)


def test_medium_thinks_less_than_hard():
    medium, hard = player_for("acadmu", "medium", 1), player_for("akros", "medium", 1)
    assert isinstance(medium, MCTSAgent) and isinstance(hard, MCTSAgent)
    assert medium.simulations > hard.simulations  # Akros's engine is slower: fewer simulations


def test_akros_hard_is_exact_from_turn_5():
    agent = player_for("akros", "hard", 1)
    assert type(agent).__name__ == "ExactOrSearchAgent"
    game = find_game("akros")
    rng = random.Random(5)
    state = game.new_initial_state()
    while not (state.turn >= 7 and state.current_player >= 0):
        state = state.apply_trusted(
            state.sample_chance(rng)
            if state.is_chance_node()
            else rng.choice(state.legal_actions())
        )
    action = agent.choose(state)
    assert action in state.legal_actions()
    assert "exact" in (agent.describe_last_choice() or "")


def test_level_agent_plays_a_whole_game_of_each():
    for name in ("acadmu", "akros"):
        game = find_game(name)
        agents = [LevelAgent("easy", 1), LevelAgent("beginner", 2)]
        rng = random.Random(3)
        state = game.deal(3)
        steps = 0
        while not state.is_terminal() and steps < 2000:
            if state.is_chance_node():
                action = state.sample_chance(rng)
            else:
                action = agents[state.current_player].choose(state)
            for agent in agents:
                agent.observe(state, action)
            state = state.apply(action)
            steps += 1
        assert state.is_terminal()


def test_stepping_stones_between_levels_are_named_by_their_strength():
    """``greedy:P`` and ``mcts:N``, the players that measure the levels' ratings."""
    game = find_game("akros")
    state = game.deal(1)
    while len(state.legal_actions()) < 2:
        state = state.apply(state.legal_actions()[0])
    always = make_agent("greedy:1", seed=3)
    greedy = GreedyAgent(seed=3)
    assert always.name == "greedy:1"
    assert always.choose(state) in state.legal_actions()
    never = make_agent("greedy:0", seed=5)
    picks = {str(never.choose(state)) for _ in range(60)}
    assert len(picks) > 1  # random moves
    best = {str(greedy.choose(state)) for _ in range(20)}
    assert {str(always.choose(state)) for _ in range(20)} <= best
    searcher = make_agent("mcts:50", seed=1)
    assert isinstance(searcher, MCTSAgent) and searcher.simulations == 50
    for bad in ("greedy:1.5", "greedy:x", "mcts:0", "mcts:-3", "mcts:100001", "mcts:"):
        with pytest.raises(GamehallError, match="greedy:P"):
            make_agent(bad)
