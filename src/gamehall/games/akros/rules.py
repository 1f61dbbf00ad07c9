"""The rules of Akros as pure functions, in the words of the rulebook (this package's ``rules.md``).

Encodings used throughout:

* environments are ``0`` Forest, ``1`` Sea, ``2`` Mountain (letters ``F S M``);
* regions are their board ids ``1..N``; a set of regions is a bitmask with bit ``id`` set;
* a player's servants are a sorted tuple of region ids (servants of one player are alike);
* a multiset of tiles (a draft, a Temple pile) is a sorted tuple of environments.

Players: ``0`` is the Jinn (he draws and keeps first each turn), ``1`` the Ifrit.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import comb
from typing import Final

FOREST: Final = 0
SEA: Final = 1
MOUNTAIN: Final = 2
ENVIRONMENTS: Final = (FOREST, SEA, MOUNTAIN)
ENVIRONMENT_LETTERS: Final = "FSM"
ENVIRONMENT_NAMES: Final = ("Forest", "Sea", "Mountain")

JINN: Final = 0
IFRIT: Final = 1
PLAYER_NAMES: Final = ("jinn", "ifrit")

TURNS: Final = 9
BAG_TURNS: Final = 6
"""Turns 1–6 draw from the bag; turns 7–9 draw from the Temple piles."""
TILES_DRAWN: Final = 3

# The steps of a turn, in order. DRAW is the chance node (turns 1–6 only).
DRAW, JINN_KEEP, IFRIT_KEEP, IFRIT_PLACE, JINN_PLACE, OVER = range(6)
STEP_NAMES: Final = ("draw", "jinn-keep", "ifrit-keep", "ifrit-place", "jinn-place", "over")

# The Temple of Time: piles 7, 8 and 9 are held at indices 0, 1 and 2.
TEMPLE_PILES: Final = (7, 8, 9)


# --- actions -------------------------------------------------------------------------------------
# Small frozen values; ``str`` is the notation that ``notation.parse_action`` reads back.


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the tiles the Jinn draws from the bag (a multiset, sorted). ``draw FMM``."""

    tiles: tuple[int, ...]

    def __str__(self) -> str:
        return "draw " + tiles_text(self.tiles)


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep one tile of the draft face up: the Jinn's keep, or the Ifrit's lone keep on turn 9.
    ``keep F``."""

    tile: int

    def __str__(self) -> str:
        return f"keep {ENVIRONMENT_LETTERS[self.tile]}"


@dataclass(frozen=True, slots=True)
class KeepDiscard:
    """The Ifrit keeps one of the two tiles passed to her and discards the other to the Temple.
    ``keep S discard M``."""

    keep: int
    discard: int

    def __str__(self) -> str:
        return f"keep {ENVIRONMENT_LETTERS[self.keep]} discard {ENVIRONMENT_LETTERS[self.discard]}"


@dataclass(frozen=True, slots=True)
class Place:
    """Place the kept tile on ``region`` and move the servant standing on ``source`` onto it.
    ``M5<10``: a Mountain tile on region 5, the servant comes from region 10."""

    tile: int
    region: int
    source: int

    def __str__(self) -> str:
        return f"{ENVIRONMENT_LETTERS[self.tile]}{self.region}<{self.source}"


@dataclass(frozen=True, slots=True)
class Remove:
    """The kept tile has no legal place and is removed from the game. ``remove M``."""

    tile: int

    def __str__(self) -> str:
        return f"remove {ENVIRONMENT_LETTERS[self.tile]}"


def tiles_text(tiles: tuple[int, ...]) -> str:
    """A multiset of tiles as letters (``FMM``), or ``-`` when empty."""
    return "".join(ENVIRONMENT_LETTERS[t] for t in tiles) or "-"


# --- dense action indices ------------------------------------------------------------------------
# Keep e: 0..2 · KeepDiscard (k, d): 3 + 3k + d · Remove e: 12 + e · Place (e, r, s): 15 + ...


def num_distinct_actions(regions: int) -> int:
    """How many player actions a board with ``regions`` regions has."""
    return 15 + 3 * regions * regions


def action_index(action: object, regions: int) -> int:
    """The dense index of a player action."""
    if isinstance(action, Place):
        return 15 + (action.tile * regions + action.region - 1) * regions + action.source - 1
    if isinstance(action, Keep):
        return action.tile
    if isinstance(action, KeepDiscard):
        return 3 + 3 * action.keep + action.discard
    if isinstance(action, Remove):
        return 12 + action.tile
    raise ValueError(f"{action!r} is not an Akros player action")


def index_action(index: int, regions: int) -> Keep | KeepDiscard | Remove | Place:
    """The player action with dense index ``index``."""
    if not 0 <= index < num_distinct_actions(regions):
        raise ValueError(f"action index {index} out of range")
    if index < 3:
        return Keep(index)
    if index < 12:
        return KeepDiscard(*divmod(index - 3, 3))
    if index < 15:
        return Remove(index - 12)
    rest, source = divmod(index - 15, regions)
    tile, region = divmod(rest, regions)
    return Place(tile, region + 1, source + 1)


# --- the rules -----------------------------------------------------------------------------------


def servants_mask(servants: tuple[int, ...]) -> int:
    """The regions a tuple of servants stands on, as a bitmask."""
    mask = 0
    for region in servants:
        mask |= 1 << region
    return mask


def contested_regions(ifrit: tuple[int, ...], neighbour_masks: tuple[int, ...]) -> int:
    """Contested: "a region adjacent to two or more regions that hold an Ifrit servant"."""
    once = twice = 0
    for region in ifrit:
        around = neighbour_masks[region]
        twice |= once & around
        once |= around
    return twice


def ifrit_placements(
    tile: int,
    ifrit: tuple[int, ...],
    occupied: int,
    neighbour_masks: tuple[int, ...],
    environment_mask: int,
) -> list[Place]:
    """Ifrit places: "on an unoccupied region of the same environment that one of her servants can
    reach with an Ifrit move" (one step to an adjacent unoccupied region)."""
    free = environment_mask & ~occupied
    places = []
    for source in ifrit:
        targets = neighbour_masks[source] & free
        while targets:
            low = targets & -targets
            places.append(Place(tile, low.bit_length() - 1, source))
            targets ^= low
    places.sort(key=lambda p: (p.region, p.source))
    return places


def jinn_movers(jinn: tuple[int, ...], contested: int) -> tuple[int, ...]:
    """Jinn move: "if before the move one or more Jinn servants stand on contested regions, the
    servant that moves must be one of them"."""
    stuck = tuple(region for region in jinn if contested >> region & 1)
    return stuck or jinn


def jinn_placements(
    tile: int,
    jinn: tuple[int, ...],
    occupied: int,
    contested: int,
    environment_mask: int,
) -> list[Place]:
    """Jinn places: "on an unoccupied, uncontested region of the same environment, and a Jinn
    servant moves onto it (obeying the contested rule)"."""
    targets = environment_mask & ~occupied & ~contested
    movers = jinn_movers(jinn, contested)
    places = []
    while targets:
        low = targets & -targets
        region = low.bit_length() - 1
        places.extend(Place(tile, region, source) for source in movers)
        targets ^= low
    return places


def discard_pile(turn: int) -> int | None:
    """Draft: the Ifrit discards "turns 1–3 to pile 7, turns 4–6 to pile 8, turns 7–8 to pile 9"
    (turn 9: no discard). Returns the pile's index in the Temple (0, 1, 2) or None."""
    if turn <= 3:
        return 0
    if turn <= 6:
        return 1
    if turn <= 8:
        return 2
    return None


def source_pile(turn: int) -> int | None:
    """Where the tiles come from: "Turn 7: the three tiles of pile 7. Turn 8: … pile 8. Turn 9: the
    two tiles of pile 9" (turns 1–6 draw from the bag: None)."""
    return turn - 7 if turn > BAG_TURNS else None


@lru_cache(maxsize=4096)
def draw_outcomes(bag: tuple[int, int, int]) -> tuple[tuple[Draw, Fraction], ...]:
    """Draft: "three drawn at random from the bag": every multiset of three with its exact
    (hypergeometric) probability over the bag's contents."""
    total = comb(sum(bag), TILES_DRAWN)
    outcomes = []
    for counts in product(range(TILES_DRAWN + 1), repeat=3):
        if sum(counts) != TILES_DRAWN:
            continue
        ways = comb(bag[0], counts[0]) * comb(bag[1], counts[1]) * comb(bag[2], counts[2])
        if ways:
            tiles = tuple(e for e in ENVIRONMENTS for _ in range(counts[e]))
            outcomes.append((Draw(tiles), Fraction(ways, total)))
    outcomes.sort(key=lambda pair: pair[0].tiles)
    return tuple(outcomes)


def servant_score(stack: int) -> int:
    """End: a servant scores "1 per servant plus the number of tiles stacked under it"."""
    return 1 + stack


def environment_totals(
    servants: tuple[int, ...], stacks: tuple[int, ...], environments: tuple[int, ...]
) -> list[int]:
    """End: "for each environment, each player scores, over their servants standing on regions of
    that environment, 1 per servant plus the number of tiles stacked under it"."""
    totals = [0, 0, 0]
    for region in servants:
        totals[environments[region]] += servant_score(stacks[region - 1])
    return totals


def claimant(jinn_score: int, ifrit_score: int) -> int | None:
    """End: "the higher score claims that environment; equal scores claim nothing"."""
    if jinn_score > ifrit_score:
        return JINN
    if ifrit_score > jinn_score:
        return IFRIT
    return None


def winner(jinn_claims: int, ifrit_claims: int) -> int:
    """End: "the player who claims more environments wins; equal counts (including 1–1 and 0–0)
    go to the Ifrit"."""
    return JINN if jinn_claims > ifrit_claims else IFRIT
