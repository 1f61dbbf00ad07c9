"""Akros's moves told for people, in the game's words (see :mod:`gamehall.core.words`).

``describe_move`` tells one action ("Jinn keeps the Sea and passes Forest and Mountain";
"Ifrit: Mountain on 17, servant from 14"); ``chapter`` groups a game's actions by turn, and
keeps what happens between turns (the bag's last tile after turn 6) and the final count.
"""

from __future__ import annotations

from collections.abc import Sequence

from gamehall.core.game import Action, State
from gamehall.core.words import Chapter
from gamehall.games.akros.game import AkrosState
from gamehall.games.akros.rules import (
    BAG_TURNS,
    ENVIRONMENT_NAMES,
    JINN_KEEP,
    OVER,
    TEMPLE_PILES,
    Draw,
    Keep,
    KeepDiscard,
    Place,
    Remove,
    discard_pile,
    source_pile,
)

NAMES = ("Jinn", "Ifrit")

_NUMBERS = ("no", "a", "two", "three")


def tiles_words(tiles: Sequence[int]) -> str:
    """Tiles in words: 'Forest and Mountain', 'two Mountains', 'two Forests and a Sea'."""
    counts = [(tiles.count(e), e) for e in range(3) if e in tiles]
    if all(count == 1 for count, _ in counts):
        parts = [ENVIRONMENT_NAMES[e] for _, e in counts]
    else:
        parts = [
            f"{_NUMBERS[count]} {ENVIRONMENT_NAMES[e]}{'s' if count > 1 else ''}"
            for count, e in counts
        ]
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def describe_move(state: State, action: Action) -> str:
    """``action`` played in ``state``, in a sentence naming its player."""
    assert isinstance(state, AkrosState)
    if isinstance(action, Draw):
        return f"Jinn draws {tiles_words(action.tiles)} from the bag"
    if isinstance(action, Keep):
        return _keep(state, action.tile)
    if isinstance(action, KeepDiscard):
        return _keep_discard(state, action)
    mover = NAMES[state.current_player]
    if isinstance(action, Place):
        name = ENVIRONMENT_NAMES[action.tile]
        height = state.stacks[action.region - 1] + 1
        stacked = f" (a stack of {height})" if height > 1 else ""
        return f"{mover}: {name} on {action.region}{stacked}, servant from {action.source}"
    if isinstance(action, Remove):
        name = ENVIRONMENT_NAMES[action.tile]
        return f"{mover}'s {name} has no place and leaves the game"
    raise TypeError(f"not an Akros action: {action!r}")


def _keep(state: AkrosState, tile: int) -> str:
    """The Jinn keeps one and passes the rest; on turn 9 the Ifrit keeps the lone tile passed."""
    name = ENVIRONMENT_NAMES[tile]
    if state.step != JINN_KEEP:
        return f"Ifrit keeps the {name}, the one tile passed to her"
    rest = list(state.draft)
    rest.remove(tile)
    pile = source_pile(state.turn)
    taken = "" if pile is None else f"takes up Temple pile {TEMPLE_PILES[pile]}, "
    if rest == [tile]:
        return f"Jinn {taken}keeps one {name} and passes the other"
    if len(rest) == 1:
        return f"Jinn {taken}keeps the {name} and passes the {ENVIRONMENT_NAMES[rest[0]]}"
    return f"Jinn {taken}keeps the {name} and passes {tiles_words(rest)}"


def _keep_discard(state: AkrosState, action: KeepDiscard) -> str:
    """The Ifrit keeps one and discards the other to this turn's Temple pile."""
    pile = discard_pile(state.turn)
    to = "" if pile is None else f" to Temple pile {TEMPLE_PILES[pile]}"
    if action.keep == action.discard:
        name = ENVIRONMENT_NAMES[action.keep]
        return f"Ifrit keeps one {name} and discards the other{to}"
    kept, discarded = ENVIRONMENT_NAMES[action.keep], ENVIRONMENT_NAMES[action.discard]
    return f"Ifrit keeps the {kept} and discards the {discarded}{to}"


def chapter(before: State, after: State, previous: Chapter | None) -> Chapter:
    """An action's turn; after turn 6, the bag's last tile leaving unseen; at the end, the
    count."""
    assert isinstance(before, AkrosState) and isinstance(after, AkrosState)
    end = ""
    if after.step == OVER:
        outcome = after.outcome()
        assert outcome is not None and outcome.winner is not None  # equal claims: the Ifrit
        end = f"The count: {outcome.reason}; the {NAMES[outcome.winner]} wins"
    elif before.turn == BAG_TURNS and after.turn == BAG_TURNS + 1:
        last = [e for e in range(3) if before.bag[e]]  # one tile is left in the bag
        if last:
            end = f"The bag's last tile, a {ENVIRONMENT_NAMES[last[0]]}, leaves the game unseen"
    return Chapter(f"Turn {before.turn}", end)


__all__ = ["chapter", "describe_move", "tiles_words"]
