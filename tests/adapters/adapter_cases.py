"""Which games the research adapters are checked on: every registered game whose plugin gives
an encoding and facts, the installed ones and those that exist only in the tests (Nim, and Fixed
Nim, which has no chance), each with every episode it offers. Nothing here names a game: a game
that is installed is checked as soon as it is."""

from __future__ import annotations

from gamehall.core import GamePlugin, plugins
from gamehall.testing.research import episodes, research_unavailable
from tests.nim.plugin import TEST_ONLY, registered_test_only_games


def candidates() -> dict[str, GamePlugin]:
    return {**plugins(), **{plugin.name: plugin for plugin in TEST_ONLY}}


def research_games() -> list[str]:
    """The names of the games the adapters offer."""
    with registered_test_only_games():
        return sorted(name for name in candidates() if research_unavailable(name) is None)


def research_cases() -> list[tuple[str, str]]:
    """(game, episode) for every game the adapters offer and every episode it has."""
    with registered_test_only_games():
        return [(name, episode) for name in research_games() for episode in episodes(name)]


RESEARCH_GAMES = research_games()
RESEARCH_CASES = research_cases()
