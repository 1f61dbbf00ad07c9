"""Akros's rules and exact solver live in modules named for what they hold (state, game_end,
checks; solver_context, parallel_search); the old module paths still answer for every name
they had, and a state pickled under the old path still loads."""

from __future__ import annotations

import pickle
from pathlib import Path

import gamehall.games.akros.game as game_module
import gamehall.games.akros.solver as solver_module
from gamehall.games.akros import AkrosGame, checks, game_end, state

GAME_NAMES = [
    "MAX_BOARD_TEXT",
    "AkrosAction",
    "AkrosGame",
    "AkrosState",
    "EnvironmentScore",
    "illegal_reason",
    "position_problem",
    "remove_bag",
]
SOLVER_NAMES = [
    "DEFAULT_TT_BITS",
    "DEFAULT_WORKERS",
    "THREADS_TO_TURN",
    "EXACT_FROM_TURN",
    "SOLVER",
    "AkrosSolveResult",
    "AkrosSolver",
    "solve",
    "supported",
    "warm_up",
    "_context",
    "_encode",
]


def test_old_modules_keep_their_names() -> None:
    assert [n for n in GAME_NAMES if not hasattr(game_module, n)] == []
    assert [n for n in SOLVER_NAMES if not hasattr(solver_module, n)] == []
    assert game_module.AkrosState is state.AkrosState
    assert game_module.illegal_reason is checks.illegal_reason
    assert issubclass(state.AkrosState, game_end.GameEnd)


def test_a_state_pickled_under_the_old_path_loads() -> None:
    position = AkrosGame().new_initial_state()
    text = pickle.dumps(position, protocol=0)
    old = text.replace(b"gamehall.games.akros.state\n", b"gamehall.games.akros.game\n")
    assert old != text
    loaded = pickle.loads(old)
    assert loaded == position
    assert str(loaded) == str(position)


def test_modules_stay_short() -> None:
    """'A module that passes about 600 lines is two modules.'"""
    package = Path(game_module.__file__).parent
    for name in (
        "game", "state", "game_end", "checks", "rules", "solver", "solver_context",
        "parallel_search",
    ):  # fmt: skip
        lines = (package / f"{name}.py").read_text(encoding="utf-8").count("\n")
        assert lines <= 600, f"akros/{name}.py has {lines} lines"
