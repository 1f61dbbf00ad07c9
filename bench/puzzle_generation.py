"""Benchmark: how long proven puzzles take to find, per game, with the settings the shipped sets
were made with (``src/gamehall/games/<game>/puzzles.jsonl.command.json``): greedy self-play, each
position given one second to settle with every one of its moves, a few puzzles a game.

It runs the same search as ``gamehall puzzles generate`` (:func:`gamehall.analysis.puzzles.
find_puzzles`) into memory, from seeds the shipped sets have not used, and prints puzzles per
minute of wall-clock and of CPU time (the machine is shared: CPU time is the steadier figure),
and so how long 500 would take.

    python bench/puzzle_generation.py [--count N] [--games N] [--seed S] [GAME ...]
"""

from __future__ import annotations

import argparse
import os
import time

from gamehall.analysis.puzzles import find_puzzles, selfplay_candidates
from gamehall.core import find_game

PER_GAME = {"acadmu": 3, "akros": 2}
"""Puzzles kept from one self-play game, as the shipped sets were made."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_named", nargs="*", default=["acadmu", "akros"], metavar="GAME")
    parser.add_argument("--count", type=int, default=20, help="puzzles to find per game")
    parser.add_argument("--games", type=int, default=200, help="most self-play games")
    parser.add_argument("--seed", type=int, default=7, help="self-play seed (shipped: 1)")
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| game | puzzles | wall s | CPU s | per puzzle (wall) | 500 would take (wall) |")
    print("|---|---|---|---|---|---|")
    for name in args.games_named:
        game = find_game(name)
        examined = [0]

        def seen(done: int, _found: int, counter: list[int] = examined) -> None:
            counter[0] = done

        candidates = selfplay_candidates(game, ["greedy", "greedy"], args.seed, args.games)
        wall, cpu = time.perf_counter(), time.process_time()
        found = find_puzzles(
            game,
            args.count,
            candidates,
            seconds=args.seconds,
            per_game=PER_GAME.get(name, 2),
            on_examined=seen,
        )
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        each = wall / max(1, len(found))
        print(
            f"| {name} | {len(found)} ({examined[0]} positions) | {wall:.1f} | {cpu:.1f} | "
            f"{each:.2f} s | {500 * each / 60:.0f} min |"
        )


if __name__ == "__main__":
    main()
