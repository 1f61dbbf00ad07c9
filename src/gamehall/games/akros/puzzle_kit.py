"""Akros's puzzle themes and situations (the plugin's ``puzzle_themes`` and ``situation``).

A theme is read off the position and the answer (and the solution line), never guessed: which
step of the turn the answer is, whether it contests a region a Jinn servant holds or takes one
out of a contest, whether it builds on a stack, changes who claims an environment as things
stand, or leaves the other player's tile nowhere to go."""

from __future__ import annotations

from collections.abc import Sequence

from gamehall.core import Action, State
from gamehall.games.akros.game import AkrosState
from gamehall.games.akros.rules import (
    BAG_TURNS,
    ENVIRONMENT_NAMES,
    IFRIT,
    JINN,
    TEMPLE_PILES,
    TURNS,
    Keep,
    KeepDiscard,
    Place,
    Remove,
    claimant,
    discard_pile,
    environment_totals,
    source_pile,
)

THE_DRAFT = "The draft"
CONTESTING = "Contesting a region"
ESCAPE = "Out of a contest"
STACKING = "Building a stack"
CLAIMING = "Claiming an environment"
NO_ROOM = "Leaving no room"
THE_TEMPLE_TURNS = "The Temple's turns"
LAST_TURN = "The last turn"
THEMES = (
    THE_DRAFT,
    CONTESTING,
    ESCAPE,
    STACKING,
    CLAIMING,
    NO_ROOM,
    THE_TEMPLE_TURNS,
    LAST_TURN,
)
"""Every theme this game names, as a player reads it."""

NAMES = ("the Jinn", "the Ifrit")
HIS_HER = ("his", "her")
STEP_WORDS = {
    "jinn-keep": "to keep",
    "ifrit-keep": "to keep",
    "ifrit-place": "to place",
    "jinn-place": "to place",
}


def _claims(state: AkrosState) -> tuple[int | None, ...]:
    environments = state.board.environments
    jinn = environment_totals(state.jinn, state.stacks, environments)
    ifrit = environment_totals(state.ifrit, state.stacks, environments)
    return tuple(claimant(jinn[e], ifrit[e]) for e in range(3))


def _contested_jinn(state: AkrosState) -> int:
    contested = state.contested()
    return sum(1 for region in state.jinn if region in contested)


def themes(state: State, answer: Action, line: Sequence[Action]) -> tuple[str, ...]:
    """The puzzle's themes (of :data:`THEMES`), from the position, the answer and the line."""
    assert isinstance(state, AkrosState)
    found = []
    after = state.apply_trusted(answer)
    if isinstance(answer, Keep | KeepDiscard) and state.turn < TURNS:
        found.append(THE_DRAFT)
    if isinstance(answer, Place):
        if state.current_player == IFRIT and _contested_jinn(after) > _contested_jinn(state):
            found.append(CONTESTING)
        if state.current_player == JINN and _contested_jinn(after) < _contested_jinn(state):
            found.append(ESCAPE)
        if state.stacks[answer.region - 1] > 0:
            found.append(STACKING)
        if _claims(after) != _claims(state):
            found.append(CLAIMING)
    # The other player's next tile removed for want of a place, within the line.
    walk = state
    for action in line:
        if isinstance(action, Remove) and walk.current_player != state.current_player:
            found.append(NO_ROOM)
            break
        walk = walk.apply_trusted(action)
    if state.turn > BAG_TURNS and state.turn < TURNS:
        found.append(THE_TEMPLE_TURNS)
    if state.turn == TURNS:
        found.append(LAST_TURN)
    return tuple(found)


NUMBERS = ("", "a", "two", "three")


def _tiles(tiles: Sequence[int]) -> str:
    """Tiles in words: "a Forest and two Seas"."""
    names = [
        f"{NUMBERS[tiles.count(t)]} {ENVIRONMENT_NAMES[t]}{'s' if tiles.count(t) > 1 else ''}"
        for t in sorted(set(tiles))
    ]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def situation(state: State) -> str:
    """The turn, the step and what follows from it, for a puzzle's prompt: "Turn 7 of 9, the
    Ifrit to place her Mountain: then the Jinn places his Sea; 2 turns follow"."""
    assert isinstance(state, AkrosState)
    player = state.current_player
    who = NAMES[player]
    head = f"Turn {state.turn} of {TURNS}, {who} {STEP_WORDS.get(state.step_name, 'to move')}"
    left = TURNS - state.turn
    after = (
        "this is the last turn, then the environments are counted"
        if left == 0
        else f"{left} more turn{'s' if left != 1 else ''} follow"
    )
    nxt = state.turn + 1
    pile = source_pile(nxt) if nxt <= TURNS else None
    upcoming = (
        ""
        if left == 0
        else f"; turn {nxt} drafts "
        + (
            "three tiles drawn from the bag"
            if pile is None
            else f"the tiles of pile {TEMPLE_PILES[pile]}"
        )
    )
    if state.step_name == "jinn-keep":
        pile_now = discard_pile(state.turn)
        discard = (
            "" if pile_now is None else f", discarding the other to pile {TEMPLE_PILES[pile_now]}"
        )
        detail = (
            f" one of {_tiles(state.draft)}: the Ifrit keeps one of the rest{discard}, "
            "then she places and then he places"
        )
    elif state.step_name == "ifrit-keep":
        pile_now = discard_pile(state.turn)
        detail = f" one of {_tiles(state.draft)}" + (
            "" if pile_now is None else f" (the other goes to pile {TEMPLE_PILES[pile_now]})"
        )
        if state.jinn_tile is not None:
            detail += f"; the Jinn has kept a {ENVIRONMENT_NAMES[state.jinn_tile]}"
    elif state.step_name == "ifrit-place":
        tile = state.ifrit_tile
        detail = f" {HIS_HER[IFRIT]} {ENVIRONMENT_NAMES[tile]}" if tile is not None else ""
        if state.jinn_tile is not None:
            detail += f": then the Jinn places his {ENVIRONMENT_NAMES[state.jinn_tile]}"
    else:
        tile = state.jinn_tile
        detail = f" {HIS_HER[JINN]} {ENVIRONMENT_NAMES[tile]}" if tile is not None else ""
    return f"{head}{detail}; {after}{upcoming}."


__all__ = ["THEMES", "situation", "themes"]
