"""The batched games as Gymnasium's vector environment: made by ``gymnasium.make_vec`` from the
registered ids, with the single environment's observations, seat and rewards."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import gamehall.adapters.gymnasium as adapter
from gamehall.core import GamehallError, find_plugin
from gamehall.vector import VectorGame
from gamehall.vector.gym import GamehallVectorEnv


def make(name: str, num_envs: int, **kwargs):
    return gymnasium.make_vec(
        name, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs
    )


def test_make_vec_builds_the_compiled_batch_for_games_that_have_one():
    for identifier in adapter.ENV_IDS:
        spec = gymnasium.spec(identifier)
        has = find_plugin(spec.kwargs["game"]).vector is not None
        assert (spec.vector_entry_point is not None) == has
    envs = make("gamehall/Akros-v0", 32, opponent="easy", side="ifrit")
    assert isinstance(envs, GamehallVectorEnv)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    assert envs.observation_space.shape == (32, 174)
    assert envs.single_action_space == gymnasium.spaces.Discrete(1098)
    observations, infos = envs.reset(seed=4)
    assert observations in envs.observation_space
    assert (infos["to_move"] == 1).all()
    assert (observations[:, -2:] == [0.0, 1.0]).all()  # the Ifrit's observation
    np.testing.assert_array_equal(envs.action_masks(), infos["action_mask"])


@pytest.mark.parametrize(("name", "side"), [("gamehall/Akros-v0", 0), ("gamehall/Acadmu-v0", 1)])
def test_observations_are_the_single_environments(name, side):
    envs = make(name, 16, side=side)
    single = gymnasium.make(name, side=side).unwrapped
    encoding = single.research.encoding  # the Gymnasium adapter's own observation encoding
    observations, infos = envs.reset(seed=9)
    rng = np.random.default_rng(9)
    ended = 0
    for _ in range(80):
        for g in range(16):
            state = envs.games.state(g)
            np.testing.assert_array_equal(observations[g], encoding.encode(state, side))
            np.testing.assert_array_equal(infos["action_mask"][g], state.legal_action_mask())
        actions = envs.games.random_actions(rng)
        observations, rewards, terminations, truncations, infos = envs.step(actions)
        assert not truncations.any()
        assert set(np.unique(rewards[terminations])) <= {-1.0, 1.0}
        assert not rewards[~terminations].any()
        assert (infos["_final_obs"] == terminations).all()
        seat_entry = -2 + side if name.endswith("Akros-v0") else 21 + side  # whose observation
        assert (infos["final_obs"][terminations][:, seat_entry] == 1.0).all()
        ended += int(terminations.sum())
    assert ended > 0 or name.endswith("Acadmu-v0")  # a match lasts longer than 80 moves


def test_an_illegal_action_ends_that_game_alone():
    envs = make("gamehall/Akros-v0", 4)
    _, infos = envs.reset(seed=1)
    actions = envs.unwrapped.games.random_actions(np.random.default_rng(1))
    actions[2] = int(np.argmin(infos["action_mask"][2]))  # not legal
    _, rewards, terminations, _, infos = envs.step(actions)
    assert terminations.tolist() == [False, False, True, False]
    assert infos["illegal"].tolist() == [False, False, True, False]
    assert rewards[2] == -1.0
    assert infos["action_mask"][2].any()  # a new game is under way in that row


def test_self_play_asks_each_row_for_its_player_to_move():
    envs = make("gamehall/Acadmu-v0", 8, opponent=None)
    _, infos = envs.reset(seed=3)
    rng = np.random.default_rng(3)
    movers = set()
    ended = 0
    for _ in range(300):
        movers |= set(infos["to_move"].tolist())
        before = infos["to_move"].copy()
        _, rewards, terminations, _, infos = envs.step(envs.unwrapped.games.random_actions(rng))
        both = infos["rewards"][terminations]
        assert (both[:, 0] == -both[:, 1]).all()
        rows = np.flatnonzero(terminations)
        np.testing.assert_array_equal(rewards[rows], both[np.arange(len(rows)), before[rows]])
        ended += len(rows)
    assert movers == {0, 1} and ended > 0


def test_make_vec_takes_the_adapters_round_episode():
    envs = make("gamehall/Acadmu-v0", 16, episode="round", opponent="easy", side=1)
    single = gymnasium.make("gamehall/Acadmu-v0", episode="round", side=1).unwrapped
    observations, _ = envs.reset(seed=2)
    rng = np.random.default_rng(2)
    results = []
    for _ in range(200):
        for g in range(16):
            state = envs.games.state(g)
            assert state.first is None  # a bare round, as the single environment's
            encoded = single.research.encoding.encode(state, 1)
            np.testing.assert_array_equal(observations[g], encoded)
        observations, rewards, terminations, _, _ = envs.step(envs.games.random_actions(rng))
        results += rewards[terminations].tolist()
    assert results and any(abs(r) > 1 for r in results)  # the round's count difference


def test_bad_arguments_are_refused():
    with pytest.raises(GamehallError, match="opponent"):
        VectorGame("akros", 2, opponent="hard")
    with pytest.raises(GamehallError, match="mcts:N"):
        VectorGame("akros", 2, opponent="mcts:0")
    with pytest.raises(GamehallError, match="episode"):
        VectorGame("akros", 2, episode="round")
    with pytest.raises(GamehallError, match="compiled"):
        VectorGame("tictactoe", 2)
    games = VectorGame("akros", 2)
    with pytest.raises(GamehallError, match="reset"):
        games.step([0, 0])
    games.reset(1)
    with pytest.raises(GamehallError, match="one action per game"):
        games.step([0, 0, 0])
