"""What is known of a value: exact, proven bounds, or an estimate with its uncertainty.

Hints, reviews and puzzles speak of values from one player's side in the game's solver unit
(:class:`~gamehall.core.search.ValueKind`: points, or a probability of winning). An
:class:`Evaluation` holds everything known of one such value at once:

* the exact value, when the solver proved it;
* proven bounds (``lower <= value <= upper``), from an unfinished solve or from what is known of
  the position (no move is better than the position's own value);
* an MCTS estimate with a 95% interval and the number of simulations behind it, converted to the
  solver's unit (the plugin's ``estimate_position`` says what to search).

:attr:`Evaluation.rank` orders moves without ever putting one above a move that is proven
better: it is the exact value, or the estimate's pessimistic end clamped into the proven bounds.
For any two moves A and B with ``A.lower > B.upper``, ``A.rank > B.rank`` follows.

:class:`Analyst` is the game's solver and estimator as hints, reviews and puzzles use them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from gamehall.ai.mcts import MCTSAgent, Node
from gamehall.core import CHANCE, TERMINAL, Action, GamehallError, State, find_plugin
from gamehall.core.errors import TooManyOutcomesError
from gamehall.core.search import BestMoves, Judgement, Limit, Solution, Solver, Value, ValueKind

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""

MAX_LINE = 12
"""The most moves a line of play shows."""


@dataclass(frozen=True)
class Evaluation:
    """What is known of one value, from one player's side, in ``kind``'s unit.

    ``value`` is exact (None: not proven); ``lower``/``upper`` are proven bounds (infinite when
    nothing is proven on that side); ``estimate`` an MCTS mean with its 95% ``interval`` over
    ``visits`` simulations (None: not searched).
    """

    kind: ValueKind
    value: Value | None = None
    lower: Value | float = -math.inf
    upper: Value | float = math.inf
    estimate: float | None = None
    interval: tuple[float, float] | None = None
    visits: int = 0

    @classmethod
    def exactly(cls, kind: ValueKind, value: Value) -> Evaluation:
        return cls(kind, value, value, value)

    @property
    def exact(self) -> bool:
        return self.value is not None

    def within_bounds(self, x: float) -> float:
        """``x`` moved inside the proven bounds (an estimate may hope for more than is proven)."""
        return float(max(self.lower, min(self.upper, x)))

    @property
    def point(self) -> float | None:
        """One number for it: the exact value, else the estimate within the proven bounds, else
        the middle of finite bounds (None when nothing is known)."""
        if self.value is not None:
            return float(self.value)
        if self.estimate is not None:
            return self.within_bounds(self.estimate)
        if math.isfinite(self.lower) and math.isfinite(self.upper):
            return float(self.lower + self.upper) / 2
        return None

    @property
    def rank(self) -> float:
        """A sort key (higher is better) that always lies within the proven bounds: the exact
        value, else the low end of the estimate's interval clamped into the bounds, else the
        lower bound (just under the upper one when only that is known); -inf when nothing is."""
        if self.value is not None:
            return float(self.value)
        if self.estimate is not None:
            low = self.interval[0] if self.interval is not None else self.estimate
            return self.within_bounds(low)
        if math.isfinite(self.lower):
            return float(self.lower)
        return -math.inf if not math.isfinite(self.upper) else float(self.upper) - 1e-9

    def bounded(self, lower: Value | float, upper: Value | float) -> Evaluation:
        """This evaluation with the proven bounds narrowed to ``[lower, upper]`` as well."""
        if self.value is not None:
            return self
        low, high = max(self.lower, lower), min(self.upper, upper)
        if low > high:  # pragma: no cover - proven bounds never contradict each other
            raise GamehallError(f"contradictory bounds [{low}, {high}]")
        if low == high:
            return replace(self, value=low, lower=low, upper=high)
        return replace(self, lower=low, upper=high)

    def with_solution(self, solution: Solution, player: int) -> Evaluation:
        """What ``solution`` proves, from ``player``'s side, added to this."""
        value = solution.value_for(player)
        if value is not None:
            return Evaluation.exactly(self.kind, value)
        return self.bounded(*solution.bounds_for(player))

    def with_estimate(self, node: Node) -> Evaluation:
        """The estimate of an MCTS node (its mover's mean return) added to this."""
        if node.visits == 0:
            return self
        estimate, interval = node_estimate(self.kind, node)
        return replace(self, estimate=estimate, interval=interval, visits=node.visits)

    def text(self) -> str:
        """Short, with no spaces or commas: ``+1`` when exact, ``~+0.4`` for an estimate,
        ``-1..+2`` for proven bounds alone (``?`` for an open side)."""
        if self.value is not None:
            return format_value(self.kind, self.value, exact=True)
        point = self.point
        if self.estimate is not None and point is not None:
            return "~" + format_value(self.kind, point, exact=False)
        return f"{self._bound(self.lower)}..{self._bound(self.upper)}"

    def _bound(self, bound: Value | float) -> str:
        if isinstance(bound, float) and math.isinf(bound):
            return "?"
        return format_value(self.kind, bound, exact=True)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"exact": self.exact, "text": self.text()}
        if self.value is not None:
            data["value"] = json_number(self.value)
            data["value_float"] = float(self.value)
        if not self.exact:
            if math.isfinite(self.lower):
                data["lower"] = json_number(self.lower)
            if math.isfinite(self.upper):
                data["upper"] = json_number(self.upper)
            if self.estimate is not None:
                data["estimate"] = round(self.estimate, 4)
                if self.interval is not None:
                    data["interval"] = [
                        round(x, 4) if math.isfinite(x) else None for x in self.interval
                    ]
                data["visits"] = self.visits
        return data


def json_number(value: Value | float) -> Any:
    """A value for JSON: whole numbers as numbers, exact fractions as their text."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else str(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def format_value(kind: ValueKind, value: Value | float, *, exact: bool) -> str:
    """A value as a review comment writes it: points ``+1``, ``0``, ``-2`` (estimates ``+0.4``),
    probabilities ``81.4%`` (estimates ``55%``)."""
    if kind is ValueKind.POINTS:
        if exact:
            points = int(value)
            return f"{points:+d}" if points else "0"
        text = f"{float(value):+.1f}"
        return "0.0" if text in ("+0.0", "-0.0") else text
    share = float(value)
    if exact and share in (0.0, 1.0):
        return f"{share:.0%}"
    return f"{share:.1%}" if exact else f"{share:.0%}"


def format_cost(kind: ValueKind, cost: float, *, exact: bool) -> str:
    """A cost (a value given up): points ``1`` (estimates ``0.4``); probabilities in percentage
    points, ``19.2 pp`` (estimates ``19 pp``)."""
    if kind is ValueKind.POINTS:
        return f"{round(cost)}" if exact and float(cost).is_integer() else f"{cost:.1f}"
    if exact and cost == 0:
        return "0"
    points = float(cost) * 100
    return f"{points:.1f} pp" if exact else f"{points:.0f} pp"


def node_estimate(kind: ValueKind, node: Node) -> tuple[float, tuple[float, float]]:
    """An MCTS node's mean return in ``kind``'s unit, and its 95% interval: Wilson's for a
    probability, the normal one from the returns' spread for points."""
    n = node.visits
    mean = node.value / n
    if kind is ValueKind.PROBABILITY:
        p = min(1.0, max(0.0, kind.from_return(mean)))
        z2 = Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return p, (max(0.0, centre - half), min(1.0, centre + half))
    if n < 2:
        return mean, (-math.inf, math.inf)
    variance = max(0.0, node.squares / n - mean * mean) * n / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return mean, (mean - half, mean + half)


def tree_line(node: Node, limit: int = MAX_LINE, min_visits: int = 2) -> tuple[Action, ...]:
    """The most visited line below an MCTS node: at each node its most visited child (a chance
    node's most visited outcome), while a child has at least ``min_visits`` visits."""
    line: list[Action] = []
    while node.children and len(line) < limit:
        action, child = max(node.children.items(), key=lambda item: item[1].visits)
        if child.visits < min_visits:
            break
        line.append(action)
        node = child
    return tuple(line)


class Analyst:
    """A game's exact solver and its estimator, as hints, reviews and puzzles use them.

    ``solver`` is None for a game without one (then only estimates are made, in the game's own
    returns). Solves that fail on a state the solver does not take count as unsolved.
    """

    def __init__(self, game_name: str) -> None:
        plugin = find_plugin(game_name)
        self.plugin = plugin
        self.solver: Solver | None = plugin.load_solver()
        self.judgement: Judgement | None = plugin.judgement
        self._position: Callable[[State], State] | None = plugin.load_estimate_position()
        self._warm = False

    @property
    def kind(self) -> ValueKind:
        """The unit of values: the solver's, or points (mean returns) without a solver."""
        return self.solver.kind if self.solver is not None else ValueKind.POINTS

    def warm_up(self) -> None:
        """Load the solver's compiled code before any clock starts."""
        if self.solver is not None and not self._warm:
            self.solver.warm_up()
            self._warm = True

    def reaches(self, state: State) -> bool:
        return self.solver is not None and self.solver.reaches(state)

    def solve(self, state: State, seconds: float, best: BestMoves = "none") -> Solution | None:
        """The solver's answer within ``seconds`` (None without a solver, or for a state it does
        not take)."""
        if self.solver is None:
            return None
        try:
            return self.solver.solve(state, Limit(seconds=max(seconds, 1e-3)), best=best)
        except GamehallError:
            return None

    def estimate_position(self, state: State) -> State:
        """What MCTS searches to estimate the solver's value of ``state`` (the plugin's
        ``estimate_position``; else the state itself): same mover, same legal actions."""
        return self._position(state) if self._position is not None else state

    def search(
        self, state: State, *, simulations: int | None, seconds: float | None, seed: int | None
    ) -> Node:
        """An MCTS search of ``state``'s estimate position; the root node of its tree, whose
        children are ``state``'s legal actions."""
        agent = MCTSAgent(simulations=simulations, seconds=seconds, seed=seed)
        agent.analyse(self.estimate_position(state))
        root = agent.tree
        assert root is not None
        return root

    def line(self, state: State, deadline: float, limit: int = MAX_LINE) -> tuple[Action, ...]:
        """Perfect play from ``state`` as far as the solver settles it before ``deadline``: at
        each decision the solver's first optimal move, at each chance node whose outcomes can be
        listed the most likely one (the first on ties); it stops at the end, at a chance node with
        too many outcomes to list, or when the time or ``limit`` runs out."""
        line: list[Action] = []
        while len(line) < limit:
            player = state.current_player
            if player == TERMINAL:
                break
            if player == CHANCE:
                try:
                    outcomes = state.chance_outcomes()
                except TooManyOutcomesError:
                    break
                if not outcomes:
                    break
                action = max(outcomes, key=lambda item: item[1])[0]
            else:
                legal = state.legal_actions()
                if len(legal) == 1:
                    action = legal[0]
                else:
                    left = deadline - time.perf_counter()
                    if left <= 0:
                        break
                    solution = self.solve(state, left, best="one")
                    if solution is None or not solution.exact or solution.move is None:
                        break
                    action = solution.move
            line.append(action)
            state = state.apply_trusted(action)
        return tuple(line)


__all__ = [
    "Analyst",
    "Evaluation",
    "format_cost",
    "format_value",
    "json_number",
    "node_estimate",
    "tree_line",
]
