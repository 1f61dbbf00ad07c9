"""The conformance checks as a pytest test class a game's own suite subclasses.

Name the game (a registered name, its plugin record or its game class; one that is not
registered is registered for each test)::

    from gamehall.testing import GameConformance
    from mygame.plugin import PLUGIN

    class TestMyGame(GameConformance):
        game = PLUGIN

and pytest runs one test per promise of the core protocol (random play with every state checked,
options, dense indices, records, action parts, the declared facts) and the golden playthrough
if the plugin declares one. A suite that chooses its games itself defines a ``name`` fixture
instead (gamehall's own suite parametrises it over every registered game). A check that does not
apply (no facts declared, no playthrough) passes: nothing here skips.

This module imports pytest; the rest of :mod:`gamehall.testing` does not.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import ClassVar

import pytest

from gamehall.testing import conformance
from gamehall.testing.checks import GameLike, Skipped, registered
from gamehall.testing.playthrough import check_playthrough


def _applies(check: Callable[[str], None], name: str) -> None:
    with contextlib.suppress(Skipped):  # the game declares nothing for the check to compare with
        check(name)


class GameConformance:
    """The protocol's promises for the game ``game`` names (or the ``name`` fixture gives)."""

    game: ClassVar[GameLike | None] = None

    @pytest.fixture
    def name(self) -> Iterator[str]:
        if self.game is None:
            raise TypeError(
                f"{type(self).__name__}: set game = 'name' (or the game's GamePlugin or Game "
                "class), or define a 'name' fixture"
            )
        with registered(self.game) as name:
            yield name

    @pytest.mark.parametrize("seed", conformance.SEEDS)
    def test_random_play_conforms(self, name: str, seed: int) -> None:
        conformance.random_play_conforms(name, seed)

    def test_moves_are_told_in_words(self, name: str) -> None:
        conformance.moves_are_told_in_words(name)

    def test_deal_is_reproducible(self, name: str) -> None:
        conformance.deal_is_reproducible(name)

    def test_actions_have_dense_indices(self, name: str) -> None:
        conformance.actions_have_dense_indices(name)

    def test_unknown_option_is_refused(self, name: str) -> None:
        conformance.unknown_option_is_refused(name)

    def test_bad_option_values_are_refused(self, name: str) -> None:
        conformance.bad_option_values_are_refused(name)

    def test_options_describe_themselves(self, name: str) -> None:
        conformance.options_describe_themselves(name)

    def test_default_options_and_variant_text(self, name: str) -> None:
        conformance.default_options_and_variant_text(name)

    def test_records_round_trip(self, name: str) -> None:
        conformance.records_round_trip(name)

    def test_replay_names_an_illegal_moves_number(self, name: str) -> None:
        _applies(conformance.replay_names_an_illegal_moves_number, name)

    def test_result_tag_must_match_the_moves(self, name: str) -> None:
        conformance.result_tag_matches_the_moves(name)

    def test_action_parts_tell_legal_actions_apart(self, name: str) -> None:
        conformance.action_parts_tell_legal_actions_apart(name)

    def test_declared_facts_hold(self, name: str) -> None:
        _applies(conformance.declared_facts_hold, name)

    def test_plays_as_its_golden_playthrough(self, name: str) -> None:
        _applies(check_playthrough, name)


__all__ = ["GameConformance"]
