"""Game review: every move of a game, its value before and after, and what it cost.

For each decision of a record (chance actions are not judged) the review gives, from the mover's
side and in the game's solver unit (:class:`~gamehall.core.search.ValueKind`):

* the value of the position before the move and after it, **exact** wherever the solver settles
  the position within the per-position budget, else an **MCTS estimate** (labelled, with its
  interval and simulations) within whatever bounds the solver proved;
* the **cost**: the value before minus the value after (zero for an optimal move);
* the **class**: best, good, inaccuracy, mistake or blunder by the game's
  :class:`~gamehall.core.search.Judgement` (its plugin's thresholds);
* the **best alternative** where the move played was not best: an optimal move (exact), else the
  search's choice.

The positions are reviewed from the last to the first: late positions are quick to solve and fill
the solver's tables for the earlier ones, and each position after a move is the one before the
next move, so it is solved once. Once a solve fails, earlier positions are only tried where the
solver says it usually settles them (:meth:`~gamehall.core.search.Solver.reaches`); elsewhere
they are estimated, without waiting out the budget again on each. Nor is a position tried (where
the solver does not usually settle it) when the position after the move took more than half the
budget: the one before holds it and more.

:meth:`Review.annotated` is the record with a comment after each judged move, read back by
:class:`Annotation`::

    12. RTxBS {value +1 → 0, cost 1, mistake, best RCxRT+BT}
    31. keep F {value ~34% → ~30%, cost ~4 pp, good}

An estimate is marked ``~``; proven bounds alone read ``-1..+2``.

Each player's review is summed up for people by :mod:`gamehall.ai.review_summary` (accuracy,
mistakes and blunders, the worst moment with the better move, in words): the record's
``DarkReview`` tags, the command's text and the web's review all say it in its words.

A game that stops on a position that is not over (resigned, lost on time, claimed, aborted, or
still going on: the record's Termination tag says which) is reviewed move by move all the same;
its review says plainly that there is no final exact outcome (:attr:`Review.unfinished`, the
annotated record's ``ReviewNote`` tag).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gamehall.ai.evaluation import Analyst, Evaluation, format_cost, json_number
from gamehall.ai.mcts import Node
from gamehall.ai.review_summary import PlayerSummary, summarise
from gamehall.core import Action, Game, GamehallError, Record, Solution, State
from gamehall.core.search import VERDICTS, Judgement, ValueKind, Verdict
from gamehall.core.words import move_words

DEFAULT_SECONDS = 10.0
"""The default time the solver gets on each position."""
DEFAULT_SIMULATIONS = 2000
"""The default MCTS simulations for each estimated position (reproducible for a seed)."""
DEFAULT_ESTIMATE_SECONDS = 2.0
"""The most time an estimate takes, whatever its simulations."""

Progress = Callable[[int, int], None]
"""``progress(done, total)``: told after each reviewed move."""


@dataclass(frozen=True)
class Annotation:
    """A review comment on one move, as records carry it (see the module docstring).

    Fields are the texts as written: ``before`` and ``after`` values (``+1``, ``~55%``,
    ``-1..+2``), the ``cost`` (``1``, ``~19 pp``, ``?``), the ``verdict`` (None when the game has
    no judgement), the ``best`` alternative and whether the move was the only one.
    """

    before: str
    after: str
    cost: str
    verdict: Verdict | None = None
    best: str | None = None
    forced: bool = False

    _PATTERN = re.compile(
        r"^value (?P<before>\S+) → (?P<after>\S+), cost (?P<cost>[^,]+?)"
        rf"(?:, (?P<verdict>{'|'.join(VERDICTS)}))?"
        r"(?:, best (?P<best>[^,{}]+?))?"
        r"(?P<forced>, only move)?$"
    )

    @property
    def exact(self) -> bool:
        """Whether both values and the cost are exact (no estimate, no bare bounds)."""
        return not any(
            "~" in t or ".." in t or "?" in t for t in (self.before, self.after, self.cost)
        )

    def __str__(self) -> str:
        parts = [f"value {self.before} → {self.after}", f"cost {self.cost}"]
        if self.verdict is not None:
            parts.append(self.verdict)
        if self.best is not None:
            parts.append(f"best {self.best}")
        if self.forced:
            parts.append("only move")
        return ", ".join(parts)

    @classmethod
    def parse(cls, text: str) -> Annotation | None:
        """Read a comment back; None when it is not a review annotation (any other comment)."""
        match = cls._PATTERN.match(text.strip())
        if match is None:
            return None
        return cls(
            match["before"],
            match["after"],
            match["cost"],
            match["verdict"],  # type: ignore[arg-type]
            match["best"],
            match["forced"] is not None,
        )


@dataclass(frozen=True)
class MoveReview:
    """One judged move (``number`` counts the record's actions from 1, chance included)."""

    number: int
    player: int
    action: Action
    before: Evaluation
    after: Evaluation
    cost: float | None
    """The value before minus the value after, from the mover's side (None: unknown)."""
    verdict: Verdict | None
    best: Action | None
    """A best move, where the one played was not (exact: optimal; else the search's choice)."""
    forced: bool = False
    words: str = ""
    """The move played, told in words (:func:`gamehall.core.words.move_words`)."""
    best_words: str | None = None
    """The best move told in words, where there is one."""

    @property
    def exact(self) -> bool:
        return self.before.exact and self.after.exact

    def annotation(self) -> Annotation:
        kind = self.before.kind
        if self.cost is None:
            cost = "?"
        else:
            cost = format_cost(kind, self.cost, exact=self.exact)
            cost = cost if self.exact else "~" + cost
        return Annotation(
            self.before.text(),
            self.after.text(),
            cost,
            self.verdict,
            None if self.best is None else str(self.best),
            self.forced,
        )

    def to_json(self, player_names: tuple[str, ...]) -> dict[str, Any]:
        return {
            "number": self.number,
            "player": player_names[self.player],
            "move": str(self.action),
            "before": self.before.to_json(),
            "after": self.after.to_json(),
            "cost": None if self.cost is None else json_number(self.cost),
            "exact": self.exact,
            "verdict": self.verdict,
            "best": None if self.best is None else str(self.best),
            "forced": self.forced,
            "comment": str(self.annotation()),
            "words": self.words,
            "best_words": self.best_words,
        }


@dataclass(frozen=True)
class Review:
    """A reviewed game: its record, each judged move, and how long it took."""

    game: Game
    record: Record
    moves: list[MoveReview]
    kind: ValueKind
    unit: str
    judgement: Judgement | None
    seconds: float
    budget: dict[str, Any]
    unfinished: str | None = None
    """Where the record stops on a position that is not over (a game resigned, lost on time,
    claimed, aborted, or still going on), what that means for the review, in words."""

    def players(self) -> list[PlayerSummary]:
        """Each player's review summed up for people: accuracy, mistakes and blunders, the
        worst moment (:mod:`gamehall.ai.review_summary`)."""
        return [
            summarise(index, name, self.moves, self.kind, self.judgement)
            for index, name in enumerate(self.game.player_names)
        ]

    def summary(self) -> dict[str, dict[str, Any]]:
        """Per player (by seat name): moves judged, how many exactly, the count of each class,
        the accuracy and the worst moment, and all of it in words (``text``)."""
        return {
            name: player.to_json()
            for name, player in zip(self.game.player_names, self.players(), strict=True)
        }

    def summary_text(self, player: str) -> str:
        """One player's summary in words, for the record's header and the command line."""
        return self.summary()[player]["text"]

    def annotated(self) -> Record:
        """The record with each judged move's annotation as its comment, and a summary tag per
        player (``DarkReview``, ...)."""
        tags = dict(self.record.tags)
        seconds = self.budget["seconds"]
        tags["Annotator"] = (
            f"gamehall review: exact where the solver settles a position within {seconds:g} s, "
            "estimated (~) elsewhere"
        )
        for name in self.game.player_names:
            tags[f"{name.capitalize()}Review"] = self.summary_text(name)
        if self.unfinished is not None:
            tags["ReviewNote"] = self.unfinished
        comments = dict(self.record.comments)
        for move in self.moves:
            comments[move.number] = str(move.annotation())
        return Record(tags, list(self.record.actions), comments)

    def to_json(self) -> dict[str, Any]:
        names = self.game.player_names
        judgement = judgement_json(self.judgement)
        return {
            "game": self.game.name,
            "tags": self.record.tags,
            "unit": self.unit,
            "kind": self.kind.value,
            "judgement": judgement,
            "budget": self.budget,
            "seconds": round(self.seconds, 3),
            "unfinished": self.unfinished,
            "summary": self.summary(),
            "moves": [m.to_json(names) for m in self.moves],
        }


def judgement_json(judgement: Judgement | None) -> dict[str, Any] | None:
    """A game's class thresholds as JSON (``None``: the game classes no moves)."""
    if judgement is None:
        return None
    return {
        "unit": judgement.unit,
        "inaccuracy": judgement.inaccuracy,
        "mistake": judgement.mistake,
        "blunder": judgement.blunder,
    }


def _exact_cost(before: Evaluation, after: Evaluation) -> Any:
    """The exact value given up (an int or a Fraction)."""
    assert before.value is not None and after.value is not None
    return max(before.value - after.value, 0)


class _Solved:
    """Solutions by state, so a position is solved once (after one move, before the next)."""

    def __init__(self, analyst: Analyst, seconds: float) -> None:
        self.analyst = analyst
        self.seconds = seconds
        self.cache: dict[State, Solution | None] = {}

    def get(self, state: State, best: bool) -> Solution | None:
        """The solution of ``state`` (naming a best move if ``best``); a failed solve is not
        tried again."""
        if state in self.cache:
            found = self.cache[state]
            if found is None or not found.exact or not best or found.move is not None:
                return found
        solution = self.analyst.solve(state, self.seconds, best="one" if best else "none")
        self.cache[state] = solution
        return solution


def review(
    record: Record,
    *,
    seconds: float = DEFAULT_SECONDS,
    simulations: int = DEFAULT_SIMULATIONS,
    estimate_seconds: float = DEFAULT_ESTIMATE_SECONDS,
    seed: int = 0,
    progress: Progress | None = None,
    total_seconds: float | None = None,
) -> Review:
    """Review every decision of ``record`` (see the module docstring).

    ``seconds`` is the solver's budget on each position; ``simulations`` (at most
    ``estimate_seconds``) the MCTS budget of each estimated one, seeded from ``seed`` and the
    move number, so a review is reproducible where it is exact or bounded by simulations.
    After ``total_seconds`` in all (if given), positions are solved only where the solver
    usually settles them quickly, and the rest estimated, as after a failed solve: a bound on a
    whole review however long the game (a server's)."""
    if not seconds > 0 or simulations < 1 or not estimate_seconds > 0:
        raise GamehallError("the review's budgets must be positive")
    if total_seconds is not None and not total_seconds > 0:
        raise GamehallError("the review's total budget must be positive")
    start = time.perf_counter()
    states = record.replay()
    game = record.game()
    actions = [states[i].parse_action(text) for i, text in enumerate(record.actions)]
    analyst = Analyst(game.name)
    analyst.warm_up()
    kind = analyst.kind
    judgement = analyst.judgement
    solved = _Solved(analyst, seconds)
    decisions = [i for i in range(len(actions)) if states[i].current_player >= 0]
    reviewed: list[MoveReview] = []
    failed = False
    if progress is not None:
        progress(0, len(decisions))
    for done, index in enumerate(reversed(decisions), 1):
        if total_seconds is not None and time.perf_counter() - start > total_seconds:
            failed = True
        before_state, action, after_state = states[index], actions[index], states[index + 1]
        mover = before_state.current_player
        forced = len(before_state.legal_actions()) == 1
        before, after = Evaluation(kind), Evaluation(kind)
        best: Action | None = None
        reaches = analyst.reaches(before_state)
        if analyst.solver is not None and (not failed or reaches):
            solution = solved.get(after_state, best=False)
            slow = False
            if solution is not None:
                after = after.with_solution(solution, mover)
                slow = solution.seconds > seconds / 2
            if forced:
                before = after
            elif reaches or not slow:  # a position holds the one after it: skip it if that was slow
                solution = solved.get(before_state, best=True)
                if solution is not None:
                    before = before.with_solution(solution, mover)
                    if solution.exact:
                        best = solution.move
            # no move is better than the position; the position is worth at least the move played
            after = after.bounded(-float("inf"), before.upper)
            before = before.bounded(after.lower, float("inf"))
            failed = failed or not (before.exact and after.exact)
        if not (before.exact and after.exact):
            root = analyst.search(
                before_state,
                simulations=simulations,
                seconds=estimate_seconds,
                seed=seed * 100_003 + index,
            )
            before, after, searched_best = _estimated(root, action, before, after)
            if best is None:
                best = searched_best
        cost = None
        if before.point is not None and after.point is not None:
            cost = max(0.0, before.point - after.point)
            if before.exact and after.exact:
                cost = _exact_cost(before, after)
        verdict = None if cost is None or judgement is None else judgement.classify(cost)
        if forced:
            verdict = "best" if judgement is not None else None
        best = None if verdict == "best" or best == action else best
        reviewed.append(
            MoveReview(
                index + 1,
                mover,
                action,
                before,
                after,
                cost,
                verdict,
                best,
                forced,
                move_words(before_state, action),
                None if best is None else move_words(before_state, best),
            )
        )
        if progress is not None:
            progress(done, len(decisions))
    reviewed.reverse()
    budget = {"seconds": seconds, "simulations": simulations, "estimate_seconds": estimate_seconds}
    if total_seconds is not None:
        budget["total_seconds"] = total_seconds
    unit = analyst.solver.unit if analyst.solver is not None else "mean return"
    return Review(
        game,
        record,
        reviewed,
        kind,
        unit,
        judgement,
        time.perf_counter() - start,
        budget,
        unfinished_note(record, states[-1], len(decisions)),
    )


def unfinished_note(record: Record, final: State, judged: int) -> str | None:
    """What a review of a game that stops before its end judges, in words (None when the last
    position is over: the moves lead to the game's exact outcome)."""
    if final.is_terminal():
        return None
    if judged == 0:
        return f"{record.ending(final)} No player made a move, so there is nothing to judge."
    moves = "move" if judged == 1 else "moves"
    return (
        f"{record.ending(final)} The review judges the {judged} {moves} played; there is no "
        "final exact outcome to measure them against."
    )


def _estimated(
    root: Node, action: Action, before: Evaluation, after: Evaluation
) -> tuple[Evaluation, Evaluation, Action | None]:
    """Estimates from a search of the position before the move: the position is worth its most
    visited move, the move played its own mean (each within what the solver proved)."""
    if not root.children:
        return before, after, None
    best, node = max(root.children.items(), key=lambda item: (item[1].visits, item[1].mean))
    if not before.exact:
        before = before.with_estimate(node)
    played = root.children.get(action)
    if not after.exact and played is not None:
        after = after.with_estimate(played)
    return before, after, best


__all__ = [
    "DEFAULT_SECONDS",
    "DEFAULT_SIMULATIONS",
    "Annotation",
    "MoveReview",
    "Review",
    "review",
]
