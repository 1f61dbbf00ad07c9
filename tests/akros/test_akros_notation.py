"""Notation: actions and positions both ways, and the errors for bad text and impossible positions."""

from __future__ import annotations

from dataclasses import replace

import pytest
from akros_helpers import random_game

from gamehall.core import IllegalActionError, InvalidStateError, NotationError
from gamehall.games.akros import AkrosGame, Draw, Keep, KeepDiscard, Place, Remove

GAME = AkrosGame()
START = (
    "turn=1 step=draw bag=F6S6M7 temple=-/-/- draft=- jinn=- ifrit=- out=- "
    "regions=0,0J,0,0,0I,0,0J,0,0,0I,0I,0,0J,0I,0,0,0,0J,0"
)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("draw FMM", Draw((0, 2, 2))),
        ("keep F", Keep(0)),
        ("keep S discard M", KeepDiscard(1, 2)),
        ("M5<10", Place(2, 5, 10)),
        ("remove M", Remove(2)),
    ],
)
def test_action_notation_round_trips(text, action):
    assert str(action) == text
    assert GAME.parse_action(text) == action


def test_action_parsing_is_lenient_about_case_and_order():
    assert GAME.parse_action("draw mfm") == Draw((0, 2, 2))
    assert GAME.parse_action("  KEEP s  discard m ") == KeepDiscard(1, 2)


@pytest.mark.parametrize("text", ["", "keep X", "M5", "5<10", "draw FM", "discard M", "M5<"])
def test_bad_action_text_says_what_was_expected(text):
    with pytest.raises(NotationError, match="expected"):
        GAME.parse_action(text)


def test_dense_indices_are_a_bijection():
    indices = set()
    for index in range(GAME.num_distinct_actions):
        action = GAME.index_action(index)
        assert GAME.action_index(action) == index
        assert GAME.parse_action(str(action)) == action
        indices.add(index)
    assert len(indices) == 15 + 3 * 19 * 19


def test_the_start_position_text():
    state = GAME.new_initial_state()
    assert str(state) == START
    assert GAME.parse_state(START) == state


def test_positions_round_trip_through_a_game():
    for seed in range(3):
        for state in random_game(seed)[0]:
            assert GAME.parse_state(str(state)) == state


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("turn=1", "9 fields"),
        (START.replace("turn=1", "turn=10"), "a turn from 1 to 9"),
        (START.replace("step=draw", "step=pour"), "draw or jinn-keep"),
        (START.replace("bag=F6S6M7", "bag=6,6,7"), "tile counts like F6S6M7"),
        (START.replace("temple=-/-/-", "temple=-/-"), "piles 7, 8 and 9"),
        (START.replace("draft=-", "draft=FX"), "tile letters"),
        (START.replace("jinn=-", "jinn=FF"), "one tile letter"),
        (START.replace("regions=0,0J", "regions=0,0K"), "stack height with J or I"),
        (START.replace("bag=", "sack="), "bag=…"),
    ],
)
def test_bad_position_text_says_what_was_expected(text, expected):
    with pytest.raises(NotationError, match=expected):
        GAME.parse_state(text)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (START.replace("bag=F6S6M7", "bag=F6S6M6"), "the bag holds 18 tiles"),
        (START.replace("bag=F6S6M7", "bag=F7S6M6"), "7 Forest tiles accounted for"),
        (START.replace("regions=0,0J", "regions=0,0"), "3 Jinn servants, expected 4"),
        (START.replace(",0J,0", ",0J,0,0", 1), "20 regions given"),
        (START.replace("step=draw", "step=jinn-keep"), "the draft holds 0 tiles"),
        (START.replace("turn=1 step=draw", "turn=7 step=draw"), "draws from the Temple"),
        (START.replace("temple=-/-/-", "temple=F/-/-"), "Temple pile 7 holds 1 tiles, expected 0"),
        (START.replace("regions=0,0J", "regions=1,0J"), "1 tiles on the board and 0 removed"),
    ],
)  # fmt: skip
def test_impossible_positions_are_rejected(text, problem):
    with pytest.raises(InvalidStateError, match=problem):
        GAME.parse_state(text)


def test_illegal_actions_say_why():
    state = GAME.new_initial_state().apply(Draw((0, 1, 2)))
    assert state.parse_action("keep F") == Keep(0)
    assert state.explain_illegal(KeepDiscard(0, 1)).startswith("the Jinn keeps one tile")
    kept = state.apply(Keep(1))
    assert kept.explain_illegal(Keep(0)).startswith("the Ifrit must also discard")
    with pytest.raises(IllegalActionError, match="cannot keep S and discard M; legal: keep F"):
        kept.apply(KeepDiscard(1, 2))
    with pytest.raises(IllegalActionError, match="not a possible outcome"):
        GAME.new_initial_state().apply(Keep(0))
    with pytest.raises(IllegalActionError, match="draws are chance outcomes"):
        state.apply(Draw((2, 2, 2)))
    no_forest = replace(GAME.new_initial_state(), bag=(0, 9, 10))
    assert no_forest.chance_probability(Draw((0, 1, 2))) == 0
    with pytest.raises(IllegalActionError, match="not a possible outcome"):
        no_forest.parse_action("draw FSM")
