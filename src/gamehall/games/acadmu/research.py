"""Äcädmü for research libraries: the observation, the facts, the pour in steps, the round.

The observation (perfect information: both players see every up-face), 32 floats, from the side
of the player it is for ("own" and "opponent" are that player's and the other's)::

    offset  size  what
    0       3     the phase, one-hot: the first-player draw, the pour of round 1, a round
    3       9     own up-face counts per pairing (RT RS RC BT BS BC YT YS YC)
    12      9     the opponent's
    21      2     own side, one-hot: (1, 0) Dark, (0, 1) Light
    23      1     own move now (1) or not (0)
    24      1     own side has passed this round
    25      1     the opponent has passed
    26      2     the match score before this round: own, the opponent's
    28      1     the match target
    29      1     own side went first this round
    30      1     the opponent went first this round
    31      1     a bare round (no match around it)

Chance in steps: the pour (2^54 face combinations with the default set) is a sequence of one
step per disc, Dark's discs first, then Light's, in the disc set's order; each step lands the
disc front up or back up with probability 1/2. The engine's :class:`Pour` is the aggregate: the
up-face counts of every disc, composed when the last disc has landed. The first-player draw is
listed whole (each side's disc and face: 54 × 54 outcomes with the default set).

Episodes: ``round`` is a single round: both sides pour, a fair coin says who moves first, and
the episode's returns are the round's count difference. As listed chance (OpenSpiel) the round
starts with the pour in the same disc steps, then the coin (Dark first, Light first; 1/2 each).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from gamehall.core.encoding import Episode, GameFacts
from gamehall.core.game import Action, Game, State
from gamehall.games.acadmu.game import NO_ONE, AcadmuGame, AcadmuState, Pour
from gamehall.games.acadmu.tokens import pairing_name

LAYOUT = __doc__ or ""
"""The module docstring: the observation's layout (inside a class body ``__doc__`` is the
class's own docstring, not this)."""

_PHASES = ("draw", "pour", "play")
_HALF = Fraction(1, 2)


@dataclass(frozen=True)
class AcadmuEncoding:
    """The observation of an Äcädmü state (see the module docstring for the layout)."""

    high: float
    shape: tuple[int, ...] = (32,)
    layout: str = LAYOUT

    def encode(self, state: State, player: int) -> np.ndarray:
        assert isinstance(state, AcadmuState)
        out = np.zeros(self.shape, dtype=np.float32)
        other = 1 - player
        out[_PHASES.index(state.phase)] = 1
        if state.phase == "play":
            out[3:12] = state.tokens(player)
            out[12:21] = state.tokens(other)
        out[21 + player] = 1
        out[23] = state.current_player == player
        out[24] = state.passed == player
        out[25] = state.passed == other
        out[26] = state.match_score[player]
        out[27] = state.match_score[other]
        out[28] = state.game.target
        out[29] = state.first == player
        out[30] = state.first == other
        out[31] = state.first is None and state.phase == "play"
        return out


def encoding(game: Game) -> AcadmuEncoding:
    assert isinstance(game, AcadmuGame)
    return AcadmuEncoding(high=float(max(len(game.disc_set), game.target)))


def facts(game: Game) -> GameFacts:
    """A bare round returns the count difference (at most the number of discs); a match ±1.
    The draw lists its outcomes whole; a match has no hard length bound (tied rounds and tied
    draws repeat), so the longest game declared is that of 100 rounds, each the pour in steps
    and the most captures and passes it can hold, far beyond any match ever seen."""
    assert isinstance(game, AcadmuGame)
    discs = len(game.disc_set)
    draw_outcomes = len(game.draw_outcomes)
    round_length = 2 * discs + 2 * discs + 2
    return GameFacts(
        min_return=-float(discs),
        max_return=float(discs),
        max_chance_outcomes=max(2, draw_outcomes),
        max_game_length=100 * round_length + 100,
    )


class PourSteps:
    """The pour, one disc at a time (see the module docstring)."""

    def applies(self, state: State) -> bool:
        assert isinstance(state, AcadmuState)
        return state.is_chance_node() and state.phase != "draw"

    def max_outcomes(self) -> int:
        return 2

    def outcomes(self, state: State, picks: tuple[int, ...]) -> tuple[tuple[str, Fraction], ...]:
        assert isinstance(state, AcadmuState)
        discs = state.game.disc_set.discs
        done = len(picks)
        if done >= 2 * len(discs):
            return ()
        side = "dark" if done < len(discs) else "light"
        front, back = discs[done % len(discs)]
        return (
            (f"{side} disc {done % len(discs) + 1} {pairing_name(front)}", _HALF),
            (f"{side} disc {done % len(discs) + 1} {pairing_name(back)}", _HALF),
        )

    def compose(self, state: State, picks: tuple[int, ...]) -> Action:
        assert isinstance(state, AcadmuState)
        discs = state.game.disc_set.discs
        n = len(discs)
        if len(picks) != 2 * n:
            raise ValueError(f"a pour takes {2 * n} disc steps, not {len(picks)}")
        counts = [[0] * 9, [0] * 9]
        for index, pick in enumerate(picks):
            counts[index // n][discs[index % n][pick]] += 1
        return Pour(tuple(counts[0]), tuple(counts[1]))


CHANCE_STEPS = PourSteps()


def single_round(game: Game, rng: random.Random) -> State:
    """One round: both sides pour, a fair coin picks who moves first."""
    assert isinstance(game, AcadmuGame)
    discs = game.disc_set
    dark, light = discs.sample_pour(rng), discs.sample_pour(rng)
    state = game.round_state(dark, light, rng.getrandbits(1))
    assert state.passed == NO_ONE
    return state


class RoundStart:
    """A single round's start as chance steps: every disc (Dark's, then Light's), then the coin
    for who moves first (see the module docstring)."""

    def max_outcomes(self, game: Game) -> int:
        return 2

    def outcomes(self, game: Game, picks: tuple[int, ...]) -> tuple[tuple[str, Fraction], ...]:
        assert isinstance(game, AcadmuGame)
        discs = game.disc_set.discs
        if len(picks) < 2 * len(discs):
            side = "dark" if len(picks) < len(discs) else "light"
            number = len(picks) % len(discs)
            front, back = discs[number]
            return tuple(
                (f"{side} disc {number + 1} {pairing_name(face)}", _HALF) for face in (front, back)
            )
        if len(picks) == 2 * len(discs):
            return (("dark moves first", _HALF), ("light moves first", _HALF))
        return ()

    def compose(self, game: Game, picks: tuple[int, ...]) -> State:
        assert isinstance(game, AcadmuGame)
        discs = game.disc_set.discs
        n = len(discs)
        if len(picks) != 2 * n + 1:
            raise ValueError(f"a round's start takes {2 * n + 1} chance steps, not {len(picks)}")
        counts = [[0] * 9, [0] * 9]
        for index, pick in enumerate(picks[:-1]):
            counts[index // n][discs[index % n][pick]] += 1
        return game.round_state(tuple(counts[0]), tuple(counts[1]), picks[-1])


EPISODES = {"round": Episode(single_round, RoundStart())}
