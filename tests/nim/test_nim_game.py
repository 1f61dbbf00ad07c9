"""Nim's rules, and the shipped conformance suite run on it and on Fixed Nim (registered by the
suite for each test, as a game's author's suite does)."""

from __future__ import annotations

import pytest

from gamehall.core import (
    CHANCE,
    TERMINAL,
    IllegalActionError,
    InvalidStateError,
    NotationError,
    find_game,
    game_names,
)
from gamehall.testing import GameConformance, check_state
from tests.nim.game import Deal, FixedNim, NimGame, Take
from tests.nim.plugin import FIXED, PLUGIN


class TestNimConforms(GameConformance):
    """The same suite test_core_protocol runs over the installed games, golden playthrough
    (tests/nim/playthroughs.txt) and declared facts included."""

    game = PLUGIN


class TestFixedNimConforms(GameConformance):
    """A game without chance and without a playthrough passes the same suite."""

    game = FIXED


def test_the_fixture_registers_nim_only_for_the_test(nim):
    assert "nim" in game_names()
    assert isinstance(find_game("nim"), NimGame)


def test_without_the_fixture_nim_is_unknown():
    assert "nim" not in game_names()


def test_the_deal_fills_heaps_left_to_right():
    game = NimGame()
    state = game.new_initial_state()
    assert str(state) == "?,?,? f" and state.current_player == CHANCE
    assert [str(a) for a, _ in state.chance_outcomes()] == [f"deal {n}" for n in range(1, 6)]
    for size in (3, 1, 5):
        state = state.apply(Deal(size))
    assert str(state) == "3,1,5 f" and state.current_player == 0
    with pytest.raises(IllegalActionError, match="chance"):
        game.new_initial_state().apply(Deal(6))


def test_take_any_number_from_one_heap_in_dense_order():
    state = NimGame().parse_state("2,0,1 s")
    assert [str(a) for a in state.legal_actions()] == [
        "take 1 from 1",
        "take 2 from 1",
        "take 1 from 3",
    ]
    assert str(state.apply(Take(1, 2))) == "0,0,1 f"
    with pytest.raises(IllegalActionError, match="heap 2 has 0 objects"):
        state.apply(Take(2, 1))


@pytest.mark.parametrize(("misere", "winner"), [(False, 0), (True, 1)])
def test_whoever_takes_the_last_object_wins_unless_misere(misere, winner):
    state = NimGame(misere=misere).parse_state("0,0,1 f").apply(Take(3, 1))
    assert state.current_player == TERMINAL
    outcome = state.outcome()
    assert outcome.winner == winner
    assert "first took the last object" in outcome.reason
    assert state.returns()[winner] == 1.0 and state.returns()[1 - winner] == -1.0


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        ("3,4 f", InvalidStateError, "2 heaps"),
        ("3,4,6 f", NotationError, "from 0 to 5"),
        ("3,?,4 f", InvalidStateError, "left to right"),
        ("3,?,? s", InvalidStateError, "before every heap is dealt"),
        ("0,?,? f", InvalidStateError, "before every heap is dealt"),
        ("3,4,5", NotationError, "who moves"),
        ("3,4,5 x", NotationError, "who moves"),
    ],
)
def test_bad_positions_say_what_is_wrong(text, error, fragment):
    with pytest.raises(error, match=fragment):
        NimGame().parse_state(text)


def test_options_change_the_game():
    game = NimGame(heaps=2, max_heap=2, misere="true")
    assert game.num_distinct_actions == 4
    assert game.variant_text() == "heaps=2 max_heap=2 misere=true"
    assert NimGame.from_variant_text(game.variant_text()) == game
    state = game.deal(1)
    check_state(game, state)
    assert len(state.heaps) == 2 and all(1 <= h <= 2 for h in state.heaps)


def test_fixed_nim_starts_dealt_and_never_meets_chance(fixed_nim):
    game = find_game("fixed_nim", heaps=4)
    assert isinstance(game, FixedNim)
    state = game.new_initial_state()
    assert str(state) == "1,2,3,4 f" and state.current_player == 0
    assert str(find_game("fixed_nim", max_heap=2).new_initial_state()) == "1,2,2 f"
