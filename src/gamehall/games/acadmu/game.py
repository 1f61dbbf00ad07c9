"""Äcädmü ("Tokens") on the core protocol: the match, its rounds, the draw and the pour.

Position notation (later tools depend on it)::

    3,0,2,2,1,1,2,2,1/1,0,1,1,1,2,2,1,5 d -

``<dark>/<light> <to move> <passed>``: each side is nine counts in the order
RT,RS,RC,BT,BS,BC,YT,YS,YC; ``<to move>`` is ``d`` or ``l``; ``<passed>`` is ``-`` or the side
that has passed. A bare position like this is a one-round game: it ends when the round ends, and
its returns are the count difference.

Inside a match two fields follow: the match score before this round and who went first in it::

    3,0,2,2,1,1,2,2,1/1,0,1,1,1,2,2,1,5 d - 4-7 l

The chance phases have their own short forms: ``draw`` (the first-player draw, before round 1)
and ``pour d 0-0`` (the pour of a round that ``d`` will start, with the match score).

Actions: ``RTxBS`` (own Red Triangle takes a Blue Square, by colour), ``RTxRS+YS`` (by shape: the
two taken in pairing order), ``pass``; chance: ``draw RT:BS/YC:RT`` (each side's drawn disc,
up-face:down-face) and ``pour <dark>/<light>`` (the up-face counts after the pour).
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache
from typing import Any, ClassVar

from gamehall.core.errors import InvalidOptionError, NotationError
from gamehall.core.game import Action, Game, Option
from gamehall.games.acadmu.actions import (
    DARK,
    LIGHT,
    NO_ONE,
    PASS,
    SIDE_LETTERS,
    Draw,
    Move,
    Pour,
    format_counts,
    parse_counts,
    parse_sides,
)
from gamehall.games.acadmu.discs import (
    Counts,
    DiscSet,
    default_disc_set,
    disc_set_from_data,
    load_disc_set,
)
from gamehall.games.acadmu.first_player import (
    draw_reason,
    faces_compared,
    first_player_by_draw,
    first_player_by_faces,
)
from gamehall.games.acadmu.state import AcadmuState, Phase
from gamehall.games.acadmu.tokens import COLOUR_PAIRS, beaten, colour_of, pairing_name, shape_of

__all__ = [
    "DARK",
    "LIGHT",
    "MAX_DISCS",
    "MAX_DISC_TEXT",
    "MAX_TARGET",
    "NO_ONE",
    "PASS",
    "SIDE_LETTERS",
    "AcadmuGame",
    "AcadmuState",
    "Counts",
    "Draw",
    "Move",
    "Phase",
    "Pour",
    "draw_reason",
    "faces_compared",
    "first_player_by_draw",
    "first_player_by_faces",
    "format_counts",
    "parse_counts",
    "parse_sides",
]

MAX_DISCS = 200
"""The largest disc set accepted (the pour's exact probability is a DP over the discs)."""
MAX_DISC_TEXT = 6 * MAX_DISCS
"""The longest disc set written out (``RT:BT,`` is six characters a disc)."""
MAX_TARGET = 999
"""The highest match target: a match must end in a bounded number of rounds."""


def _disc_set_problem(discs: DiscSet) -> str | None:
    if len(discs) > MAX_DISCS:
        return f"a disc set holds at most {MAX_DISCS} discs, not {len(discs)}"
    faces = list(discs.draw_faces)
    if all(first_player_by_draw(Draw(d, lt)) == NO_ONE for d in faces for lt in faces):
        return "with this disc set every first-player draw ties, so no match could start"
    return None


def _disc_data_check(value: str) -> str | None:
    try:
        discs = disc_set_from_data(value)
    except InvalidOptionError as error:
        return str(error)
    return _disc_set_problem(discs)


def _disc_file_check(value: str) -> str | None:
    if not value:
        return None
    try:
        discs = load_disc_set(value)
    except InvalidOptionError as error:
        return str(error)
    return _disc_set_problem(discs)


class AcadmuGame(Game):
    """Äcädmü: a match of rounds to a target score."""

    name: ClassVar[str] = "acadmu"
    title: ClassVar[str] = "Äcädmü"
    rules_version: ClassVar[str] = "1"
    player_names: ClassVar[tuple[str, ...]] = ("dark", "light")
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option(
            "target",
            12,
            "points that win the match (12, 18, 24 or any other number up to 999)",
            "int",
            minimum=1,
            maximum=MAX_TARGET,
        ),
        Option(
            "shape_capture_takes_one_if_last",
            False,
            "when one opponent token of the beaten shape is left, the shape rule may take it alone",
            "bool",
        ),
        Option(
            "discs",
            "default",
            "the disc set: 'default', or written out as RT:BT,RT:BS,... (front:back per disc)",
            "data",
            _disc_data_check,
            max_length=MAX_DISC_TEXT,
        ),
        Option(
            "discs_file",
            "",
            "a disc set from a TOML file (see data/default_discs.toml)",
            "path",
            _disc_file_check,
            max_length=4096,
        ),
    )
    MOVE_INDICES: ClassVar[int] = 81 + 54 + 1

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.target: int = self.options["target"]
        self.take_one_if_last: bool = self.options["shape_capture_takes_one_if_last"]
        if self.options["discs_file"]:
            if self.options["discs"] != "default":
                raise InvalidOptionError("give the disc set as discs or as discs_file, not both")
            self.disc_set: DiscSet = load_disc_set(self.options["discs_file"])
        else:
            self.disc_set = disc_set_from_data(self.options["discs"])

    def variant_tags(self) -> dict[str, str]:
        return super().record_tags()

    def _identity(self) -> tuple[object, ...]:
        """What makes two games the same: the rules' values, whichever way the disc set was
        named (a file, inline, or 'default')."""
        return (self.target, self.take_one_if_last, self.disc_set.discs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AcadmuGame) and self._identity() == other._identity()

    def __hash__(self) -> int:
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = self.__dict__["_hash"] = hash(self._identity())
        return cached

    @property
    def draw_outcomes(self) -> tuple[tuple[Draw, Fraction], ...]:
        """The first-player draw's outcomes: both sides' (up, down) faces, exact probabilities."""
        return _draw_outcomes(self.disc_set)

    def record_tags(self) -> dict[str, str]:
        """A disc set loaded from a file travels inline in the Variant tag, so records replay
        on any machine."""
        options = {**self.options, "discs_file": ""}
        if self.disc_set.discs == default_disc_set().discs:
            options["discs"] = "default"
        else:
            options["discs"] = self.disc_set.inline()
        return AcadmuGame(**options).variant_tags()

    def new_initial_state(self) -> AcadmuState:
        return AcadmuState(self, "draw")

    def round_state(self, dark: Counts, light: Counts, to_move: int = DARK) -> AcadmuState:
        """A bare one-round position (no match around it)."""
        return AcadmuState(self, "play", tuple(dark), tuple(light), to_move)

    def parse_state(self, text: str) -> AcadmuState:
        fields = text.split()
        if fields == ["draw"]:
            return AcadmuState(self, "draw")
        if fields and fields[0] == "pour":
            if len(fields) != 3:
                raise NotationError(
                    "Äcädmü position", text, "'pour <d|l> <dark score>-<light score>'"
                )
            state = AcadmuState(
                self, "pour", (), (), _side(fields[1], "first player"), NO_ONE, _scores(fields[2])
            )
            state.validate()
            return state
        if len(fields) not in (3, 5):
            raise NotationError(
                "Äcädmü position",
                text,
                "'<dark>/<light> <to move d|l> <passed -|d|l>' optionally followed by "
                "'<dark score>-<light score> <first d|l>'",
            )
        dark, light = parse_sides(fields[0])
        to_move = _side(fields[1], "side to move")
        passed = NO_ONE if fields[2] == "-" else _side(fields[2], "side that passed (or -)")
        scores, first = (0, 0), None
        if len(fields) == 5:
            scores, first = _scores(fields[3]), _side(fields[4], "first player of the round")
        state = AcadmuState(self, "play", dark, light, to_move, passed, scores, first)
        state.validate()
        return state

    def parse_action(self, text: str) -> Action:
        stripped = text.strip()
        lowered = stripped.lower()
        if lowered.startswith("draw"):
            return Draw.parse(stripped)
        if lowered.startswith("pour"):
            return Pour.parse(stripped)
        return Move.parse(stripped)

    @property
    def num_distinct_actions(self) -> int:
        return self.MOVE_INDICES

    def action_index(self, action: Action) -> int:
        """Dense index: single takes ``own*9 + taken`` (0–80), double takes by shape
        ``81 + own*6 + colour pair`` (81–134), pass 135."""
        if not isinstance(action, Move):
            raise ValueError(f"{action!r} is not an Äcädmü move")
        if action.is_pass:
            return 135
        if len(action.taken) == 1:
            return action.own * 9 + action.taken[0]
        victim_shape = beaten(shape_of(action.own))
        if any(shape_of(t) != victim_shape for t in action.taken):
            raise ValueError(f"{action} takes two tokens that are not of the shape its own beats")
        first, second = (colour_of(t) for t in action.taken)
        return 81 + action.own * 6 + COLOUR_PAIRS.index((first, second))

    def index_action(self, index: int) -> Move:
        if index == 135:
            return PASS
        if 0 <= index < 81:
            return Move(index // 9, (index % 9,))
        if 81 <= index < 135:
            own, pair = divmod(index - 81, 6)
            shape = beaten(shape_of(own))
            first, second = COLOUR_PAIRS[pair]
            return Move(own, (first * 3 + shape, second * 3 + shape))
        raise ValueError(f"action index {index} is outside 0..135")

    def action_parts(self, action: Action) -> dict[str, Any]:
        """For front ends: a capture's own pairing, the pairings it takes and whether it takes
        by colour or by shape (``{"kind": "capture", "own": "RT", "taken": ["BS"], "by":
        "colour"}``); ``{"kind": "pass"}``; the draw's faces (up, down) and the pour's counts."""
        if isinstance(action, Move):
            if action.is_pass:
                return {"kind": "pass"}
            return {
                "kind": "capture",
                "own": pairing_name(action.own),
                "taken": [pairing_name(t) for t in action.taken],
                "by": "shape" if action.by_shape else "colour",
            }
        if isinstance(action, Draw):
            first = first_player_by_draw(action)
            return {
                "kind": "draw",
                "dark": [pairing_name(f) for f in action.dark],
                "light": [pairing_name(f) for f in action.light],
                "first": None if first == NO_ONE else self.player_names[first],
                "reason": draw_reason(action),
            }
        if isinstance(action, Pour):
            return {"kind": "pour", "dark": list(action.dark), "light": list(action.light)}
        return {}


@cache
def _draw_outcomes(disc_set: DiscSet) -> tuple[tuple[Draw, Fraction], ...]:
    faces = disc_set.draw_faces
    return tuple((Draw(d, lt), pd * pl) for d, pd in faces.items() for lt, pl in faces.items())


def _side(text: str, what: str) -> int:
    if text not in ("d", "l"):
        raise NotationError(what, text, "d (dark) or l (light)")
    return SIDE_LETTERS.index(text)


def _scores(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"([0-9]{1,6})-([0-9]{1,6})", text)
    if match is None:
        raise NotationError("match score", text, "<dark score>-<light score>, e.g. 4-7")
    return int(match[1]), int(match[2])
