"""The conformance suite: everything the core protocol promises, checked on one game.

:class:`GameConformance` is a test class without a name of its own: a subclass supplies the
game through a ``name`` fixture. ``test_core_protocol.py`` runs it over every registered game;
a game that exists only in the tests (``tests/nim``) runs it with itself registered.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from gamehall.ai import RandomAgent
from gamehall.core import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    InvalidOptionError,
    Record,
    RecordError,
    State,
    TooManyOutcomesError,
    find_game,
    game_class,
    make_record,
    play_game,
)


def check_state(game: Game, state: State) -> None:
    """Everything the protocol promises about one state."""
    text = str(state)
    again = game.parse_state(text)
    assert again == state, text
    assert hash(again) == hash(state)
    assert str(again) == text
    assert again.current_player == state.current_player
    player = state.current_player
    assert player in (CHANCE, TERMINAL) or 0 <= player < game.num_players
    legal = state.legal_actions()
    if state.is_terminal() or state.is_chance_node():
        assert legal == ()
        assert not any(state.legal_action_mask())
    else:
        assert legal, "a decision node needs at least one legal action"
        assert len(set(legal)) == len(legal)
        mask = state.legal_action_mask()
        assert len(mask) == game.num_distinct_actions
        assert sum(mask) == len(legal)
        indices = [game.action_index(action) for action in legal]
        assert indices == sorted(indices), f"legal actions not in dense-index order at {text}"
        for action, index in zip(legal, indices, strict=True):
            assert game.parse_action(str(action)) == action
            assert state.parse_action(str(action)) == action
            assert 0 <= index < game.num_distinct_actions
            assert mask[index]
            assert game.index_action(index) == action
    if state.is_chance_node():
        try:
            outcomes = state.chance_outcomes()
        except TooManyOutcomesError:
            outcomes = None
        if outcomes is not None:
            assert sum(p for _, p in outcomes) == 1
            assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
            assert len({a for a, _ in outcomes}) == len(outcomes)
            for action, p in outcomes[:20]:
                assert state.chance_probability(action) == p
                assert game.parse_action(str(action)) == action
    if state.is_terminal():
        outcome = state.outcome()
        assert outcome is not None
        assert len(outcome.scores) == game.num_players
        assert outcome.result_tag() in ("1-0", "0-1", "1/2-1/2")
        assert len(state.returns()) == game.num_players
    else:
        assert state.outcome() is None
        assert all(r == 0 for r in state.returns())
    check_illegal(game, state)


def illegal_actions(game: Game, state: State, limit: int = 5) -> list[object]:
    """Up to ``limit`` player actions the rules forbid in ``state``."""
    legal = set(state.legal_actions())
    found = []
    for index in range(game.num_distinct_actions):
        action = game.index_action(index)
        if action not in legal:
            found.append(action)
            if len(found) == limit:
                break
    return found


def check_illegal(game: Game, state: State) -> None:
    """An action that is not allowed raises IllegalActionError and leaves the state alone."""
    before = str(state)
    for action in illegal_actions(game, state):
        with pytest.raises(IllegalActionError):
            state.apply(action)
        with pytest.raises(IllegalActionError):
            state.parse_action(str(action))
    assert str(state) == before
    assert game.parse_state(before) == state


def played_record(name: str, seed: int = 0, **options: object) -> tuple[Game, object, Record]:
    """A whole game between random players, and its record."""
    game = find_game(name, **options)
    played = play_game(
        game, [RandomAgent(seed), RandomAgent(seed + 1)], seed=seed, max_actions=20_000
    )
    assert played.final.is_terminal()
    return game, played, make_record(game, played.actions, seed=seed, final=played.final)


# Bad values for each kind of option (a choice option also gets a value outside its choices).
BAD_VALUES = {"int": ["ten", "1.5", True], "bool": ["maybe", "2"], "choice": ["no-such-choice"]}


class GameConformance:
    """The protocol's promises for the game the ``name`` fixture names."""

    @pytest.mark.parametrize("seed", range(3))
    def test_random_play_conforms(self, name: str, seed: int) -> None:
        game = find_game(name)
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps = 0
        while True:
            check_state(game, state)
            if state.is_terminal():
                break
            if state.is_chance_node():
                action = state.sample_chance(rng)
                assert state.chance_probability(action) > 0
                assert state.is_chance_outcome(action)
            else:
                action = rng.choice(state.legal_actions())
            state = state.apply(action)
            steps += 1
            assert steps < 10_000, "the game does not end"
            bound = game.max_game_length
            assert bound is None or steps <= bound, f"longer than max_game_length {bound}"

    def test_deal_is_reproducible(self, name: str) -> None:
        game = find_game(name)
        assert game.deal(5) == game.deal(5)
        assert not game.deal(5).is_chance_node()

    def test_actions_have_dense_indices(self, name: str) -> None:
        game = find_game(name)
        for index in range(game.num_distinct_actions):
            action = game.index_action(index)
            assert game.action_index(action) == index
            assert game.parse_action(str(action)) == action
        with pytest.raises(ValueError):
            game.index_action(game.num_distinct_actions)
        with pytest.raises(ValueError):
            game.index_action(-1)

    # --- options ---

    def test_unknown_option_is_rejected(self, name: str) -> None:
        with pytest.raises(InvalidOptionError, match="no_such_option"):
            find_game(name, no_such_option=1)

    def test_bad_option_values_are_rejected(self, name: str) -> None:
        for spec in game_class(name).option_specs:
            for value in BAD_VALUES.get(spec.kind, []):
                with pytest.raises(InvalidOptionError, match=spec.name):
                    find_game(name, **{spec.name: value})

    def test_options_describe_themselves(self, name: str) -> None:
        for spec in game_class(name).option_specs:
            described = spec.describe()
            assert described["name"] == spec.name and described["kind"] == spec.kind
            if spec.kind == "choice":
                assert spec.default in described["choices"]

    def test_default_options_and_variant_text(self, name: str) -> None:
        game = find_game(name)
        assert game.variant_text() == ""
        assert type(game).from_variant_text("") == game
        for spec in game.option_specs:
            assert game.options[spec.name] == spec.default

    # --- records ---

    def test_records_round_trip(self, name: str) -> None:
        _game, played, record = played_record(name)
        parsed = Record.parse(str(record))
        assert parsed.tags == record.tags
        assert parsed.actions == record.actions
        assert parsed.tags["Result"] == played.final.outcome().result_tag()
        assert parsed.replay() == played.states

    def test_replay_rejects_an_illegal_action_with_its_number(self, name: str) -> None:
        game, played, record = played_record(name, seed=4)
        # The first decision node where the rules forbid something: put a forbidden action there.
        number, illegal = next(
            (i, illegal_actions(game, s, 1)[0])
            for i, s in enumerate(played.states[:-1], 1)
            if not s.is_chance_node() and illegal_actions(game, s, 1)
        )
        record.actions[number - 1] = str(illegal)
        with pytest.raises(RecordError, match=rf"^move {number}: ") as info:
            Record.parse(str(record)).replay()
        assert info.value.move_number == number
        assert str(illegal) in str(info.value)

    def test_result_tag_must_match_the_moves(self, name: str) -> None:
        _game, _played, record = played_record(name, seed=2)
        real = record.tags["Result"]
        for wrong in {"1-0", "0-1", "1/2-1/2"} - {real}:
            record.tags["Result"] = wrong
            with pytest.raises(RecordError, match="Result"):
                Record.parse(str(record)).replay()
        # A Result on an unfinished game is wrong too; '*' is fine.
        record.actions = record.actions[: len(record.actions) // 2]
        record.tags["Result"] = real
        with pytest.raises(RecordError, match="not over"):
            Record.parse(str(record)).replay()
        record.tags["Result"] = "*"
        assert len(Record.parse(str(record)).replay()) == len(record.actions) + 1
