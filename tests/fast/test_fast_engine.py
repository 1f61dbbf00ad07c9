"""The compiled simulators play exactly the engine's games.

For every registered game with a simulator (and some variants): on random positions, the
kernels' player to move, legal action set, the state after every legal action, returns, scores,
horizon estimates and the greedy evaluation equal the engine's; the kernels' chance draws follow
the engine's exact probabilities; and whole simulated games, replayed through the engine's checked
door, end as the simulator says. The 10,000-position and 10,000-game runs are marked slow.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from gamehall import fast
from gamehall.core import TERMINAL, Game, State, TooManyOutcomesError, find_game, find_plugin

VARIANTS = [
    ("akros", {}),
    ("acadmu", {}),
    ("acadmu", {"shape_capture_takes_one_if_last": True, "target": 5}),
]


def _game(name: str, options: dict) -> Game:
    return find_game(name, **options) if options else find_game(name)


def random_positions(game: Game, count: int, seed: int) -> list[State]:
    """States met by random play (chance drawn by the engine), ``count`` of them."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = game.new_initial_state()
        while len(found) < count:
            found.append(state)
            if state.is_terminal():
                break
            if state.is_chance_node():
                state = state.apply_trusted(state.sample_chance(rng))
            else:
                state = state.apply_trusted(rng.choice(state.legal_actions()))
    return found


def check_positions(name: str, options: dict, count: int, seed: int) -> None:
    game = _game(name, options)
    simulator = find_plugin(name).load_simulator()
    assert simulator is not None
    k = simulator.kernels()
    tab = simulator.table(game)
    moves = np.zeros(game.num_distinct_actions + 1, dtype=np.int64)
    out = np.zeros(2)
    checked_actions = 0
    for state in random_positions(game, count, seed):
        s = simulator.encode(state)
        assert simulator.decode(game, s) == state
        assert k.player(s, tab) == state.current_player, str(state)
        assert bool(k.horizon(s, tab, out)) == (state.horizon_returns() is not None)
        if state.horizon_returns() is not None:
            assert tuple(out) == state.horizon_returns()
        k.scores(s, tab, out)
        assert tuple(out) == state.scores()
        for p in range(game.num_players):
            assert k.evaluate(s, tab, p) == state.evaluate(p), str(state)
        if state.is_terminal() or state.current_player == TERMINAL:
            k.returns(s, tab, out)
            assert tuple(out) == state.returns()
            continue
        if state.is_chance_node():
            continue
        n = k.legal(s, tab, moves)
        legal = state.legal_actions()
        assert sorted(moves[:n].tolist()) == sorted(game.action_index(a) for a in legal), str(state)
        assert len(set(moves[:n].tolist())) == n == len(legal)
        for action in legal:
            child = s.copy()
            k.apply(child, tab, game.action_index(action))
            assert simulator.decode(game, child) == state.apply_trusted(action), (
                str(state),
                str(action),
            )
            checked_actions += 1
    assert checked_actions > count


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_positions_agree_with_the_engine(name, options):
    check_positions(name, options, 600, seed=7)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_ten_thousand_positions_agree_with_the_engine(name, options):
    check_positions(name, options, 10_000, seed=11)


def chance_frequencies(game: Game, state: State, draws: int, seed: int) -> Counter:
    simulator = find_plugin(game.name).load_simulator()
    k = simulator.kernels()
    tab = simulator.table(game)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = seed
    co = np.zeros(64, dtype=np.int64)
    s = simulator.encode(state)
    seen: Counter = Counter()
    for _ in range(draws):
        child = s.copy()
        k.chance(child, tab, rng, co)
        seen[simulator.chance_action(state, co)] += 1
    return seen


def chance_nodes(game: Game, count: int, seed: int) -> list[State]:
    return [s for s in random_positions(game, 40 * count, seed) if s.is_chance_node()][:count]


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_chance_follows_the_engines_probabilities(name, options):
    """Listable chance nodes: each outcome's frequency over 10,000 kernel draws lies within five
    standard errors of its exact probability, and nothing impossible is ever drawn."""
    game = _game(name, options)
    draws = 10_000
    listed = 0
    for state in chance_nodes(game, 6, seed=3):
        try:
            outcomes = dict(state.chance_outcomes())
        except TooManyOutcomesError:
            # The pour: every draw is possible, and each pairing's mean count is exact.
            seen = chance_frequencies(game, state, 2_000, seed=5)
            for pour in list(seen)[:20]:
                assert state.chance_probability(pour) > 0
            means = np.mean([np.array(p.dark) for p in seen.elements()], axis=0)
            faces = np.array(game.disc_set.faces) / 2
            assert np.all(np.abs(means - faces) < 5 * np.sqrt(faces / 2 / 2_000) + 1e-9)
            continue
        listed += 1
        seen = chance_frequencies(game, state, draws, seed=17)
        assert set(seen) <= set(outcomes)
        for outcome, probability in outcomes.items():
            p = float(probability)
            assert abs(seen[outcome] / draws - p) <= 5 * np.sqrt(p * (1 - p) / draws) + 1e-9
    assert listed > 0 or name == "acadmu"


def check_games(name: str, options: dict, count: int, seed: int, policy: str) -> None:
    """Simulated games replay through the engine's checked door to the simulator's result."""
    game = _game(name, options)
    simulator = find_plugin(name).load_simulator()
    sim = fast.simulate(game, count, seed, policy)
    for index in range(count):
        actions = fast.play(game, seed, policy, index=index)
        assert actions is not None
        state = game.new_initial_state()
        for action in actions:
            state = state.apply(action)
        assert state.is_terminal()
        assert state.returns() == tuple(sim.returns[index])
        assert state.scores() == tuple(sim.scores[index])
        assert len(actions) == sim.actions[index]
    assert simulator is not None


@pytest.mark.parametrize(("name", "options"), VARIANTS)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_simulated_games_replay_to_the_same_result(name, options, policy):
    check_games(name, options, 40, seed=2, policy=policy)


@pytest.mark.slow
def test_ten_thousand_akros_games_replay_to_the_same_result():
    check_games("akros", {}, 10_000, seed=9, policy="random")


@pytest.mark.slow
def test_ten_thousand_acadmu_games_replay_to_the_same_result():
    check_games("acadmu", {"target": 1}, 10_000, seed=9, policy="random")


def test_the_win_rates_match_the_engines():
    """Statistics law: the Ifrit's random-play win rate over 20,000 simulated games lies in the
    engine's measured 95% interval (0.6107-0.6242, 20,000 games)."""
    sim = fast.simulate("akros", 20_000, seed=4)
    assert 0.6107 - 0.01 < (sim.winners() == 1).mean() < 0.6242 + 0.01


def test_a_batch_is_reproducible_and_each_game_stands_alone():
    one = fast.simulate("akros", 50, seed=8)
    again = fast.simulate("akros", 50, seed=8)
    tail = fast.simulate("akros", 10, seed=8, first_index=40)
    assert np.array_equal(one.returns, again.returns)
    assert np.array_equal(one.returns[40:], tail.returns)
    assert np.array_equal(one.actions[40:], tail.actions)


def test_weight_policies_follow_their_weights():
    """A weight policy that never lets the Jinn keep a Sea or a Mountain when he has a choice
    keeps Forests about twice as often as random play does, and the per-decision arrays say
    so."""
    game = find_game("akros")
    weights = np.ones(game.num_distinct_actions)
    weights[1:3] = 0.0  # keep S, keep M

    def forest_rate(policy: object) -> float:
        sim = fast.simulate(game, 1000, 3, policy=policy, per_decision=True)
        assert len(sim.decision_game) == sim.decisions.sum()
        assert sim.decision_options.min() >= 1
        keeps = (sim.decision_player == 0) & (sim.decision_action < 3) & (sim.decision_options > 1)
        return float((sim.decision_action[keeps] == 0).mean())

    assert forest_rate((weights, "random")) > 1.7 * forest_rate("random")


def test_bad_policies_are_refused_with_a_reason():
    with pytest.raises(Exception, match="unknown simulator policy"):
        fast.simulate("akros", 1, 0, policy="clever")
    with pytest.raises(Exception, match="one weight per action"):
        fast.simulate("akros", 1, 0, policy=np.ones(3))
    with pytest.raises(Exception, match="non-negative"):
        fast.simulate("akros", 1, 0, policy=-np.ones(find_game("akros").num_distinct_actions))
