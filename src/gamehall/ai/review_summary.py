"""A review summed up for players: accuracy, mistakes and blunders, and the worst moment.

The summary of one player of a reviewed game (:class:`PlayerSummary`) says, in terms a player
knows (the words of docs/playing.md, "Accuracy"):

* how many of their moves were **mistakes** and **blunders** (and inaccuracies), by the game's
  :class:`~gamehall.core.search.Judgement`;
* their **accuracy**: how much of the best value they kept, move by move, as lichess measures it
  (https://lichess.org/page/accuracy). Each move the player chose (a forced move is no choice)
  gets ``103.1668 * exp(-0.04354 * loss) - 3.1669`` percent, kept within 0..100, where ``loss``
  is the winning chance the move gave up, in percentage points: the exact drop of the win
  probability in a game valued that way; in a game valued in points each point
  counts as :func:`points_percent` percentage points, so that the game's blunder line falls where
  a probability game's does (:data:`BLUNDER_PERCENT`). A move that keeps the best value scores
  100%; the player's accuracy is the plain average over their moves (lichess also weights by
  volatility and takes a harmonic mean; with exact values there is no need to temper noise);
* the **worst moment**: the move that gave up most, with the better move, both in words.

Why not the sum of what each move gave up? Each cost is measured against perfect play by both
sides from that position on; when the opponent errs in turn, the value comes back. Summed over
a game the costs count the same ground many times: a player who won a match 6–0 "gave up 15
points", another "175.7 percentage points" of a chance of winning that never exceeds 100. The
sum measures nothing a player sees on the board, so the summary no longer shows it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gamehall.core.search import VERDICTS, Judgement, ValueKind

if TYPE_CHECKING:  # pragma: no cover
    from gamehall.ai.review import MoveReview

BLUNDER_PERCENT = 20.0
"""A blunder's loss of winning chance in percentage points, where values are probabilities
(the line of a game valued in winning chances): a points game's blunder line is made to
count as much."""
POINT_PERCENT = 10.0
"""What one point counts as, in percentage points, for a points game with no judgement."""


def points_percent(judgement: Judgement | None) -> float:
    """What one point of a points game counts as, in percentage points of winning chance: its
    blunder line is :data:`BLUNDER_PERCENT` (a blunder of 2 points makes 10 a point, which puts
    inaccuracy and mistake lines of ½ and 1 point at a probability game's 5 and 10)."""
    if judgement is None:
        return POINT_PERCENT
    return BLUNDER_PERCENT / judgement.blunder


def loss_percent(kind: ValueKind, cost: float, judgement: Judgement | None) -> float:
    """A move's cost as winning chance given up, in percentage points (never below zero)."""
    cost = max(0.0, float(cost))
    if kind is ValueKind.PROBABILITY:
        return 100.0 * cost
    return cost * points_percent(judgement)


def move_accuracy(loss: float) -> float:
    """Lichess's accuracy of one move from the winning chance it gave up (percentage points):
    100 for none, about 64 for 10, about 40 for 20, 0 from about 80 on."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * loss) - 3.1669))


def accuracy(moves: list[MoveReview], kind: ValueKind, judgement: Judgement | None) -> float | None:
    """The average accuracy of ``moves`` that were a choice and whose cost is known (None when
    there is none)."""
    scored = [
        move_accuracy(loss_percent(kind, m.cost, judgement))
        for m in moves
        if not m.forced and m.cost is not None
    ]
    return sum(scored) / len(scored) if scored else None


@dataclass(frozen=True)
class Worst:
    """A player's costliest move: its number, its words, its class, the values before and after
    it (as the review writes them) and the better move in words (None if not known)."""

    number: int
    words: str
    verdict: str | None
    before: str
    after: str
    best_words: str | None
    exact: bool
    values: tuple[float | None, float | None] = (None, None)
    """The values before and after as numbers (for a sentence; None where unknown)."""


@dataclass(frozen=True)
class PlayerSummary:
    """One player's review summed up (see the module docstring)."""

    player: int
    seat: str
    """The seat's name in the game ("dark", "jinn")."""
    name: str
    """The seat's name for people ("Dark", "Jinn")."""
    moves: int
    exact: int
    classes: dict[str, int]
    accuracy: float | None
    accuracy_exact: bool
    """Whether every move behind the accuracy was judged exactly."""
    worst: Worst | None
    kind: ValueKind

    @property
    def mistakes(self) -> int:
        return self.classes.get("mistake", 0)

    @property
    def blunders(self) -> int:
        return self.classes.get("blunder", 0)

    def accuracy_text(self) -> str:
        """'Accuracy 87%' ('about 87%' where estimates are in it; '—' when nothing counts)."""
        if self.accuracy is None:
            return "Accuracy: no move to judge"
        about = "" if self.accuracy_exact else "about "
        return f"Accuracy {about}{round(self.accuracy)}%"

    def counts_text(self) -> str:
        """'2 mistakes, 1 blunder, 3 inaccuracies', or 'no mistakes or blunders'."""
        mistakes, blunders = self.mistakes, self.blunders
        if mistakes or blunders:
            parts = [_count(mistakes, "mistake"), _count(blunders, "blunder")]
        else:
            parts = ["no mistakes or blunders"]
        inaccuracies = self.classes.get("inaccuracy", 0)
        if inaccuracies:
            parts.append(_count(inaccuracies, "inaccuracy"))
        return ", ".join(parts)

    def worst_text(self) -> str | None:
        """The worst moment in a sentence, with the better move (None when every move was
        best)."""
        worst = self.worst
        if worst is None:
            return None
        verdict = f"a {worst.verdict}" if worst.verdict in VERDICTS else "a loss"
        if worst.verdict == "inaccuracy":
            verdict = "an inaccuracy"
        text = f"Worst moment, move {worst.number}: {worst.words} ({verdict}: {self.fall(worst)})."
        if worst.best_words:
            text += f" Best was: {worst.best_words}."
        return text

    def fall(self, worst: Worst) -> str:
        """What the move did to the value, in the game's terms."""
        before, after = worst.values
        return value_change(self.kind, self.name, before, after, exact=worst.exact)

    def text(self) -> str:
        """The whole summary in words: moves, accuracy, counts and the worst moment."""
        moves = "move" if self.moves == 1 else "moves"
        text = f"{self.moves} {moves} judged ({self.exact} exact). {self.accuracy_text()}; "
        text += f"{self.counts_text()}."
        worst = self.worst_text()
        return f"{text} {worst}" if worst else text

    def to_json(self) -> dict[str, Any]:
        worst = self.worst
        return {
            "player": self.player,
            "name": self.seat,
            "moves": self.moves,
            "exact": self.exact,
            "classes": self.classes,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
            "accuracy_exact": self.accuracy_exact,
            "accuracy_text": self.accuracy_text(),
            "counts_text": self.counts_text(),
            "worst": None
            if worst is None
            else {
                "number": worst.number,
                "words": worst.words,
                "verdict": worst.verdict,
                "before": worst.before,
                "after": worst.after,
                "best_words": worst.best_words,
                "exact": worst.exact,
            },
            "worst_text": self.worst_text(),
            "text": self.text(),
        }


def value_change(
    kind: ValueKind, name: str, before: float | None, after: float | None, *, exact: bool
) -> str:
    """What a move did to its mover's value, in the game's terms: "Jinn's chance of winning fell
    from 62% to 38%", "with best play Dark would finish 2 points ahead; after it, level"."""
    about = "" if exact else "about "
    if kind is ValueKind.PROBABILITY:
        was, now = _share(before), _share(after)
        if was == now:
            return f"{name}'s chance of winning stayed at {about}{was}"
        verb = "fell" if before is not None and after is not None and after < before else "went"
        return f"{name}'s chance of winning {verb} from {about}{was} to {now}"
    was, now = _points(before), _points(after)
    if was == now:
        return f"with best play {name} would finish {about}{was}, before it and after"
    return f"with best play {name} would finish {about}{was}; after it, {now}"


def summarise(
    player: int,
    name: str,
    moves: list[MoveReview],
    kind: ValueKind,
    judgement: Judgement | None,
) -> PlayerSummary:
    """The summary of ``player`` (seat ``name``) from all of a review's ``moves``."""
    mine = [m for m in moves if m.player == player]
    costly = [m for m in mine if m.cost is not None and m.cost > 0 and not m.forced]
    worst = None
    if costly:
        # The costliest by the winning chance it gave up; the earlier one on a tie.
        move = max(costly, key=lambda m: (loss_percent(kind, m.cost or 0.0, judgement), -m.number))
        worst = Worst(
            move.number,
            move.words or str(move.action),
            move.verdict,
            move.before.text(),
            move.after.text(),
            move.best_words or (None if move.best is None else str(move.best)),
            move.exact,
            (move.before.point, move.after.point),
        )
    counted = [m for m in mine if not m.forced and m.cost is not None]
    return PlayerSummary(
        player,
        name,
        name[:1].upper() + name[1:],
        len(mine),
        sum(1 for m in mine if m.exact),
        {v: sum(1 for m in mine if m.verdict == v) for v in VERDICTS},
        accuracy(mine, kind, judgement),
        all(m.exact for m in counted),
        worst,
        kind,
    )


def _count(n: int, verdict: str) -> str:
    """'1 mistake', '3 inaccuracies', '0 blunders'."""
    if n == 1 or verdict == "good":
        return f"{n} {verdict}"
    return f"{n} {verdict[:-1]}ies" if verdict.endswith("y") else f"{n} {verdict}s"


def _share(value: float | None) -> str:
    """A probability for a sentence: '75%' ('an unknown chance' where nothing is known)."""
    return "an unknown chance" if value is None else f"{round(100 * value)}%"


def _points(value: float | None) -> str:
    """A points value for a sentence: '2 points ahead', 'level', '1.5 points behind'."""
    if value is None:
        return "an unknown score"
    if round(value, 1) == 0:
        return "level"
    amount = abs(value)
    amount_text = f"{amount:.0f}" if float(amount).is_integer() else f"{amount:.1f}"
    unit = "point" if amount_text == "1" else "points"
    return f"{amount_text} {unit} {'ahead' if value > 0 else 'behind'}"


__all__ = [
    "BLUNDER_PERCENT",
    "PlayerSummary",
    "Worst",
    "accuracy",
    "loss_percent",
    "move_accuracy",
    "points_percent",
    "summarise",
    "value_change",
]
