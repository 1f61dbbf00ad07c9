"""Benchmark the Akros exact solver from the start of turns 4, 5, 6 and 7.

Positions: 10 per turn from random play (seeded: seed ``1000 * turn + i``), taken at the start of
the turn: the ``draw`` step for turns up to 6, ``jinn-keep`` for turn 7. Each is solved from an
empty transposition table (``fresh=True``); the numba kernel is compiled (or loaded from its cache)
before timing. Prints nodes and seconds per position and the median and worst per turn, and
whether the targets hold (turn 4: median <= 2 s, worst <= 10 s; turn 5: median <= 1 s, worst <=
5 s; turns 6 and 7: <= 0.1 s). CPU seconds are printed beside wall seconds: on a shared machine
the wall time says more about the load than about the solver.

    .venv/bin/python bench/akros_exact.py [--turns 4 5 6 7] [--count 10] [--repeat 3] [--no-margins]

With ``--repeat R`` each position is solved R times and its median time is reported (the machine
is shared: single timings are noisy).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from gamehall.core import CHANCE, find_game
from gamehall.games.akros.game import AkrosGame, AkrosState
from gamehall.games.akros.rules import DRAW, JINN_KEEP
from gamehall.games.akros.solver import solve

TARGETS = {4: (2.0, 10.0), 5: (1.0, 5.0), 6: (0.1, 0.1), 7: (0.1, 0.1)}


def start_of_turn(game: AkrosGame, seed: int, turn: int) -> AkrosState:
    rng = random.Random(seed)
    state = game.new_initial_state()
    step = DRAW if turn <= 6 else JINN_KEEP
    while not (state.turn == turn and state.step == step):
        if state.current_player == CHANCE:
            state = state.apply_trusted(state.sample_chance(rng))
        else:
            state = state.apply_trusted(rng.choice(state.legal_actions()))
    return state


STEP_NAMES = ("draw", "jinn-keep", "ifrit-keep", "ifrit-place", "jinn-place", "over")


def print_tree(first_turn: int) -> None:
    """The last search's nodes per turn and step (the kernel's histogram)."""
    from gamehall.games.akros import _kernel as kernel
    from gamehall.games.akros.solver import DEFAULT_TT_BITS, _context

    ctx = _context(find_game("akros"), DEFAULT_TT_BITS)
    stats = sum(member.stats for member in [ctx, *ctx.helpers])
    for turn in range(first_turn, 10):
        counts = [
            f"{name} {stats[kernel.ST_HIST + 6 * turn + step]:,}"
            for step, name in enumerate(STEP_NAMES)
            if stats[kernel.ST_HIST + 6 * turn + step]
        ]
        print(f"      turn {turn}: " + ", ".join(counts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, nargs="+", default=[4, 5, 6, 7])
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--no-margins", action="store_true")
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="threads searching a draw's outcomes (default: one a core, at most 4)",
    )
    parser.add_argument("--show", action="store_true", help="print each position")
    parser.add_argument(
        "--tree", action="store_true", help="print each search's nodes per turn and step"
    )
    args = parser.parse_args()
    game = find_game("akros")
    t0 = time.perf_counter()
    solve(start_of_turn(game, 1, 5), fresh=True)  # compile / load the kernel, make the tables
    print(f"kernel ready in {time.perf_counter() - t0:.1f} s")
    ok_all = True
    for turn in args.turns:
        times, nodes, cpus = [], [], []
        print(f"\n== start of turn {turn} ==")
        for i in range(args.count):
            state = start_of_turn(game, 1000 * turn + i, turn)
            runs, cpu_runs = [], []
            for _ in range(args.repeat):
                cpu = time.process_time()
                result = solve(state, fresh=True, margins=not args.no_margins, workers=args.workers)
                cpu_runs.append(time.process_time() - cpu)
                runs.append(result.seconds)
            seconds = statistics.median(runs)
            times.append(seconds)
            cpus.append(statistics.median(cpu_runs))
            nodes.append(result.nodes)
            print(
                f"  #{i}: ifrit_win={result.ifrit_win!s:>12}  nodes={result.nodes:>10,}  "
                f"seconds={seconds:8.4f}  cpu={cpus[-1]:8.4f}  margins={result.margins}"
            )
            if args.show:
                print(f"      {state}")
            if args.tree:
                print_tree(state.turn)
        med, worst = statistics.median(times), max(times)
        target_med, target_worst = TARGETS.get(turn, (float("inf"), float("inf")))
        ok = med <= target_med and worst <= target_worst
        ok_all &= ok
        print(
            f"turn {turn}: median {med:.4f} s, worst {worst:.4f} s (CPU: median "
            f"{statistics.median(cpus):.4f} s, worst {max(cpus):.4f} s); median nodes "
            f"{statistics.median(nodes):,.0f}, worst {max(nodes):,}; "
            f"target median <= {target_med} s, worst <= {target_worst} s: "
            f"{'met' if ok else 'NOT met'}"
        )
    print("\nall targets met" if ok_all else "\nsome targets NOT met")


if __name__ == "__main__":
    main()
