"""The computer levels' ratings are data in each game's package, for real levels, and the API
shows them as they are stored (never computed when asked for)."""

from __future__ import annotations

import json

import pytest

from gamehall.ai import LEVELS
from gamehall.core import plugins
from gamehall.web.http.app import _meta

WITH_RATINGS = [name for name, plugin in plugins().items() if plugin.level_ratings]


def test_the_games_carry_level_ratings():
    assert WITH_RATINGS, "no game carries its levels' ratings"


@pytest.mark.parametrize("name", WITH_RATINGS)
def test_level_ratings_are_stored_data_for_real_levels(name):
    plugin = plugins()[name]
    stored = json.loads(plugin.resource_text(plugin.level_ratings))
    assert stored["anchor"] == {"beginner": 800.0}
    assert stored["ratings"]["beginner"] == 800
    assert set(stored["ratings"]) <= set(LEVELS)
    assert stored["command"].startswith("python bench/level_ratings.py")
    # stronger levels as the project ranks them come out higher
    order = [level for level in LEVELS if level in stored["ratings"]]
    ratings = [stored["ratings"][level] for level in order]
    assert ratings == sorted(ratings)
    (shown,) = [game for game in _meta().games if game.name == name]
    assert shown.level_ratings == stored["ratings"]


@pytest.mark.parametrize("name", WITH_RATINGS)
def test_the_levels_have_ratings_with_intervals_from_enough_games(name):
    """Every level is rated, each with its interval (relative to beginner, the anchor; it
    grows along the schedule's ladder of pairings) and the games it played."""
    plugin = plugins()[name]
    stored = json.loads(plugin.resource_text(plugin.level_ratings))
    assert set(stored["ratings"]) == set(LEVELS)
    assert set(stored["interval_95"]) == set(stored["ratings"])
    assert stored["interval_95"]["beginner"] == 0  # the anchor: its rating is chosen
    for level in stored["ratings"]:
        assert stored["games"][level] >= 30, (level, stored["games"][level])
        assert 0 < stored["interval_95"][level] < 800 or level == "beginner"
    (shown,) = [game for game in _meta().games if game.name == name]
    assert shown.level_intervals == stored["interval_95"]
