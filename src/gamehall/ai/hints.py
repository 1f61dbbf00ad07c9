"""Hints you can trust: the best few moves of a position, each with what is known of its value.

A hint never ranks a move above one that is proven better. The budget (``seconds``) goes, in order:

1. **The solver on the position** (its value and a best move), then on each move's position, best
   first (the moves that may still be best, then the least tried, then the most promising; each
   new try of a move gets four times as long as its last), until the best ``count`` moves are
   proven (exact, and no other move can beat them) or the exact share of the budget is spent:
   80% where the solver usually settles the position (:meth:`~gamehall.core.search.Solver.reaches`)
   or has just settled it, half elsewhere. Where there are too many moves to solve them all in
   time, a short MCTS (a tenth of the budget) first says which look best. Every unfinished solve
   still proves bounds, and no move is better than the position's own value.
2. **MCTS** for the moves left unsettled, on the position the game says estimates the solver's
   value (the plugin's ``estimate_position``), so estimates are in the solver's unit.
3. **The line of play** after each hint: the solver's optimal line where the move is exact (as far
   as a tenth of the budget, at least half a second, takes it: this comes on top of the budget),
   else the MCTS tree's most visited line.

Moves are ranked by :attr:`~gamehall.ai.evaluation.Evaluation.rank`: an exact value, or an
estimate's pessimistic end clamped into the move's proven bounds, so a proven bound outranks an
estimate. Games without a solver get MCTS alone, ranked by visits. Values are given from the
side of the player to move (the one asking), in the solver's words
(:meth:`~gamehall.core.search.Solver.describe`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from gamehall.ai.evaluation import MAX_LINE, Analyst, Evaluation, format_value, tree_line
from gamehall.ai.mcts import MCTSAgent, Node
from gamehall.core import Action, State
from gamehall.core.search import ValueKind

DEFAULT_SECONDS = 5.0
"""The default budget of a hint."""
EXACT_SHARE_REACHED = 0.8
"""The share of the budget the solver may use where it usually settles the position quickly."""
EXACT_SHARE = 0.5
"""The share elsewhere (the rest goes to MCTS if the solver does not finish)."""
FIRST_SLICE = 0.02
"""The shortest first solve of a move (otherwise as long as the position's own solve took);
each later try of the same move gets four times as much."""
ORDER_SHARE = 0.1
"""Where there are too many moves to solve them all, a search of this share of the budget
first says which to solve first."""
SEARCH_SHARE_END = 0.9
"""MCTS stops at this share of the budget."""
LINE_SHARE = 0.1
MIN_LINE_SECONDS = 0.5
"""The solver's line of play after each exact hint gets this share of the budget (at least
``MIN_LINE_SECONDS``), on top of it."""

Method = Literal["exact", "bounds", "estimate"]
"""How a hint's value is known: proven exactly, proven bounds only, or an MCTS estimate."""


@dataclass(frozen=True)
class Hint:
    """One move and what is known of its value for the player to move."""

    action: Action
    evaluation: str
    """In words, from the mover's side: 'exact: Dark (you) ends +1', 'estimate: ...'."""
    value: float
    """The rank (higher is better); never above a move proven better."""
    exact: bool
    visits: int | None = None
    assessment: Evaluation | None = None
    """Everything known of the move's value (exact, proven bounds, estimate)."""
    line: tuple[Action, ...] = ()
    """The line of play that follows the move."""
    line_exact: bool = False
    """Whether the line is the solver's (perfect play) rather than the search's likeliest."""
    estimate_text: str = ""
    """For a game without a solver: the search's value of the move for people ('the search's
    win rate with it: 55%')."""

    def line_text(self) -> str:
        """The line of play in words, the move itself first ('perfect play: RCxRT BT ...'), or ''
        when there is none."""
        if not self.line:
            return ""
        kind = "perfect play" if self.line_exact else "likeliest line of the search"
        return f"{kind}: " + " ".join(str(a) for a in (self.action, *self.line))

    @property
    def method(self) -> Method:
        if self.exact:
            return "exact"
        if self.assessment is not None and self.assessment.estimate is None:
            return "bounds"
        return "estimate"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "move": str(self.action),
            "evaluation": self.evaluation,
            "exact": self.exact,
            "method": self.method,
            "visits": self.visits,
            "line": [str(a) for a in self.line],
            "line_exact": self.line_exact,
        }
        if self.assessment is not None:
            data["value"] = self.assessment.to_json()
        return data


@dataclass(frozen=True)
class Advice:
    """The hints of a position and what was found on the way."""

    state: State
    player: int
    hints: list[Hint]
    position: Evaluation | None
    """The position's value for the player to move (None without a solver)."""
    proven: bool
    """Whether the ranking shown is proven: every hint exact and no other move can beat them."""
    seconds: float
    unit: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "position": str(self.state),
            "to_move": self.state.player_name(self.player),
            "unit": self.unit,
            "value": None if self.position is None else self.position.to_json(),
            "proven": self.proven,
            "seconds": round(self.seconds, 3),
            "hints": [h.to_json() for h in self.hints],
        }


def _speaker(state: State, player: int) -> str:
    return f"{state.player_name(player).capitalize()} (you)"


def _words(analyst: Analyst, assessment: Evaluation, who: str) -> str:
    """An evaluation in words from the asking player's side."""
    solver = analyst.solver
    if solver is not None and assessment.value is not None:
        return f"exact: {solver.describe(assessment.value, who)}"
    kind = analyst.kind
    parts = []

    def within_proof(x: float) -> str:
        # the value lies within the proven bounds for sure, so this keeps the interval's coverage
        return format_value(kind, assessment.within_bounds(x), exact=False)

    if assessment.estimate is not None:
        text = f"estimate (not exact): {within_proof(assessment.estimate)} for {who}"
        if assessment.interval is not None and all(map(math.isfinite, assessment.interval)):
            low, high = (within_proof(x) for x in assessment.interval)
            text += f", 95% interval [{low}, {high}]"
        parts.append(f"{text}, {assessment.visits:,} simulations")
    low_known, high_known = math.isfinite(assessment.lower), math.isfinite(assessment.upper)
    if kind is ValueKind.PROBABILITY:  # a probability is always within [0, 1]: say nothing then
        low_known = low_known and assessment.lower > 0
        high_known = high_known and assessment.upper < 1
    if low_known and high_known:
        low = format_value(kind, assessment.lower, exact=True)
        high = format_value(kind, assessment.upper, exact=True)
        parts.append(f"proven between {low} and {high}")
    elif high_known:
        parts.append(f"proven at most {format_value(kind, assessment.upper, exact=True)}")
    elif low_known:
        parts.append(f"proven at least {format_value(kind, assessment.lower, exact=True)}")
    return "; ".join(parts) or "not evaluated in time"


def _proven_top(facts: dict[Action, Evaluation], count: int) -> bool:
    """Whether the best ``count`` moves are exact and no unsettled move can beat them."""
    values = sorted((float(e.value) for e in facts.values() if e.value is not None), reverse=True)
    k = min(count, len(facts))
    if len(values) < k:
        return False
    kth = values[k - 1]
    return all(e.exact or e.upper <= kth for e in facts.values())


def _settle(
    analyst: Analyst,
    state: State,
    facts: dict[Action, Evaluation],
    count: int,
    until: float,
    first_slice: float,
) -> None:
    """Solve the moves' positions best first until the top ``count`` are proven or ``until``.

    Each time the next move is the one that may still be best (highest proven upper bound), then
    the least tried, then the most promising (highest lower bound, most simulations); each try of
    a move gets four times the time of its last."""
    mover = state.current_player
    clock = time.perf_counter
    order = {action: index for index, action in enumerate(facts)}
    tries: dict[Action, int] = {}
    while not _proven_top(facts, count):
        left = until - clock()
        pending = [a for a, e in facts.items() if not e.exact]
        if left <= 0 or not pending:
            return
        action = min(
            pending,
            key=lambda a: (
                -facts[a].upper,
                tries.get(a, 0),
                -facts[a].lower,
                -facts[a].visits,
                order[a],
            ),
        )
        tried = tries.get(action, 0)
        tries[action] = tried + 1
        solution = analyst.solve(state.apply_trusted(action), min(first_slice * 4**tried, left))
        if solution is not None:
            facts[action] = facts[action].with_solution(solution, mover)


def _estimate(
    agent: MCTSAgent,
    position: State,
    facts: dict[Action, Evaluation],
    seconds: float,
) -> Node:
    """Search ``position`` for ``seconds`` more (the tree is kept between calls) and attach each
    move's estimate to its evaluation."""
    agent.analyse(position, seconds=max(0.01, seconds))
    root = agent.tree
    assert root is not None
    for action, child in root.children.items():
        if action in facts:
            facts[action] = facts[action].with_estimate(child)
    return root


def advise(
    state: State,
    *,
    count: int = 3,
    seconds: float = DEFAULT_SECONDS,
    seed: int | None = 0,
    lines: bool = True,
    on_step: Callable[[str], None] | None = None,
) -> Advice:
    """The best ``count`` moves for the player to move, best first (see the module docstring).

    ``on_step`` is told what is being done ('solving', 'searching', ...), for a status line."""
    start = time.perf_counter()
    step = on_step or (lambda _text: None)
    if state.is_terminal() or state.is_chance_node():
        return Advice(state, state.current_player, [], None, True, 0.0)
    analyst = Analyst(state.game.name)
    mover = state.current_player
    who = _speaker(state, mover)
    legal = state.legal_actions()
    if analyst.solver is None:
        return _search_only(analyst, state, count, seconds, seed, lines, who, start)
    step("loading the solver")
    analyst.warm_up()  # compiled code is loaded before the clock starts
    start = time.perf_counter()
    share = EXACT_SHARE_REACHED if analyst.reaches(state) else EXACT_SHARE
    exact_until = start + seconds * share
    kind = analyst.kind
    facts = {action: Evaluation(kind) for action in legal}
    step("solving")
    solved_at = time.perf_counter()
    root = analyst.solve(state, exact_until - solved_at, best="one")
    root_seconds = time.perf_counter() - solved_at
    position = Evaluation(kind)
    if root is not None:
        position = position.with_solution(root, mover)
        if root.exact and root.move in facts:
            facts[root.move] = Evaluation.exactly(kind, position.value)  # type: ignore[arg-type]
        facts = {a: e.bounded(-math.inf, position.upper) for a, e in facts.items()}
    if position.exact:  # the solver reaches this position: its moves are worth solving too
        exact_until = max(exact_until, start + seconds * EXACT_SHARE_REACHED)
    agent = MCTSAgent(seconds=seconds, seed=seed)
    searched = analyst.estimate_position(state)
    tree: Node | None = None
    if len(legal) > 1 and not _proven_top(facts, count):
        pending = sum(1 for e in facts.values() if not e.exact)
        if root_seconds * pending > exact_until - time.perf_counter():
            # too many moves to solve them all: a short search says which to solve first
            step("searching")
            tree = _estimate(agent, searched, facts, seconds * ORDER_SHARE)
        step("solving")
        _settle(analyst, state, facts, count, exact_until, max(FIRST_SLICE, root_seconds))
    search_until = start + seconds * SEARCH_SHARE_END
    if len(legal) > 1 and not all(e.exact for e in facts.values()):
        step("searching")
        tree = _estimate(agent, searched, facts, search_until - time.perf_counter())
    order = {action: index for index, action in enumerate(legal)}
    ranked = sorted(
        facts,
        key=lambda a: (-facts[a].rank, not facts[a].exact, -facts[a].lower, order[a]),
    )[:count]
    found = []
    if lines:
        step("following the lines of play")
    for action in ranked:
        assessment = facts[action]
        line: tuple[Action, ...] = ()
        line_exact = False
        if lines:
            child = state.apply_trusted(action)
            if assessment.exact:
                line_until = time.perf_counter() + max(MIN_LINE_SECONDS, LINE_SHARE * seconds)
                line = analyst.line(child, line_until, MAX_LINE - 1)
                line_exact = bool(line)
            elif tree is not None and action in tree.children:
                line = tree_line(tree.children[action], MAX_LINE - 1)
        evaluation = "the only legal move" if len(legal) == 1 else ""
        words = _words(analyst, assessment, who)
        evaluation = f"{evaluation}; {words}" if evaluation else words
        found.append(
            Hint(
                action,
                evaluation,
                assessment.rank,
                assessment.exact,
                assessment.visits or None,
                assessment,
                line,
                line_exact,
            )
        )
    proven = _proven_top(facts, count)
    return Advice(
        state,
        mover,
        found,
        position,
        proven,
        time.perf_counter() - start,
        analyst.solver.unit,
    )


def _search_only(
    analyst: Analyst,
    state: State,
    count: int,
    seconds: float,
    seed: int | None,
    lines: bool,
    who: str,
    start: float,
) -> Advice:
    """A game without a solver: MCTS ranks the moves by visits, values are mean returns."""
    agent = MCTSAgent(seconds=seconds, seed=seed)
    stats = agent.analyse(state)
    tree = agent.tree
    total = sum(stat.visits for stat in stats) or 1
    found = []
    for stat in stats[:count]:
        node = tree.children[stat.action] if tree is not None else None
        line = tree_line(node, MAX_LINE - 1) if lines and node is not None else ()
        text = (
            f"estimate: {agent.value_text(stat.value)} for {who} ({stat.visits} of {total} visits)"
        )
        found.append(
            Hint(
                stat.action,
                text,
                stat.visits + stat.value * 1e-6,
                False,
                stat.visits,
                line=line,
                estimate_text=_search_words(agent.value_text(stat.value)),
            )
        )
    return Advice(state, state.current_player, found, None, False, time.perf_counter() - start)


def _search_words(text: str) -> str:
    """A search's value of a move said to the player ('the search wins about 73% of its games
    with it'), from :meth:`MCTSAgent.value_text`."""
    rate = text.removeprefix("win rate ")
    if rate != text:
        return f"the search wins about {rate} of its games with it"
    return f"the search's {text} with it"


def hints(
    state: State, *, count: int = 3, seconds: float = DEFAULT_SECONDS, seed: int | None = 0
) -> list[Hint]:
    """The best ``count`` moves for the player to move, best first (see :func:`advise`)."""
    return advise(state, count=count, seconds=seconds, seed=seed).hints


__all__ = ["DEFAULT_SECONDS", "Advice", "Hint", "advise", "hints"]
