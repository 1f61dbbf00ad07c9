"""Benchmark: the batched compiled games (``gamehall.vector``) side by side with the Python
Gymnasium adapter and the compiled random-playout reference (``gamehall.fast``), in one run.

For each game: the plain array API with ``--envs`` games (4,096 by default) against the
``beginner`` opponent, the learner's actions chosen in Python each step (a uniformly random legal
action per row, with NumPy, from the legal lists the batch keeps); the same in self-play (every
decision a learner's step); the Gymnasium ``VectorEnv`` over it (``copy=False``); the single
Gymnasium environment (the Python engine, a random legal action from ``info["action_mask"]``);
and ``gamehall.fast`` playing random games (actions/s, chance included). Each row runs for
``--seconds``, in ten windows: the figure is the median window's rate, with the best window's
beside it; env steps are the learner's steps. Wall-clock and CPU time are both shown (the
machine may be shared). Prints a markdown table; with ``--rows`` only its rows, for
docs/performance.md::

    .venv/bin/python bench/vector_speed.py --seconds 10
    .venv/bin/python bench/vector_speed.py --games akros --seconds 2 --rows
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import time
from collections.abc import Callable

import gymnasium
import numpy as np

import gamehall.adapters.gymnasium  # noqa: F401  (registers gamehall/<Title>-v0)
from gamehall import fast
from gamehall.core import find_game
from gamehall.vector import VectorGame

IDS = {"akros": "gamehall/Akros-v0", "acadmu": "gamehall/Acadmu-v0"}


WINDOWS = 10
"""Each row is timed in this many windows of equal length: the figure is the median window's
rate, beside the best one's (on a shared machine a neighbour's burst slows some windows down;
the median is what a learner can count on, the best what the code can do)."""


def timed(
    seconds: float, work: Callable[[], tuple[int, int]]
) -> list[tuple[float, float, int, int]]:
    """Call ``work`` (which returns steps and games done) for ``seconds`` in all, in
    :data:`WINDOWS` windows; return each window's wall seconds, CPU seconds, steps and games."""
    windows = []
    for _ in range(WINDOWS):
        steps = games = 0
        wall0, cpu0 = time.perf_counter(), time.process_time()
        while True:
            s, g = work()
            steps += s
            games += g
            wall = time.perf_counter() - wall0
            if wall >= seconds / WINDOWS:
                windows.append((wall, time.process_time() - cpu0, steps, games))
                break
    return windows


def figure(windows: list[tuple[float, float, int, int]], unit: str) -> str:
    """The median window's rate (steps, per CPU second, games) and the best window's."""
    ranked = sorted(windows, key=lambda w: w[2] / w[0])
    wall, cpu, steps, games = ranked[len(ranked) // 2]
    best = ranked[-1][2] / ranked[-1][0]
    return (
        f"{steps / wall:,.0f} {unit}/s, median of {len(windows)} windows (best {best:,.0f}; "
        f"{steps / max(cpu, 1e-9):,.0f} per CPU second), {games / wall:,.0f} games/s"
    )


def vector_row(name: str, envs: int, seconds: float, opponent: str | None) -> list:
    games = VectorGame(name, envs, opponent=opponent)
    rng = np.random.default_rng(1)
    games.reset(1)
    games.step(games.random_actions(rng))  # compiled before the clock starts

    def work() -> tuple[int, int]:
        step = games.step(games.random_actions(rng))
        return envs, int(step.terminated.sum())

    return timed(seconds, work)


def gym_vector_row(name: str, envs: int, seconds: float) -> list:
    env = gymnasium.make_vec(
        IDS[name], num_envs=envs, vectorization_mode="vector_entry_point", copy=False
    )
    batch = env.unwrapped.games
    rng = np.random.default_rng(1)
    env.reset(seed=1)

    def work() -> tuple[int, int]:
        _, _, terminated, _, _ = env.step(batch.random_actions(rng))
        return envs, int(terminated.sum())

    return timed(seconds, work)


def python_row(name: str, seconds: float) -> list:
    env = gymnasium.make(IDS[name])
    rng = np.random.default_rng(1)
    _, info = env.reset(seed=1)
    state = {"info": info}

    def work() -> tuple[int, int]:
        legal = np.flatnonzero(state["info"]["action_mask"])
        _, _, terminated, truncated, info = env.step(int(rng.choice(legal)))
        if terminated or truncated:
            _, info = env.reset()
        state["info"] = info
        return 1, int(terminated)

    return timed(seconds, work)


def fast_row(name: str, seconds: float) -> list:
    game = find_game(name)
    fast.simulate(game, 10, seed=0)  # compiled before the clock starts
    batch = 20_000 if name == "akros" else 2_000
    counter = {"index": 0}

    def work() -> tuple[int, int]:
        run = fast.simulate(game, batch, seed=1, first_index=counter["index"])
        counter["index"] += batch
        return int(run.actions.sum()), batch

    return timed(seconds, work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["akros", "acadmu"], choices=sorted(IDS))
    parser.add_argument("--envs", type=int, default=4096, help="games in the batch")
    parser.add_argument("--seconds", type=float, default=5.0, help="time for each row")
    parser.add_argument("--rows", action="store_true", help="print only the table's rows")
    args = parser.parse_args()
    command = "`.venv/bin/python bench/vector_speed.py " + " ".join(sys.argv[1:]) + "`"
    today = datetime.date.today().isoformat()
    load = f"load {os.getloadavg()[0]:.1f}"
    if not args.rows:
        print("| game | what | figure | conditions | command | date |")
        print("|---|---|---|---|---|---|")
    for name in args.games:
        title = find_game(name).title
        rows = [
            (f"`gamehall.vector`, N = {args.envs:,}, against `beginner`, actions from Python",
             "env steps", vector_row(name, args.envs, args.seconds, "beginner")),
            (f"`gamehall.vector`, N = {args.envs:,}, self-play, actions from Python",
             "env steps", vector_row(name, args.envs, args.seconds, None)),
            (f"`make_vec(..., vectorization_mode=\"vector_entry_point\")`, N = {args.envs:,}, "
             "`copy=False`", "env steps", gym_vector_row(name, args.envs, args.seconds)),
            ("Python Gymnasium adapter (`gymnasium.make`), against `beginner`", "env steps",
             python_row(name, args.seconds)),
            ("C-speed playout reference: `gamehall.fast` random games", "actions",
             fast_row(name, args.seconds)),
        ]  # fmt: skip
        for what, unit, windows in rows:
            print(f"| {title} | {what} | {figure(windows, unit)} | {load} | {command} | {today} |",
                  flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
