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

import random
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property
from typing import Any, ClassVar, Literal

from gamehall.core.errors import (
    InvalidOptionError,
    InvalidStateError,
    NotationError,
    TooManyOutcomesError,
)
from gamehall.core.game import CHANCE, TERMINAL, Action, Game, Option, Outcome, State
from gamehall.games.acadmu import rules
from gamehall.games.acadmu.discs import (
    Counts,
    DiscSet,
    default_disc_set,
    disc_set_from_data,
    load_disc_set,
)
from gamehall.games.acadmu.tokens import (
    COLOUR_PAIRS,
    COLOURS,
    PAIRINGS,
    SHAPES,
    beaten,
    colour_beats,
    colour_of,
    describe,
    pairing_index,
    pairing_name,
    shape_beats,
    shape_of,
)

DARK, LIGHT = 0, 1
SIDE_LETTERS = "dl"
NO_ONE = -1

# --- actions -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Move:
    """A player's move: give up one own token (``own``) and take ``taken``; or pass."""

    own: int
    taken: tuple[int, ...]

    @property
    def is_pass(self) -> bool:
        return self.own < 0

    @property
    def by_shape(self) -> bool:
        """Whether this capture is made by shape (two taken, or the variant's lone take)."""
        return not self.is_pass and (
            len(self.taken) == 2 or not colour_beats(colour_of(self.own), colour_of(self.taken[0]))
        )

    def __str__(self) -> str:
        if self.is_pass:
            return "pass"
        return pairing_name(self.own) + "x" + "+".join(pairing_name(t) for t in self.taken)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Move:
        """Read ``RTxBS``, ``RTxRS+YS`` or ``pass``."""
        match = _MOVE.match(text.strip())
        if match is None:
            raise NotationError(
                "Äcädmü move",
                text,
                "'pass', a colour capture like RTxBS or a shape capture like RTxRS+YS",
            )
        if match["pass"]:
            return PASS
        taken = [pairing_index(match["a"])]
        if match["b"]:
            taken.append(pairing_index(match["b"]))
        return Move(pairing_index(match["own"]), tuple(sorted(taken)))


PASS = Move(-1, ())
_MOVES: dict[tuple[int, tuple[int, ...]], Move] = {
    (own, taken): Move(own, taken)
    for own in range(9)
    for taken in [(t,) for t in range(9)] + [(a, b) for a in range(9) for b in range(a, 9)]
}
"""Every possible capture, made once: legal_actions hands out these shared values."""
_MOVE = re.compile(
    r"^(?:(?P<pass>pass)|(?P<own>[RBY][TSC])x(?P<a>[RBY][TSC])(?:\+(?P<b>[RBY][TSC]))?)$",
    re.IGNORECASE,
)
_PAIR = r"[RBY][TSC]"
_DRAW = re.compile(rf"^draw\s+({_PAIR}):({_PAIR})/({_PAIR}):({_PAIR})$", re.IGNORECASE)
_POUR = re.compile(r"^pour\s+(\S+)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: each side's drawn disc, as (up-face, down-face) pairings, for the first player."""

    dark: tuple[int, int]
    light: tuple[int, int]

    def __str__(self) -> str:
        def side(faces: tuple[int, int]) -> str:
            return f"{pairing_name(faces[0])}:{pairing_name(faces[1])}"

        return f"draw {side(self.dark)}/{side(self.light)}"

    def __repr__(self) -> str:
        return f"Draw.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Draw:
        """Read ``draw RT:BS/YC:RT`` (each side's up-face:down-face)."""
        match = _DRAW.match(text.strip())
        if match is None:
            raise NotationError("draw", text, "'draw RT:BS/YC:RT' (each side's up:down faces)")
        a, b, c, d = (pairing_index(g) for g in match.groups())
        return Draw((a, b), (c, d))


@dataclass(frozen=True, slots=True)
class Pour:
    """Chance: the up-face counts of both sides after the pour."""

    dark: Counts
    light: Counts

    def __str__(self) -> str:
        return f"pour {format_counts(self.dark)}/{format_counts(self.light)}"

    def __repr__(self) -> str:
        return f"Pour.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Pour:
        """Read ``pour <dark counts>/<light counts>``."""
        match = _POUR.match(text.strip())
        if match is None:
            raise NotationError("pour", text, "'pour <dark counts>/<light counts>'")
        dark, light = parse_sides(match[1])
        return Pour(dark, light)


def format_counts(counts: Counts) -> str:
    return ",".join(map(str, counts))


def parse_counts(text: str, side: str) -> Counts:
    parts = text.split(",")
    if len(parts) != 9 or not all(re.fullmatch(r"[0-9]{1,4}", p.strip()) for p in parts):
        raise NotationError(
            f"{side} tokens",
            text,
            "nine comma-separated counts in the order RT,RS,RC,BT,BS,BC,YT,YS,YC",
        )
    return tuple(int(p) for p in parts)


def parse_sides(text: str) -> tuple[Counts, Counts]:
    dark, sep, light = text.partition("/")
    if not sep:
        raise NotationError("tokens", text, "<dark counts>/<light counts>")
    return parse_counts(dark, "dark"), parse_counts(light, "light")


# --- the first-player draw -----------------------------------------------------------------------


def first_player_by_faces(dark: int, light: int) -> int:
    """Compare two up-faces: 'the colour that beats the other goes first; if the colours are
    equal, the shape that beats the other goes first' (NO_ONE if both are equal)."""
    if colour_of(dark) != colour_of(light):
        return DARK if colour_beats(colour_of(dark), colour_of(light)) else LIGHT
    if shape_of(dark) != shape_of(light):
        return DARK if shape_beats(shape_of(dark), shape_of(light)) else LIGHT
    return NO_ONE


def first_player_by_draw(draw: Draw) -> int:
    """'If both are equal, both discs are flipped and their other faces are compared the same
    way; if those tie too, both players draw again' (NO_ONE: draw again)."""
    winner = first_player_by_faces(draw.dark[0], draw.light[0])
    if winner == NO_ONE:
        winner = first_player_by_faces(draw.dark[1], draw.light[1])
    return winner


def faces_compared(dark: int, light: int) -> str:
    """Why one up-face goes before the other, in words ('Red beats Blue'), or that they tie."""
    dark_colour, light_colour = colour_of(dark), colour_of(light)
    if dark_colour != light_colour:
        won, lost = (
            (dark_colour, light_colour)
            if colour_beats(dark_colour, light_colour)
            else (light_colour, dark_colour)
        )
        return f"{COLOURS[won]} beats {COLOURS[lost]}"
    dark_shape, light_shape = shape_of(dark), shape_of(light)
    if dark_shape != light_shape:
        won, lost = (
            (dark_shape, light_shape)
            if shape_beats(dark_shape, light_shape)
            else (light_shape, dark_shape)
        )
        return f"both {COLOURS[dark_colour]}: {SHAPES[won]} beats {SHAPES[lost]}"
    return f"both {describe(dark)}"


def draw_reason(draw: Draw) -> str:
    """The first-player draw explained: which faces decided, and how."""
    first = first_player_by_faces(draw.dark[0], draw.light[0])
    if first != NO_ONE:
        return faces_compared(draw.dark[0], draw.light[0])
    tie = faces_compared(draw.dark[0], draw.light[0])
    if first_player_by_faces(draw.dark[1], draw.light[1]) != NO_ONE:
        return f"{tie}; flipped, {faces_compared(draw.dark[1], draw.light[1])}"
    return f"{tie}; flipped, {faces_compared(draw.dark[1], draw.light[1])} too: draw again"


# --- the game ------------------------------------------------------------------------------------


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


Phase = Literal["draw", "pour", "play"]


@dataclass(frozen=True)
class AcadmuState(State):
    """An Äcädmü state: a phase, both sides' up-face counts, and the match around the round.

    ``first`` is who went first in this round, or None for a bare one-round position.
    """

    game: AcadmuGame = field(repr=False)
    phase: Phase
    dark: Counts = ()
    light: Counts = ()
    to_move: int = DARK
    passed: int = NO_ONE
    match_score: tuple[int, int] = (0, 0)
    first: int | None = None

    # --- facts about the position ---

    def tokens(self, side: int) -> Counts:
        return self.dark if side == DARK else self.light

    def can_capture(self, side: int) -> bool:
        """Whether ``side`` has any legal capture."""
        own, other = (self.dark, self.light) if side == DARK else (self.light, self.dark)
        return rules.can_capture(own, other, take_one_if_last=self.game.take_one_if_last)

    @cached_property
    def round_over(self) -> bool:
        """Rule 4: 'when neither player can capture, the round ends'."""
        if self.phase != "play":
            return False
        if self.can_capture(self.to_move):
            return False
        return self.passed != NO_ONE or not self.can_capture(1 - self.to_move)

    def round_difference(self) -> int:
        """Dark's tokens minus Light's (the round's score so far, from Dark's side)."""
        return sum(self.dark) - sum(self.light)

    def round_points(self) -> tuple[int, int]:
        """'The higher count scores the difference; equal counts score nothing'."""
        diff = self.round_difference()
        return (max(diff, 0), max(-diff, 0))

    def match_scores_after_round(self) -> tuple[int, int]:
        """The match score once the current (finished) round is counted."""
        points = self.round_points()
        return (self.match_score[0] + points[0], self.match_score[1] + points[1])

    @cached_property
    def current_player(self) -> int:
        if self.phase != "play":
            return CHANCE
        if not self.round_over:
            return self.to_move
        if self.first is None:
            return TERMINAL
        return TERMINAL if max(self.match_scores_after_round()) >= self.game.target else CHANCE

    # --- moves ---

    def legal_actions(self) -> tuple[Action, ...]:
        """The mover's captures; 'a player with no legal capture must pass'."""
        return self._legal

    @cached_property
    def _legal(self) -> tuple[Action, ...]:
        # Made once per state: the server asks for a position's legal actions when it tells
        # the players (the state message's legal list) and again when it checks the move made.
        if self.phase != "play" or self.round_over:
            return ()
        own, other = (self.dark, self.light) if self.to_move == DARK else (self.light, self.dark)
        moves = rules.captures(own, other, take_one_if_last=self.game.take_one_if_last)
        if not moves:
            return (PASS,)
        return tuple(_MOVES[capture] for capture in moves)

    def apply_trusted(self, action: Action) -> AcadmuState:
        if isinstance(action, Move):
            return self._play(action)
        if isinstance(action, Pour):
            return self._pour(action)
        if isinstance(action, Draw):
            return self._draw(action)
        raise TypeError(f"not an Äcädmü action: {action!r}")

    def _play(self, move: Move) -> AcadmuState:
        mover, other = self.to_move, 1 - self.to_move
        if move.is_pass:
            return AcadmuState(
                self.game, "play", self.dark, self.light, other, mover, self.match_score, self.first
            )
        own, theirs = self.tokens(mover), self.tokens(other)
        own = rules.remove(own, (move.own,))
        theirs = rules.remove(theirs, move.taken)
        dark, light = (own, theirs) if mover == DARK else (theirs, own)
        # 'the opponent then takes consecutive turns': after a pass the mover keeps the turn.
        next_to_move = mover if self.passed == other else other
        return AcadmuState(
            self.game, "play", dark, light, next_to_move, self.passed, self.match_score, self.first
        )

    def _pour(self, pour: Pour) -> AcadmuState:
        """'Every disc of both players lands with a uniformly random face up'; a new round
        starts, first played by the one who did not go first in the previous round."""
        if self.phase == "pour":
            first, scores = self.to_move, self.match_score
        else:
            first = 1 - (self.first if self.first is not None else self.to_move)
            scores = self.match_scores_after_round()
        return AcadmuState(self.game, "play", pour.dark, pour.light, first, NO_ONE, scores, first)

    def _draw(self, draw: Draw) -> AcadmuState:
        """Choosing who plays first in round 1 (a tie on both faces means draw again)."""
        winner = first_player_by_draw(draw)
        if winner == NO_ONE:
            return self
        return AcadmuState(self.game, "pour", (), (), winner, NO_ONE, self.match_score, None)

    # --- chance ---

    def chance_outcomes(self) -> tuple[tuple[Action, Fraction], ...]:
        if self.phase == "draw":
            return self.game.draw_outcomes
        if self.is_chance_node():
            raise TooManyOutcomesError(
                f"the pour has 2^{2 * len(self.game.disc_set)} face combinations; "
                "use sample_chance() and chance_probability()"
            )
        return ()

    def sample_chance(self, rng: random.Random) -> Action:
        discs = self.game.disc_set
        if self.phase == "draw":
            return Draw(discs.sample_draw(rng), discs.sample_draw(rng))
        return Pour(discs.sample_pour(rng), discs.sample_pour(rng))

    def is_chance_outcome(self, action: Action) -> bool:
        """Whether ``action`` can happen here. A pour can happen exactly when each side's counts
        can lie face up on its discs all at once (a perfect matching of tokens to discs), which
        is much cheaper to check than its probability."""
        if self.is_chance_node() and self.phase != "draw" and isinstance(action, Pour):
            discs = self.game.disc_set
            return all(
                len(counts) == 9
                and min(counts) >= 0
                and sum(counts) == len(discs)
                and discs.can_show(counts)
                for counts in (action.dark, action.light)
            )
        return super().is_chance_outcome(action)

    def chance_probability(self, action: Action) -> Fraction:
        if not self.is_chance_node():
            return Fraction(0)
        if self.phase == "draw":
            if not isinstance(action, Draw):
                return Fraction(0)
            faces = self.game.disc_set.draw_faces
            return faces.get(action.dark, Fraction(0)) * faces.get(action.light, Fraction(0))
        if not isinstance(action, Pour):
            return Fraction(0)
        discs = self.game.disc_set
        return discs.pour_probability(action.dark) * discs.pour_probability(action.light)

    # --- the end ---

    def returns(self) -> tuple[float, ...]:
        if not self.is_terminal():
            return (0.0, 0.0)
        if self.first is None:
            diff = float(self.round_difference())
            return (diff, -diff)
        dark, light = self.match_scores_after_round()
        return (1.0, -1.0) if dark > light else (-1.0, 1.0)

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        if self.first is None:
            points = self.round_points()
            winner = None if points == (0, 0) else (DARK if points[0] else LIGHT)
            reason = (
                "Round over: equal counts"
                if winner is None
                else f"Round over: {self.game.player_names[winner].capitalize()} scores "
                f"{max(points)}"
            )
            return Outcome(winner, reason, (float(points[0]), float(points[1])))
        dark, light = self.match_scores_after_round()
        winner = DARK if dark > light else LIGHT
        target = self.game.target
        reason = (
            f"{self.game.player_names[winner].capitalize()} reaches {target} "
            f"point{'' if target == 1 else 's'} ({dark}–{light})"
        )
        return Outcome(winner, reason, (float(dark), float(light)))

    def scores(self) -> tuple[float, ...]:
        """A bare round: the points each side would score now; a match: the match score, with
        the round counted once it is over."""
        if self.first is None:
            return tuple(float(p) for p in self.round_points())
        if self.phase == "play" and self.round_over:
            return tuple(float(p) for p in self.match_scores_after_round())
        return (float(self.match_score[0]), float(self.match_score[1]))

    def round_end_reason(self) -> str:
        """Why the round is over (rule 4), in words."""
        names = self.game.player_names
        if self.passed != NO_ONE:
            return (
                f"{names[self.passed].capitalize()} passed, and now "
                f"{names[1 - self.passed].capitalize()} "
                "has no capture either"
            )
        return "neither side has a capture"

    def round_result(self) -> str:
        """The round's score in words: who scores how many points."""
        points = self.round_points()
        if points == (0, 0):
            return "Equal counts: nobody scores"
        winner = DARK if points[0] else LIGHT
        count = max(points)
        return f"{self.game.player_names[winner].capitalize()} scores {count} point" + (
            "" if count == 1 else "s"
        )

    def pause(self) -> str | None:
        """A finished round of a match that goes on: its end is worth a look before the pour."""
        if self.phase != "play" or not self.round_over or self.is_terminal():
            return None
        return f"Round over: {self.round_end_reason()}. {self.round_result()}."

    def horizon_returns(self) -> tuple[float, ...] | None:
        """Between rounds of a match (round over, or before a pour): the match lead, squashed
        into (-1, 1) by the points still needed, so search can stop at a round's end."""
        if self.first is None or self.is_terminal():
            return None
        if self.phase == "play" and not self.round_over:
            return None
        dark, light = self.scores()
        lead = (dark - light) / self.game.target
        value = max(-0.99, min(0.99, lead))
        return (value, -value)

    def evaluate(self, player: int) -> float:
        """Match points, then the round's token difference, from ``player``'s side."""
        if self.is_terminal():
            return (
                1000.0 * self.returns()[player]
                if self.first is not None
                else float(self.returns()[player])
            )
        sign = 1 if player == DARK else -1
        points = self.match_score[0] - self.match_score[1]
        diff = self.round_difference() if self.phase == "play" else 0
        return sign * (10.0 * points + diff)

    def explain_illegal(self, action: Action) -> str:
        """Say exactly which rule a well-formed move breaks."""
        if not isinstance(action, Move):
            return "chance outcomes are not player moves"
        mover = self.game.player_names[self.to_move]
        opponent = self.game.player_names[1 - self.to_move]
        if action.is_pass:
            return f"{mover} has a capture, and a player may pass only without one"
        own, theirs = self.tokens(self.to_move), self.tokens(1 - self.to_move)
        if not own[action.own]:
            return f"{mover} has no {describe(action.own)} token"
        for taken in set(action.taken):
            if theirs[taken] < action.taken.count(taken):
                return f"{opponent} has not {action.taken.count(taken)} {describe(taken)} token(s)"
        if len(action.taken) == 1:
            taken = action.taken[0]
            if not colour_beats(colour_of(action.own), colour_of(taken)):
                return (
                    f"{COLOURS[colour_of(action.own)]} does not beat {COLOURS[colour_of(taken)]} "
                    f"by colour (it beats {COLOURS[beaten(colour_of(action.own))]})"
                )
        if not all(shape_beats(shape_of(action.own), shape_of(t)) for t in action.taken):
            return (
                f"{SHAPES[shape_of(action.own)]} takes two {SHAPES[beaten(shape_of(action.own))]}s "
                "by shape, not other shapes"
            )
        return "not a legal move here"

    def view(self) -> dict[str, Any]:
        """For front ends: the phase, both sides' counts by pairing, the turn and the match."""
        return {
            "position": str(self),
            "phase": self.phase,
            "pairings": list(PAIRINGS),
            "dark": list(self.dark),
            "light": list(self.light),
            "to_move": SIDE_LETTERS[self.to_move],
            "passed": None if self.passed == NO_ONE else SIDE_LETTERS[self.passed],
            "match_score": list(self.match_score),
            "first": None if self.first is None else SIDE_LETTERS[self.first],
            "target": self.game.target,
            "round_over": self.phase == "play" and self.round_over,
            "round_difference": self.round_difference() if self.phase == "play" else 0,
            "round_end": self._round_end_view(),
            "scores": list(self.scores()),
        }

    def _round_end_view(self) -> dict[str, Any] | None:
        if self.phase != "play" or not self.round_over:
            return None
        return {
            "reason": self.round_end_reason(),
            "result": self.round_result(),
            "counts": [sum(self.dark), sum(self.light)],
            "points": list(self.round_points()),
            "match_score": list(self.match_scores_after_round())
            if self.first is not None
            else None,
        }

    # --- text ---

    def validate(self) -> None:
        """Raise InvalidStateError if this position cannot occur under the rules."""
        if self.phase == "play":
            for side, counts in ((DARK, self.dark), (LIGHT, self.light)):
                name = self.game.player_names[side]
                faces = self.game.disc_set.faces
                for p, (n, most) in enumerate(zip(counts, faces, strict=True)):
                    if n > most:
                        raise InvalidStateError(
                            f"{name} has {n} {pairing_name(p)} tokens but the disc set shows "
                            f"{pairing_name(p)} on only {most} faces"
                        )
                if sum(counts) > len(self.game.disc_set):
                    raise InvalidStateError(
                        f"{name} has {sum(counts)} tokens but owns only {len(self.game.disc_set)}"
                    )
                if not self.game.disc_set.can_show(counts):
                    raise InvalidStateError(
                        f"{name}'s tokens {format_counts(counts)} cannot all lie face up at once: "
                        "no disc set assignment gives each token a disc of its own"
                    )
            if self.first is not None and not self._reachable_by_captures():
                raise InvalidStateError(
                    "in a match the round starts from a full pour, and no sequence of captures "
                    f"leaves {sum(self.dark)} dark and {sum(self.light)} light tokens"
                )
            if self.passed == self.to_move:
                raise InvalidStateError(
                    f"{self.game.player_names[self.passed]} has passed and cannot be to move"
                )
            if self.passed != NO_ONE and self.can_capture(self.passed):
                raise InvalidStateError(
                    f"{self.game.player_names[self.passed]} is marked as passed but has a capture"
                )
        if max(self.match_score) >= self.game.target:
            raise InvalidStateError(
                f"match score {self.match_score[0]}-{self.match_score[1]} already reaches the target "
                f"{self.game.target}"
            )

    def _reachable_by_captures(self) -> bool:
        """Counts after a full pour: with m_d dark and m_l light captures, each removing one own
        token and one or two opposing ones, lost_d − m_d ∈ [m_l, 2·m_l] and the same for light."""
        size = len(self.game.disc_set)
        lost_dark, lost_light = size - sum(self.dark), size - sum(self.light)
        return any(
            m_light <= lost_dark - m_dark <= 2 * m_light
            and m_dark <= lost_light - m_light <= 2 * m_dark
            for m_dark in range(lost_dark + 1)
            for m_light in range(lost_light + 1)
        )

    def position(self) -> str:
        """The round position alone: ``<dark>/<light> <to move> <passed>``."""
        passed = "-" if self.passed == NO_ONE else SIDE_LETTERS[self.passed]
        return (
            f"{format_counts(self.dark)}/{format_counts(self.light)} "
            f"{SIDE_LETTERS[self.to_move]} {passed}"
        )

    def __str__(self) -> str:
        if self.phase == "draw":
            return "draw"
        score = f"{self.match_score[0]}-{self.match_score[1]}"
        if self.phase == "pour":
            return f"pour {SIDE_LETTERS[self.to_move]} {score}"
        if self.first is None:
            return self.position()
        return f"{self.position()} {score} {SIDE_LETTERS[self.first]}"
