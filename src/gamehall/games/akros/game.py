"""Akros on the core protocol: :class:`AkrosGame` makes immutable :class:`AkrosState` values.

Players: ``0`` the Jinn, ``1`` the Ifrit (``player_names = ("jinn", "ifrit")``; record tags
``Jinn`` and ``Ifrit``). A turn runs through these steps (``state.step``)::

    draw (chance, turns 1–6) → jinn-keep → ifrit-keep → ifrit-place → jinn-place → next turn

* ``draw``: a chance node whose outcomes are the multisets of three environments (``draw FMM``)
  with exact hypergeometric probabilities over the bag's contents.
* Turns 7–9 have no chance node: the Jinn picks up Temple pile 7, 8 or 9 and the turn starts at
  ``jinn-keep``. After turn 6 the bag's last tile is removed unseen: that is not a choice and its
  environment follows by counting, so it is part of the transition into turn 7 (the position shows
  ``bag=F0S0M0`` and the tile under ``out``), not an action.
* A kept tile with no legal place leaves the game by the forced action ``remove M`` (the only legal
  action then), so the record shows it; no servant moves.

The option ``board`` selects the board: ``dawn`` (packaged) or a path to a TOML board file
(see :mod:`gamehall.games.akros.board`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from gamehall.core.errors import InvalidOptionError, InvalidStateError
from gamehall.core.game import CHANCE, TERMINAL, Game, Option, Outcome, State
from gamehall.games.akros import rules
from gamehall.games.akros.board import (
    DEFAULT_BOARD,
    Board,
    board_from_json,
    board_from_text,
    load_board,
    packaged_board,
    packaged_board_names,
)
from gamehall.games.akros.notation import format_position, parse_action, parse_position
from gamehall.games.akros.rules import (
    DRAW,
    ENVIRONMENT_LETTERS,
    ENVIRONMENT_NAMES,
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

AkrosAction = Draw | Keep | KeepDiscard | Place | Remove

_PLAYER_OF_STEP = (CHANCE, JINN, IFRIT, IFRIT, JINN, TERMINAL)

MAX_BOARD_TEXT = 16_384
"""The longest board written out as an option value (the default board is about 2,500)."""


def _board_data_check(value: str) -> str | None:
    if not value:
        return None
    try:
        board_from_text(value)
    except InvalidOptionError as error:
        return str(error)
    return None


def _board_file_check(value: str) -> str | None:
    if not value:
        return None
    try:
        load_board(value)
    except InvalidOptionError as error:
        return str(error)
    return None


class AkrosGame(Game):
    """Akros: the Jinn against the Ifrit over a board of Forest, Sea and Mountain regions.

    Records: a game on the packaged ``dawn`` board needs no tag. On any other board,
    :meth:`record_tags` writes ``[Board "NAME"]`` and ``[BoardData "{...}"]``, the whole board as
    one line of JSON (the TOML file's layout with explicit neighbour lists, see
    :meth:`Board.to_json`), so a record replays on a machine that does not have the board file.
    """

    name: ClassVar[str] = "akros"
    title: ClassVar[str] = "Akros"
    rules_version: ClassVar[str] = "1"
    player_names: ClassVar[tuple[str, ...]] = PLAYER_NAMES
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option(
            "board",
            DEFAULT_BOARD,
            "the board: one of the boards that come with the game",
            "choice",
            choices=lambda: tuple(sorted(packaged_board_names())),
        ),
        Option(
            "board_data",
            "",
            "a board written out as TOML or JSON (regions, environments, neighbours, starts)",
            "data",
            _board_data_check,
            max_length=MAX_BOARD_TEXT,
        ),
        Option(
            "board_file",
            "",
            "a board from a TOML file",
            "path",
            _board_file_check,
            max_length=4096,
        ),
    )

    def __init__(self, **options: Any) -> None:
        board = options.pop("board", None)
        given = board
        if isinstance(board, Board):
            options["board_data"] = board.to_json()
        elif board is not None:
            options["board"] = board
        super().__init__(**options)
        chosen = [name for name in ("board_data", "board_file") if self.options[name]]
        if len(chosen) > 1 or (chosen and self.options["board"] != DEFAULT_BOARD):
            raise InvalidOptionError(
                "give one board: a packaged board, board_data or board_file, not several"
            )
        if isinstance(given, Board):
            self.board: Board = given
        elif self.options["board_data"]:
            self.board = board_from_text(self.options["board_data"])
        elif self.options["board_file"]:
            self.board = load_board(self.options["board_file"])
        else:
            self.board = packaged_board(self.options["board"])
        self._hash = hash((type(self), self.board))
        self._num_actions = rules.num_distinct_actions(self.board.size)

    # --- records ---

    def record_tags(self) -> dict[str, str]:
        tags = {}
        if self.board != packaged_board(DEFAULT_BOARD):
            tags["Board"] = self.board.name
            tags["BoardData"] = self.board.to_json()
        return tags

    @classmethod
    def from_record_tags(cls, tags: Mapping[str, str]) -> AkrosGame:
        if "BoardData" in tags:
            board = board_from_json(tags["BoardData"], source=tags.get("Board", "<record>"))
            return cls(board=board)
        if "Board" in tags:
            return cls(board=tags["Board"])  # a packaged board, by name
        variant = cls.from_variant_text(tags.get("Variant", ""))
        assert isinstance(variant, AkrosGame)
        return variant

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.board == other.board  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return self._hash

    # --- states ---

    def new_initial_state(self) -> AkrosState:
        board = self.board
        return AkrosState(
            game=self,
            turn=1,
            step=DRAW,
            bag=board.bag,
            temple=((), (), ()),
            draft=(),
            jinn_tile=None,
            ifrit_tile=None,
            removed=(0, 0, 0),
            stacks=(0,) * board.size,
            jinn=board.jinn_start,
            ifrit=board.ifrit_start,
        )

    def parse_state(self, text: str) -> AkrosState:
        fields = parse_position(text)
        state = AkrosState(
            game=self,
            turn=fields.turn,
            step=fields.step,
            bag=fields.bag,
            temple=fields.temple,
            draft=fields.draft,
            jinn_tile=fields.jinn_tile,
            ifrit_tile=fields.ifrit_tile,
            removed=fields.removed,
            stacks=fields.stacks,
            jinn=fields.jinn,
            ifrit=fields.ifrit,
        )
        problem = position_problem(state)
        if problem:
            raise InvalidStateError(f"impossible Akros position {text!r}: {problem}")
        return state

    def parse_action(self, text: str) -> AkrosAction:
        return parse_action(text)

    @property
    def max_game_length(self) -> int:
        """Nine turns of four decisions (two keeps, two placements), and a draw from the bag on
        each of turns 1–6: 42 actions, on any board."""
        return 4 * rules.TURNS + rules.BAG_TURNS

    @property
    def num_distinct_actions(self) -> int:
        return self._num_actions

    def action_index(self, action: object) -> int:
        return rules.action_index(action, self.board.size)

    def index_action(self, index: int) -> Keep | KeepDiscard | Remove | Place:
        return rules.index_action(index, self.board.size)

    def action_parts(self, action: object) -> dict[str, Any]:
        """For front ends: the kind of action and its tiles, region and servant's source
        (``{"kind": "place", "tile": "M", "region": 5, "source": 10}``; ``keep``,
        ``keep-discard`` with ``discard``, ``remove``; the chance ``draw`` with its ``tiles``)."""
        letter = ENVIRONMENT_LETTERS  # tile index → its letter F, S or M
        if isinstance(action, Place):
            return {
                "kind": "place",
                "tile": letter[action.tile],
                "region": action.region,
                "source": action.source,
            }
        if isinstance(action, Keep):
            return {"kind": "keep", "tile": letter[action.tile]}
        if isinstance(action, KeepDiscard):
            return {
                "kind": "keep-discard",
                "tile": letter[action.keep],
                "discard": letter[action.discard],
            }
        if isinstance(action, Remove):
            return {"kind": "remove", "tile": letter[action.tile]}
        if isinstance(action, Draw):
            return {"kind": "draw", "tiles": [letter[t] for t in action.tiles]}
        return {}


@dataclass(frozen=True)
class EnvironmentScore:
    """One environment's count: each player's score and who claims it (None: equal scores)."""

    environment: int
    jinn: int
    ifrit: int
    claimed_by: int | None

    @property
    def name(self) -> str:
        return ENVIRONMENT_NAMES[self.environment]


@dataclass(frozen=True, slots=True)
class AkrosState(State):
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

    # --- the end ---

    def environment_scores(self) -> tuple[EnvironmentScore, ...]:
        """Each environment's scores and claimant as the board stands (usable mid-game)."""
        environments = self.game.board.environments
        jinn = rules.environment_totals(self.jinn, self.stacks, environments)
        ifrit = rules.environment_totals(self.ifrit, self.stacks, environments)
        return tuple(
            EnvironmentScore(e, jinn[e], ifrit[e], rules.claimant(jinn[e], ifrit[e]))
            for e in rules.ENVIRONMENTS
        )

    def claims(self) -> tuple[int, int]:
        """How many environments each player claims as the board stands (Jinn, Ifrit)."""
        scores = self.environment_scores()
        return (
            sum(1 for s in scores if s.claimed_by == JINN),
            sum(1 for s in scores if s.claimed_by == IFRIT),
        )

    def returns(self) -> tuple[float, float]:
        if self.step != OVER:
            return (0.0, 0.0)
        return (1.0, -1.0) if rules.winner(*self.claims()) == JINN else (-1.0, 1.0)

    def outcome(self) -> Outcome | None:
        if self.step != OVER:
            return None
        scores = self.environment_scores()
        jinn_claims, ifrit_claims = self.claims()
        winner = rules.winner(jinn_claims, ifrit_claims)
        parts = []
        for player in (JINN, IFRIT):
            names = [s.name for s in scores if s.claimed_by == player]
            if names:
                parts.append(f"{PLAYER_NAMES[player].capitalize()} claims {', '.join(names)}")
        ties = [s.name for s in scores if s.claimed_by is None]
        if ties:
            parts.append(f"{', '.join(ties)} unclaimed")
        if jinn_claims == ifrit_claims:
            parts.append(f"claims {jinn_claims}–{ifrit_claims} go to the Ifrit")
        return Outcome(winner, "; ".join(parts), (float(jinn_claims), float(ifrit_claims)))

    def scores(self) -> tuple[float, ...]:
        """How many environments each player claims as the board stands (Jinn, Ifrit)."""
        jinn_claims, ifrit_claims = self.claims()
        return (float(jinn_claims), float(ifrit_claims))

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

    def _servants_and_tiles(self, player: int) -> list[tuple[int, int]]:
        """Per environment, ``player``'s servants on it and the tiles stacked under them."""
        environments = self.game.board.environments
        counts = [(0, 0)] * len(rules.ENVIRONMENTS)
        for region in self.jinn if player == JINN else self.ifrit:
            servants, tiles = counts[environments[region]]
            counts[environments[region]] = (servants + 1, tiles + self.stacks[region - 1])
        return counts

    def evaluate(self, player: int) -> float:
        """Claims margin plus a tenth of the summed score margins, squashed into (-1, 1); the
        Ifrit gets half a claim for winning ties."""
        if self.step == OVER:
            return self.returns()[player]
        scores = self.environment_scores()
        jinn_claims, ifrit_claims = self.claims()
        margin = ifrit_claims - jinn_claims + 0.5
        margin += 0.1 * sum(s.ifrit - s.jinn for s in scores)
        value = margin / (1 + abs(margin))
        return value if player == IFRIT else -value

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


# --- explaining illegal actions ------------------------------------------------------------------


def illegal_reason(state: AkrosState, action: object) -> str:
    """Why ``action`` is not legal in ``state``, as specifically as the rules allow."""
    step = state.step
    who = PLAYER_NAMES[state.current_player].capitalize() if state.step not in (DRAW, OVER) else ""
    expected = {
        JINN_KEEP: "the Jinn keeps a drawn tile ('keep F')",
        IFRIT_KEEP: "the Ifrit keeps one tile and discards the other ('keep S discard M')"
        if len(state.draft) == 2
        else "the Ifrit keeps her lone tile ('keep F')",
        IFRIT_PLACE: "the Ifrit places her tile ('M5<10') or removes it",
        JINN_PLACE: "the Jinn places his tile ('M5<10') or removes it",
    }
    if isinstance(action, Draw):
        return "draws are chance outcomes; " + expected.get(step, "nothing is drawn now")
    if step in (JINN_KEEP, IFRIT_KEEP):
        drafted = rules.tiles_text(state.draft)
        if isinstance(action, Keep):
            if step == IFRIT_KEEP and len(state.draft) == 2:
                return f"the Ifrit must also discard one of {drafted} ('keep S discard M')"
            return f"no {ENVIRONMENT_NAMES[action.tile]} among the tiles in hand ({drafted})"
        if isinstance(action, KeepDiscard):
            if step == JINN_KEEP:
                return "the Jinn keeps one tile and passes the rest; only the Ifrit discards"
            if len(state.draft) == 1:
                return "on turn 9 the Ifrit receives one tile and keeps it; nothing is discarded"
            return (
                f"the Ifrit holds {drafted}; she cannot keep "
                f"{ENVIRONMENT_LETTERS[action.keep]} and discard "
                f"{ENVIRONMENT_LETTERS[action.discard]}"
            )
        return f"it is the draft: {expected[step]}"
    if step in (IFRIT_PLACE, JINN_PLACE):
        tile = state.tile_in_hand()
        assert tile is not None
        tile_name = ENVIRONMENT_NAMES[tile]
        legal = state.legal_actions()
        if isinstance(action, Remove):
            if action.tile != tile:
                return f"the {who}'s tile is {tile_name}, not {ENVIRONMENT_NAMES[action.tile]}"
            return (
                f"the tile can be placed (e.g. {legal[0]}); a tile is removed only when it cannot"
            )
        if isinstance(action, Place):
            return _place_reason(state, action, tile, legal)
        return f"it is time to place: {expected[step]}"
    if step == OVER:
        return "the game is over"
    return "it is a chance node: only a draw happens here"


def _place_reason(state: AkrosState, action: Place, tile: int, legal: tuple[object, ...]) -> str:
    board = state.game.board
    tile_name = ENVIRONMENT_NAMES[tile]
    ifrit_turn = state.step == IFRIT_PLACE
    who = "Ifrit" if ifrit_turn else "Jinn"
    if action.tile != tile:
        return f"the {who}'s tile is {tile_name}, not {ENVIRONMENT_NAMES[action.tile]}"
    if isinstance(legal[0], Remove):
        return f"the {tile_name} tile has no legal place: it must be removed ('{legal[0]}')"
    for region in (action.region, action.source):
        if not 1 <= region <= board.size:
            return f"there is no region {region} (regions are 1 to {board.size})"
    own = state.ifrit if ifrit_turn else state.jinn
    if action.source not in own:
        return f"no {who} servant stands on region {action.source}"
    region_environment = board.environment_of(action.region)
    if region_environment != tile:
        return (
            f"region {action.region} is {ENVIRONMENT_NAMES[region_environment]}, "
            f"the tile is {tile_name}"
        )
    if state.occupied() >> action.region & 1:
        return f"region {action.region} is occupied"
    if ifrit_turn:
        return f"servant at {action.source} cannot reach {action.region} in one step"
    contested = contested_regions(state.ifrit, board.neighbour_masks)
    if contested >> action.region & 1:
        return f"region {action.region} is contested"
    movers = rules.jinn_movers(state.jinn, contested)
    if action.source not in movers:
        shown = ", ".join(str(r) for r in movers)
        return f"a Jinn servant on contested region {shown} must move first"
    return "not a legal placement"


# --- checking positions --------------------------------------------------------------------------


def position_problem(state: AkrosState) -> str | None:
    """What makes a parsed position impossible under the rules, or None if it can occur."""
    board = state.game.board
    turn, step = state.turn, state.step
    if len(state.stacks) != board.size:
        return f"{len(state.stacks)} regions given, the board has {board.size}"
    for player, servants in (("Jinn", state.jinn), ("Ifrit", state.ifrit)):
        if len(servants) != board.servants:
            return f"{len(servants)} {player} servants, expected {board.servants}"
    if step == DRAW and turn > rules.BAG_TURNS:
        return f"turn {turn} draws from the Temple, not the bag"
    if step == OVER and turn != TURNS:
        return "a finished game is shown at turn 9"
    in_hand = len(state.draft)
    drafted = 2 if turn == TURNS else 3
    expected_draft = {JINN_KEEP: drafted, IFRIT_KEEP: drafted - 1}.get(step, 0)
    if in_hand != expected_draft:
        return f"the draft holds {in_hand} tiles at {state.step_name} of turn {turn}, expected {expected_draft}"
    jinn_holds = step in (IFRIT_KEEP, IFRIT_PLACE, JINN_PLACE)
    if (state.jinn_tile is not None) != jinn_holds:
        return (
            f"the Jinn {'should' if jinn_holds else 'cannot'} hold a kept tile at {state.step_name}"
        )
    if (state.ifrit_tile is not None) != (step == IFRIT_PLACE):
        return (
            f"the Ifrit {'should' if step == IFRIT_PLACE else 'cannot'} hold a kept tile at "
            f"{state.step_name}"
        )
    # Tiles drawn so far and tiles placed or removed so far, by the clock.
    done_turns = turn if step == OVER else turn - 1
    drawn_this_turn = step != DRAW and turn <= rules.BAG_TURNS
    bag_left = board.tile_count - rules.TILES_DRAWN * (
        min(done_turns, rules.BAG_TURNS) + drawn_this_turn
    )
    if turn > rules.BAG_TURNS:
        bag_left = 0
    if sum(state.bag) != bag_left:
        return f"the bag holds {sum(state.bag)} tiles, expected {bag_left} at this point"
    for index, pile in enumerate(state.temple):
        expected = _pile_size(index, turn, step)
        if len(pile) != expected:
            return f"Temple pile {7 + index} holds {len(pile)} tiles, expected {expected}"
    placed = 2 * done_turns + (step == JINN_PLACE)
    bag_removed = board.tile_count - rules.TILES_DRAWN * rules.BAG_TURNS if turn > 6 else 0
    if sum(state.stacks) + sum(state.removed) - bag_removed != placed:
        return (
            f"{sum(state.stacks)} tiles on the board and {sum(state.removed)} removed do not "
            f"match {placed} tiles placed or removed by now"
        )
    for environment in rules.ENVIRONMENTS:
        count = (
            state.bag[environment]
            + state.removed[environment]
            + state.draft.count(environment)
            + sum(pile.count(environment) for pile in state.temple)
            + (state.jinn_tile == environment)
            + (state.ifrit_tile == environment)
            + sum(
                height
                for region, height in enumerate(state.stacks, 1)
                if board.environment_of(region) == environment
            )
        )
        if count != board.bag[environment]:
            return (
                f"{count} {ENVIRONMENT_NAMES[environment]} tiles accounted for, "
                f"the game has {board.bag[environment]}"
            )
    return None


def _pile_size(index: int, turn: int, step: int) -> int:
    """How many tiles Temple pile 7/8/9 (index 0/1/2) holds at this point of the game."""
    discarded_this_turn = step in (IFRIT_PLACE, JINN_PLACE, OVER)
    first, last = ((1, 3), (4, 6), (7, 8))[index]
    if turn >= index + 7 and not (turn == index + 7 and step == DRAW):
        return 0  # picked up by the Jinn on turn 7, 8 or 9
    done = sum(1 for t in range(first, last + 1) if t < turn or (t == turn and discarded_this_turn))
    return done
