"""Exact values of random deals: the deals, the pipeline (with a brute-force solver standing in),
a clean error without the solver, and the real solver against brute force where it exists."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import cache

import pytest
import typer
from typer.testing import CliRunner

from gamehall.analysis import exact
from gamehall.analysis.exact import ExactSpec, SolverMissingError, make_spec, solve_one
from gamehall.cli.analysis import register


@dataclass
class Result:
    value: float
    best: object
    nodes: int = 0
    seconds: float = 0.0
    exact: bool = True


@cache
def negamax(state) -> float:
    """The round's value for Dark (the player to move at the deal), by full search."""
    if state.is_terminal():
        return state.returns()[0]
    values = [negamax(state.apply_trusted(action)) for action in state.legal_actions()]
    return max(values) if state.current_player == 0 else min(values)


def brute_solve(state, time_limit=None):
    return Result(negamax(state), None)


def test_deals_are_reproducible_and_shrunk():
    spec = make_spec(seed=3, tokens=4, variants={}, time_limit=None)
    first = spec.deal(0)
    assert str(first) == str(spec.deal(0))
    assert str(first) != str(spec.deal(1))
    assert sum(first.dark) == sum(first.light) == 4
    assert first.to_move == 0 and first.first is None  # a bare round, Dark to move
    full = make_spec(seed=3, tokens=None, variants={}, time_limit=None).deal(0)
    assert sum(full.dark) == sum(full.light) == 27
    with pytest.raises(Exception, match="tokens"):
        make_spec(seed=3, tokens=28, variants={}, time_limit=None)


def test_pipeline_with_a_brute_force_solver():
    spec = make_spec(seed=1, tokens=4, variants={}, time_limit=None)
    rows = [solve_one(spec, i, brute_solve) for i in range(6)]
    for row in rows:
        assert row["tokens"] == 4
        assert -4 <= row["value"] <= 4
    from gamehall.analysis.report import exact_report

    report = exact_report(rows, tokens=4, seed=1)
    assert "Mean value" in report.markdown()
    assert len(report.figures()) == 1


def test_missing_solver_is_a_clean_error(tmp_path, monkeypatch):
    monkeypatch.setattr(exact, "SOLVER", "gamehall.no_such_solver_module:solve")
    with pytest.raises(SolverMissingError, match="not available"):
        exact.load_solver()
    app = typer.Typer()
    register(app)
    result = CliRunner().invoke(
        app, ["analyze", "acadmu", "--exact", "--deals", "2", "--out", str(tmp_path)]
    )
    assert isinstance(result.exception, SolverMissingError)
    assert not (tmp_path / "report.html").exists()


def test_cli_exact_with_stand_in_solver(tmp_path, monkeypatch):
    monkeypatch.setattr(exact, "load_solver", lambda path=None: brute_solve)
    app = typer.Typer()
    register(app)
    args = [
        "analyze",
        "acadmu",
        "--exact",
        "--deals",
        "5",
        "--tokens",
        "3",
        "--workers",
        "1",
        "--out",
        str(tmp_path),
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "first-player value" in result.output
    assert (tmp_path / "report.html").exists() and (tmp_path / "fig-exact-values.png").exists()


@pytest.mark.skipif(
    importlib.util.find_spec("gamehall.ai.solvers.acadmu") is None,
    reason="exact solver not built yet",
)
def test_real_solver_agrees_with_brute_force():
    solve = exact.load_solver()
    spec = ExactSpec(seed=5, tokens=4)
    for index in range(8):
        state = spec.deal(index)
        assert solve(state, time_limit=None).value == pytest.approx(negamax(state)), str(state)
