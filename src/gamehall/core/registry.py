"""The game registry: front ends and AI find games by name, never by importing them.

Games register themselves through the entry-point group ``gamehall.games`` (each entry names a
:class:`~gamehall.core.plugin.GamePlugin`), so ``core`` imports no game and a game installed as
its own distribution appears without a change here. Tests may add a game for a while with
:func:`register_plugin` (and take it away with :func:`unregister_plugin`).
"""

from __future__ import annotations

import logging
from importlib.metadata import entry_points
from typing import Any

from gamehall.core.errors import UnknownGameError
from gamehall.core.game import Game
from gamehall.core.plugin import GamePlugin

ENTRY_POINT_GROUP = "gamehall.games"

log = logging.getLogger("gamehall.registry")
_installed: dict[str, GamePlugin] | None = None
_added: dict[str, GamePlugin] = {}


def _load_installed() -> dict[str, GamePlugin]:
    global _installed
    if _installed is None:
        found: dict[str, GamePlugin] = {}
        for entry in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
            try:
                plugin = entry.load()
            except Exception as error:  # one broken game must not hide the others
                log.warning("game plugin %s (%s) does not load: %s", entry.name, entry.value, error)
                continue
            if not isinstance(plugin, GamePlugin):
                log.warning("entry point %s names %r, not a GamePlugin", entry.name, plugin)
                continue
            found[plugin.name] = plugin
        _installed = found
    return _installed


def plugins() -> dict[str, GamePlugin]:
    """Every registered game's plugin, by game name (installed ones, then added ones)."""
    return {**_load_installed(), **_added}


def register_plugin(plugin: GamePlugin) -> None:
    """Add a game for this process (tests use it for games that exist only in the tests)."""
    _added[plugin.name] = plugin


def unregister_plugin(name: str) -> None:
    """Take away a game added with :func:`register_plugin`."""
    _added.pop(name, None)


def _key(name: str) -> str:
    return name.strip().lower()


def find_plugin(name: str) -> GamePlugin:
    """The plugin of the game called ``name`` (or one of its aliases)."""
    key = _key(name)
    registered = plugins()
    plugin = registered.get(key)
    if plugin is None:
        plugin = next((p for p in registered.values() if key in p.aliases), None)
    if plugin is None:
        shown = name if len(name) <= 40 else name[:40] + "…"
        raise UnknownGameError(f"unknown game {shown!r}: {_games_text(registered)}")
    return plugin


def _games_text(registered: dict[str, GamePlugin]) -> str:
    """The games by title, with the name to type: 'the games are Title (name) and Other
    (other)'."""
    shown = [f"{p.game.title} ({name})" for name, p in registered.items()]
    if not shown:
        return "no game is installed"
    if len(shown) == 1:
        return f"the one game is {shown[0]}"
    return f"the games are {', '.join(shown[:-1])} and {shown[-1]}"


def game_names() -> list[str]:
    """The names of the registered games."""
    return list(plugins())


def game_class(name: str) -> type[Game]:
    """The class of the game called ``name``."""
    return find_plugin(name).game


def find_game(name: str, **options: Any) -> Game:
    """Make the game called ``name`` with the given options (validated)."""
    return game_class(name)(**options)


__all__ = [
    "ENTRY_POINT_GROUP",
    "find_game",
    "find_plugin",
    "game_class",
    "game_names",
    "plugins",
    "register_plugin",
    "unregister_plugin",
]
