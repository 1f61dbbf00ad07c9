"""The analysis board's evaluation: every legal move of a position, valued, for any front end.

:func:`evaluate_moves` (and :func:`analyse`, which adds the position's own value) gives each
legal move of a position with what is known of its value for the player to move: exact where
the game's solver settles it within the budget, else a labelled MCTS estimate (with any bounds
the solver proved on the way). It asks :func:`gamehall.ai.hints.advise` for *every* move rather
than the best three, so the search is the hints' (solver first, then MCTS on the moves left
open) and a move is never ranked above one proven better. A game without a solver gets MCTS
estimates alone.

Each move comes told in words (:func:`gamehall.core.words.move_words`) with its notation as a
small label beside them. At a chance step the outcomes are listed instead, with their
probabilities and no values, when the game can list them (:data:`MAX_OUTCOMES` at most);
a front end offers "random" besides.

The terminal app's analysis board (``gamehall tui GAME --analyse``) uses it; so can the web's.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from gamehall.ai.evaluation import Analyst, Evaluation, format_value
from gamehall.ai.hints import advise
from gamehall.core import Action, State
from gamehall.core.errors import TooManyOutcomesError
from gamehall.core.words import move_label, move_words, mover_name

DEFAULT_BUDGET = 2.0
"""Seconds for valuing the moves of one position."""
MAX_OUTCOMES = 100
"""A chance step with more outcomes than this is not listed (pick "random" or type one)."""
UNKNOWN = "?..?"
""":meth:`Evaluation.text` of a value nothing is known of."""


@dataclass(frozen=True)
class MoveValue:
    """One legal move (or chance outcome) and what is known of its value for the mover."""

    action: Action
    words: str
    """The move in a sentence (:func:`~gamehall.core.words.move_words`)."""
    label: str
    """Its notation, the small label beside the words."""
    evaluation: Evaluation | None = None
    """Everything known of its value (None: not valued, as a chance outcome)."""
    value_words: str = ""
    """The value in words from the mover's side ("Light ends +1 with best play (exact)")."""
    probability: Fraction | float | None = None
    """A chance outcome's probability (None for a player's move)."""

    @property
    def exact(self) -> bool:
        return self.evaluation is not None and self.evaluation.exact

    @property
    def value(self) -> float | None:
        """One number for the value (exact, else the estimate within proven bounds)."""
        return None if self.evaluation is None else self.evaluation.point

    @property
    def text(self) -> str:
        """The value, short: ``+1``, ``~+0.4`` (estimate), ``-1..+2`` (bounds); a chance
        outcome's probability (``25%``); ``""`` when nothing is known."""
        if self.probability is not None:
            return f"{float(self.probability):.0%}"
        if self.evaluation is None:
            return ""
        text = self.evaluation.text()
        return "" if text == UNKNOWN else text

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "move": self.label,
            "words": self.words,
            "text": self.text,
            "exact": self.exact,
            "value_words": self.value_words,
        }
        if self.evaluation is not None:
            data["value"] = self.evaluation.to_json()
        if self.probability is not None:
            data["probability"] = float(self.probability)
        return data


@dataclass(frozen=True)
class BoardAnalysis:
    """A position analysed: its moves best first, and its own value for the player to move."""

    state: State
    moves: list[MoveValue]
    position: Evaluation | None
    """The position's value for the mover (None at a chance step, the end, or without a
    solver)."""
    position_words: str
    """It in words ("with best play Light ends level (exact)"), or what the position is
    ("Chance draws: pick the outcome", "The game is over: ...")."""
    proven: bool
    """Whether every move's value is exact."""
    listed: bool = True
    """False at a chance step with too many outcomes to list."""

    def to_json(self) -> dict[str, Any]:
        return {
            "position": str(self.state),
            "value": None if self.position is None else self.position.to_json(),
            "value_words": self.position_words,
            "proven": self.proven,
            "listed": self.listed,
            "moves": [move.to_json() for move in self.moves],
        }


def _value_words(analyst: Analyst, evaluation: Evaluation, who: str) -> str:
    """What is known of a value, for people, from ``who``'s side."""
    solver, kind = analyst.solver, analyst.kind
    if evaluation.value is not None and solver is not None:
        return f"{solver.describe(evaluation.value, who)} with best play (exact)"
    point = evaluation.point
    if evaluation.estimate is not None and point is not None:
        return f"about {format_value(kind, point, exact=False)} for {who} (an estimate)"
    text = evaluation.text()
    if text == UNKNOWN:
        return "not valued in time"
    return f"{text} for {who} (proven bounds only)"


def _result(state: State) -> str:
    """How the game ended, in a sentence ("The game is over: Jinn wins, ...")."""
    outcome = state.outcome()
    if outcome is None:
        return "The game is over"
    if outcome.winner is None:
        return f"The game is over, drawn: {outcome.reason}"
    winner = state.player_name(outcome.winner)
    return f"The game is over: {winner[:1].upper() + winner[1:]} wins ({outcome.reason})"


def _chance(state: State) -> BoardAnalysis:
    try:
        outcomes = list(state.chance_outcomes())
    except TooManyOutcomesError:
        outcomes = []
    if not outcomes or len(outcomes) > MAX_OUTCOMES:
        return BoardAnalysis(
            state, [], None, "Chance acts here: too many outcomes to list", True, listed=False
        )
    outcomes.sort(key=lambda item: -item[1])
    moves = [
        MoveValue(action, move_words(state, action), move_label(action), probability=chance)
        for action, chance in outcomes
    ]
    return BoardAnalysis(state, moves, None, "Chance acts here: pick the outcome", True)


def analyse(state: State, budget: float = DEFAULT_BUDGET, *, seed: int | None = 0) -> BoardAnalysis:
    """Every legal move of ``state`` valued for the player to move within ``budget`` seconds,
    best first (see the module docstring)."""
    if state.is_terminal():
        return BoardAnalysis(state, [], None, _result(state), True)
    if state.is_chance_node():
        return _chance(state)
    analyst = Analyst(state.game.name)
    who = mover_name(state)
    legal = state.legal_actions()
    if analyst.solver is None:
        root = analyst.search(state, simulations=None, seconds=budget, seed=seed)
        found = {
            action: Evaluation(analyst.kind).with_estimate(child)
            for action, child in root.children.items()
        }
        facts = [(action, found.get(action, Evaluation(analyst.kind))) for action in legal]
        facts.sort(key=lambda item: -item[1].rank)
        position = None
        proven = False
    else:
        advice = advise(state, count=len(legal), seconds=budget, seed=seed, lines=False)
        facts = [
            (hint.action, hint.assessment or Evaluation(analyst.kind)) for hint in advice.hints
        ]
        position = advice.position
        proven = all(evaluation.exact for _, evaluation in facts)
    moves = [
        MoveValue(
            action,
            move_words(state, action),
            move_label(action),
            evaluation,
            _value_words(analyst, evaluation, who),
        )
        for action, evaluation in facts
    ]
    # the position is worth its best move: exact when the solver settled it, else the best
    # move's estimate (the position's own proven bounds alone say little)
    if position is not None and position.exact:
        words = _value_words(analyst, position, who)
    elif moves:
        words = moves[0].value_words
    else:
        words = f"{who} to move"
    return BoardAnalysis(state, moves, position, words, proven)


def evaluate_moves(
    state: State, budget: float = DEFAULT_BUDGET, *, seed: int | None = 0
) -> list[MoveValue]:
    """Every legal move of ``state``, best first, each with its value for the player to move:
    exact from the solver within ``budget`` seconds, else a labelled estimate (a chance step's
    outcomes with their probabilities; nothing at the end)."""
    return analyse(state, budget, seed=seed).moves


__all__ = [
    "DEFAULT_BUDGET",
    "MAX_OUTCOMES",
    "BoardAnalysis",
    "MoveValue",
    "analyse",
    "evaluate_moves",
]
