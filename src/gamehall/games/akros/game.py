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

from collections.abc import Mapping
from typing import Any, ClassVar

from gamehall.core.errors import InvalidOptionError, InvalidStateError
from gamehall.core.game import Game, Option
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
from gamehall.games.akros.checks import illegal_reason, position_problem
from gamehall.games.akros.game_end import EnvironmentScore
from gamehall.games.akros.notation import parse_action, parse_position
from gamehall.games.akros.rules import (
    DRAW,
    ENVIRONMENT_LETTERS,
    PLAYER_NAMES,
    Draw,
    Keep,
    KeepDiscard,
    Place,
    Remove,
)
from gamehall.games.akros.state import AkrosAction, AkrosState, remove_bag

__all__ = [
    "MAX_BOARD_TEXT",
    "AkrosAction",
    "AkrosGame",
    "AkrosState",
    "EnvironmentScore",
    "illegal_reason",
    "position_problem",
    "remove_bag",
]

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
