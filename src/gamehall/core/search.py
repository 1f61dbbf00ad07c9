"""What an exact solver promises, and the budgets every search is given.

A game may ship an exact solver (its plugin names it). Everything outside the game — levels,
hints, reviews, the server, the command line — talks to it only through :class:`Solver`:

* a search budget is one value, :class:`Limit` (python-chess's ``engine.Limit``): wall-clock
  seconds, and optionally nodes and memory, passed whole from the caller to the search;
* the answer is a :class:`Solution`: the value of the position when it is proven, else the bounds
  that are, and the best moves found. Values are in the game's own unit (:class:`ValueKind`):
  *points* (a zero-sum score difference: the other side's value is the negation) or a win
  *probability* (the other side's is one minus it), so they read the same for any game;
* how a game classes a move by what it costs (best, good, inaccuracy, mistake, blunder) is a
  :class:`Judgement` its plugin gives, in that same unit.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from gamehall.core.game import Action, State

Value = int | Fraction
"""An exact value: whole points, or a probability as an exact fraction."""

BestMoves = Literal["none", "one", "all"]
"""How many optimal moves a solve should name: none (the value only), one, or every one."""


@dataclass(frozen=True)
class Limit:
    """A search budget: stop after ``seconds`` of wall-clock time (None: no time limit), after
    ``nodes`` nodes, or before using more than ``memory_mb`` MiB of memory."""

    seconds: float | None = None
    nodes: int | None = None
    memory_mb: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"a time limit must be positive, not {self.seconds}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"a node limit must be at least 1, not {self.nodes}")
        if self.memory_mb is not None and self.memory_mb < 1:
            raise ValueError(f"a memory limit must be at least 1 MiB, not {self.memory_mb}")


class ValueKind(enum.Enum):
    """How a game's exact values read, and how one side's value gives the other's."""

    POINTS = "points"
    """A score difference: zero-sum, the other side's value is ``-v``."""
    PROBABILITY = "probability"
    """A probability of winning: the other side's is ``1 - v``."""

    def other(self, value: Value) -> Value:
        """The opponent's value when one side's is ``value`` (two-player games)."""
        return -value if self is ValueKind.POINTS else 1 - value

    def from_return(self, mean: float) -> float:
        """A mean return of play (an MCTS estimate) in this kind's unit: points are returns as
        they are; a probability of winning comes from returns of +1 for a win and -1 for a loss
        (a game whose solver values are probabilities returns that)."""
        return mean if self is ValueKind.POINTS else (mean + 1.0) / 2.0


@dataclass(frozen=True)
class Solution:
    """What a solve found, from ``player``'s side.

    ``value`` is the exact value under perfect play, or None when the budget ran out first;
    ``lower`` and ``upper`` bound it (both equal ``value`` when exact). ``best`` names optimal
    moves when exact (as many as were asked for); when not, the move the bounded search would play
    (possibly none). ``note`` says in words how the answer was found.
    """

    player: int
    kind: ValueKind
    value: Value | None
    lower: Value
    upper: Value
    best: tuple[Action, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    note: str = ""
    extra: dict[str, object] = field(default_factory=dict, compare=False)

    @property
    def exact(self) -> bool:
        return self.value is not None

    @property
    def move(self) -> Action | None:
        """One move to play: the first of ``best``."""
        return self.best[0] if self.best else None

    def value_for(self, player: int) -> Value | None:
        """The exact value from ``player``'s side (None when not proven)."""
        if self.value is None:
            return None
        return self.value if player == self.player else self.kind.other(self.value)

    def bounds_for(self, player: int) -> tuple[Value, Value]:
        """The proven (lower, upper) bounds from ``player``'s side."""
        if player == self.player:
            return self.lower, self.upper
        a, b = self.kind.other(self.lower), self.kind.other(self.upper)
        return min(a, b), max(a, b)


class Solver(ABC):
    """A game's exact solver, as the rest of gamehall sees it."""

    kind: ValueKind
    unit: str = ""
    """What the value counts, for people: 'final count difference', 'chance of winning'."""

    @abstractmethod
    def solve(
        self, state: State, limit: Limit, *, best: BestMoves = "all", explain: bool = False
    ) -> Solution:
        """Solve ``state`` within ``limit``; an unfinished solve returns proven bounds only.

        ``explain`` asks for more for people (how a principal line ends, say) at some cost."""

    def reaches(self, state: State) -> bool:
        """Whether an exact solve of ``state`` is usually quick (a hint or a level tries the
        solver first there). Default: everywhere."""
        return True

    def warm_up(self) -> None:  # noqa: B027 - optional hook
        """Compile or load whatever the solver needs, so the first timed solve measures search."""

    def describe(self, value: Value, player_name: str) -> str:
        """An exact value in plain words from ``player_name``'s side (games say it better)."""
        if self.kind is ValueKind.PROBABILITY:
            return f"{player_name} wins {float(value):.0%} of the time"
        return f"{player_name} ends {int(value):+d}"

    def outlook(self, value: Value | float, *, exact: bool) -> str:
        """What ``value`` means for the player it is from, said to them, for hints: 'you end 2
        ahead', 'you win 39% of the time'; an estimate says 'about' (games say it better)."""
        about = "" if exact else "about "
        if self.kind is ValueKind.PROBABILITY:
            share = float(value)
            if exact and share == 1:
                return "you win for certain"
            if exact and share == 0:
                return "you lose for certain"
            return f"you win {about}{percent(share, exact=exact)} of the time"
        amount = float(value)
        size = f"{abs(amount):.0f}" if exact else f"{abs(amount):.1f}"
        if size.strip("0.") == "":
            return f"you end {about}level"
        return f"you end {about}{size} {'ahead' if amount > 0 else 'behind'}"


def percent(share: float, *, exact: bool) -> str:
    """A probability for people: '39%', an exact one that is not a whole percent '41.7%'."""
    whole = round(share * 100)
    if not exact or abs(share * 100 - whole) < 1e-9:
        return f"{whole}%"
    return f"{share * 100:.1f}%"


VERDICTS = ("best", "good", "inaccuracy", "mistake", "blunder")
"""How a move is classed by what it costs the mover, from no cost to the most."""

Verdict = Literal["best", "good", "inaccuracy", "mistake", "blunder"]


@dataclass(frozen=True)
class Judgement:
    """How a game classes moves by their cost: the value before a move minus the value after
    it, from the mover's side, in the game's solver unit (points, or a probability of winning).

    A move that costs nothing is ``best``; below ``inaccuracy`` it is ``good``; then
    ``inaccuracy`` up to ``mistake``, ``mistake`` up to ``blunder``, and ``blunder`` from there.
    ``puzzle_margin`` is what every other move must cost at least for a position with a single
    best move to make a puzzle. ``unit`` names the unit for people ("points", "win probability").
    Each game documents its own thresholds in its plugin.
    """

    unit: str
    inaccuracy: float
    mistake: float
    blunder: float
    puzzle_margin: float

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder:
            raise ValueError(
                "thresholds must satisfy 0 < inaccuracy <= mistake <= blunder, not "
                f"{self.inaccuracy}, {self.mistake}, {self.blunder}"
            )
        if not self.puzzle_margin > 0:
            raise ValueError(f"the puzzle margin must be positive, not {self.puzzle_margin}")

    def classify(self, cost: float) -> Verdict:
        """The class of a move that costs ``cost`` (zero or less: best)."""
        if cost <= 0:
            return "best"
        if cost < self.inaccuracy:
            return "good"
        if cost < self.mistake:
            return "inaccuracy"
        if cost < self.blunder:
            return "mistake"
        return "blunder"


@dataclass(frozen=True)
class LevelOverride:
    """How a game plays one computer level, where the generic player is not the best choice.

    ``simulations`` and ``seconds`` budget the MCTS search (the level's defaults when None).
    With ``exact_seconds`` the game's solver is tried first, on the states ``exact_when`` accepts
    (default: where the solver :meth:`~Solver.reaches`), naming ``exact_moves`` optimal moves (a
    random one of them is played). When the solver cannot finish, ``fallback`` says what plays:
    ``search`` (MCTS) or ``solver`` (the bounded search's own move).
    """

    simulations: int | None = None
    seconds: float | None = None
    exact_seconds: float | None = None
    exact_when: Callable[[State], bool] | None = None
    exact_moves: BestMoves = "all"
    fallback: Literal["search", "solver"] = "search"


__all__ = [
    "VERDICTS",
    "BestMoves",
    "Judgement",
    "LevelOverride",
    "Limit",
    "Solution",
    "Solver",
    "Value",
    "ValueKind",
    "Verdict",
    "percent",
]
