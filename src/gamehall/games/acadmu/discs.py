"""The disc set: two-faced discs, loaded from TOML, and the pour's exact probabilities.

A disc set is a list of discs, each a (front, back) pair of pairing indices (see ``tokens``). Each
player owns one copy. The default set ships as ``data/default_discs.toml``; another can be loaded
from a TOML file of the same shape::

    name = "my set"
    discs = [["RT", "BT"], ["RT", "BS"], ...]

or written inline (as records store it) as ``RT:BT,RT:BS,...``.
"""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property, lru_cache
from importlib import resources
from pathlib import Path

from gamehall.core.errors import GamehallError, InvalidOptionError
from gamehall.games.acadmu.tokens import PAIRINGS, pairing_index, pairing_name

Counts = tuple[int, ...]
"""Nine token counts, one per pairing, in index order."""


@dataclass(frozen=True)
class DiscSet:
    """A player's set of two-faced discs."""

    name: str
    discs: tuple[tuple[int, int], ...]
    faces: Counts = field(init=False, compare=False)
    """How many of the set's faces show each pairing (the most tokens of it a pour can give)."""

    def __post_init__(self) -> None:
        faces = [0] * 9
        for front, back in self.discs:
            faces[front] += 1
            faces[back] += 1
        object.__setattr__(self, "faces", tuple(faces))

    def __len__(self) -> int:
        return len(self.discs)

    def inline(self) -> str:
        """The set as one line, ``RT:BT,RT:BS,...`` (how records carry a non-default set)."""
        return ",".join(f"{pairing_name(f)}:{pairing_name(b)}" for f, b in self.discs)

    def can_show(self, counts: Counts) -> bool:
        """Whether distinct discs of this set can show ``counts`` face up: every token needs a
        disc of its own showing its pairing (a disc printed with one pairing on both faces still
        shows it once).

        By Hall's theorem such a matching exists exactly when, for every set S of pairings, the
        tokens of S number no more than the discs with a face in S: 511 sums, whatever the
        number of discs (this is how a pour is checked to be possible, never by its
        probability, whose exact count grows steeply with the discs)."""
        if len(counts) != 9 or min(counts) < 0:
            return False
        reach = self.reach
        for pairings in range(1, 512):
            tokens = sum(n for p, n in enumerate(counts) if pairings >> p & 1)
            if tokens > reach[pairings]:
                return False
        return True

    def can_pour(self, counts: Counts) -> bool:
        """Whether a pour of this set can show exactly ``counts`` face up (every disc lands)."""
        return len(counts) == 9 and sum(counts) == len(self.discs) and self.can_show(counts)

    @cached_property
    def reach(self) -> tuple[int, ...]:
        """For each set of pairings (a 9-bit mask), how many discs have a face in it."""
        kinds = Counter((1 << front) | (1 << back) for front, back in self.discs)
        return tuple(
            sum(n for faces, n in kinds.items() if faces & pairings) for pairings in range(512)
        )

    # --- the pour ---

    def sample_pour(self, rng: random.Random) -> Counts:
        """Every disc lands with a uniformly random face up; return the up-face counts."""
        counts = [0] * 9
        bits = rng.getrandbits(len(self.discs))
        for front, back in self.discs:
            counts[back if bits & 1 else front] += 1
            bits >>= 1
        return tuple(counts)

    def pour_ways(self, counts: Counts) -> int:
        """In how many of the 2^n face combinations the pour shows exactly ``counts``.

        An exact count whose cost grows steeply with the number of discs (27 discs take
        milliseconds, 50 take seconds): for analysis and tests. Whether a pour can happen at all
        is :meth:`can_pour`, which is quick for any set."""
        if len(counts) != 9 or sum(counts) != len(self.discs) or min(counts) < 0:
            return 0
        return _ways(self.discs, tuple(counts))

    def pour_probability(self, counts: Counts) -> Fraction:
        """The exact probability that a pour of this set shows ``counts``."""
        return Fraction(self.pour_ways(counts), 2 ** len(self.discs))

    # --- the first-player draw ---

    def sample_draw(self, rng: random.Random) -> tuple[int, int]:
        """Draw one disc at random and toss it: its (up-face, down-face)."""
        front, back = rng.choice(self.discs)
        return (back, front) if rng.getrandbits(1) else (front, back)

    @cached_property
    def draw_faces(self) -> dict[tuple[int, int], Fraction]:
        """Draw one disc at random with a random face up: P(up-face, down-face)."""
        tally: Counter[tuple[int, int]] = Counter()
        for front, back in self.discs:
            tally[(front, back)] += 1
            tally[(back, front)] += 1
        total = 2 * len(self.discs)
        return {faces: Fraction(n, total) for faces, n in sorted(tally.items())}


@lru_cache(maxsize=1024)
def _ways(discs: tuple[tuple[int, int], ...], counts: Counts) -> int:
    """Count face assignments of ``discs`` giving ``counts``: a DP over the discs, memoised on
    (discs left, counts still needed), pruning when a pairing can no longer be met."""

    supply = [[0] * 9 for _ in range(len(discs) + 1)]
    for i in range(len(discs) - 1, -1, -1):
        supply[i] = supply[i + 1][:]
        front, back = discs[i]
        supply[i][front] += 1
        if back != front:
            supply[i][back] += 1

    @cache
    def ways(i: int, needed: Counts) -> int:
        if i == len(discs):
            return 1 if not any(needed) else 0
        if any(n > s for n, s in zip(needed, supply[i], strict=True)):
            return 0
        front, back = discs[i]
        total = 0
        for face in (front, back):
            if needed[face] > 0:
                rest = list(needed)
                rest[face] -= 1
                total += ways(i + 1, tuple(rest))
        return total

    return ways(0, counts)


def _from_rows(name: str, rows: object, source: str) -> DiscSet:
    if not isinstance(rows, list) or not rows:
        raise InvalidOptionError(f"{source}: 'discs' must be a non-empty list of [front, back]")
    discs = []
    for number, row in enumerate(rows, 1):
        if not (isinstance(row, list) and len(row) == 2 and all(isinstance(x, str) for x in row)):
            shown = repr(row) if len(repr(row)) <= 40 else repr(row)[:39] + "…"
            raise InvalidOptionError(
                f"{source}: disc {number} must be [front, back] pairing names, got {shown}"
            )
        try:
            discs.append((pairing_index(row[0]), pairing_index(row[1])))
        except GamehallError as error:
            raise InvalidOptionError(f"{source}: disc {number}: {error}") from None
    return DiscSet(name, tuple(discs))


def load_disc_set(path: str | Path) -> DiscSet:
    """Load a disc set from a TOML file; raises InvalidOptionError saying what is wrong."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise InvalidOptionError(f"cannot read disc set {str(path)!r}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise InvalidOptionError(f"disc set {str(path)!r} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise InvalidOptionError(f"disc set {str(path)!r} is not valid TOML: {error}") from None
    return _from_rows(str(data.get("name", Path(path).stem)), data.get("discs"), str(path))


def parse_inline(text: str) -> DiscSet:
    """Read the one-line form ``RT:BT,RT:BS,...``."""
    rows = [item.split(":") for item in text.split(",") if item.strip()]
    return _from_rows("inline", rows, "disc set")


@cache
def default_disc_set() -> DiscSet:
    """The default set of 27 discs (package data)."""
    text = (
        resources.files("gamehall.games.acadmu")
        .joinpath("data/default_discs.toml")
        .read_text(encoding="utf-8")
    )
    data = tomllib.loads(text)
    return _from_rows("default", data["discs"], "default_discs.toml")


def disc_set_from_data(text: str) -> DiscSet:
    """The disc set written in an option value: ``default``, the inline form
    ``RT:BT,RT:BS,...``, or a TOML document of the data file's shape (never a file name)."""
    stripped = text.strip()
    if stripped in ("", "default"):
        return default_disc_set()
    if "=" in stripped or "\n" in stripped:
        try:
            data = tomllib.loads(stripped)
        except tomllib.TOMLDecodeError as error:
            raise InvalidOptionError(f"disc set: not valid TOML: {error}") from None
        return _from_rows(str(data.get("name", "inline")), data.get("discs"), "disc set")
    return parse_inline(stripped)


__all__ = [
    "PAIRINGS",
    "Counts",
    "DiscSet",
    "default_disc_set",
    "disc_set_from_data",
    "load_disc_set",
]
