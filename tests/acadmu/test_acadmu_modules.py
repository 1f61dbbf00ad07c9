"""Äcädmü's rules live in modules named for what they hold (actions, first_player, state,
round_end); ``gamehall.games.acadmu.game`` still answers for every name it had, and a state
pickled under the old module path still loads."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import gamehall.games.acadmu.game as game_module
from gamehall.games.acadmu import AcadmuGame, AcadmuState, actions, first_player, round_end, state

OLD_NAMES = [
    "DARK",
    "LIGHT",
    "NO_ONE",
    "PASS",
    "SIDE_LETTERS",
    "MAX_DISCS",
    "MAX_DISC_TEXT",
    "MAX_TARGET",
    "AcadmuGame",
    "AcadmuState",
    "Counts",
    "Draw",
    "Move",
    "Phase",
    "Pour",
    "draw_reason",
    "faces_compared",
    "first_player_by_draw",
    "first_player_by_faces",
    "format_counts",
    "parse_counts",
    "parse_sides",
]


def test_game_module_keeps_its_names() -> None:
    missing = [name for name in OLD_NAMES if not hasattr(game_module, name)]
    assert missing == []
    assert game_module.AcadmuState is state.AcadmuState
    assert game_module.Move is actions.Move
    assert game_module.first_player_by_draw is first_player.first_player_by_draw
    assert issubclass(AcadmuState, round_end.RoundEnd)


def test_a_state_pickled_under_the_old_path_loads() -> None:
    rng = random.Random(5)
    position = AcadmuGame(target=3).new_initial_state()
    while position.phase != "play" or position.round_over:
        position = position.apply_trusted(position.sample_chance(rng))
    text = pickle.dumps(position, protocol=0)
    old = text.replace(b"gamehall.games.acadmu.state\n", b"gamehall.games.acadmu.game\n")
    assert old != text
    loaded = pickle.loads(old)
    assert loaded == position
    assert loaded.legal_actions() == position.legal_actions()


def test_modules_stay_short() -> None:
    """'A module that passes about 600 lines is two modules.'"""
    package = Path(game_module.__file__).parent
    for name in ("game", "actions", "first_player", "state", "round_end", "rules"):
        lines = (package / f"{name}.py").read_text(encoding="utf-8").count("\n")
        assert lines <= 600, f"acadmu/{name}.py has {lines} lines"
