"""Every game as an OpenSpiel Python game passes OpenSpiel's random simulation test and declares
the facts its plugin gives (chance mode included: OpenSpiel's alpha-beta takes a game without
chance), and OpenSpiel's MCTS bot plays the project's levels through evaluate_bots."""

from __future__ import annotations

import multiprocessing
import pickle

import numpy as np
import pyspiel
import pytest
from adapter_cases import RESEARCH_CASES, RESEARCH_GAMES
from open_spiel.python.algorithms import evaluate_bots, mcts, minimax

import gamehall.adapters.openspiel as adapter
from gamehall.core import find_game
from gamehall.testing import ConformanceError, registered
from gamehall.testing.research import (
    openspiel_declares_the_facts,
    openspiel_random_sim_test,
    openspiel_sim_game,
)
from tests.nim.broken import NO_CHANCE


def test_every_game_is_registered():
    assert {"python_gamehall_akros", "python_gamehall_acadmu"} <= set(adapter.GAMES)
    assert {adapter.PREFIX + name for name in RESEARCH_GAMES} <= set(adapter.register_all())


def test_the_game_type_and_info_are_declared():
    game = pyspiel.load_game("python_gamehall_akros")
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game.num_distinct_actions() == 15 + 3 * 19 * 19
    assert game.max_chance_outcomes() == 10
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    acadmu = pyspiel.load_game("python_gamehall_acadmu")
    assert acadmu.max_chance_outcomes() == 54 * 54  # the first-player draw, listed whole


@pytest.mark.parametrize("name", RESEARCH_GAMES)
def test_the_game_type_says_what_the_facts_declare(name):
    openspiel_declares_the_facts(name)


def test_a_game_without_chance_is_deterministic_and_alpha_beta_solves_it():
    """Fixed Nim declares no chance: OpenSpiel's alpha-beta takes it and finds the nim-sum rule
    (1 ^ 2 ^ 3 = 0: the first player loses; 1 ^ 2 ^ 3 ^ 4 = 4: the first player wins)."""
    game = pyspiel.load_game("python_gamehall_fixed_nim")
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert game.max_chance_outcomes() == 0
    value, _ = minimax.alpha_beta_search(game, maximizing_player_id=0)
    assert value == -1.0
    four = pyspiel.load_game("python_gamehall_fixed_nim", {"heaps": 4})
    value, action = minimax.alpha_beta_search(four, maximizing_player_id=0)
    assert value == 1.0
    assert four.new_initial_state().action_to_string(0, action) == "take 4 from 4"


def test_alpha_beta_still_refuses_a_game_with_chance():
    for name in ("python_gamehall_nim", "python_gamehall_akros"):
        game = pyspiel.load_game(name)
        assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        # OpenSpiel refuses it at its chance-mode test; building that ValueError's message
        # fails in turn (it reads game.chance_mode, which no pyspiel.Game has).
        with pytest.raises((ValueError, AttributeError), match=r"chance_mode|Deterministic"):
            minimax.alpha_beta_search(game)


@pytest.mark.parametrize(("name", "episode"), RESEARCH_CASES)
def test_random_sim_test_passes(name, episode):
    openspiel_random_sim_test(name, episode)


@pytest.mark.parametrize(
    ("name", "sims"),
    [
        ("python_gamehall_akros", 10),
        ("python_gamehall_acadmu(episode=round)", 10),
        ("python_gamehall_acadmu(episode=round,shape_capture_takes_one_if_last=True)", 5),
        ("python_gamehall_acadmu(target=2)", 1),
    ],
)
def test_random_sim_test_passes_on_variants(name, sims):
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=sims, serialize=True, verbose=False)


def test_the_pour_is_exact_steps_of_one_disc():
    """Each step of the pour lists two outcomes of probability 1/2; after the 54 steps the
    engine's pour is the composed up-face counts."""
    game = pyspiel.load_game("python_gamehall_acadmu")
    state = game.new_initial_state()
    draw = 0
    while state.inner.phase == "draw":  # the first-player draw: until someone wins it
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[draw % len(outcomes)][0])
        draw += 37
    steps = 0
    while state.is_chance_node():
        assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
        state.apply_action(steps % 2)
        steps += 1
    assert steps == 54
    assert sum(state.inner.dark) == sum(state.inner.light) == 27


def test_serialization_round_trips():
    game = pyspiel.load_game("python_gamehall_akros")
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    for _ in range(12):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=False)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state) and again.history() == state.history()


def test_the_observation_tensor_is_the_games_encoding():
    game = pyspiel.load_game("python_gamehall_akros")
    state = game.new_initial_state()
    assert len(state.observation_tensor(0)) == 41 + 7 * 19


def test_openspiel_mcts_plays_the_levels_through_evaluate_bots():
    game = pyspiel.load_game("python_gamehall_akros")
    rng = np.random.RandomState(3)
    bot = mcts.MCTSBot(game, 2.0, 30, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    for level in ("beginner", "easy"):
        returns = evaluate_bots.evaluate_bots(
            game.new_initial_state(), [bot, adapter.LevelBot(level, 1)], rng
        )
        assert sorted(returns) == [-1.0, 1.0]


@pytest.mark.slow
def test_openspiel_mcts_beats_beginner():
    """OpenSpiel's MCTS (200 simulations) against ``beginner``, 12 Akros games, sides
    alternating: it wins most of them."""
    game = pyspiel.load_game("python_gamehall_akros")
    rng = np.random.RandomState(5)
    bot = mcts.MCTSBot(game, 2.0, 200, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    wins = 0
    for index in range(12):
        level = adapter.LevelBot("beginner", index)
        seats = [bot, level] if index % 2 == 0 else [level, bot]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), seats, rng)
        wins += returns[index % 2] > 0
    assert wins >= 8


def test_a_game_whose_facts_deny_its_chance_fails_instead_of_crashing():
    """OpenSpiel takes the facts on trust (a chance node in a deterministic game crashes the
    process), so the kit checks them before it hands the game over."""
    crash = "not run, as OpenSpiel would crash"
    with registered(NO_CHANCE) as name, pytest.raises(ConformanceError, match=crash) as info:
        openspiel_random_sim_test(name)
    assert "a chance node, but the facts declare no chance" in str(info.value)


@pytest.mark.parametrize(("name", "episode"), RESEARCH_CASES)
def test_openspiel_sim_game_passes(name, episode):
    """OpenSpiel's games_sim_test.sim_game: pickling of the game, its type and states included."""
    openspiel_sim_game(name, episode)


def _played(game, moves: int, seed: int):
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(
    "name", ["python_gamehall_akros", "python_gamehall_acadmu(episode=round,target=5)"]
)
def test_games_and_states_pickle(name):
    game = pyspiel.load_game(name)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.get_type() == game.get_type()
    state = _played(game, 130, 2)
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state) and copy.history() == state.history()
    assert copy.legal_actions() == state.legal_actions()


def _returns_of_a_game(arguments: tuple[object, int]) -> list[float]:
    game, seed = arguments
    state = _played(game, 10_000, seed)
    return state.returns()


def test_games_cross_process_boundaries():
    game = pyspiel.load_game("python_gamehall_akros")
    context = multiprocessing.get_context("spawn")  # nothing inherited: the game is pickled
    with context.Pool(2) as pool:
        returns = pool.map(_returns_of_a_game, [(game, seed) for seed in range(4)])
    assert returns == [_returns_of_a_game((game, seed)) for seed in range(4)]


def test_a_round_starts_at_a_chance_node_not_one_fixed_deal():
    game = pyspiel.load_game("python_gamehall_acadmu(episode=round)")
    state = game.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    discs = len(find_game("acadmu").disc_set)
    starts = set()
    for seed in range(6):
        state = game.new_initial_state()
        rng = np.random.default_rng(seed)
        steps = 0
        while state.is_chance_node():
            state.apply_action(int(rng.integers(2)))
            steps += 1
        assert steps == 2 * discs + 1  # every disc, then who moves first
        assert state.inner.phase == "play" and state.inner.first is None
        starts.add(str(state))
    assert len(starts) == 6
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


def test_the_information_state_tensor_raises_where_the_game_gives_none():
    game = pyspiel.load_game("python_gamehall_akros")
    assert not game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    with pytest.raises(adapter.NoInformationStateTensor, match="no information state tensor"):
        state.information_state_tensor(0)
    assert state.information_state_string(0) == ""  # the public history: nothing yet


def test_the_rounds_listed_start_is_a_pour_the_engine_takes():
    """Every composed start is a round whose counts could lie face up on the discs, from the
    pour the engine itself would accept, with either side to move first."""
    from gamehall.core import find_plugin
    from gamehall.core.encoding import Episode

    game = find_game("acadmu")
    episode = find_plugin("acadmu").load_episodes()["round"]
    assert isinstance(episode, Episode) and episode.chance is not None
    discs = game.disc_set
    rng = np.random.default_rng(5)
    movers = set()
    for _ in range(20):
        picks = tuple(int(p) for p in rng.integers(2, size=2 * len(discs) + 1))
        assert episode.chance.outcomes(game, picks) == ()
        state = episode.chance.compose(game, picks)
        assert all(discs.can_show(c) and sum(c) == len(discs) for c in (state.dark, state.light))
        movers.add(state.current_player)
    assert movers == {0, 1}
