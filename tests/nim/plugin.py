"""Nim's plugin record: the game and its rules text, nothing else (every other part falls back
to the generic one). Registered by the ``nim`` fixture, never through an entry point."""

from __future__ import annotations

from gamehall.core import GamePlugin
from tests.nim.game import NimGame

PLUGIN = GamePlugin(
    game=NimGame,
    summary="Heaps of objects; take any number from one heap. Whoever takes the last one wins.",
    rules_text="rules.md",
)
