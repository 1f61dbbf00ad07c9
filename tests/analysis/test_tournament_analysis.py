"""Round robins (ranking and head to head) and compare-boards."""

from __future__ import annotations

import json
import shutil

import pytest
import typer
from typer.testing import CliRunner

from gamehall.analysis.tournament import standings
from gamehall.cli.analysis import register
from gamehall.core import GamehallError


def invoke(*args):
    app = typer.Typer()
    register(app)
    return CliRunner().invoke(app, [str(a) for a in args])


def test_standings_from_rows():
    rows = [
        {"player_a": "x", "player_b": "y", "winner_side": "A"},
        {"player_a": "x", "player_b": "y", "winner_side": "A"},
        {"player_a": "x", "player_b": "y", "winner_side": "B"},
        {"player_a": "x", "player_b": "y", "winner_side": None},
    ]
    table = standings(["x", "y"], rows, prior_draws=0)
    assert table.wins.tolist() == [[0, 2], [1, 0]]
    assert table.draws[0, 1] == table.draws[1, 0] == 1
    assert table.score(0) == 2.5 and table.played(0) == 4
    # 2.5 of 4: Elo gap 400·log10(2.5/1.5).
    import math

    assert table.ratings.elo[0] - table.ratings.elo[1] == pytest.approx(400 * math.log10(2.5 / 1.5))


def test_tournament_cli(tmp_path):
    result = invoke(
        "tournament",
        "acadmu",
        "--players",
        "random,greedy,beginner",
        "--games",
        "2",
        "--workers",
        "1",
        "--out",
        tmp_path,
    )
    assert result.exit_code == 0, result.output
    assert "Ranking" in result.output and "Head to head" in result.output
    ranking = json.loads((tmp_path / "ranking.json").read_text())
    assert set(ranking["elo"]) == {"random", "greedy", "beginner"}
    assert (tmp_path / "ranking.md").exists() and (tmp_path / "head_to_head.csv").exists()
    # Every pair met twice: 3 pairs x 2 games.
    assert sum(map(sum, ranking["wins"])) + sum(map(sum, ranking["draws"])) / 2 == 6
    # Rerunning resumes (nothing new to play) and gives the same ranking.
    again = invoke(
        "tournament",
        "acadmu",
        "--players",
        "random,greedy,beginner",
        "--games",
        "2",
        "--workers",
        "1",
        "--out",
        tmp_path,
    )
    assert again.exit_code == 0, again.output
    assert json.loads((tmp_path / "ranking.json").read_text()) == ranking


def test_tournament_needs_distinct_players(tmp_path):
    result = invoke("tournament", "acadmu", "--players", "random,random", "--out", tmp_path)
    assert isinstance(result.exception, GamehallError)


def test_compare_boards(tmp_path):
    from importlib import resources

    dawn = resources.files("gamehall.games.akros").joinpath("boards/dawn.toml")
    first = tmp_path / "dawn.toml"
    first.write_text(dawn.read_text(encoding="utf-8"), encoding="utf-8")
    second = tmp_path / "dusk.toml"
    shutil.copy(first, second)
    result = invoke(
        "compare-boards",
        "akros",
        first,
        second,
        "--players",
        "greedy,random",
        "--games",
        "6",
        "--workers",
        "1",
        "--out",
        tmp_path / "out",
    )
    assert result.exit_code == 0, result.output
    table = (tmp_path / "out" / "compare.csv").read_text().splitlines()
    assert len(table) == 3
    # The same board under the same seeds gives the same Ifrit win rate.
    assert table[1].split(",")[2:] == table[2].split(",")[2:]
    assert "Ifrit" in result.output
