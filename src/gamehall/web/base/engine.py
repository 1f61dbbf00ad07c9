"""The rules engine as the web server uses it: games by name, replays, chance draws, and the
protocol's view of actions and outcomes. Everything here is about any game, through the core
protocol; nothing here does I/O.

Chance is drawn by the server, never by a client: the outcome at version ``v`` comes from a
generator seeded with the game's secret seed and ``v`` (:func:`chance_rng`), so it is the same
after a restart.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import weakref
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from pydantic_core import to_json

from gamehall.core import (
    Action,
    Diagram,
    Game,
    Outcome,
    State,
    TooManyOutcomesError,
    game_class,
)
from gamehall.core.words import move_chapters, move_words
from gamehall.protocol import (
    DiagramInfo,
    ErrorCode,
    LegalAction,
    OutcomeInfo,
    PlayedAction,
    ProtocolError,
)

RESERVED_PARTS = frozenset({"text", "index", "mover", "words", "chapter", "end"})
"""Keys of the protocol's action items that a game's parts may not use."""


@lru_cache(maxsize=256)
def make_game(name: str, options_json: str) -> Game:
    """The game ``name`` with its options (JSON), made once: games are immutable values."""
    return game_class(name)(**json.loads(options_json))


def game_of(name: str, options: dict[str, Any]) -> Game:
    return make_game(name, json.dumps(options, sort_keys=True))


def start_state(game: Game, setup: str | None = None) -> State:
    """The state a game starts from: its setup position (a stored game's ``setup``, the text of
    a position the server took from another game), or else the game's initial state."""
    return game.new_initial_state() if setup is None else game.parse_state(setup)


def replay(
    game: Game, texts: Iterable[str], *, checked: bool = True, setup: str | None = None
) -> State:
    """The state after the actions ``texts`` from the start (the ``setup`` position, if any)."""
    state = start_state(game, setup)
    for text in texts:
        action = state.parse_action(text) if checked else game.parse_action(text)
        state = state.apply_trusted(action)
    return state


def derived_seed(seed: str, purpose: str, number: int) -> int:
    """A 64-bit seed for ``purpose`` and ``number`` from a game's secret seed."""
    digest = hashlib.sha256(f"{seed}:{purpose}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def chance_rng(seed: str, version: int) -> random.Random:
    """The generator that draws the chance outcome at ``version`` (the same after a restart)."""
    return random.Random(derived_seed(seed, "chance", version))


@lru_cache(maxsize=1024)
def _listed_outcomes(state: State) -> tuple[tuple[Action, ...], tuple[float, ...]] | None:
    try:
        outcomes = state.chance_outcomes()
    except TooManyOutcomesError:
        return None
    actions = tuple(a for a, _ in outcomes)
    return actions, tuple(itertools.accumulate(float(p) for _, p in outcomes))


def draw_chance(state: State, rng: random.Random) -> Action:
    """Draw a chance outcome with its exact probability. Listed outcomes are kept per state
    (every game of a variant starts from the same chance node, e.g. the first-player draw),
    so drawing is a binary search; nodes too big to list use the game's own sampler."""
    listed = _listed_outcomes(state)
    if listed is None:
        return state.sample_chance(rng)
    actions, cumulative = listed
    return rng.choices(actions, cum_weights=cumulative)[0]


def check_rules_version(game_id: str, cls: type[Game], stored: str) -> None:
    """A game stored under other rules than the engine plays is refused, naming both."""
    if stored != cls.rules_version:
        raise ProtocolError(
            ErrorCode.RULES_CHANGED,
            f"game {game_id} was stored under {cls.title} rules version {stored!r}, but this "
            f"server plays {cls.title} rules version {cls.rules_version!r}: it cannot be "
            "replayed here",
        )


# --- the protocol's view of actions and outcomes -------------------------------------------------


def parts_of(game: Game, action: Action) -> dict[str, Any]:
    """The game's parts of ``action`` (checked not to use the protocol's own keys)."""
    parts = game.action_parts(action)
    if not parts:
        return {}
    clash = RESERVED_PARTS.intersection(parts)
    if clash:
        raise ValueError(
            f"{game.name}.action_parts({action}) uses the protocol's key(s) {sorted(clash)}"
        )
    return parts


_ITEMS: weakref.WeakKeyDictionary[Game, dict[Action, tuple[LegalAction, str]]] = (
    weakref.WeakKeyDictionary()
)


_NO_WORDS = '"words":""'


def legal_entries(state: State, actions: Iterable[Action]) -> list[tuple[LegalAction, str]]:
    """Each of ``actions`` (legal in ``state``) as a legal item (its text, dense index, words
    and parts) and that item's JSON.

    A state message lists every legal action and is made after every move, so each item is
    made and written once per game and action (a game has few distinct actions) and kept; only
    its words, which depend on the position, are written each time."""
    game = state.game
    known = _ITEMS.get(game)
    if known is None:
        known = _ITEMS[game] = {}
    entries = []
    for action in actions:
        entry = known.get(action)
        if entry is None:
            item = LegalAction(
                text=str(action), index=game.action_index(action), **parts_of(game, action)
            )
            entry = known[action] = (item, item.model_dump_json())
        item, text = entry
        words = move_words(state, action)
        told = '"words":' + to_json(words).decode()
        entries.append((item.model_copy(update={"words": words}), text.replace(_NO_WORDS, told, 1)))
    return entries


def legal_items(state: State) -> list[LegalAction]:
    """The legal actions of the player to move, with their dense indices, words and parts."""
    if state.current_player < 0:
        return []
    return [item for item, _ in legal_entries(state, state.legal_actions())]


def played_item(state: State, action: Action) -> PlayedAction:
    """``action``, played in ``state``, as the protocol shows it: its text, its mover, its
    words (:func:`gamehall.core.words.move_words`) and its parts."""
    game = state.game
    mover = -1 if state.is_chance_node() else state.current_player
    words = move_words(state, action)
    return PlayedAction(text=str(action), mover=mover, words=words, **parts_of(game, action))


def played_items(states: Sequence[State], actions: Iterable[str]) -> list[PlayedAction]:
    """The actions of a game (``states[k]``: the state before action k) as played items; with
    the state after the last one too, each with its round or turn and a round's result."""
    items = []
    for state, text in zip(states, actions, strict=False):
        items.append(played_item(state, state.game.parse_action(text)))
    if len(states) <= len(items):
        return items
    chapters = move_chapters(states[: len(items) + 1])
    return [
        item.model_copy(update={"chapter": chapter.heading, "end": chapter.end})
        for item, chapter in zip(items, chapters, strict=True)
    ]


def outcome_info(game: Game, outcome: Outcome) -> OutcomeInfo:
    winner = outcome.winner
    return OutcomeInfo(
        winner=winner,
        winner_name=game.player_names[winner] if winner is not None else None,
        reason=outcome.reason,
        scores=list(outcome.scores),
        result=outcome.result_tag(),  # type: ignore[arg-type]
    )


def diagram_info(game: Game, diagram: Diagram) -> DiagramInfo:
    """A plugin's diagram made drawable: the position's view and the move drawn on it, checked
    through the game's own doors (a diagram that is not a real position or move raises)."""
    state = game.parse_state(diagram.position)
    last = None
    if diagram.action is not None:
        action = state.parse_action(diagram.action)
        last = played_item(state, action)
        if diagram.after:
            state = state.apply(action)
    return DiagramInfo(position=str(state), view=state.view(), last=last, caption=diagram.caption)
