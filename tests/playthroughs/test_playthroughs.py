"""The golden playthroughs (see ``tests/playthroughs/__init__.py``) still play out exactly."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

import pytest

from gamehall.core import game_names
from tests.playthroughs import (
    HERE,
    PLAYTHROUGHS,
    REGENERATE,
    path_for,
    playthrough_text,
    registered_test_only_games,
)


@pytest.fixture(autouse=True)
def _test_games() -> Iterator[None]:
    with registered_test_only_games():
        yield


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_the_game_plays_as_its_golden_playthrough(name):
    golden = path_for(name).read_text(encoding="utf-8")
    now = playthrough_text(name)
    if now != golden:
        diff = difflib.unified_diff(
            golden.splitlines(), now.splitlines(), f"{name}.txt", "now", lineterm="", n=2
        )
        shown = "\n".join(list(diff)[:80])
        pytest.fail(
            f"{name} no longer plays as tests/playthroughs/{name}.txt says:\n{shown}\n"
            f"If the change is meant, regenerate with `{REGENERATE}` and commit the diff.",
            pytrace=False,
        )


def test_every_game_has_a_playthrough_and_every_file_a_game():
    assert set(game_names()) <= set(PLAYTHROUGHS), "add the new game to PLAYTHROUGHS"
    assert {path.stem for path in HERE.glob("*.txt")} == set(PLAYTHROUGHS)


def test_a_change_shows_as_a_failure(monkeypatch):
    """The comparison is not vacuous: a different seed gives a different text."""
    name = "nim"
    golden = path_for(name).read_text(encoding="utf-8")
    (first, *rest) = PLAYTHROUGHS[name]
    monkeypatch.setitem(PLAYTHROUGHS, name, (type(first)(first.seed + 1, first.options), *rest))
    assert playthrough_text(name) != golden
