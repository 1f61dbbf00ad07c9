"""Invariants over games and positions that Hypothesis draws choice by choice, so a failure
shrinks to a small example (see ``games`` and ``positions`` in akros_helpers).

How often each side wins under random play is a benchmark: ``bench/akros_games.py``."""

from __future__ import annotations

from akros_helpers import example_game, games, positions
from hypothesis import find, given, settings
from hypothesis import strategies as st

from gamehall.core import Record, make_record
from gamehall.games.akros import AkrosGame, Place
from gamehall.games.akros.game import AkrosState
from gamehall.games.akros.rules import IFRIT_PLACE, JINN_PLACE

GAME = AkrosGame()


def tiles_accounted(state) -> tuple[int, int, int]:
    counts = list(state.bag)
    for e in range(3):
        counts[e] += state.removed[e] + state.draft.count(e)
        counts[e] += sum(pile.count(e) for pile in state.temple)
        counts[e] += (state.jinn_tile == e) + (state.ifrit_tile == e)
    for region, height in enumerate(state.stacks, 1):
        counts[state.board.environment_of(region)] += height
    return tuple(counts)


def check_game(states, actions):
    board = states[0].board
    for before, action, after in zip(states, actions, states[1:], strict=False):
        # every tile of the bag is somewhere: bag, hands, Temple, board or removed
        assert tiles_accounted(after) == board.bag
        # 2 x servants on as many distinct regions
        assert len(set(after.jinn) | set(after.ifrit)) == 2 * board.servants
        # the greedy heuristic is bounded and zero-sum
        assert -1 <= after.evaluate(0) <= 1 and after.evaluate(0) == -after.evaluate(1)
        # notation round-trips, for positions and actions
        assert after.game.parse_state(str(after)) == after
        assert after.game.parse_action(str(action)) == action
        if before.is_chance_node():
            assert sum(p for _, p in before.chance_outcomes()) == 1
            assert before.chance_probability(action) > 0
        elif not before.is_terminal():
            index = before.game.action_index(action)
            assert before.game.index_action(index) == action
            assert before.legal_action_mask()[index]
        if isinstance(action, Place) and before.step == IFRIT_PLACE:
            # an Ifrit servant only ever moves one step
            assert action.region in board.regions[action.source - 1].neighbours
            assert set(before.ifrit) - set(after.ifrit) == {action.source}
        if isinstance(action, Place) and before.step == JINN_PLACE:
            # a Jinn servant never ends a move on a contested region
            assert action.region not in after.contested()
            assert action.region not in before.contested()
            assert set(after.jinn) - set(before.jinn) == {action.region}
    final = states[-1]
    assert final.is_terminal() and final.outcome() is not None
    assert sorted(final.returns()) == [-1.0, 1.0]


@settings(max_examples=40, deadline=None)
@given(games())
def test_games_keep_every_invariant(game):
    check_game(*game)


@settings(max_examples=10, deadline=None)
@given(games(example_game()))
def test_games_on_a_custom_board(game):
    check_game(*game)


@settings(max_examples=30, deadline=None)
@given(positions())
def test_every_position_round_trips_and_its_mask_matches(state):
    assert GAME.parse_state(str(state)) == state
    mask = state.legal_action_mask()
    assert [i for i, legal in enumerate(mask) if legal] == [
        GAME.action_index(a) for a in state.legal_actions()
    ]
    assert tiles_accounted(state) == GAME.board.bag


@settings(max_examples=15, deadline=None)
@given(games())
def test_a_record_replays_the_game(game):
    states, actions = game
    record = make_record(GAME, actions, players=("random", "random"), seed=1, final=states[-1])
    text = str(record)
    assert '[Jinn "random"]' in text and '[Ifrit "random"]' in text
    assert Record.parse(text).replay() == states


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False))
def test_chance_nodes_sum_to_one_and_sampling_is_possible(rng):
    state = GAME.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1
            action = state.sample_chance(rng)
            assert action in dict(outcomes)
        else:
            action = rng.choice(state.legal_actions())
        state = state.apply(action)


def first_choices(steps: int) -> AkrosState:
    """The position after ``steps`` steps of always the first legal action and outcome."""
    state = GAME.new_initial_state()
    for _ in range(steps):
        if state.is_chance_node():
            state = state.apply(state.chance_outcomes()[0][0])
        else:
            state = state.apply(state.legal_actions()[0])
    return state


def test_a_failing_position_shrinks_to_the_smallest_example():
    """The strategies shrink: the smallest position Hypothesis finds past turn 2 is the start of
    turn 3 along the first choices."""
    found = find(positions(), lambda state: state.turn >= 3, settings=settings(database=None))
    steps = next(n for n in range(60) if first_choices(n).turn >= 3)
    assert found == first_choices(steps)
