"""How Akros plays the computer levels.

Its engine runs about 2,500 MCTS simulations a second against Äcädmü's 4,000, so the search
budgets are scaled to think about as long: ``medium`` 500 simulations, ``hard`` 5,000. ``hard``
plays exactly from turn 5 on (the exact search takes well under a second there), ``perfect`` from
turn 4; before that, and if the exact search runs past its time, MCTS plays.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamehall.core.game import State
from gamehall.core.search import LevelOverride
from gamehall.games.akros.game import AkrosState


@dataclass(frozen=True)
class from_turn:  # named as the predicate reads: exact_when=from_turn(5)
    """A predicate: the state is at ``turn`` or later. A value, not a closure, so the levels
    (and anything that holds them, such as a game's OpenSpiel state) can be pickled."""

    turn: int

    def __call__(self, state: State) -> bool:
        return isinstance(state, AkrosState) and state.turn >= self.turn


LEVEL_WORDS = {
    "easy": "plays the move that most improves its claim on the environments right now",
    "medium": "tries out many ways the game could go, about a second a move",
    "hard": "plays perfectly from turn 5 on, and thinks longer before that",
    "perfect": "plays perfectly from turn 4 on, and thinks longer before that",
}
"""What the levels do, in Akros's words (beginner's is the generic one)."""

RATING_NOTE = "Akros's level ratings are for whole games."
"""What the level ratings mean in Akros (shown with them)."""

LEVELS = {
    "medium": LevelOverride(simulations=500, seconds=1.0),
    "hard": LevelOverride(
        simulations=5000, seconds=6.0, exact_seconds=10.0, exact_when=from_turn(5)
    ),
    "perfect": LevelOverride(
        simulations=5000, seconds=6.0, exact_seconds=60.0, exact_when=from_turn(4)
    ),
}
