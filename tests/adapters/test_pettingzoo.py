"""Every game as a PettingZoo AEC environment passes PettingZoo's own checkers (run through the
shipped kit, gamehall.testing.research, as ``gamehall check-game`` runs them)."""

from __future__ import annotations

import numpy as np
import pytest
from adapter_cases import RESEARCH_CASES

from gamehall.adapters.pettingzoo import env, raw_env
from gamehall.core import find_game
from gamehall.testing.research import (
    pettingzoo_api_test,
    pettingzoo_render_test,
    pettingzoo_seed_test,
)


@pytest.mark.parametrize(("name", "episode"), RESEARCH_CASES)
def test_api_test_passes(name, episode):
    pettingzoo_api_test(name, episode)


@pytest.mark.parametrize(("name", "episode"), RESEARCH_CASES)
def test_seed_test_passes(name, episode):
    pettingzoo_seed_test(name, episode)


def test_max_cycles_test_does_not_apply():
    """PettingZoo's max_cycles_test drives a parallel environment with unmasked random actions;
    like PettingZoo's own classic board games, these turn-based games have neither (agents do not
    act at once, and most actions are illegal at any moment)."""
    assert raw_env("akros").metadata["is_parallelizable"] is False


def play_to_end(e, seed: int) -> dict[str, float]:
    e.reset(seed=seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(seed)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        totals[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        assert observation["observation"].dtype == np.float32
        legal = np.flatnonzero(observation["action_mask"])
        e.step(int(rng.choice(legal)))
    return totals


def test_rewards_come_at_the_end_and_are_the_games_returns():
    for seed in range(5):
        totals = play_to_end(env("akros"), seed)
        assert sorted(totals.values()) == [-1.0, 1.0]
    totals = play_to_end(env("acadmu", episode="round"), 3)
    assert totals["dark"] == -totals["light"]


def test_the_observation_is_the_games_encoding_and_the_mask_its_legal_actions():
    e = raw_env("akros")
    e.reset(seed=4)
    game = find_game("akros")
    agent = e.agent_selection
    observation = e.observe(agent)
    assert observation["observation"].shape == (41 + 7 * 19,)
    legal = {game.action_index(a) for a in e.position.legal_actions()}
    assert set(np.flatnonzero(observation["action_mask"])) == legal
    other = next(a for a in e.possible_agents if a != agent)
    assert not e.observe(other)["action_mask"].any()


def test_an_illegal_move_ends_the_game_against_the_player_who_made_it():
    e = env("akros")
    e.reset(seed=1)
    agent = e.agent_selection
    mask = e.last()[0]["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))
    assert e.rewards[agent] == -1.0
    assert all(e.terminations.values())


def test_ansi_renders_the_terminal_view():
    e = env("akros", render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert "Akros" in text and "turn 1" in text


def test_unknown_episodes_and_render_modes_are_refused():
    with pytest.raises(Exception, match="episodes: game, round"):
        raw_env("acadmu", episode="rounds")
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("akros", render_mode="svg")


@pytest.mark.parametrize(("name", "episode"), RESEARCH_CASES)
def test_render_test_passes(name, episode):
    pettingzoo_render_test(name, episode)


def test_action_masks_and_infos_give_the_mask_of_the_agent_to_move():
    e = env("akros")
    e.reset(seed=2)
    agent = e.agent_selection
    observation, _, _, _, info = e.last()
    mask = e.action_masks()
    assert mask.dtype == bool and mask.shape == (e.unwrapped.game.num_distinct_actions,)
    assert mask.tolist() == observation["action_mask"].astype(bool).tolist()
    assert info["action_mask"].tolist() == observation["action_mask"].tolist()
    other = next(a for a in e.possible_agents if a != agent)
    assert not e.unwrapped.infos[other]["action_mask"].any()


def test_the_global_state_is_not_shadowed():
    """AECEnv.state() is PettingZoo's global state; the engine state is ``position``."""
    e = raw_env("akros")
    e.reset(seed=3)
    assert callable(e.state)
    state = e.state()
    assert e.state_space.contains(state)
    assert state.tolist() == e.observe("jinn")["observation"].tolist()


@pytest.mark.parametrize("name", ["akros", "acadmu"])
def test_rgb_array_is_a_picture_of_the_board(name):
    e = env(name, render_mode="rgb_array")
    e.reset(seed=1)
    first = e.render()
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 8  # coloured, not a blank page
    for _ in range(3):
        e.step(int(np.flatnonzero(e.action_masks())[0]))
    assert not np.array_equal(e.render(), first)  # the picture follows the game


def test_a_game_without_a_picture_draws_its_text_view():
    from tests.nim.plugin import registered_test_only_games  # noqa: F401 - registered by conftest

    e = env("nim", render_mode="rgb_array")
    e.reset(seed=1)
    image = e.render()
    assert image.shape[2] == 3 and (image < 128).any()  # dark text on white


def test_human_prints_the_text_view_without_a_display(capsys):
    e = env("akros", render_mode="human")
    e.reset(seed=1)
    assert e.render() is None
    assert "Akros" in capsys.readouterr().out
