"""Rule 4 of a round and the match around it: when the round is over, what it scores, when the
match ends, and the words and values that say so. :class:`RoundEnd` is a part of
:class:`~gamehall.games.acadmu.state.AcadmuState`, kept apart so the rulebook's end reads alone."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

from gamehall.core.game import Outcome
from gamehall.games.acadmu.actions import DARK, LIGHT, NO_ONE
from gamehall.games.acadmu.discs import Counts

if TYPE_CHECKING:
    from gamehall.games.acadmu.game import AcadmuGame
    from gamehall.games.acadmu.state import Phase


class RoundEnd:
    """The end of a round and of the match, as methods of the state (a mix-in of its class)."""

    game: AcadmuGame
    phase: Phase
    dark: Counts
    light: Counts
    to_move: int
    passed: int
    match_score: tuple[int, int]
    first: int | None

    # --- the round's count (rule 4) ---

    @cached_property
    def round_over(self) -> bool:
        """Rule 4: 'when neither player can capture, the round ends'."""
        if self.phase != "play":
            return False
        if self.can_capture(self.to_move):
            return False
        return self.passed != NO_ONE or not self.can_capture(1 - self.to_move)

    def round_difference(self) -> int:
        """Dark's tokens minus Light's (the round's score so far, from Dark's side)."""
        return sum(self.dark) - sum(self.light)

    def round_points(self) -> tuple[int, int]:
        """'The higher count scores the difference; equal counts score nothing'."""
        diff = self.round_difference()
        return (max(diff, 0), max(-diff, 0))

    def match_scores_after_round(self) -> tuple[int, int]:
        """The match score once the current (finished) round is counted."""
        points = self.round_points()
        return (self.match_score[0] + points[0], self.match_score[1] + points[1])

    # --- the end ---

    def returns(self) -> tuple[float, ...]:
        if not self.is_terminal():
            return (0.0, 0.0)
        if self.first is None:
            diff = float(self.round_difference())
            return (diff, -diff)
        dark, light = self.match_scores_after_round()
        return (1.0, -1.0) if dark > light else (-1.0, 1.0)

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        if self.first is None:
            points = self.round_points()
            winner = None if points == (0, 0) else (DARK if points[0] else LIGHT)
            reason = (
                "Round over: equal counts"
                if winner is None
                else f"Round over: {self.game.player_names[winner].capitalize()} scores "
                f"{max(points)}"
            )
            return Outcome(winner, reason, (float(points[0]), float(points[1])))
        dark, light = self.match_scores_after_round()
        winner = DARK if dark > light else LIGHT
        target = self.game.target
        reason = (
            f"{self.game.player_names[winner].capitalize()} reaches {target} "
            f"point{'' if target == 1 else 's'} ({dark}–{light})"
        )
        return Outcome(winner, reason, (float(dark), float(light)))

    def scores(self) -> tuple[float, ...]:
        """A bare round: the points each side would score now; a match: the match score, with
        the round counted once it is over."""
        if self.first is None:
            return tuple(float(p) for p in self.round_points())
        if self.phase == "play" and self.round_over:
            return tuple(float(p) for p in self.match_scores_after_round())
        return (float(self.match_score[0]), float(self.match_score[1]))

    def round_end_reason(self) -> str:
        """Why the round is over (rule 4), in words."""
        names = self.game.player_names
        if self.passed != NO_ONE:
            return (
                f"{names[self.passed].capitalize()} passed, and now "
                f"{names[1 - self.passed].capitalize()} "
                "has no capture either"
            )
        return "neither side has a capture"

    def round_result(self) -> str:
        """The round's score in words: who scores how many points."""
        points = self.round_points()
        if points == (0, 0):
            return "Equal counts: nobody scores"
        winner = DARK if points[0] else LIGHT
        count = max(points)
        return f"{self.game.player_names[winner].capitalize()} scores {count} point" + (
            "" if count == 1 else "s"
        )

    def pause(self) -> str | None:
        """A finished round of a match that goes on: its end is worth a look before the pour."""
        if self.phase != "play" or not self.round_over or self.is_terminal():
            return None
        return f"Round over: {self.round_end_reason()}. {self.round_result()}."

    def horizon_returns(self) -> tuple[float, ...] | None:
        """Between rounds of a match (round over, or before a pour): the match lead, squashed
        into (-1, 1) by the points still needed, so search can stop at a round's end."""
        if self.first is None or self.is_terminal():
            return None
        if self.phase == "play" and not self.round_over:
            return None
        dark, light = self.scores()
        lead = (dark - light) / self.game.target
        value = max(-0.99, min(0.99, lead))
        return (value, -value)

    def evaluate(self, player: int) -> float:
        """Match points, then the round's token difference, from ``player``'s side."""
        if self.is_terminal():
            return (
                1000.0 * self.returns()[player]
                if self.first is not None
                else float(self.returns()[player])
            )
        sign = 1 if player == DARK else -1
        points = self.match_score[0] - self.match_score[1]
        diff = self.round_difference() if self.phase == "play" else 0
        return sign * (10.0 * points + diff)

    def _round_end_view(self) -> dict[str, Any] | None:
        if self.phase != "play" or not self.round_over:
            return None
        return {
            "reason": self.round_end_reason(),
            "result": self.round_result(),
            "counts": [sum(self.dark), sum(self.light)],
            "points": list(self.round_points()),
            "match_score": list(self.match_scores_after_round())
            if self.first is not None
            else None,
        }
