"""Self-play runs: seeds, rows, records, workers, the SQLite store and resuming."""

from __future__ import annotations

import sqlite3

import pytest
import typer
from typer.testing import CliRunner

from gamehall.analysis.metrics import metric_columns
from gamehall.analysis.selfplay import RunSpec, game_seed, selfplay
from gamehall.analysis.store import GAME_COLUMNS, RECORD_COLUMN, RunMismatchError, RunStore
from gamehall.cli.analysis import register
from gamehall.core import GamehallError, Record, find_game

GAMES = ["acadmu", "akros"]


def cli():
    app = typer.Typer()
    register(app)
    return app


def run_cli(*args):
    result = CliRunner().invoke(cli(), [str(a) for a in args])
    return result


def columns(game_name):
    return {**GAME_COLUMNS, **metric_columns(game_name), **RECORD_COLUMN}


def test_game_seed_is_stable_and_spread():
    assert game_seed(0, 0) == game_seed(0, 0)
    seeds = {game_seed(7, i) for i in range(1000)}
    assert len(seeds) == 1000
    assert game_seed(7, 1) != game_seed(8, 1)
    assert all(0 <= s < 2**63 for s in seeds)
    # Pinned: a change here changes every stored run.
    assert game_seed(0, 0) == 3527577169254209511
    assert game_seed(12345, 7) == 1563303485286401817


@pytest.mark.parametrize("game_name", GAMES)
def test_rows_replay_and_alternate_sides(game_name):
    spec = RunSpec.make(find_game(game_name), ("greedy", "random"), 3)
    rows = selfplay(spec, 4)
    assert [r["game_index"] for r in rows] == [0, 1, 2, 3]
    assert [r["seat0"] for r in rows] == ["greedy", "random", "greedy", "random"]
    assert [r["a_seat"] for r in rows] == [0, 1, 0, 1]
    for row in rows:
        assert set(columns(game_name)) <= set(row)
        record = Record.parse(row["record"])
        final = record.replay()[-1]
        outcome = final.outcome()
        assert outcome.winner == row["winner"]
        assert int(record.tags["Seed"]) == row["seed"]
        if row["winner"] is not None:
            winner_is_a = row["winner"] == row["a_seat"]
            assert row["winner_side"] == ("A" if winner_is_a else "B")
    assert selfplay(spec, 4) == rows  # reproducible


def test_acadmu_round_metrics_add_up():
    spec = RunSpec.make(find_game("acadmu", target=24), ("random", "random"), 5)
    import json

    for row in selfplay(spec, 3):
        points = json.loads(row["round_points"])
        assert len(points) == row["rounds"] == len(json.loads(row["round_first"]))
        assert [sum(p[0] for p in points), sum(p[1] for p in points)] == [
            row["score0"],
            row["score1"],
        ]
        assert max(row["score0"], row["score1"]) >= 24
        assert sum(json.loads(row["round_lengths"])) == row["decisions"]
        assert row["passes"] == row["passes_dark"] + row["passes_light"]


def test_akros_metrics_match_outcome():
    spec = RunSpec.make(find_game("akros"), ("random", "greedy"), 11)
    for row in selfplay(spec, 4):
        claims = [row[f"{e}_claim"] for e in ("forest", "sea", "mountain")]
        assert claims.count("jinn") == row["claims_jinn"] == row["score0"]
        assert claims.count("ifrit") == row["claims_ifrit"] == row["score1"]
        assert row["removed_total"] >= row["removed_jinn"] + row["removed_ifrit"]


def test_two_workers_give_the_single_process_results():
    spec = RunSpec.make(find_game("acadmu"), ("random", "greedy"), 9)
    assert selfplay(spec, 6, workers=2) == selfplay(spec, 6, workers=1)


def test_interrupted_run_resumes_to_the_same_results(tmp_path):
    spec = RunSpec.make(find_game("acadmu"), ("greedy", "random"), 21)
    with RunStore(tmp_path / "whole", "selfplay", spec.parameters(), columns("acadmu")) as store:
        whole = selfplay(spec, 8, store=store)

    seen = []

    def crash_after_three(row):
        seen.append(row["game_index"])
        if len(seen) == 3:
            raise KeyboardInterrupt

    out = tmp_path / "part"
    with (
        RunStore(out, "selfplay", spec.parameters(), columns("acadmu")) as store,
        pytest.raises(KeyboardInterrupt),
    ):
        selfplay(spec, 8, store=store, on_row=crash_after_three)
    with RunStore(out, "selfplay", spec.parameters(), columns("acadmu")) as store:
        assert store.done() == set(seen)  # every finished game was committed
        new = []
        resumed = selfplay(spec, 8, store=store, on_row=lambda r: new.append(r["game_index"]))
    assert sorted(new) == [i for i in range(8) if i not in seen]
    assert resumed == whole


def test_cli_resume_after_interruption_matches_uninterrupted(tmp_path, monkeypatch):
    args = ["analyze", "acadmu", "--players", "greedy,random", "--games", "6", "--workers", "1"]
    result = run_cli(*args, "--out", tmp_path / "a")
    assert result.exit_code == 0, result.output

    import gamehall.analysis.selfplay as selfplay_module

    real = selfplay_module.play_batch
    calls = []

    def flaky(spec, indices):
        calls.append(indices)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(spec, indices)

    monkeypatch.setattr(selfplay_module, "play_batch", flaky)
    result = run_cli(*args, "--out", tmp_path / "b")
    assert result.exit_code == 130
    assert "resume" in result.output
    monkeypatch.setattr(selfplay_module, "play_batch", real)
    with sqlite3.connect(tmp_path / "b" / "games.sqlite") as con:
        assert con.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 3
    result = run_cli(*args, "--out", tmp_path / "b")
    assert result.exit_code == 0, result.output
    assert "3 new" in result.output

    def table(directory):
        with sqlite3.connect(directory / "games.sqlite") as con:
            return con.execute("SELECT * FROM games ORDER BY game_index").fetchall()

    assert table(tmp_path / "a") == table(tmp_path / "b")


def test_different_parameters_are_refused(tmp_path):
    args = ["analyze", "acadmu", "--games", "2", "--workers", "1", "--out", tmp_path]
    assert run_cli(*args, "--players", "greedy,random").exit_code == 0
    result = run_cli(*args, "--players", "random,random")
    assert isinstance(result.exception, RunMismatchError)
    assert "players" in str(result.exception)
    result = run_cli(*args, "--players", "greedy,random", "--seed", "4")
    assert isinstance(result.exception, RunMismatchError)
    assert "seed" in str(result.exception)
    # More games with the same parameters extends the run.
    assert (
        run_cli(
            *args[:-4],
            "--games",
            "3",
            "--workers",
            "1",
            "--out",
            tmp_path,
            "--players",
            "greedy,random",
        ).exit_code
        == 0
    )


def test_table_opens_with_pandas(tmp_path):
    import pandas as pd

    result = run_cli(
        "analyze",
        "acadmu",
        "--players",
        "random,greedy",
        "--games",
        "3",
        "--workers",
        "1",
        "--out",
        tmp_path,
    )
    assert result.exit_code == 0, result.output
    with sqlite3.connect(tmp_path / "games.sqlite") as con:
        frame = pd.read_sql("SELECT * FROM games", con)
        runs = pd.read_sql("SELECT * FROM runs", con)
    assert list(frame["game_index"]) == [0, 1, 2]
    assert {
        "seed",
        "seat0",
        "seat1",
        "winner",
        "reason",
        "score0",
        "round_points",
        "record",
    } <= set(frame.columns)
    assert len(runs) == 1


def test_bad_input_is_a_gamehall_error(tmp_path):
    result = run_cli("analyze", "acadmu", "--players", "greedy", "--out", tmp_path)
    assert isinstance(result.exception, GamehallError)
    result = run_cli("analyze", "acadmu", "--players", "greedy,nobody", "--out", tmp_path)
    assert isinstance(result.exception, GamehallError)


@pytest.mark.parametrize("game_name", GAMES)
def test_random_and_greedy_games_come_from_the_compiled_simulator_as_real_records(game_name):
    """Both seats played by the simulator: each stored game is the simulator's game for its
    seed (``fast.play``), and its record replays through the engine to the stored result."""
    from gamehall import fast

    game = find_game(game_name, target=3) if game_name == "acadmu" else find_game(game_name)
    spec = RunSpec.make(game, ("easy", "beginner"), 6)
    for index, row in enumerate(selfplay(spec, 6)):
        record = Record.parse(row["record"])
        actions = fast.play(game, row["seed"], spec.seats(index))
        assert [str(a) for a in actions] == [str(a) for a in record.actions]
        assert record.replay()[-1].outcome().winner == row["winner"]


@pytest.mark.slow
def test_the_simulator_keeps_the_statistics_law():
    """The Ifrit's random-play win rate from analyze's rows (now from the simulator) lies in
    the engine's measured interval (0.6107-0.6242 over 20,000 games), widened for 2,000 games."""
    rows = selfplay(RunSpec.make(find_game("akros"), ("random", "random"), 1), 2000)
    rate = sum(row["winner_name"] == "ifrit" for row in rows) / len(rows)
    assert 0.585 < rate < 0.65
