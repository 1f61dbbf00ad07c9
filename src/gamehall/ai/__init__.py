"""Computer players that work on any registered game through the core protocol.

Levels have the same names everywhere (command line and web): ``beginner``, ``easy``,
``medium``, ``hard``, ``perfect`` (see :mod:`gamehall.ai.levels`). The plain players ``random``,
``greedy`` and ``mcts`` can be named too, and two families of stepping stones between levels
(used to measure the levels' ratings): ``greedy:P`` (greedy with probability P, else random) and
``mcts:N`` (MCTS with N simulations a move).
"""

from __future__ import annotations

from gamehall.ai.basic import GreedyAgent, MixedAgent, RandomAgent
from gamehall.ai.levels import LEVEL_NAMES, LevelAgent
from gamehall.ai.mcts import MCTSAgent
from gamehall.core import Agent, GamehallError

LEVELS: dict[str, str] = {
    "beginner": "random legal moves",
    "easy": "greedy: best one action ahead",
    "medium": "MCTS, about 0.2 s a move",
    "hard": "MCTS, about 2 s a move, exact where exact is fast",
    "perfect": "the exact solver where there is one",
}
"""Level names and what each plays."""
assert tuple(LEVELS) == LEVEL_NAMES

LEVEL_WORDS: dict[str, str] = {
    "beginner": "plays any legal move at random",
    "easy": "takes the move that looks best right now, one move ahead",
    "medium": "tries out many ways the game could go, thinking about a second a move",
    "hard": "thinks longer, and plays perfectly once the position is small enough to work out",
    "perfect": "plays perfectly wherever the position can be worked out in time",
}
"""What each level does, in words for players (a level menu's labels); a game's plugin may say
it in the game's words (:attr:`gamehall.core.plugin.GamePlugin.level_words`)."""
assert tuple(LEVEL_WORDS) == LEVEL_NAMES

LEVEL_RATING_NOTE = (
    "The number beside a level is its rating on the scale of players' ratings, measured by "
    "games between the levels; ± is the 95% range of that estimate."
)
"""What a level's rating means, shown where the ratings are (a game may add to it)."""

PLAYERS = ("random", "greedy", "mcts")
"""Plain players that can be named besides the levels."""


def make_agent(name: str, seed: int | None = None) -> Agent:
    """The computer player called ``name`` (a level or a plain player)."""
    key = name.strip().lower()
    if key in LEVELS:
        return LevelAgent(key, seed)
    if key == "random":
        return RandomAgent(seed)
    if key == "greedy":
        return GreedyAgent(seed)
    if key == "mcts":
        return MCTSAgent(simulations=2000, seed=seed)
    family, _, amount = key.partition(":")
    share = _share(amount) if family == "greedy" else None
    if share is not None:
        return MixedAgent(share, seed)
    if (
        family == "mcts"
        and amount.isascii()
        and amount.isdigit()
        and 1 <= int(amount) <= MAX_SIMULATIONS
    ):
        return MCTSAgent(simulations=int(amount), seed=seed)
    choices = ", ".join([*LEVELS, *PLAYERS])
    raise GamehallError(
        f"unknown player {name!r}; choose one of: {choices}, greedy:P (0 <= P <= 1) or "
        f"mcts:N (1 <= N <= {MAX_SIMULATIONS})"
    )


MAX_SIMULATIONS = 100_000


def _share(text: str) -> float | None:
    """``P`` of ``greedy:P`` if it is a number from 0 to 1."""
    try:
        share = float(text)
    except ValueError:
        return None
    return share if 0.0 <= share <= 1.0 else None


__all__ = [
    "LEVELS",
    "LEVEL_RATING_NOTE",
    "LEVEL_WORDS",
    "PLAYERS",
    "GreedyAgent",
    "LevelAgent",
    "MCTSAgent",
    "MixedAgent",
    "RandomAgent",
    "make_agent",
]
