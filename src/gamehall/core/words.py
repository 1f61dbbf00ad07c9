"""Moves in words: one place that tells an action for people.

Every text a person reads about a move (the move list, the line under the banner, hints,
reviews, puzzles, replays, the terminal app, the command line's human-facing output) goes
through :func:`move_words`, which asks the game's plugin (:attr:`GamePlugin.words
<gamehall.core.plugin.GamePlugin.words>`). The notation stays beside it as a small label
(:func:`move_label`)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from gamehall.core.game import Action, State

MoveWords = Callable[[State, Action], str]
"""``words(state, action)``: ``action`` (legal in ``state``, chance included) in a sentence
that names the mover by the game's name for them and uses the game's own words; no trailing
full stop, so callers can build on it."""


@functools.lru_cache(maxsize=64)
def _load(ref: str) -> MoveWords:
    from gamehall.core.plugin import load_ref

    loaded: MoveWords = load_ref(ref)
    return loaded


def _describer(state: State) -> MoveWords | None:
    from gamehall.core.errors import UnknownGameError
    from gamehall.core.registry import find_plugin

    try:
        plugin = find_plugin(state.game.name)
    except UnknownGameError:
        return None
    return _load(plugin.words) if plugin.words else None


def mover_name(state: State) -> str:
    """Who acts in ``state``, capitalised ("Dark", "Jinn"; "Chance" at a chance step)."""
    if state.is_chance_node():
        return "Chance"
    name = state.player_name(state.current_player)
    return name[:1].upper() + name[1:]


def move_words(state: State, action: Action) -> str:
    """``action`` played in ``state``, told for people by the game's plugin, or, for a game
    that tells nothing, its mover and notation ("Cross: b2")."""
    describe = _describer(state)
    if describe is not None:
        return describe(state, action)
    return f"{mover_name(state)}: {action}"


def move_label(action: Action) -> str:
    """The notation of ``action``, the small secondary label beside its words."""
    return str(action)


__all__ = ["MoveWords", "move_label", "move_words", "mover_name"]
