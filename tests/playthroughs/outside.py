"""A game from outside gamehall, as a third party ships one: a package of its own (made in a
temporary folder put on ``sys.path``) with a plugin record that declares a golden playthrough
file in the package. The game is Nim under another name; the file is not written yet."""

from __future__ import annotations

import importlib
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from gamehall.core import GamePlugin

GAME_MODULE = """
from tests.nim.game import NimGame


class PebblesGame(NimGame):
    name = "pebbles"
    title = "Pebbles"
"""

PLUGIN_MODULE = """
from gamehall.core import GamePlugin, Playthrough, Playthroughs
from {package}.game import PebblesGame

PLUGIN = GamePlugin(
    game=PebblesGame,
    playthrough=Playthroughs("golden.txt", (Playthrough(7), Playthrough(8, {{"heaps": 2}}))),
)
"""


@contextmanager
def outside_game(root: Path) -> Iterator[GamePlugin]:
    """The outside game's plugin record (not registered), its package in ``root``."""
    package = f"outside_{uuid.uuid4().hex[:10]}"
    folder = root / package
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "game.py").write_text(GAME_MODULE)
    (folder / "plugin.py").write_text(PLUGIN_MODULE.format(package=package))
    sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    try:
        yield importlib.import_module(f"{package}.plugin").PLUGIN
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == package or m.startswith(f"{package}.")]:
            del sys.modules[name]
