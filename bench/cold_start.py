"""Benchmark: the first `hard` move, `solve` and `hint` from a fresh clone, against later ones.

A fresh clone has no compiled solver kernels (numba caches them next to the sources). This script
clones the repository's committed HEAD twice into a temporary directory and, running a clone's
sources with this venv's Python (``PYTHONPATH``):

1. **cold**: in the first clone, in a fresh process with nothing compiled, times the first `hard`
   move (what a new user met before set-up compiled the kernels);
2. **warm-up**: runs ``gamehall warm-up`` in the second clone, as ``make run`` and ``make test`` do;
3. **first vs later**: for each of a `hard` move (Äcädmü, the first move of a full-size round),
   `solve` (Akros, the start of turn 5) and `hint` (Äcädmü, a full-size round), times the call in
   a fresh process (the first of its kind: the compiled code is loaded from the disk cache), and
   in another fresh process after the same kind of call on another position (a later one).

The target: the first takes no more than 1 s longer than a later one. Times are wall-clock (and
the process's CPU time beside them, less disturbed by other load on a shared machine), each the
median of ``--repeat`` runs; the load average is printed with them.

    .venv/bin/python bench/cold_start.py [--repeat 3] [--keep]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = 1.0

# Each task: (what, game, the timed position's seed, another position's seed for "later").
TASKS = {
    "hard": ("acadmu", 0, 1),
    "solve": ("akros", 5000, 5001),
    "hint": ("acadmu", 2, 3),
}


def position(game_name: str, seed: int) -> str:
    """A full-size Äcädmü round (pour ``seed``), or the start of Akros turn 5 from random play."""
    from gamehall.core import find_game

    game = find_game(game_name)
    rng = random.Random(seed)
    if game_name == "acadmu":
        start = game.parse_state("pour d 0-0")
        return str(start.apply(start.sample_chance(rng)))
    state = game.new_initial_state()
    while not (state.turn == 5 and state.current_player >= 0):
        state = state.apply_trusted(
            state.sample_chance(rng)
            if state.is_chance_node()
            else rng.choice(state.legal_actions())
        )
    return str(state)


def run_task(task: str, text: str) -> tuple[float, float]:
    """Do one task on a position; its wall-clock and CPU seconds."""
    from gamehall.ai.hints import advise
    from gamehall.ai.levels import LevelAgent
    from gamehall.cli.solve import solve_text
    from gamehall.core import find_game

    game = find_game(TASKS[task][0])
    state = game.parse_state(text)
    start, cpu = time.perf_counter(), time.process_time()
    if task == "hard":
        LevelAgent("hard", seed=1).choose(state)
    elif task == "solve":
        solve_text(game, text, seconds=30.0, as_json=False, seed=0)
    else:
        advise(state)
    return time.perf_counter() - start, time.process_time() - cpu


def child(task: str, prime: bool) -> None:
    """In a fresh process: (optionally a task on the other position first, then) the timed one."""
    game, timed, other = TASKS[task]
    if prime:
        run_task(task, position(game, other))
    seconds, cpu = run_task(task, position(game, timed))
    print(json.dumps({"task": task, "prime": prime, "seconds": seconds, "cpu": cpu}))


def in_clone(clone: Path, *args: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(clone / "src"))
    done = subprocess.run(
        [sys.executable, *args], env=env, cwd=clone, capture_output=True, text=True, check=True
    )
    return done.stdout


def measure(clone: Path, task: str, prime: bool) -> dict[str, float]:
    out = in_clone(
        clone,
        str(clone / "bench" / "cold_start.py"),
        "--child",
        task,
        *(["--prime"] if prime else []),
    )
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the clone (print its path)")
    parser.add_argument("--child", choices=sorted(TASKS), help=argparse.SUPPRESS)
    parser.add_argument("--prime", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.prime)
        return
    base = Path(tempfile.mkdtemp(prefix="gamehall-cold-"))
    untouched, clone = base / "untouched", base / "gamehall"
    for path in (untouched, clone):
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(path)], check=True)
    print(f"fresh clones of {ROOT} in {base}")
    cold = measure(untouched, "hard", prime=False)["seconds"]
    print(f"cold cache, first hard move: {cold:.2f} s (compiling the kernels on the way)")
    started = time.perf_counter()
    in_clone(clone, "-c", "from gamehall.cli.app import main; main(['warm-up'])")
    print(f"gamehall warm-up (make run / make test): {time.perf_counter() - started:.1f} s")
    ok = True
    print(
        f"\n{'task':<6} {'first':>8} {'later':>8} {'longer by':>10}   CPU: first, later, longer by"
        f"  (medians of {args.repeat})"
    )
    for task in TASKS:
        firsts = [measure(clone, task, False) for _ in range(args.repeat)]
        laters = [measure(clone, task, True) for _ in range(args.repeat)]
        first = statistics.median(m["seconds"] for m in firsts)
        later = statistics.median(m["seconds"] for m in laters)
        first_cpu = statistics.median(m["cpu"] for m in firsts)
        later_cpu = statistics.median(m["cpu"] for m in laters)
        ok &= first - later <= TARGET
        print(
            f"{task:<6} {first:>7.2f}s {later:>7.2f}s {first - later:>+9.2f}s   "
            f"{first_cpu:.2f}s, {later_cpu:.2f}s, {first_cpu - later_cpu:+.2f}s"
        )
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(
        f"\ntarget: the first no more than {TARGET:g} s longer than later ones: {'met' if ok else 'NOT met'}"
    )
    if args.keep:
        print(f"clones kept in {base}")
    else:
        shutil.rmtree(base)


if __name__ == "__main__":
    main()
