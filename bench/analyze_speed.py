"""Games per second of ``gamehall analyze`` (random vs random) on 1 and 2 local workers.

    .venv/bin/python bench/analyze_speed.py [--games-acadmu N] [--games-akros N]

Runs the same path as the command (self-play, rows committed one by one to a fresh SQLite file)
but not the report. The 2-worker time includes starting the worker processes (spawn). Results
are identical for both worker counts (checked here too). Numbers depend on what else the machine
is running: say so when you quote them.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from gamehall.analysis.metrics import metric_columns
from gamehall.analysis.selfplay import RunSpec, selfplay
from gamehall.analysis.store import GAME_COLUMNS, RECORD_COLUMN, RunStore
from gamehall.core import find_game


def measure(game_name: str, games: int, workers: int) -> tuple[float, list[dict]]:
    spec = RunSpec.make(find_game(game_name), ("random", "random"), 2024)
    columns = {**GAME_COLUMNS, **metric_columns(game_name), **RECORD_COLUMN}
    with (
        tempfile.TemporaryDirectory() as directory,
        RunStore(Path(directory), "selfplay", spec.parameters(), columns) as store,
    ):
        start = time.perf_counter()
        rows = selfplay(spec, games, store=store, workers=workers)
        elapsed = time.perf_counter() - start
    return games / elapsed, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games-acadmu", type=int, default=200)
    parser.add_argument("--games-akros", type=int, default=2000)
    args = parser.parse_args()
    print(f"cores visible: {len(os.sched_getaffinity(0))}; load average: {os.getloadavg()}")
    for game_name, games in (("acadmu", args.games_acadmu), ("akros", args.games_akros)):
        results = {}
        for workers in (1, 2):
            rate, rows = measure(game_name, games, workers)
            results[workers] = rows
            print(
                f"{game_name:7} random vs random, {games:5} games, {workers} worker(s): "
                f"{rate:8.1f} games/s"
            )
        assert results[1] == results[2], "worker count changed the results"
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
