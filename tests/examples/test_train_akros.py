"""The day-one training script (examples/train_akros.py) runs end to end in a few hundred moves:
PPO with action masking on the batched Akros games, the evaluation through the core protocol
against the hall's ``easy``, the summary and the learning curve's plot. It needs PyTorch (the
``train`` extra, which ``make test`` installs); without it this test fails, it is never skipped."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "train_akros.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_akros", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.torch
def test_the_training_script_trains_evaluates_and_plots(tmp_path: Path) -> None:
    script = _script()
    curve = tmp_path / "curve.png"
    args = ["--max-steps", "256", "--envs", "32", "--rollout", "8", "--eval-games", "6"]
    result = script.main([*args, "--plot", str(curve), "--save", str(tmp_path / "net.pt")])
    assert result["train_steps"] == 256  # one update of 32 rows x 8 moves, then the step limit
    for player in ("agent", "random"):  # 3 games as the Jinn, 3 as the Ifrit, all played out
        rates = result[player]
        assert set(rates) == {"jinn", "ifrit", "both"}
        assert all(rate in {0, 1 / 3, 2 / 3, 1} for rate in (rates["jinn"], rates["ifrit"]))
        assert rates["both"] == pytest.approx((rates["jinn"] + rates["ifrit"]) / 2)
    assert curve.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "net.pt").stat().st_size > 0


@pytest.mark.torch
def test_the_trained_agent_plays_only_legal_moves_in_both_seats() -> None:
    script = _script()
    from gamehall.core import find_game

    net = script.Policy(174, find_game("akros").num_distinct_actions, script.np.ones(174), 16)
    agent = script.PolicyAgent(net)
    state = find_game("akros").deal(3)
    seats = set()
    while not state.is_terminal():  # the engine's checked door refuses an illegal move
        if state.is_chance_node():
            state = state.apply(state.chance_outcomes()[0][0])
            continue
        seats.add(state.current_player)
        state = state.apply(agent.choose(state))
    assert seats == {0, 1}
