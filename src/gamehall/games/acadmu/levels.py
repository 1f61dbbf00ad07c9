"""How Äcädmü plays the computer levels, and the deals of exact analysis.

``hard`` asks the exact solver for one optimal move with 0.5 s (most positions, full pours
included, finish in that) and searches with MCTS (8,000 simulations) where it cannot. ``perfect``
plays an optimal move whenever the solver finishes within 2 s, else the bounded search's move.
The generic ``medium`` (MCTS, 800 simulations) suits this game as it is.
"""

from __future__ import annotations

import random

from gamehall.core.game import State
from gamehall.core.search import LevelOverride
from gamehall.games.acadmu.discs import Counts
from gamehall.games.acadmu.game import AcadmuGame

LEVEL_WORDS = {
    "easy": "takes the capture that leaves it most tokens ahead this round, one move ahead",
    "medium": "tries out many ways the round could go, about a fifth of a second a move",
    "hard": "plays perfectly wherever half a second is enough to work the round out, "
    "and thinks longer where it is not",
    "perfect": "plays perfectly wherever two seconds are enough to work the round out",
}
"""What the levels do, in Äcädmü's words (beginner's is the generic one)."""

RATING_NOTE = (
    "Äcädmü's level ratings are for whole matches (first to the target score, 12 by default), "
    "not single rounds: 400 points more means winning about ten matches in eleven."
)
"""What the level ratings mean in Äcädmü (shown with them)."""

LEVELS = {
    "hard": LevelOverride(
        simulations=8000, seconds=6.0, exact_seconds=0.5, exact_moves="one", fallback="search"
    ),
    "perfect": LevelOverride(exact_seconds=2.0, exact_moves="all", fallback="solver"),
}


def _keep(counts: Counts, rng: random.Random, tokens: int | None) -> Counts:
    """A pour's counts, then (if ``tokens`` is fewer) a random ``tokens`` of them kept."""
    if tokens is None or tokens >= sum(counts):
        return counts
    pool = [pairing for pairing, n in enumerate(counts) for _ in range(n)]
    kept = [0] * 9
    for pairing in rng.sample(pool, tokens):
        kept[pairing] += 1
    return tuple(kept)


def exact_deal(game: AcadmuGame, rng: random.Random, size: int | None) -> State:
    """One round's start for exact analysis: both sides pour (27 tokens a side with the default
    set) and Dark moves first; with ``size`` below that, each side keeps a uniformly random
    ``size`` of its poured tokens (a smaller round of the same kind, quick to solve)."""
    pour = game.disc_set.sample_pour
    dark = _keep(pour(rng), rng, size)
    light = _keep(pour(rng), rng, size)
    return game.round_state(dark, light)
