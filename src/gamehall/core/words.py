"""Moves in words: one place that tells an action for people.

Every text a person reads about a move (the move list, the line under the banner, hints,
reviews, puzzles, replays, the terminal app, the command line's human-facing output) goes
through :func:`move_words`, which asks the game's plugin (:attr:`GamePlugin.words
<gamehall.core.plugin.GamePlugin.words>`). The notation stays beside it as a small label
(:func:`move_label`)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from typing import NamedTuple

from gamehall.core.game import Action, State

MoveWords = Callable[[State, Action], str]
"""``words(state, action)``: ``action`` (legal in ``state``, chance included) in a sentence
that names the mover by the game's name for them and uses the game's own words; no trailing
full stop, so callers can build on it."""


class Chapter(NamedTuple):
    """Where an action stands in its game, for move lists grouped by round and turn."""

    heading: str
    """The round or turn the action belongs to ("Round 2", "Turn 3"); "" for none."""
    end: str
    """After the action that ends a round, its result ("Round 1: Dark +2, match 2–0"); else ""."""
    count: int = 0
    """The game's own count carried from one action to the next (say, the rounds begun)."""


Chapters = Callable[[State, State, "Chapter | None"], Chapter]
"""``chapter(before, after, previous)``: the :class:`Chapter` of the action that led from
``before`` to ``after``, given the chapter of the action before it (None for the first one):
one step at a time, so a long game's chapters cost one call a move."""


@functools.lru_cache(maxsize=64)
def _load(ref: str) -> Callable[..., object]:
    from gamehall.core.plugin import load_ref

    loaded: Callable[..., object] = load_ref(ref)
    return loaded


def _plugin_ref(state: State, which: str) -> Callable[..., object] | None:
    from gamehall.core.errors import UnknownGameError
    from gamehall.core.registry import find_plugin

    try:
        plugin = find_plugin(state.game.name)
    except UnknownGameError:
        return None
    ref = plugin.words if which == "words" else plugin.chapters
    return _load(ref) if ref else None


def mover_name(state: State) -> str:
    """Who acts in ``state``, capitalised ("Dark", "Jinn"; "Chance" at a chance step)."""
    if state.is_chance_node():
        return "Chance"
    name = state.player_name(state.current_player)
    return name[:1].upper() + name[1:]


def move_words(state: State, action: Action) -> str:
    """``action`` played in ``state``, told for people by the game's plugin, or, for a game
    that tells nothing, its mover and notation ("Cross: b2")."""
    describe = _plugin_ref(state, "words")
    if describe is not None:
        told = describe(state, action)
        assert isinstance(told, str)
        return told
    return f"{mover_name(state)}: {action}"


def next_chapter(before: State, after: State, previous: Chapter | None) -> Chapter:
    """The chapter of the action from ``before`` to ``after``, the one before it being
    ``previous`` (None: the first action): its round or turn and, if it ends a round, the
    result (the game's plugin, :data:`Chapters`); a game that tells none has no headings."""
    chapter = _plugin_ref(before, "chapters")
    if chapter is None:
        return Chapter("", "")
    found = chapter(before, after, previous)
    assert isinstance(found, Chapter)
    return found


def move_chapters(states: Sequence[State]) -> list[Chapter]:
    """Each action of a game (``states[k]`` before action k, ``states[-1]`` after the last)
    with its chapter (:func:`next_chapter`)."""
    found: list[Chapter] = []
    for before, after in itertools.pairwise(states):
        found.append(next_chapter(before, after, found[-1] if found else None))
    return found


def move_label(action: Action) -> str:
    """The notation of ``action``, the small secondary label beside its words."""
    return str(action)


def move_told(state: State, action: Action) -> str:
    """The words of ``action`` with its notation in brackets after them, for plain text; the
    notation alone when the words already hold it (a game with no words of its own)."""
    words, label = move_words(state, action), move_label(action)
    return words if label in words else f"{words} ({label})"


__all__ = [
    "Chapter",
    "Chapters",
    "MoveWords",
    "move_chapters",
    "move_label",
    "move_told",
    "move_words",
    "mover_name",
    "next_chapter",
]
