"""Exact values of random deals: the deals, the pipeline (with a brute-force solver standing in),
a clean error for a game without a solver, and the real solver against brute force."""

from __future__ import annotations

from functools import cache

import pytest
import typer
from typer.testing import CliRunner

from gamehall.analysis.exact import SolverMissingError, make_spec, solve_one
from gamehall.cli.analysis import register
from gamehall.core import Solution, Solver, ValueKind, find_game, find_plugin


@cache
def negamax(state) -> float:
    """The round's value for Dark (the player to move at the deal), by full search."""
    if state.is_terminal():
        return state.returns()[0]
    values = [negamax(state.apply_trusted(action)) for action in state.legal_actions()]
    return max(values) if state.current_player == 0 else min(values)


class BruteSolver(Solver):
    kind = ValueKind.POINTS
    unit = "count difference"

    def solve(self, state, limit, *, best="all", explain=False):
        value = int(negamax(state))
        return Solution(0, self.kind, value, value, value)


@pytest.fixture
def brute(monkeypatch):
    monkeypatch.setitem(find_plugin("acadmu")._cache, "solver", BruteSolver())


def test_deals_are_reproducible_and_shrunk():
    game = find_game("acadmu")
    spec = make_spec(game, seed=3, size=4, time_limit=None)
    first = spec.deal(0)
    assert str(first) == str(spec.deal(0))
    assert str(first) != str(spec.deal(1))
    assert sum(first.dark) == sum(first.light) == 4
    assert first.to_move == 0 and first.first is None  # a bare round, Dark to move
    full = make_spec(game, seed=3, size=None, time_limit=None).deal(0)
    assert sum(full.dark) == sum(full.light) == 27
    with pytest.raises(Exception, match="size"):
        make_spec(game, seed=3, size=0, time_limit=None)


def test_pipeline_with_a_brute_force_solver(brute):
    spec = make_spec(find_game("acadmu"), seed=1, size=4, time_limit=None)
    rows = [solve_one(spec, i) for i in range(6)]
    for row in rows:
        assert row["size"] == 4
        assert -4 <= row["value"] <= 4
        assert row["value"] == negamax(spec.deal(row["deal_index"]))
    from gamehall.analysis.report import exact_report

    report = exact_report(rows, game_name="acadmu", size=4, seed=1, unit="points")
    assert "Mean value" in report.markdown()
    assert len(report.figures()) == 1


def test_a_game_without_deals_is_a_clean_error(tmp_path):
    with pytest.raises(SolverMissingError, match="random deals"):
        make_spec(find_game("akros"), seed=1, size=None, time_limit=None)
    app = typer.Typer()
    register(app)
    result = CliRunner().invoke(
        app, ["analyze", "akros", "--exact", "--deals", "2", "--out", str(tmp_path)]
    )
    assert isinstance(result.exception, SolverMissingError)
    assert not (tmp_path / "report.html").exists()


def test_cli_exact_with_stand_in_solver(tmp_path, brute):
    app = typer.Typer()
    register(app)
    args = ["analyze", "acadmu", "--exact", "--deals", "5", "--size", "3", "--workers", "1"]
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "first-player value" in result.output
    assert (tmp_path / "report.html").exists() and (tmp_path / "fig-exact-values.png").exists()


def test_real_solver_agrees_with_brute_force():
    spec = make_spec(find_game("acadmu"), seed=5, size=4, time_limit=None)
    for index in range(8):
        row = solve_one(spec, index)
        assert row["exact"] == 1
        assert row["value"] == pytest.approx(negamax(spec.deal(index))), row["position"]
