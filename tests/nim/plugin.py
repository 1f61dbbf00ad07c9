"""Nim's plugin records: the game, its rules text, its golden playthroughs and what research
libraries need (every other part falls back to the generic one); and Fixed Nim, Nim without
chance, with no playthrough (it is optional). Registered by fixtures, never through an entry
point."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from gamehall.core import GamePlugin, Playthrough, Playthroughs
from gamehall.testing import registered
from tests.nim.game import FixedNim, NimGame

PLUGIN = GamePlugin(
    game=NimGame,
    summary="Heaps of objects; take any number from one heap. Whoever takes the last one wins.",
    rules_text="rules.md",
    encoding="tests.nim.research:encoding",
    facts="tests.nim.research:facts",
    playthrough=Playthroughs(
        "playthroughs.txt",
        (Playthrough(1), Playthrough(2, {"heaps": 4, "max_heap": 3, "misere": True})),
    ),
)

FIXED = GamePlugin(
    game=FixedNim,
    summary="Nim from heaps of 1, 2, 3 … objects: no chance at all.",
    encoding="tests.nim.research:encoding",
    facts="tests.nim.research:facts",
)

TEST_ONLY = (PLUGIN, FIXED)
"""Every game that exists only in the tests."""


@contextlib.contextmanager
def registered_test_only_games() -> Iterator[None]:
    """The games that exist only in the tests, registered for a while."""
    with contextlib.ExitStack() as stack:
        for plugin in TEST_ONLY:
            stack.enter_context(registered(plugin))
        yield
