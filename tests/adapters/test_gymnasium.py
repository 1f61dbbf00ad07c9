"""Every game as a Gymnasium environment passes Gymnasium's own env checker (run through the
shipped kit, gamehall.testing.research, as ``gamehall check-game`` runs it)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from adapter_cases import RESEARCH_CASES, RESEARCH_GAMES

import gamehall.adapters.gymnasium as adapter
from gamehall.core import GamehallError
from gamehall.testing.research import gymnasium_check_env


def test_every_game_is_registered():
    assert {"gamehall/Akros-v0", "gamehall/Acadmu-v0"} <= set(adapter.ENV_IDS)
    assert {adapter.env_id(name) for name in RESEARCH_GAMES} <= set(adapter.register_all())


@pytest.mark.parametrize(("name", "episode"), RESEARCH_CASES)
def test_check_env_passes(name, episode):
    gymnasium_check_env(name, episode)


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("akros", {"opponent": "easy", "side": "ifrit"}),
        ("acadmu", {"episode": "round", "side": "light"}),
        ("akros", {"render_mode": "rgb_array"}),
        ("acadmu", {"render_mode": "ansi"}),
    ],
)
def test_check_env_passes_for_either_side(name, arguments):
    gymnasium_check_env(name, **arguments)


def play(e, seed: int) -> tuple[float, int]:
    _, info = e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        legal = np.flatnonzero(info["action_mask"])
        _observation, reward, terminated, truncated, info = e.step(int(rng.choice(legal)))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps


def test_the_agent_plays_its_side_and_the_reward_is_its_return():
    e = gymnasium.make("gamehall/Akros-v0", opponent="hard", side="jinn")
    observation, info = e.reset(seed=2)
    assert observation[-2:].tolist() == [1.0, 0.0]  # the Jinn's observation
    assert info["to_move"] == "jinn"
    total, steps = play(gymnasium.make("gamehall/Akros-v0", side="ifrit"), 5)
    assert total in (-1.0, 1.0) and 9 <= steps <= 27


def test_reset_with_a_seed_replays_the_same_episode():
    e = gymnasium.make("gamehall/Acadmu-v0", episode="round", opponent="easy")
    assert play(e, 11) == play(e, 11)


def test_an_illegal_action_ends_the_episode_with_the_penalty():
    e = gymnasium.make("gamehall/Akros-v0", illegal_reward=-2.0)
    _, info = e.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = e.step(illegal)
    assert (reward, terminated, info["illegal"]) == (-2.0, True, True)


def test_after_an_illegal_action_the_episode_is_over_until_reset():
    e = gymnasium.make("gamehall/Akros-v0")
    _, info = e.reset(seed=1)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    e.step(illegal)
    assert not e.unwrapped.action_masks().any()
    for action in (legal, illegal):
        with pytest.raises(GamehallError, match="the episode is over"):
            e.step(action)
    _, info = e.reset(seed=1)
    assert e.step(legal)[2] is False


def test_action_masks_is_the_info_mask_as_booleans():
    e = gymnasium.make("gamehall/Acadmu-v0", episode="round")
    _, info = e.reset(seed=3)
    mask = e.unwrapped.action_masks()
    assert mask.dtype == bool and mask.shape == (e.action_space.n,)
    assert mask.tolist() == info["action_mask"].astype(bool).tolist()
    assert mask.any()


@pytest.mark.parametrize("name", ["akros", "acadmu"])
def test_rgb_array_renders_the_board(name):
    e = gymnasium.make(adapter.env_id(name), render_mode="rgb_array")
    e.reset(seed=1)
    image = e.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 8


def test_human_prints_the_text_view_without_a_display(capsys):
    e = gymnasium.make("gamehall/Akros-v0", render_mode="human")
    e.reset(seed=1)
    assert "Akros" in capsys.readouterr().out


def test_bad_arguments_are_refused():
    with pytest.raises(Exception, match="unknown player"):
        gymnasium.make("gamehall/Akros-v0", opponent="grandmaster")
    with pytest.raises(Exception, match="jinn or ifrit"):
        gymnasium.make("gamehall/Akros-v0", side="genie")
