"""What the research adapters ask of a game: an observation encoding and chance in small steps.

* :class:`Encoding`: a state as a fixed-size numeric array for one player, everything that
  player sees, with its layout documented by the game (``layout``), so a learner's input means
  the same thing on every step. The RL adapters (:mod:`gamehall.adapters`) use it for their
  observations and OpenSpiel's observation tensors.
* :class:`ChanceSteps`: a chance node whose outcomes are too many to list (it raises
  :class:`~gamehall.core.errors.TooManyOutcomesError`) as a sequence of small listable steps, each
  with exact probabilities, that together make the engine's outcome. OpenSpiel wants every
  chance node's outcomes listed; the adapter plays the steps one by one and applies the composed
  outcome to the engine when the last one is taken.
* :class:`Episode`: a way to start an episode other than the whole game (a single round), with
  its random start as listed chance (:class:`StartChance`), so OpenSpiel's episode begins at a
  chance node rather than at one fixed deal.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from gamehall.core.game import Action, Game, State

if TYPE_CHECKING:
    import random


class Encoding(Protocol):
    """A state as a fixed-size ``float32`` array, from one player's side."""

    shape: tuple[int, ...]
    """The array's shape (the same for every state of the game)."""
    layout: str
    """What each entry means, in words (shown in the adapters' documentation)."""
    high: float
    """The largest value any entry takes (every entry is at least 0)."""

    def encode(self, state: State, player: int) -> Any:
        """The observation of ``state`` for ``player``: a new NumPy ``float32`` array of
        ``shape`` (typed ``Any`` here: core imports no numeric library)."""
        ...


@dataclass(frozen=True)
class GameFacts:
    """What research libraries ask a game to declare before any state exists (OpenSpiel's
    ``GameInfo``): the range of returns, the most outcomes of any listed chance node (chance
    steps included), and the longest game in actions, chance included."""

    min_return: float
    max_return: float
    max_chance_outcomes: int
    """0 for a game without chance (OpenSpiel's deterministic chance mode)."""
    max_game_length: int
    zero_sum: bool = True
    env_version: int = 0
    """The version in the environments' ids (``gamehall/<Title>-v0``): raised when the observation
    or the rules change, so results under one id stay comparable."""

    @property
    def deterministic(self) -> bool:
        """No chance node ever comes up (OpenSpiel: ``ChanceMode.DETERMINISTIC``)."""
        return self.max_chance_outcomes == 0


class ChanceSteps(Protocol):
    """A big chance node as small steps: the outcomes of the next step depend on the state and
    the steps taken so far (``picks``, indices into each earlier step's outcomes)."""

    def applies(self, state: State) -> bool:
        """Whether this chance node is played in steps (else its outcomes are listed whole)."""
        ...

    def max_outcomes(self) -> int:
        """The most outcomes any step has."""
        ...

    def outcomes(self, state: State, picks: tuple[int, ...]) -> tuple[tuple[str, Fraction], ...]:
        """The next step's outcomes (a short label, the exact probability), or ``()`` when
        ``picks`` already decide the outcome."""
        ...

    def compose(self, state: State, picks: tuple[int, ...]) -> Action:
        """The engine's chance outcome that the completed ``picks`` make. Its probability is the
        sum over every pick sequence that composes to it of the product of the steps'."""
        ...


class StartChance(Protocol):
    """An episode's random start as a sequence of small listed chance steps (like
    :class:`ChanceSteps`, before any engine state exists): the outcomes of the next step depend
    on the steps taken so far (``picks``); the completed picks make the episode's first state."""

    def max_outcomes(self, game: Game) -> int:
        """The most outcomes any step has."""
        ...

    def outcomes(self, game: Game, picks: tuple[int, ...]) -> tuple[tuple[str, Fraction], ...]:
        """The next step's outcomes (a short label, the exact probability), or ``()`` when
        ``picks`` already decide the start."""
        ...

    def compose(self, game: Game, picks: tuple[int, ...]) -> State:
        """The episode's first state that the completed ``picks`` make."""
        ...


@dataclass(frozen=True)
class Episode:
    """A named way to start an episode: ``start(game, rng)`` draws its first state (the
    Gymnasium and PettingZoo adapters), ``chance`` lists the same random start as chance steps
    (OpenSpiel, whose episodes start at a chance node). Called like ``start``."""

    start: Any
    """``start(game, rng) -> State`` (:data:`~gamehall.core.plugin.EpisodeStart`)."""
    chance: StartChance | None = None

    def __call__(self, game: Game, rng: random.Random) -> State:
        return self.start(game, rng)


__all__ = ["ChanceSteps", "Encoding", "Episode", "GameFacts", "StartChance"]
