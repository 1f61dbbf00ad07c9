"""The game kit's test side (gamehall.testing) catches what it promises to catch, with messages
that say what and where; and a State's ``current_player`` must be a property."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cached_property

import pytest

from gamehall.core import (
    CHANCE,
    GamePlugin,
    State,
    find_plugin,
    game_names,
    register_plugin,
    unregister_plugin,
)
from gamehall.testing import (
    Check,
    ConformanceError,
    all_checks,
    check_game,
    conformance_checks,
    registered,
    run_checks,
)
from gamehall.testing.conformance import declared_facts_hold, random_play_conforms
from tests.nim.broken import NO_CHANCE, OffByOneNim
from tests.nim.game import NimGame
from tests.nim.plugin import FIXED, PLUGIN

# --- current_player must be a property ------------------------------------------------------------


def test_a_state_whose_current_player_is_a_method_is_refused_when_defined():
    with pytest.raises(TypeError, match=r"MethodState\.current_player must be a property"):

        class MethodState(State):
            def current_player(self) -> int:  # written as a method: always "not over"
                return CHANCE

    with pytest.raises(TypeError, match=r"ConstantState\.current_player .* not a int"):

        class ConstantState(State):
            current_player = 0


def test_properties_and_cached_properties_are_accepted():
    @dataclass(frozen=True)
    class Cached(State):
        @cached_property
        def current_player(self) -> int:
            return CHANCE

    class Inherits(Cached):  # the nearest definition is the one that counts
        pass

    assert isinstance(Cached.__dict__["current_player"], cached_property)
    assert issubclass(Inherits, State)


# --- the kit's checks on broken games --------------------------------------------------------------


def test_check_game_names_each_failing_check_and_where():
    with pytest.raises(ConformanceError) as info:
        check_game(OffByOneNim)
    message = str(info.value)
    assert message.startswith("off_by_one fails ")
    assert "- actions have dense indices: off_by_one: index_action(0) is 'take 2 from 1'" in message
    assert "- random play conforms, seed 0: off_by_one '" in message
    assert "off_by_one" not in game_names()  # registered only while it was checked


def test_facts_that_deny_chance_are_caught_at_the_first_chance_node():
    with registered(NO_CHANCE) as name, pytest.raises(ConformanceError) as info:
        declared_facts_hold(name)
    assert "the whole game, seed 0, at '?,?,? f': a chance node" in str(info.value)
    assert "declare no chance" in str(info.value)


def test_a_good_game_passes_and_a_check_that_does_not_apply_is_skipped():
    results = check_game(FIXED)  # no playthrough: nothing to compare, nothing fails
    assert results and all(r.ok for r in results)
    bare = GamePlugin(game=NimGame)  # no facts, no playthrough
    with registered(bare) as name:
        results = {r.name: r for r in run_checks(conformance_checks(name))}
    assert results["the declared facts hold"].skipped == (
        "the game declares no facts (GamePlugin.facts)"
    )
    assert all(r.ok for r in results.values())


def test_an_error_the_game_raises_is_the_checks_answer():
    def broken() -> None:
        raise KeyError("heap")

    result = Check("conformance", "a broken check", broken).result()
    assert not result.ok and result.error == "KeyError: 'heap'"


def test_random_play_fails_on_the_first_broken_promise():
    with registered(OffByOneNim) as name, pytest.raises(ConformanceError, match="index_action"):
        random_play_conforms(name, 0)


# --- registering for the while ---------------------------------------------------------------------


@pytest.fixture
def nothing_added() -> Iterator[None]:
    yield
    unregister_plugin(PLUGIN.name)


def test_registered_leaves_the_registry_as_it_was(nothing_added):
    with registered(PLUGIN) as name:
        assert name == "nim" and find_plugin("nim") is PLUGIN
        with registered(PLUGIN):  # already there: left alone
            pass
        assert find_plugin("nim") is PLUGIN
    assert "nim" not in game_names()
    register_plugin(PLUGIN)  # someone else's registration survives a check of another record
    other = replace(PLUGIN, summary="another record of the same game")
    with registered(other):
        assert find_plugin("nim") is other
    assert find_plugin("nim") is PLUGIN


def test_installed_games_are_checked_as_registered():
    with registered("Tokens") as name:  # an alias of an installed game
        assert name in game_names()
        assert find_plugin(name).playthrough is not None
        kinds = {check.kind for check in all_checks(name, research=False)}
    assert kinds == {"conformance", "playthrough"}


def test_a_copied_plugin_record_loads_its_own_parts():
    """A record made with dataclasses.replace shares no loaded part with its original."""
    assert PLUGIN.load_facts() is not None
    assert NO_CHANCE.load_facts() is not PLUGIN.load_facts()
    assert PLUGIN.load_facts().__name__ == "facts"
