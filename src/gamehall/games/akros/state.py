"""An Akros position (:class:`AkrosState`): the turn and its step, the bag, the Temple, the
tiles in hand, the stacks and the servants; a turn's draft, placements and the bag's draws
("A turn" in the rules); its view and text. The end of the game and its scoring are in
:mod:`gamehall.games.akros.game_end`; why a move is illegal and why a position cannot occur,
in :mod:`gamehall.games.akros.checks`."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gamehall.core.game import CHANCE, TERMINAL, State
from gamehall.games.akros import rules
from gamehall.games.akros.board import Board
from gamehall.games.akros.checks import illegal_reason
from gamehall.games.akros.game_end import GameEnd
from gamehall.games.akros.notation import format_position
from gamehall.games.akros.rules import (
    DRAW,
    IFRIT,
    IFRIT_KEEP,
    IFRIT_PLACE,
    JINN,
    JINN_KEEP,
    JINN_PLACE,
    OVER,
    PLAYER_NAMES,
    TURNS,
    Draw,
    Keep,
    KeepDiscard,
    Place,
    Remove,
    contested_regions,
    servants_mask,
)

if TYPE_CHECKING:
    from gamehall.games.akros.game import AkrosGame

AkrosAction = Draw | Keep | KeepDiscard | Place | Remove

_PLAYER_OF_STEP = (CHANCE, JINN, IFRIT, IFRIT, JINN, TERMINAL)


@dataclass(frozen=True, slots=True)
class AkrosState(GameEnd, State):
    """A position. Public attributes (read by views and tests):

    ``turn`` (1–9), ``step`` (see :data:`rules.STEP_NAMES`), ``bag`` (tiles per environment left
    in the bag), ``temple`` (piles 7, 8, 9 as sorted tiles), ``draft`` (tiles in hand during the
    draft), ``jinn_tile`` / ``ifrit_tile`` (kept tiles waiting to be placed, or None),
    ``removed`` (tiles out of the game per environment), ``stacks`` (``stacks[id - 1]`` tiles on
    region ``id``), ``jinn`` / ``ifrit`` (sorted region ids of each player's servants).
    """

    game: AkrosGame
    turn: int
    step: int
    bag: tuple[int, int, int]
    temple: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    draft: tuple[int, ...]
    jinn_tile: int | None
    ifrit_tile: int | None
    removed: tuple[int, int, int]
    stacks: tuple[int, ...]
    jinn: tuple[int, ...]
    ifrit: tuple[int, ...]

    # --- facts ---

    @property
    def board(self) -> Board:
        return self.game.board

    @property
    def current_player(self) -> int:
        return _PLAYER_OF_STEP[self.step]

    @property
    def step_name(self) -> str:
        return rules.STEP_NAMES[self.step]

    def occupied(self) -> int:
        """The occupied regions (a servant of either player) as a bitmask."""
        return servants_mask(self.jinn) | servants_mask(self.ifrit)

    def contested(self) -> frozenset[int]:
        """The regions contested right now (adjacent to two or more Ifrit-held regions)."""
        mask = contested_regions(self.ifrit, self.game.board.neighbour_masks)
        return frozenset(r for r in self.game.board.region_ids if mask >> r & 1)

    def tile_in_hand(self) -> int | None:
        """The tile the player to move is placing (at a place step), else None."""
        if self.step == IFRIT_PLACE:
            return self.ifrit_tile
        if self.step == JINN_PLACE:
            return self.jinn_tile
        return None

    # --- moves ---

    def legal_actions(self) -> tuple[AkrosAction, ...]:
        step = self.step
        if step == JINN_KEEP:
            return tuple(Keep(tile) for tile in sorted(set(self.draft)))
        if step == IFRIT_KEEP:
            if len(self.draft) == 1:
                return (Keep(self.draft[0]),)
            first, second = self.draft
            if first == second:
                return (KeepDiscard(first, second),)
            return (KeepDiscard(first, second), KeepDiscard(second, first))
        if step == IFRIT_PLACE:
            board = self.game.board
            tile = self.ifrit_tile
            places = rules.ifrit_placements(
                tile,
                self.ifrit,
                servants_mask(self.jinn) | servants_mask(self.ifrit),
                board.neighbour_masks,
                board.environment_masks[tile],
            )
            return tuple(places) if places else (Remove(tile),)
        if step == JINN_PLACE:
            board = self.game.board
            tile = self.jinn_tile
            places = rules.jinn_placements(
                tile,
                self.jinn,
                servants_mask(self.jinn) | servants_mask(self.ifrit),
                contested_regions(self.ifrit, board.neighbour_masks),
                board.environment_masks[tile],
            )
            return tuple(places) if places else (Remove(tile),)
        return ()

    def chance_outcomes(self) -> tuple[tuple[Draw, Fraction], ...]:
        if self.step != DRAW:
            return super().chance_outcomes()  # type: ignore[return-value]
        return rules.draw_outcomes(self.bag)

    def sample_chance(self, rng: random.Random) -> Draw:
        """Draw three tiles one at a time from the bag (the same law as :meth:`chance_outcomes`)."""
        bag = list(self.bag)
        tiles = []
        for _ in range(rules.TILES_DRAWN):
            pick = rng.randrange(bag[0] + bag[1] + bag[2])
            tile = 0 if pick < bag[0] else 1 if pick < bag[0] + bag[1] else 2
            bag[tile] -= 1
            tiles.append(tile)
        tiles.sort()
        return Draw(tuple(tiles))

    def chance_probability(self, action: object) -> Fraction:
        if self.step != DRAW or not isinstance(action, Draw):
            return Fraction(0)
        for outcome, probability in rules.draw_outcomes(self.bag):
            if outcome == action:
                return probability
        return Fraction(0)

    def apply_trusted(self, action: AkrosAction) -> AkrosState:
        # States are built positionally (field order: game, turn, step, bag, temple, draft,
        # jinn_tile, ifrit_tile, removed, stacks, jinn, ifrit): this is the search hot path.
        step = self.step
        if step == DRAW:
            bag = list(self.bag)
            for tile in action.tiles:  # type: ignore[union-attr]
                bag[tile] -= 1
            return AkrosState(
                self.game, self.turn, JINN_KEEP, (bag[0], bag[1], bag[2]), self.temple,
                action.tiles, None, None, self.removed, self.stacks, self.jinn, self.ifrit,  # type: ignore[union-attr]
            )  # fmt: skip
        if step == JINN_KEEP:
            tile = action.tile  # type: ignore[union-attr]
            return AkrosState(
                self.game, self.turn, IFRIT_KEEP, self.bag, self.temple, _take(self.draft, tile),
                tile, None, self.removed, self.stacks, self.jinn, self.ifrit,
            )  # fmt: skip
        if step == IFRIT_KEEP:
            temple = self.temple
            if isinstance(action, KeepDiscard):
                pile = rules.discard_pile(self.turn)
                piles = list(temple)
                piles[pile] = tuple(sorted((*piles[pile], action.discard)))  # type: ignore[index]
                temple = (piles[0], piles[1], piles[2])
                kept = action.keep
            else:  # turn 9: the Ifrit keeps her lone tile
                kept = action.tile  # type: ignore[union-attr]
            return AkrosState(
                self.game, self.turn, IFRIT_PLACE, self.bag, temple, (), self.jinn_tile, kept,
                self.removed, self.stacks, self.jinn, self.ifrit,
            )  # fmt: skip
        if step == IFRIT_PLACE:
            if isinstance(action, Remove):
                removed, stacks, ifrit = _add(self.removed, action.tile), self.stacks, self.ifrit
            else:
                removed = self.removed
                stacks = _stack(self.stacks, action.region)  # type: ignore[union-attr]
                ifrit = _move(self.ifrit, action.source, action.region)  # type: ignore[union-attr]
            return AkrosState(
                self.game, self.turn, JINN_PLACE, self.bag, self.temple, (), self.jinn_tile, None,
                removed, stacks, self.jinn, ifrit,
            )  # fmt: skip
        if step == JINN_PLACE:
            if isinstance(action, Remove):
                return self._end_turn(self.stacks, self.jinn, _add(self.removed, action.tile))
            return self._end_turn(
                _stack(self.stacks, action.region),  # type: ignore[union-attr]
                _move(self.jinn, action.source, action.region),  # type: ignore[union-attr]
                self.removed,
            )
        raise ValueError(f"no action applies at step {self.step_name}")

    def _end_turn(
        self, stacks: tuple[int, ...], jinn: tuple[int, ...], removed: tuple[int, int, int]
    ) -> AkrosState:
        """A turn ends after the Jinn places; the next one draws from the bag or the Temple."""
        turn = self.turn + 1
        bag, temple, draft = self.bag, self.temple, ()
        if turn > TURNS:
            turn, step = TURNS, OVER
        elif turn <= rules.BAG_TURNS:
            step = DRAW
        else:
            step = JINN_KEEP
            if turn == rules.BAG_TURNS + 1:
                removed, bag = remove_bag(removed, bag)
            pile = rules.source_pile(turn)
            piles = list(temple)
            draft = piles[pile]  # type: ignore[index]
            piles[pile] = ()  # type: ignore[index]
            temple = (piles[0], piles[1], piles[2])
        return AkrosState(
            self.game, turn, step, bag, temple, draft, None, None, removed, stacks, jinn, self.ifrit
        )

    def explain_illegal(self, action: object) -> str:
        return illegal_reason(self, action)

    # --- for front ends, and text ---

    def view(self) -> dict[str, Any]:
        """For front ends: the board (regions with environment, drawing place, stack, servant,
        contested), the Temple, the bag, the hands and the score per environment."""
        board = self.game.board
        contested = self.contested()
        letters = rules.ENVIRONMENT_LETTERS

        def tiles(items: tuple[int, ...]) -> list[str]:
            return [letters[t] for t in items]

        servant = {r: "J" for r in self.jinn} | {r: "I" for r in self.ifrit}
        counted = {player: self._servants_and_tiles(player) for player in (JINN, IFRIT)}
        pile = rules.discard_pile(self.turn)
        return {
            "position": str(self),
            "board": board.name,
            "turn": self.turn,
            "step": self.step_name,
            "to_move": self.player_name(),
            "regions": [
                {
                    "id": region.id,
                    "environment": letters[region.environment],
                    "row": region.row,
                    "col": region.col,
                    "neighbours": list(region.neighbours),
                    "stack": self.stacks[region.id - 1],
                    "servant": servant.get(region.id),
                    "contested": region.id in contested,
                }
                for region in board.regions
            ],
            "temple": {
                "7": tiles(self.temple[0]),
                "8": tiles(self.temple[1]),
                "9": tiles(self.temple[2]),
            },
            "bag": dict(zip(letters, self.bag, strict=True)),
            "draft": tiles(self.draft),
            # Where this turn's discard goes (a Temple pile's name), or None (turn 9).
            "discard_pile": None if pile is None else str(7 + pile),
            "hands": {
                "jinn": None if self.jinn_tile is None else letters[self.jinn_tile],
                "ifrit": None if self.ifrit_tile is None else letters[self.ifrit_tile],
            },
            "removed": dict(zip(letters, self.removed, strict=True)),
            "environments": [
                {
                    "environment": letters[score.environment],
                    "name": score.name,
                    "jinn": score.jinn,
                    "ifrit": score.ifrit,
                    # The rulebook's count: 1 per servant plus the tiles stacked under it.
                    "jinn_servants": counted[JINN][score.environment][0],
                    "jinn_tiles": counted[JINN][score.environment][1],
                    "ifrit_servants": counted[IFRIT][score.environment][0],
                    "ifrit_tiles": counted[IFRIT][score.environment][1],
                    "claimed_by": None
                    if score.claimed_by is None
                    else PLAYER_NAMES[score.claimed_by],
                }
                for score in self.environment_scores()
            ],
            "scores": list(self.scores()),
        }

    def __str__(self) -> str:
        return format_position(
            self.turn,
            self.step,
            self.bag,
            self.temple,
            self.draft,
            self.jinn_tile,
            self.ifrit_tile,
            self.removed,
            self.stacks,
            self.jinn,
            self.ifrit,
        )

    def __repr__(self) -> str:
        return f"AkrosState({str(self)!r})"


def _take(tiles: tuple[int, ...], tile: int) -> tuple[int, ...]:
    index = tiles.index(tile)
    return tiles[:index] + tiles[index + 1 :]


def _add(counts: tuple[int, int, int], tile: int) -> tuple[int, int, int]:
    changed = list(counts)
    changed[tile] += 1
    return (changed[0], changed[1], changed[2])


def _stack(stacks: tuple[int, ...], region: int) -> tuple[int, ...]:
    """Place: the tile stacks on the region ("a region's environment never changes")."""
    return (*stacks[: region - 1], stacks[region - 1] + 1, *stacks[region:])


def _move(servants: tuple[int, ...], source: int, target: int) -> tuple[int, ...]:
    return tuple(sorted(target if region == source else region for region in servants))


def remove_bag(
    removed: tuple[int, int, int], bag: tuple[int, int, int]
) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """ "After turn 6 the last tile in the bag is removed unseen" (all that is left of it)."""
    return (removed[0] + bag[0], removed[1] + bag[1], removed[2] + bag[2]), (0, 0, 0)
