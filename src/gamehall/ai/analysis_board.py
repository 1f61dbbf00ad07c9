"""The analysis board's judge: every legal move of a position with what is known of its value.

Front-end neutral: the web's analysis board (``/analysis/{game}``, through
:mod:`gamehall.web.compute.analysis`) and the terminal app's (``gamehall tui --analyse``,
:mod:`gamehall.tui.analysis`) both show what :func:`evaluate_moves` finds. Within a budget
(``seconds``) the game's exact solver settles as many moves as it can, best first, and MCTS
estimates the rest (:func:`gamehall.ai.hints.advise` asked for every move, without lines of
play), so each move comes back with one of three labels:

* ``exact``: the solver proved the move's value;
* ``bounds``: the solver proved only bounds, and no estimate was made;
* ``estimate``: an MCTS estimate (within the proven bounds), to be shown as one.

Moves are ordered best first and never above a move proven better
(:attr:`~gamehall.ai.evaluation.Evaluation.rank`). Values are from the side of the player to
move, in the solver's unit (points, or a chance of winning). A chance step has no values: its
outcomes are listed with their probabilities (:func:`chance_outcomes`), or, where there are too
many to list, a front end offers a random draw (:meth:`State.sample_chance`).
:attr:`BoardEvaluation.summary` says what the position is in a sentence, for a headline.

Every move is told in words (:func:`gamehall.core.words.move_words`), with its notation as
``label``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from gamehall.ai.evaluation import Analyst, Evaluation, format_value
from gamehall.ai.hints import advise
from gamehall.ai.mcts import MCTSAgent
from gamehall.core import Action, State, TooManyOutcomesError
from gamehall.core.search import ValueKind
from gamehall.core.words import move_label, move_words, mover_name

DEFAULT_SECONDS = 4.0
"""The default budget of one position's evaluation."""
MAX_OUTCOMES = 64
"""Chance outcomes listed one by one; a chance step with more offers a random draw only."""

Method = Literal["exact", "bounds", "estimate", "unknown"]
"""How a move's value is known: proven, proven bounds only, estimated, or not at all in time."""


@dataclass(frozen=True)
class MoveValue:
    """One legal move and what is known of its value for the player to move."""

    action: Action
    words: str
    """The move told in a sentence (the game's words)."""
    label: str
    """Its notation, a small secondary label."""
    method: Method
    value: str
    """Short: ``+2`` (exact), ``~+0.4`` (estimate), ``-1..+2`` (bounds), ``?`` (unknown)."""
    text: str
    """In words: ``Dark ends +2``, ``about +0.4 for Dark (an estimate)``, ..."""
    rank: float
    """The sort key (higher is better), never above a move proven better."""
    best: bool
    """Whether the move is (one of) the best: exact and worth the most, or ranked first."""
    after: State
    assessment: Evaluation | None = None

    @property
    def exact(self) -> bool:
        return self.method == "exact"

    def to_json(self, *, assessment: bool = True) -> dict[str, Any]:
        """The move as the web's analysis board sends it (``AnalysisMove``), with what the
        solver and the search found (``assessment``) unless asked not to."""
        data: dict[str, Any] = {
            "move": self.label,
            "words": self.words,
            "method": self.method,
            "value": self.value,
            "text": self.text,
            "best": self.best,
            "after": str(self.after),
        }
        if assessment and self.assessment is not None:
            data["assessment"] = self.assessment.to_json()
        return data


@dataclass(frozen=True)
class ChanceOutcome:
    """One outcome of a chance step, with its probability."""

    action: Action
    words: str
    label: str
    probability: float
    after: State

    @property
    def chance(self) -> str:
        """The probability for people (:func:`probability_text`): ``1 in 4``, ``26.0%``."""
        return probability_text(self.probability)

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.label,
            "words": self.words,
            "probability": round(self.probability, 6),
            "chance": self.chance,
            "after": str(self.after),
        }


@dataclass(frozen=True)
class BoardEvaluation:
    """A position as the analysis board shows it: who is to move, the value of the position
    when known, and every legal move (or, at a chance step, every outcome)."""

    state: State
    to_move: int
    """The player to move (negative: chance, or the game is over)."""
    to_move_name: str
    """"Dark", "Jinn"; "Chance" at a chance step; "" when the game is over."""
    kind: ValueKind
    unit: str
    """What the values count, for people ("final count difference", ...); "" without a solver."""
    position: Evaluation | None
    """The position's value for the player to move, when the solver proved something."""
    position_text: str
    """The position's value in words ("With best play: Dark ends +2"), or ''."""
    moves: tuple[MoveValue, ...]
    outcomes: tuple[ChanceOutcome, ...] | None
    """At a chance step: its outcomes (None there when there are too many to list)."""
    proven: bool
    """Every move's value is exact."""
    seconds: float

    @property
    def chance(self) -> bool:
        return self.state.is_chance_node()

    @property
    def over(self) -> bool:
        return self.state.is_terminal()

    @property
    def summary(self) -> str:
        """The position in a sentence, for a front end's headline: how the game ended, that
        chance acts, the position's value with best play, else its best move's (an estimate, or
        proven bounds); "" when there is nothing to say."""
        if self.over:
            return _result(self.state)
        if self.chance:
            listed = "pick the outcome" if self.outcomes else "too many outcomes to list"
            return f"Chance acts here: {listed}"
        if self.position_text:
            return self.position_text
        return self.moves[0].text if self.moves else ""

    def to_json(self) -> dict[str, Any]:
        return {
            "position": str(self.state),
            "to_move": self.to_move_name,
            "summary": self.summary,
            "value": None if self.position is None else self.position.to_json(),
            "unit": self.unit,
            "proven": self.proven,
            "moves": [move.to_json() for move in self.moves],
            "outcomes": None
            if self.outcomes is None
            else [outcome.to_json() for outcome in self.outcomes],
        }


def _result(state: State) -> str:
    """How the game ended, in a sentence ("The game is over: Jinn wins (...)")."""
    outcome = state.outcome()
    if outcome is None:
        return "The game is over"
    if outcome.winner is None:
        return f"The game is over, drawn: {outcome.reason}"
    winner = state.player_name(outcome.winner)
    return f"The game is over: {winner[:1].upper() + winner[1:]} wins ({outcome.reason})"


def _value_text(kind: ValueKind, assessment: Evaluation) -> tuple[Method, str]:
    if assessment.exact:
        return "exact", assessment.text()
    if assessment.estimate is not None:
        return "estimate", assessment.text()
    if math.isfinite(assessment.lower) or math.isfinite(assessment.upper):
        return "bounds", assessment.text()
    return "unknown", "?"


def _words(analyst: Analyst, method: Method, assessment: Evaluation | None, who: str) -> str:
    """A move's value in words from the mover's side."""
    kind = analyst.kind
    if assessment is None:
        return "not evaluated in time"
    if method == "exact" and assessment.value is not None and analyst.solver is not None:
        return analyst.solver.describe(assessment.value, who)
    if method == "estimate" and assessment.point is not None:
        return f"about {format_value(kind, assessment.point, exact=False)} for {who} (an estimate)"
    if method == "bounds":
        low, high = assessment.lower, assessment.upper
        if math.isfinite(low) and math.isfinite(high):
            low_text = format_value(kind, low, exact=True)
            high_text = format_value(kind, high, exact=True)
            return f"between {low_text} and {high_text} for {who} (proven bounds)"
        if math.isfinite(high):
            return f"at most {format_value(kind, high, exact=True)} for {who} (proven)"
        return f"at least {format_value(kind, low, exact=True)} for {who} (proven)"
    return "not evaluated in time"


def chance_outcomes(state: State, limit: int = MAX_OUTCOMES) -> tuple[ChanceOutcome, ...] | None:
    """A chance step's outcomes, likeliest first, each with its probability and the position it
    leads to; None when there are more than ``limit`` (or too many to list at all)."""
    try:
        listed = state.chance_outcomes()
    except TooManyOutcomesError:
        return None
    if len(listed) > limit:
        return None
    order = sorted(range(len(listed)), key=lambda i: (-float(listed[i][1]), i))
    return tuple(
        ChanceOutcome(
            listed[i][0],
            move_words(state, listed[i][0]),
            move_label(listed[i][0]),
            float(listed[i][1]),
            state.apply_trusted(listed[i][0]),
        )
        for i in order
    )


def evaluate_moves(
    state: State,
    *,
    seconds: float = DEFAULT_SECONDS,
    seed: int | None = 0,
    on_step: Callable[[str], None] | None = None,
) -> BoardEvaluation:
    """Every legal move of ``state`` with its value for the player to move, best first (see the
    module docstring); at a chance step its outcomes, at the end nothing. ``on_step`` is told
    what is being done ('solving', 'searching', ...), for a status line."""
    start = time.perf_counter()
    analyst = Analyst(state.game.name)
    unit = analyst.solver.unit if analyst.solver is not None else ""
    if state.is_terminal():
        return BoardEvaluation(state, -1, "", analyst.kind, unit, None, "", (), None, True, 0.0)
    if state.is_chance_node():
        outcomes = chance_outcomes(state)
        return BoardEvaluation(
            state, -1, "Chance", analyst.kind, unit, None, "", (), outcomes, True,
            time.perf_counter() - start,
        )  # fmt: skip
    mover = state.current_player
    who = mover_name(state)
    legal = state.legal_actions()
    if analyst.solver is None:
        if on_step is not None:
            on_step("searching")
        moves = _searched(state, who, seconds, seed)
        return BoardEvaluation(
            state, mover, who, analyst.kind, unit, None, "", moves, None, False,
            time.perf_counter() - start,
        )  # fmt: skip
    advice = advise(
        state, count=len(legal), seconds=seconds, seed=seed, lines=False, on_step=on_step
    )
    moves = []
    top: float | None = None
    for index, hint in enumerate(advice.hints):
        assessment = hint.assessment or Evaluation(analyst.kind)
        method, value = _value_text(analyst.kind, assessment)
        text = _words(analyst, method, assessment, who)
        if index == 0:
            top = hint.value
        best = index == 0 or (
            method == "exact" and moves[0].method == "exact" and hint.value == top
        )
        moves.append(
            MoveValue(
                hint.action,
                move_words(state, hint.action),
                move_label(hint.action),
                method,
                value,
                text,
                hint.value,
                best,
                state.apply_trusted(hint.action),
                hint.assessment,
            )
        )
    position_text = ""
    position = advice.position
    if position is not None and position.value is not None and analyst.solver is not None:
        position_text = f"With best play: {analyst.solver.describe(position.value, who)}"
    return BoardEvaluation(
        state,
        mover,
        who,
        analyst.kind,
        unit,
        position,
        position_text,
        tuple(moves),
        None,
        all(move.exact for move in moves),
        time.perf_counter() - start,
    )


def _searched(state: State, who: str, seconds: float, seed: int | None) -> tuple[MoveValue, ...]:
    """A game without a solver: every move's MCTS estimate (its mean return), most tried first."""
    agent = MCTSAgent(seconds=seconds, seed=seed)
    stats = agent.analyse(state)
    total = sum(stat.visits for stat in stats) or 1
    moves = []
    for index, stat in enumerate(stats):
        shown = agent.value_text(stat.value)
        moves.append(
            MoveValue(
                stat.action,
                move_words(state, stat.action),
                move_label(stat.action),
                "estimate",
                "~" + shown.rpartition(" ")[2],
                f"{shown} for {who} (an estimate: {stat.visits:,} of {total:,} tries)",
                stat.visits + stat.value * 1e-6,
                index == 0,
                state.apply_trusted(stat.action),
            )
        )
    return tuple(moves)


def probability_text(probability: float) -> str:
    """A chance outcome's probability for people: ``1 in 4`` where it is a simple fraction,
    else a percentage."""
    share = Fraction(probability).limit_denominator(1000)
    if (
        share.numerator == 1
        and share.denominator <= 1000
        and abs(float(share) - probability) < 1e-9
    ):
        return f"1 in {share.denominator}"
    return f"{probability:.1%}"


__all__ = [
    "DEFAULT_SECONDS",
    "BoardEvaluation",
    "ChanceOutcome",
    "Method",
    "MoveValue",
    "chance_outcomes",
    "evaluate_moves",
    "probability_text",
]
