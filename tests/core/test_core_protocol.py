"""One conformance test over every registered game, plus options and records on the core protocol.

Games are found only through the registry, so a game that is not importable yet is skipped by
``game_names()`` and a new game is covered as soon as it registers.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from gamehall.ai import RandomAgent
from gamehall.core import (
    CHANCE,
    TERMINAL,
    GamehallError,
    IllegalActionError,
    InvalidOptionError,
    Record,
    RecordError,
    TooManyOutcomesError,
    UnknownGameError,
    find_game,
    game_class,
    game_names,
    make_record,
    play_game,
)

GAMES = game_names()


def test_the_registry_has_acadmu():
    assert "acadmu" in GAMES
    assert game_class("Tokens") is game_class("acadmu")
    assert game_class("Äcädmü") is game_class("acadmu")
    with pytest.raises(UnknownGameError, match="nope"):
        find_game("nope")


def check_state(game, state) -> None:
    """Everything the protocol promises about one state."""
    text = str(state)
    again = game.parse_state(text)
    assert again == state, text
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
        for action in legal:
            assert game.parse_action(str(action)) == action
            assert state.parse_action(str(action)) == action
            index = game.action_index(action)
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


def check_illegal(game, state) -> None:
    """An action that is not allowed raises IllegalActionError and leaves the state alone."""
    before = str(state)
    if state.is_chance_node() or state.is_terminal():
        candidates = [game.index_action(0)]
    else:
        legal = set(state.legal_actions())
        candidates = [
            game.index_action(i)
            for i in range(game.num_distinct_actions)
            if game.index_action(i) not in legal
        ][:5]
    for action in candidates:
        with pytest.raises(IllegalActionError):
            state.apply(action)
        with pytest.raises(IllegalActionError):
            state.parse_action(str(action))
    assert str(state) == before
    assert game.parse_state(before) == state


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_random_play_conforms(name, seed):
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
        else:
            action = rng.choice(state.legal_actions())
        state = state.apply(action)
        steps += 1
        assert steps < 10_000, "the game does not end"


@pytest.mark.parametrize("name", GAMES)
def test_deal_is_reproducible(name):
    game = find_game(name)
    assert game.deal(5) == game.deal(5)
    assert not game.deal(5).is_chance_node()


@pytest.mark.parametrize("name", GAMES)
def test_actions_have_dense_indices(name):
    game = find_game(name)
    for index in range(game.num_distinct_actions):
        action = game.index_action(index)
        assert game.action_index(action) == index
        assert game.parse_action(str(action)) == action
    with pytest.raises(ValueError):
        game.index_action(game.num_distinct_actions)


# --- options ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_unknown_option_is_rejected(name):
    with pytest.raises(InvalidOptionError, match="no_such_option"):
        find_game(name, no_such_option=1)


@pytest.mark.parametrize("name", GAMES)
def test_bad_option_values_are_rejected(name):
    cls = game_class(name)
    for spec in cls.option_specs:
        bad = {int: ["ten", "1.5", True], bool: ["maybe", "2"]}.get(spec.kind, [])
        for value in bad:
            with pytest.raises(InvalidOptionError, match=spec.name):
                find_game(name, **{spec.name: value})


@pytest.mark.parametrize("name", GAMES)
def test_default_options_and_variant_text(name):
    game = find_game(name)
    assert game.variant_text() == ""
    assert type(game).from_variant_text("") == game
    for spec in game.option_specs:
        assert game.options[spec.name] == spec.default


def test_variant_text_round_trips():
    game = find_game("acadmu", target="18", shape_capture_takes_one_if_last="yes")
    assert game.options["target"] == 18
    assert game.options["shape_capture_takes_one_if_last"] is True
    text = game.variant_text()
    assert "target=18" in text
    assert type(game).from_variant_text(text) == game
    with pytest.raises(InvalidOptionError):
        type(game).from_variant_text("target")


# --- records ---------------------------------------------------------------------------------------


def played_record(name: str, seed: int = 0, **options):
    game = find_game(name, **options)
    played = play_game(
        game, [RandomAgent(seed), RandomAgent(seed + 1)], seed=seed, max_actions=20_000
    )
    assert played.final.is_terminal()
    return game, played, make_record(game, played.actions, seed=seed, final=played.final)


@pytest.mark.parametrize("name", GAMES)
def test_records_round_trip(name):
    _game, played, record = played_record(name)
    parsed = Record.parse(str(record))
    assert parsed.tags == record.tags
    assert parsed.actions == record.actions
    assert parsed.tags["Result"] == played.final.outcome().result_tag()
    assert parsed.replay() == played.states


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('[Game "acadmu"\n\n1. pass\n', "line 1"),
        ("[Game acadmu]\n\n1. pass\n", "header tag"),
        ('[Game "acadmu"]\n\n1. draw RT:BS/YC:RT\n3. pass\n', "expected move number 2, found 3"),
        ('[Game "acadmu"]\n\n2. draw RT:BS/YC:RT\n', "expected move number 1"),
        ('[Game "acadmu"]\n\n1 draw RT:BS/YC:RT\n', "numbered action"),
        ('[Game "acadmu"]\n\n1. draw RT:BS/YC:RT\n[Seed "3"]\n', "line 4"),
        ('[Seed "3"]\n\n1. draw RT:BS/YC:RT\n', "Game"),
        ("", "Game"),
    ],
)
def test_bad_record_text(text, fragment):
    with pytest.raises(RecordError, match=fragment):
        Record.parse(text)


def test_record_comments_and_escapes():
    text = '# a comment\n[Game "acadmu"]\n[Dark "the \\"best\\""]\n\n# moves\n1. draw RT:BS/YC:RT\n'
    record = Record.parse(text)
    assert record.tags["Dark"] == 'the "best"'
    assert record.actions == ["draw RT:BS/YC:RT"]
    assert Record.parse(str(record)) == record


@pytest.mark.parametrize("name", GAMES)
def test_replay_rejects_an_illegal_action_with_its_number(name):
    game, played, record = played_record(name, seed=4)
    # The first decision node: replace its action with one the rules forbid there.
    number = next(i for i, s in enumerate(played.states[:-1], 1) if not s.is_chance_node())
    state = played.states[number - 1]
    legal = set(state.legal_actions())
    illegal = next(
        game.index_action(i)
        for i in range(game.num_distinct_actions)
        if game.index_action(i) not in legal
    )
    record.actions[number - 1] = str(illegal)
    with pytest.raises(RecordError, match=rf"^move {number}: ") as info:
        Record.parse(str(record)).replay()
    assert info.value.move_number == number
    assert str(illegal) in str(info.value)


def test_replay_rejects_unparsable_actions_and_bad_setup():
    record = Record.parse('[Game "acadmu"]\n\n1. draw RT:BS/YC:RT\n2. gibberish\n')
    with pytest.raises(RecordError, match=r"^move 2: ") as info:
        record.replay()
    assert info.value.move_number == 2
    with pytest.raises(RecordError, match="SetUp"):
        Record.parse('[Game "acadmu"]\n[SetUp "nonsense"]\n').replay()
    with pytest.raises(RecordError, match="header"):
        Record.parse('[Game "acadmu"]\n[Variant "target=0"]\n').replay()
    with pytest.raises(UnknownGameError):
        Record.parse('[Game "nope"]\n').replay()


def test_replay_from_setup():
    record = Record.parse(
        '[Game "acadmu"]\n[SetUp "0,0,0,0,2,0,0,0,0/3,0,0,0,0,0,0,0,0 d -"]\n[Result "0-1"]\n\n'
        "1. pass\n2. RTxBS\n3. RTxBS\n"
    )
    states = record.replay()
    assert str(states[-1]) == "0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 l d"
    assert states[-1].is_terminal()


@pytest.mark.parametrize("name", GAMES)
def test_result_tag_must_match_the_moves(name):
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


def test_errors_are_value_errors():
    for error in (IllegalActionError, InvalidOptionError, RecordError, UnknownGameError):
        assert issubclass(error, GamehallError)
        assert issubclass(error, ValueError)


def test_action_parts_are_json_and_tell_legal_actions_apart():
    """Boards build moves from the parts: each legal action's parts are JSON-ready, have a
    kind, and no two legal actions of a position share their parts."""
    import json
    import random

    from gamehall.core import game_names

    for name in game_names():
        game = find_game(name)
        rng = random.Random(1)
        for _ in range(3):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state = state.apply_trusted(state.sample_chance(rng))
                    continue
                seen = set()
                for action in state.legal_actions():
                    parts = game.action_parts(action)
                    assert isinstance(parts, dict)
                    if parts:
                        assert "kind" in parts
                    seen.add(json.dumps(parts, sort_keys=True))
                if any(game.action_parts(a) for a in state.legal_actions()):
                    assert len(seen) == len(state.legal_actions()), (name, str(state))
                state = state.apply_trusted(rng.choice(state.legal_actions()))
