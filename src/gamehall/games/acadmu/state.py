"""An Äcädmü position (:class:`AcadmuState`): the phase, both sides' up-face counts and the match
around the round; the turn's captures and passes, the draw and the pour; checks and text. How a
round and a match end, and what they score, is in :mod:`gamehall.games.acadmu.round_end`."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

from gamehall.core.errors import InvalidStateError, TooManyOutcomesError
from gamehall.core.game import CHANCE, TERMINAL, Action, State
from gamehall.games.acadmu import rules
from gamehall.games.acadmu.actions import (
    _MOVES,
    DARK,
    LIGHT,
    NO_ONE,
    PASS,
    SIDE_LETTERS,
    Draw,
    Move,
    Pour,
    format_counts,
)
from gamehall.games.acadmu.discs import Counts
from gamehall.games.acadmu.first_player import first_player_by_draw
from gamehall.games.acadmu.round_end import RoundEnd
from gamehall.games.acadmu.tokens import (
    COLOURS,
    PAIRINGS,
    SHAPES,
    beaten,
    colour_beats,
    colour_of,
    describe,
    pairing_name,
    shape_beats,
    shape_of,
)

if TYPE_CHECKING:
    from gamehall.games.acadmu.game import AcadmuGame

Phase = Literal["draw", "pour", "play"]


@dataclass(frozen=True)
class AcadmuState(RoundEnd, State):
    """An Äcädmü state: a phase, both sides' up-face counts, and the match around the round.

    ``first`` is who went first in this round, or None for a bare one-round position.
    """

    game: AcadmuGame = field(repr=False)
    phase: Phase
    dark: Counts = ()
    light: Counts = ()
    to_move: int = DARK
    passed: int = NO_ONE
    match_score: tuple[int, int] = (0, 0)
    first: int | None = None

    # --- facts about the position ---

    def tokens(self, side: int) -> Counts:
        return self.dark if side == DARK else self.light

    def can_capture(self, side: int) -> bool:
        """Whether ``side`` has any legal capture."""
        own, other = (self.dark, self.light) if side == DARK else (self.light, self.dark)
        return rules.can_capture(own, other, take_one_if_last=self.game.take_one_if_last)

    @cached_property
    def current_player(self) -> int:
        if self.phase != "play":
            return CHANCE
        if not self.round_over:
            return self.to_move
        if self.first is None:
            return TERMINAL
        return TERMINAL if max(self.match_scores_after_round()) >= self.game.target else CHANCE

    # --- moves ---

    def legal_actions(self) -> tuple[Action, ...]:
        """The mover's captures; 'a player with no legal capture must pass'."""
        return self._legal

    @cached_property
    def _legal(self) -> tuple[Action, ...]:
        # Made once per state: the server asks for a position's legal actions when it tells
        # the players (the state message's legal list) and again when it checks the move made.
        if self.phase != "play" or self.round_over:
            return ()
        own, other = (self.dark, self.light) if self.to_move == DARK else (self.light, self.dark)
        moves = rules.captures(own, other, take_one_if_last=self.game.take_one_if_last)
        if not moves:
            return (PASS,)
        return tuple(_MOVES[capture] for capture in moves)

    def apply_trusted(self, action: Action) -> AcadmuState:
        if isinstance(action, Move):
            return self._play(action)
        if isinstance(action, Pour):
            return self._pour(action)
        if isinstance(action, Draw):
            return self._draw(action)
        raise TypeError(f"not an Äcädmü action: {action!r}")

    def _play(self, move: Move) -> AcadmuState:
        mover, other = self.to_move, 1 - self.to_move
        if move.is_pass:
            return AcadmuState(
                self.game, "play", self.dark, self.light, other, mover, self.match_score, self.first
            )
        own, theirs = self.tokens(mover), self.tokens(other)
        own = rules.remove(own, (move.own,))
        theirs = rules.remove(theirs, move.taken)
        dark, light = (own, theirs) if mover == DARK else (theirs, own)
        # 'the opponent then takes consecutive turns': after a pass the mover keeps the turn.
        next_to_move = mover if self.passed == other else other
        return AcadmuState(
            self.game, "play", dark, light, next_to_move, self.passed, self.match_score, self.first
        )

    def _pour(self, pour: Pour) -> AcadmuState:
        """'Every disc of both players lands with a uniformly random face up'; a new round
        starts, first played by the one who did not go first in the previous round."""
        if self.phase == "pour":
            first, scores = self.to_move, self.match_score
        else:
            first = 1 - (self.first if self.first is not None else self.to_move)
            scores = self.match_scores_after_round()
        return AcadmuState(self.game, "play", pour.dark, pour.light, first, NO_ONE, scores, first)

    def _draw(self, draw: Draw) -> AcadmuState:
        """Choosing who plays first in round 1 (a tie on both faces means draw again)."""
        winner = first_player_by_draw(draw)
        if winner == NO_ONE:
            return self
        return AcadmuState(self.game, "pour", (), (), winner, NO_ONE, self.match_score, None)

    # --- chance ---

    def chance_outcomes(self) -> tuple[tuple[Action, Fraction], ...]:
        if self.phase == "draw":
            return self.game.draw_outcomes
        if self.is_chance_node():
            raise TooManyOutcomesError(
                f"the pour has 2^{2 * len(self.game.disc_set)} face combinations; "
                "use sample_chance() and chance_probability()"
            )
        return ()

    def sample_chance(self, rng: random.Random) -> Action:
        discs = self.game.disc_set
        if self.phase == "draw":
            return Draw(discs.sample_draw(rng), discs.sample_draw(rng))
        return Pour(discs.sample_pour(rng), discs.sample_pour(rng))

    def is_chance_outcome(self, action: Action) -> bool:
        """Whether ``action`` can happen here. A pour can happen exactly when each side's counts
        can lie face up on its discs all at once (a perfect matching of tokens to discs), which
        is much cheaper to check than its probability."""
        if self.is_chance_node() and self.phase != "draw" and isinstance(action, Pour):
            discs = self.game.disc_set
            return all(
                len(counts) == 9
                and min(counts) >= 0
                and sum(counts) == len(discs)
                and discs.can_show(counts)
                for counts in (action.dark, action.light)
            )
        return super().is_chance_outcome(action)

    def chance_probability(self, action: Action) -> Fraction:
        if not self.is_chance_node():
            return Fraction(0)
        if self.phase == "draw":
            if not isinstance(action, Draw):
                return Fraction(0)
            faces = self.game.disc_set.draw_faces
            return faces.get(action.dark, Fraction(0)) * faces.get(action.light, Fraction(0))
        if not isinstance(action, Pour):
            return Fraction(0)
        discs = self.game.disc_set
        return discs.pour_probability(action.dark) * discs.pour_probability(action.light)

    # --- for players and front ends ---

    def explain_illegal(self, action: Action) -> str:
        """Say exactly which rule a well-formed move breaks."""
        if not isinstance(action, Move):
            return "chance outcomes are not player moves"
        mover = self.game.player_names[self.to_move]
        opponent = self.game.player_names[1 - self.to_move]
        if action.is_pass:
            return f"{mover} has a capture, and a player may pass only without one"
        own, theirs = self.tokens(self.to_move), self.tokens(1 - self.to_move)
        if not own[action.own]:
            return f"{mover} has no {describe(action.own)} token"
        for taken in set(action.taken):
            if theirs[taken] < action.taken.count(taken):
                return f"{opponent} has not {action.taken.count(taken)} {describe(taken)} token(s)"
        if len(action.taken) == 1:
            taken = action.taken[0]
            if not colour_beats(colour_of(action.own), colour_of(taken)):
                return (
                    f"{COLOURS[colour_of(action.own)]} does not beat {COLOURS[colour_of(taken)]} "
                    f"by colour (it beats {COLOURS[beaten(colour_of(action.own))]})"
                )
        if not all(shape_beats(shape_of(action.own), shape_of(t)) for t in action.taken):
            return (
                f"{SHAPES[shape_of(action.own)]} takes two {SHAPES[beaten(shape_of(action.own))]}s "
                "by shape, not other shapes"
            )
        return "not a legal move here"

    def view(self) -> dict[str, Any]:
        """For front ends: the phase, both sides' counts by pairing, the turn and the match."""
        return {
            "position": str(self),
            "phase": self.phase,
            "pairings": list(PAIRINGS),
            "dark": list(self.dark),
            "light": list(self.light),
            "to_move": SIDE_LETTERS[self.to_move],
            "passed": None if self.passed == NO_ONE else SIDE_LETTERS[self.passed],
            "match_score": list(self.match_score),
            "first": None if self.first is None else SIDE_LETTERS[self.first],
            "target": self.game.target,
            "round_over": self.phase == "play" and self.round_over,
            "round_difference": self.round_difference() if self.phase == "play" else 0,
            "round_end": self._round_end_view(),
            "scores": list(self.scores()),
        }

    # --- text ---

    def validate(self) -> None:
        """Raise InvalidStateError if this position cannot occur under the rules."""
        if self.phase == "play":
            for side, counts in ((DARK, self.dark), (LIGHT, self.light)):
                name = self.game.player_names[side]
                faces = self.game.disc_set.faces
                for p, (n, most) in enumerate(zip(counts, faces, strict=True)):
                    if n > most:
                        raise InvalidStateError(
                            f"{name} has {n} {pairing_name(p)} tokens but the disc set shows "
                            f"{pairing_name(p)} on only {most} faces"
                        )
                if sum(counts) > len(self.game.disc_set):
                    raise InvalidStateError(
                        f"{name} has {sum(counts)} tokens but owns only {len(self.game.disc_set)}"
                    )
                if not self.game.disc_set.can_show(counts):
                    raise InvalidStateError(
                        f"{name}'s tokens {format_counts(counts)} cannot all lie face up at once: "
                        "no disc set assignment gives each token a disc of its own"
                    )
            if self.first is not None and not self._reachable_by_captures():
                raise InvalidStateError(
                    "in a match the round starts from a full pour, and no sequence of captures "
                    f"leaves {sum(self.dark)} dark and {sum(self.light)} light tokens"
                )
            if self.passed == self.to_move:
                raise InvalidStateError(
                    f"{self.game.player_names[self.passed]} has passed and cannot be to move"
                )
            if self.passed != NO_ONE and self.can_capture(self.passed):
                raise InvalidStateError(
                    f"{self.game.player_names[self.passed]} is marked as passed but has a capture"
                )
        if max(self.match_score) >= self.game.target:
            raise InvalidStateError(
                f"match score {self.match_score[0]}-{self.match_score[1]} already reaches the target "
                f"{self.game.target}"
            )

    def _reachable_by_captures(self) -> bool:
        """Counts after a full pour: with m_d dark and m_l light captures, each removing one own
        token and one or two opposing ones, lost_d − m_d ∈ [m_l, 2·m_l] and the same for light."""
        size = len(self.game.disc_set)
        lost_dark, lost_light = size - sum(self.dark), size - sum(self.light)
        return any(
            m_light <= lost_dark - m_dark <= 2 * m_light
            and m_dark <= lost_light - m_light <= 2 * m_dark
            for m_dark in range(lost_dark + 1)
            for m_light in range(lost_light + 1)
        )

    def position(self) -> str:
        """The round position alone: ``<dark>/<light> <to move> <passed>``."""
        passed = "-" if self.passed == NO_ONE else SIDE_LETTERS[self.passed]
        return (
            f"{format_counts(self.dark)}/{format_counts(self.light)} "
            f"{SIDE_LETTERS[self.to_move]} {passed}"
        )

    def __str__(self) -> str:
        if self.phase == "draw":
            return "draw"
        score = f"{self.match_score[0]}-{self.match_score[1]}"
        if self.phase == "pour":
            return f"pour {SIDE_LETTERS[self.to_move]} {score}"
        if self.first is None:
            return self.position()
        return f"{self.position()} {score} {SIDE_LETTERS[self.first]}"
