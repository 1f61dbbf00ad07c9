"""Warming up: load (or, once after installing, compile) a game's numba kernels before any clock.

Two kinds of compiled code serve the computer players, hints and reviews: the exact solver's
kernels (the plugin's ``solver``, :meth:`~gamehall.core.search.Solver.warm_up`) and the compiled
MCTS over the game's simulator (the plugin's ``simulator``, :mod:`gamehall.kernels.tree`). Both are
compiled on first use and cached on disk (after a fresh install that takes tens of seconds a
game; loading the cache a second or two); :func:`warm_up_game` does both now, so no first move,
hint or review waits for them: ``gamehall warm-up`` (run by ``make run`` and ``make test``) and
every worker process of the web server call it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from gamehall.ai.mcts import MCTSAgent
from gamehall.core import find_game, find_plugin

WARM_SIMULATIONS = 32
"""A search this small runs every kernel of the compiled MCTS once."""


def warm_solver(name: str) -> bool:
    """Load (or compile) the game's exact solver kernels; whether it has a solver."""
    solver = find_plugin(name).load_solver()
    if solver is None:
        return False
    solver.warm_up()
    return True


def warm_search(name: str) -> bool:
    """Run a tiny MCTS search on the game's first decision, which loads (or compiles) its
    compiled search where the game has a simulator; whether it has one."""
    if find_plugin(name).simulator is None:
        return False
    state = find_game(name).new_initial_state()
    rng = random.Random(0)
    while state.current_player < 0 and not state.is_terminal():
        state = state.apply_trusted(state.sample_chance(rng))
    if not state.is_terminal():
        MCTSAgent(simulations=WARM_SIMULATIONS, seed=0).choose(state)
    return True


def warm_simulator(name: str) -> bool:
    """Load (or compile) the game's compiled simulator, which :mod:`gamehall.fast`, analysis
    and research runs use; whether it has one."""
    from gamehall import fast

    return fast.warm_up(name)


WARM_STEPS: list[tuple[str, Callable[[str], bool]]] = [
    ("solver", warm_solver),
    ("compiled search", warm_search),
]
"""The server's warm-up steps for each game, in order: what it compiles (as ``gamehall warm-up``
tells it) and the function that loads or compiles it for a game (whether the game has one).
Compiled code of another kind is one more line here; the server's workers and ``gamehall
warm-up`` both run the list."""

RESEARCH_STEPS: list[tuple[str, Callable[[str], bool]]] = [("simulator", warm_simulator)]
"""What ``gamehall warm-up`` compiles besides the server's steps: the simulator that
:mod:`gamehall.fast`, analysis and research runs use (the server never needs it). The CLI adds
one more, the batched games' kernels (:func:`gamehall.vector.warm_up`), which sits above this
layer (a learner's arrays, not a player's)."""


def warm_up_game(name: str) -> None:
    """Everything compiled that the game's computer players, hints and reviews use."""
    for _what, warm in WARM_STEPS:
        warm(name)


__all__ = [
    "RESEARCH_STEPS",
    "WARM_SIMULATIONS",
    "WARM_STEPS",
    "warm_search",
    "warm_simulator",
    "warm_solver",
    "warm_up_game",
]
