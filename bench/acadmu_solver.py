"""Benchmark: the Äcädmü exact solver on a fixed set of full-size pours (27 tokens a side).

Each pour is drawn from the engine's pour sampling with a fixed seed (seed i for pour i), Dark to
move; the solver finds its exact value and every optimal move. Times are wall-clock and CPU per
pour, from a cold transposition table; the target on the 2-core reference machine (issue 11) is a
median of at most 1 s and every pour at most 5 s for the value and one optimal move. The CPU time
counts both threads where the root probes race on two (from 30 tokens on the board); on a shared
machine the node counts and CPU time say more than the wall time.

    python bench/acadmu_solver.py [--pours N] [--first-seed S] [--value-only]
    python bench/acadmu_solver.py --tsv [--max-tokens N]   # the independent solver's positions
    python bench/acadmu_solver.py --workers 2               # pours solved side by side

Each pour is timed twice: the value with one optimal move (what the reference solver and the
target measure), then every optimal move (``+all s``: the extra time, the table warm; skip it with
``--value-only``). ``--workers N`` solves N pours at once in processes (throughput only: each
pour's time is then shared with the others). ``--tsv`` solves every row of
tests/acadmu/data/acadmu-solved-positions.tsv (a copy of shared/data/) for the value and compares values, nodes and seconds with
the reference solver (alpha-beta + MTD(f) + potential bounds in C, one core).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from gamehall.core import find_game
from gamehall.games.acadmu.solver import clear_table, solve

TSV = (
    Path(__file__).resolve().parents[1]
    / "tests"
    / "acadmu"
    / "data"
    / "acadmu-solved-positions.tsv"
)


def pour(seed: int) -> str:
    """Pour ``seed``: the engine's pour of a round Dark starts, from random.Random(seed)."""
    start = find_game("acadmu").parse_state("pour d 0-0")
    state = start.apply(start.sample_chance(random.Random(seed)))
    return state.position()


def run_one(position: str, all_best: bool) -> tuple[str, int | None, int, int, float, float, float]:
    """Solve from a cold table: first the value (and one optimal move), then, unless
    ``all_best`` is off, every optimal move (the table now warm). Wall-clock seconds of both."""
    clear_table()
    wall, cpu = time.perf_counter(), time.process_time()
    result = solve(position, all_best=False)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    best, more = len(result.best), 0.0
    if all_best:
        more = time.perf_counter()
        full = solve(position, all_best=True)
        more = time.perf_counter() - more
        assert full.value == result.value
        best = len(full.best)
    return position, result.value, best, result.nodes, wall, cpu, more


def warm_up() -> None:
    """Load (or compile) the kernels before timing anything."""
    start = time.perf_counter()
    solve("2,1,3,3,0,2,2,3,0/1,2,1,1,2,3,2,3,1 d -")
    print(f"kernels ready in {time.perf_counter() - start:.2f} s (compile or cache load)")


def summary(label: str, walls: list[float]) -> None:
    print(
        f"{label}: {len(walls)} positions, median {statistics.median(walls):.2f} s, "
        f"worst {max(walls):.2f} s, total {sum(walls):.1f} s"
    )


def bench_pours(args: argparse.Namespace) -> None:
    positions = [pour(args.first_seed + i) for i in range(args.pours)]
    print(
        f"{'seed':>4}  {'value':>5}  {'best':>4}  {'nodes':>12}  {'value s':>8}  {'cpu s':>7}  "
        f"{'+all s':>7}  position"
    )
    jobs = [(p, not args.value_only) for p in positions]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers, initializer=warm_up) as pool:
            results = list(pool.map(run_one, *zip(*jobs, strict=True)))
    else:
        results = (run_one(*job) for job in jobs)
    walls, alls, cpus, counts = [], [], [], []
    for i, (position, value, best, nodes, wall, cpu, more) in enumerate(results):
        walls.append(wall)
        cpus.append(cpu)
        counts.append(nodes)
        alls.append(wall + more)
        print(
            f"{args.first_seed + i:>4}  {value:>+5d}  {best:>4}  {nodes:>12,}  {wall:>8.2f}  "
            f"{cpu:>7.2f}  {more:>7.2f}  {position}",
            flush=True,
        )
    summary("value (and one optimal move)", walls)
    summary("  CPU seconds, both threads", cpus)
    print(
        f"  nodes: median {statistics.median(counts):,.0f}, worst {max(counts):,}, "
        f"total {sum(counts):,}"
    )
    if not args.value_only:
        summary("value and every optimal move", alls)
    target = statistics.median(walls) <= 1 and max(walls) <= 5
    print(f"target for the value (median <= 1 s, worst <= 5 s): {'met' if target else 'NOT met'}")


def bench_tsv(args: argparse.Namespace) -> None:
    rows = []
    for line in TSV.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("tokens"):
            continue
        tokens, position, value, nodes, seconds = line.split("\t")
        if int(tokens) <= args.max_tokens:
            rows.append((int(tokens), position, int(value), int(nodes), float(seconds)))
    print(
        f"{'tok':>3}  {'value':>5}  {'ref':>4}  {'nodes':>12}  {'ref nodes':>12}  "
        f"{'wall s':>8}  {'ref s':>8}  speed-up"
    )
    wrong = 0
    by_size: dict[int, list[tuple[float, float, int, int]]] = {}
    for tokens, position, value, ref_nodes, ref_seconds in rows:
        _, got, _, nodes, wall, _, _ = run_one(position, False)
        wrong += got != value
        by_size.setdefault(tokens, []).append((wall, ref_seconds, nodes, ref_nodes))
        print(
            f"{tokens:>3}  {got:>+5d}  {value:>+4d}  {nodes:>12,}  {ref_nodes:>12,}  "
            f"{wall:>8.3f}  {ref_seconds:>8.3f}  {ref_seconds / wall:>6.1f}x"
            + ("" if got == value else "  WRONG"),
            flush=True,
        )
    print(f"\n{len(rows) - wrong}/{len(rows)} values equal to the reference")
    print(
        f"{'tok':>3}  {'median s':>9}  {'ref median':>10}  {'worst s':>8}  {'ref worst':>9}  nodes/ref"
    )
    for tokens, items in sorted(by_size.items()):
        walls = [w for w, _, _, _ in items]
        refs = [r for _, r, _, _ in items]
        ratio = sum(n for _, _, n, _ in items) / sum(r for _, _, _, r in items)
        print(
            f"{tokens:>3}  {statistics.median(walls):>9.3f}  {statistics.median(refs):>10.3f}  "
            f"{max(walls):>8.3f}  {max(refs):>9.3f}  {ratio:>9.3f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pours", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--tsv", action="store_true", help="solve the independent solver's rows")
    parser.add_argument("--max-tokens", type=int, default=27, help="with --tsv: largest rows")
    parser.add_argument("--workers", type=int, default=1, help="pours solved at once (processes)")
    parser.add_argument("--value-only", action="store_true", help="skip listing every best move")
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    warm_up()
    if args.tsv:
        bench_tsv(args)
    else:
        bench_pours(args)


if __name__ == "__main__":
    main()
