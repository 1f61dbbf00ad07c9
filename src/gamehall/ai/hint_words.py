"""Hints told for people: the sentences the web, the terminal app and the command line all show.

A hint's first line is a plain sentence built from the move in words
(:func:`~gamehall.core.words.move_words`) and what it is worth to the player asking, in the
solver's unit as the game says it (:meth:`~gamehall.core.search.Solver.outlook`)::

    Best: Dark's Red Circle takes two Red Triangles, by shape: with best play you win the round
    by 2 points

Whether the value is proven is one word (``exact`` or ``estimate``); intervals, simulations,
proven bounds and the line of play that follows go to :attr:`HintWords.details`, which the web
shows behind a "Details" disclosure. A line of play is told in words and stops where chance
acts with more than one outcome ("then whatever is drawn"): a sampled draw is never shown as
if it were forced. Hints whose values cannot be told apart (overlapping intervals, or closer
than :data:`MARGIN`) say so ("All three are about equal").
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass
from typing import Literal

from gamehall.ai.evaluation import Evaluation, format_value
from gamehall.ai.hints import Advice, Hint
from gamehall.core import Action, GamehallError, State, find_plugin
from gamehall.core.errors import TooManyOutcomesError
from gamehall.core.search import Solver, ValueKind
from gamehall.core.words import move_label, move_words, mover_name

MARGIN = {ValueKind.PROBABILITY: 0.02, ValueKind.POINTS: 0.25}
"""Values closer than this (two percentage points of a chance of winning, a quarter of a
point) are told as about equal, even where the search could tell them apart."""

ORDINALS = ("Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth", "Tenth")
COUNTS = {2: "Both", 3: "All three", 4: "All four", 5: "All five"}
WHATEVER_IS_DRAWN = "then whatever is drawn"
"""How a line of play ends where chance acts with more than one outcome."""


@dataclass(frozen=True)
class HintWords:
    """One hint for people: its sentence, one word for how it is known, and its details."""

    label: str
    """'Best', 'Equally good', 'About as good', 'Second best', 'Only move'."""
    move: str
    """The move in words (:func:`~gamehall.core.words.move_words`)."""
    notation: str
    """The move's notation, a small secondary label."""
    outlook: str
    """What it is worth to the player asking: 'with best play you win 39% of the time' ('' for
    an only move of which nothing was found in time)."""
    method: Literal["exact", "estimate"]
    details: tuple[str, ...]
    """Intervals, simulations and proven bounds, in sentences (no line of play)."""
    line_kind: str = ""
    """'Perfect play after it' or 'Likeliest line after it' ('' without a line)."""
    line: tuple[str, ...] = ()
    """The moves that follow, each in words; the last may be :data:`WHATEVER_IS_DRAWN`."""

    @property
    def sentence(self) -> str:
        """The hint's first line: 'Best: <the move in words>: <what it is worth>'."""
        return f"{self.label}: {self.move}" + (f": {self.outlook}" if self.outlook else "")

    @property
    def line_text(self) -> str:
        """The line of play in one sentence ('' without one)."""
        return f"{self.line_kind}: {'; '.join(self.line)}." if self.line else ""


@dataclass(frozen=True)
class AdviceWords:
    """A position's hints for people."""

    to_move: str
    """Who asks ('Dark')."""
    headline: str
    """The position's exact value ('With best play you win the round by 2 points.'), or ''."""
    summary: str
    """'All three are about equal.' when the hints cannot be told apart, else ''."""
    hints: tuple[HintWords, ...]
    unit: str = ""
    """What values count ('Values are the chance of winning, from your side.'), or ''."""
    note: str = ""
    """Why the ranking is not proven, or ''."""

    def lines(self, *, width: int = 100) -> list[str]:
        """The hints as text lines for a terminal (the command line and the terminal app): the
        headline, each hint numbered with its one word and notation, its details indented,
        wrapped to ``width`` with no trailing spaces."""
        out = [f"{self.to_move} to move." + (f" {self.headline}" if self.headline else "")]
        if self.summary:
            out += _wrap(self.summary, width, "")
        for number, hint in enumerate(self.hints, 1):
            first = f"{number}. {hint.sentence} ({hint.method}; {hint.notation})"
            out += _wrap(first, width, "   ")
            for detail in (*hint.details, hint.line_text):
                if detail:
                    out += _wrap(detail, width, "   ", first="   ")
        for extra in (self.unit, self.note):
            if extra:
                out += _wrap(extra, width, "")
        return out


def _wrap(text: str, width: int, indent: str, *, first: str = "") -> list[str]:
    return textwrap.wrap(
        text,
        width=max(20, width),
        initial_indent=first,
        subsequent_indent=indent,
        break_on_hyphens=False,
        break_long_words=False,
    ) or [first.rstrip()]


def _method(hint: Hint) -> Literal["exact", "estimate"]:
    return "exact" if hint.exact else "estimate"


def _span(assessment: Evaluation | None) -> tuple[float, float] | None:
    """Where a hint's value lies: exactly, its estimate's interval within the proven bounds, or
    the proven bounds (None when nothing is known)."""
    if assessment is None:
        return None
    if assessment.value is not None:
        return float(assessment.value), float(assessment.value)
    if assessment.estimate is not None:
        low, high = assessment.interval or (assessment.estimate, assessment.estimate)
        if not (math.isfinite(low) and math.isfinite(high)):
            low = high = assessment.estimate
        return assessment.within_bounds(low), assessment.within_bounds(high)
    if math.isfinite(assessment.lower) and math.isfinite(assessment.upper):
        return float(assessment.lower), float(assessment.upper)
    return None


def about_equal(kind: ValueKind, a: Evaluation | None, b: Evaluation | None) -> bool:
    """Whether two hints' values cannot be told apart: their spans overlap, or their points
    are closer than :data:`MARGIN`."""
    one, two = _span(a), _span(b)
    if one is None or two is None or a is None or b is None:
        return False
    if one[0] <= two[1] and two[0] <= one[1]:
        return True
    return abs((a.point or 0.0) - (b.point or 0.0)) < MARGIN[kind]


def _equal(a: Evaluation | None, b: Evaluation | None) -> bool:
    return a is not None and b is not None and a.exact and b.exact and a.value == b.value


def _outlook(solver: Solver | None, hint: Hint, only: bool, detailed: bool) -> str:
    """What the hint is worth to the player asking, in a phrase (``detailed``: its details say
    what is proven of it)."""
    assessment = hint.assessment
    nothing = "" if only else "not evaluated in time"  # "Only move" says it all
    if solver is None or assessment is None:
        return hint.estimate_text or nothing
    if assessment.value is not None:
        return f"with best play {solver.outlook(assessment.value, exact=True)}"
    point = assessment.point
    if assessment.estimate is not None and point is not None:
        return f"with best play {solver.outlook(point, exact=False)}"
    if only or not detailed:
        return nothing
    return "not settled in time (see the details)"


def _amount(kind: ValueKind, value: float) -> str:
    return format_value(kind, value, exact=False)


def _details(kind: ValueKind, hint: Hint) -> tuple[str, ...]:
    """What is known of the hint's value beyond its sentence, in sentences."""
    out: list[str] = []
    a = hint.assessment
    if a is None:
        if hint.visits:
            out.append(f"The search tried it in {hint.visits:,} simulated games.")
        return tuple(out)
    if a.value is not None:  # "exact" says it all
        return tuple(out)
    if a.estimate is not None:
        text = f"Estimated from {a.visits:,} simulated games"
        if a.interval is not None and all(map(math.isfinite, a.interval)):
            low, high = (_amount(kind, a.within_bounds(x)) for x in a.interval)
            text += f" (95% interval: {low} to {high})" if low != high else ""
        out.append(text + ".")
    lower_known, upper_known = math.isfinite(a.lower), math.isfinite(a.upper)
    if kind is ValueKind.PROBABILITY:  # always within 0% and 100%: say nothing then
        lower_known = lower_known and a.lower > 0
        upper_known = upper_known and a.upper < 1
    low_text = format_value(kind, a.lower, exact=True) if lower_known else ""
    high_text = format_value(kind, a.upper, exact=True) if upper_known else ""
    if lower_known and upper_known:
        out.append(f"The solver proved it lies between {low_text} and {high_text}.")
    elif upper_known:
        out.append(f"The solver proved it is at most {high_text}.")
    elif lower_known:
        out.append(f"The solver proved it is at least {low_text}.")
    return tuple(out)


def line_words(state: State, moves: tuple[Action, ...]) -> tuple[str, ...]:
    """A line of play from ``state``, each move in words. It stops where chance acts with more
    than one outcome (:data:`WHATEVER_IS_DRAWN`): what follows a draw depends on the draw."""
    told: list[str] = []
    for action in moves:
        if state.is_terminal():
            break
        if state.is_chance_node():
            try:
                single = len(state.chance_outcomes()) == 1
            except TooManyOutcomesError:
                single = False
            if not single:
                told.append(WHATEVER_IS_DRAWN)
                break
        try:
            told.append(move_words(state, action))
            state = state.apply_trusted(action)
        except GamehallError:  # pragma: no cover - a line is played from its own position
            break
    return tuple(told)


def _label(index: int, hints: list[Hint], kind: ValueKind, only: bool) -> str:
    if only:
        return "Only move"
    if index == 0:
        return "Best"
    best, this = hints[0].assessment, hints[index].assessment
    if _equal(best, this):
        return "Equally good"
    if about_equal(kind, best, this):
        return "About as good"
    return f"{ORDINALS[index - 1]} best" if index <= len(ORDINALS) else "Also"


def _summary(hints: list[Hint], kind: ValueKind) -> str:
    """'All three are about equal.' when no two hints can be told apart, else ''."""
    if len(hints) < 2:
        return ""
    pairs = [(a, b) for i, a in enumerate(hints) for b in hints[i + 1 :]]
    group = COUNTS.get(len(hints), f"All {len(hints)}")
    verb = "are"
    if all(_equal(a.assessment, b.assessment) for a, b in pairs):
        return f"{group} {verb} equally good."
    if all(about_equal(kind, a.assessment, b.assessment) for a, b in pairs):
        return f"{group} {verb} about equal: no one of them is clearly better."
    return ""


def tell(advice: Advice) -> AdviceWords:
    """The hints of ``advice`` for people (see the module docstring)."""
    state = advice.state
    solver = find_plugin(state.game.name).load_solver()
    kind = solver.kind if solver is not None else ValueKind.POINTS
    hints = list(advice.hints)
    only = len(hints) == 1 and not state.is_terminal() and len(state.legal_actions()) == 1
    told = []
    for index, hint in enumerate(hints):
        line = line_words(state.apply_trusted(hint.action), hint.line) if hint.line else ()
        if line == (WHATEVER_IS_DRAWN,):  # a draw comes at once: no line to tell
            line = ()
        details = _details(kind, hint)
        line_kind = ""
        if line:
            line_kind = "Perfect play after it" if hint.line_exact else "Likeliest line after it"
        told.append(
            HintWords(
                label=_label(index, hints, kind, only),
                move=move_words(state, hint.action),
                notation=move_label(hint.action),
                outlook=_outlook(solver, hint, only, bool(details)),
                method=_method(hint),
                details=details,
                line_kind=line_kind,
                line=line,
            )
        )
    headline = ""
    position = advice.position
    if solver is not None and position is not None and position.value is not None:
        headline = f"With best play {solver.outlook(position.value, exact=True)}."
    unit = f"Values are the {solver.unit}, from your side." if solver and solver.unit else ""
    note = ""
    if solver is not None and not advice.proven and not only and hints:
        note = (
            "Not every move is settled: unsettled moves are ranked by estimates within what "
            "the solver proved."
        )
    who = mover_name(state) if not state.is_terminal() else ""
    return AdviceWords(who, headline, _summary(hints, kind), tuple(told), unit, note)


__all__ = [
    "MARGIN",
    "WHATEVER_IS_DRAWN",
    "AdviceWords",
    "HintWords",
    "about_equal",
    "line_words",
    "tell",
]
