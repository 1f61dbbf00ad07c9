"""A Dask cluster on loopback gives exactly the single-process results."""

from __future__ import annotations

import sqlite3

import dask.distributed as distributed
import pytest
import typer
from typer.testing import CliRunner

from gamehall.analysis.selfplay import RunSpec, selfplay
from gamehall.cli.analysis import register
from gamehall.core import find_game


@pytest.fixture(scope="module")
def scheduler():
    cluster = distributed.LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        host="127.0.0.1",
        dashboard_address=None,
    )
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


@pytest.mark.slow
def test_dask_cluster_matches_single_process(scheduler, tmp_path):
    spec = RunSpec.make(find_game("acadmu"), ("greedy", "random"), 17)
    assert selfplay(spec, 10, scheduler=scheduler) == selfplay(spec, 10, workers=1)

    app = typer.Typer()
    register(app)
    args = ["analyze", "acadmu", "--players", "random,greedy", "--games", "6"]
    for name, extra in (("dask", ["--scheduler", scheduler]), ("local", ["--workers", "1"])):
        result = CliRunner().invoke(app, [*args, *extra, "--out", str(tmp_path / name)])
        assert result.exit_code == 0, result.output

    def table(name):
        with sqlite3.connect(tmp_path / name / "games.sqlite") as con:
            return con.execute("SELECT * FROM games ORDER BY game_index").fetchall()

    assert table("dask") == table("local")


@pytest.mark.slow
def test_unreachable_scheduler_is_a_clean_error(tmp_path):
    from gamehall.core import GamehallError

    spec = RunSpec.make(find_game("acadmu"), ("random", "random"), 1)
    with pytest.raises(GamehallError, match="Dask scheduler"):
        selfplay(spec, 1, scheduler="tcp://127.0.0.1:9")
