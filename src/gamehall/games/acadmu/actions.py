"""The sides, a player's move and chance's outcomes (the first-player draw, the pour): small
frozen values, each with its notation (``RTxBS``, ``RTxRS+YS``, ``pass``, ``draw RT:BS/YC:RT``,
``pour <dark>/<light>``; see :mod:`gamehall.games.acadmu.game` for positions)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from gamehall.core.errors import NotationError
from gamehall.games.acadmu.discs import Counts
from gamehall.games.acadmu.tokens import colour_beats, colour_of, pairing_index, pairing_name

DARK, LIGHT = 0, 1
SIDE_LETTERS = "dl"
NO_ONE = -1


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
