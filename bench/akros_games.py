"""Benchmark: complete Akros games of random legal decisions (chance sampled) on one core, by the
engine (``apply_trusted``), by the compiled simulator (``gamehall.fast``: random play runs its
register kernel ``random_games``) and by the compiled generic loop over ``legal``/``apply``
(what ``gamehall.fast`` ran before the register kernel), side by side.

Prints games per second and the Ifrit's win rate under random play with a 95% Wilson interval
for each path, and the CPU time beside the wall-clock time (the machine is shared). With
``--repeat N`` each compiled path runs N times, interleaved, and the run with the least CPU time
is reported (the fairest figure on a loaded machine); both compiled paths play the very same
games, which the script checks::

    .venv/bin/python bench/akros_games.py --games 20000 --fast-games 2000000 --seed 1
    .venv/bin/python bench/akros_games.py --games 2000 --fast-games 1000000 --seed 1 --repeat 7
    .venv/bin/python bench/akros_games.py --seconds 10 --board path/to/board.toml
"""

from __future__ import annotations

import argparse
import math
import random
import time

import numpy as np

from gamehall import fast
from gamehall.cli.options import build_game
from gamehall.core import Game
from gamehall.kernels.simulator import Simulation


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval for a binomial proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return ((centre - spread) / scale, (centre + spread) / scale)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games to play")
    parser.add_argument("--seconds", type=float, default=None, help="play for this long instead")
    parser.add_argument("--seed", type=int, default=0, help="random seed")
    parser.add_argument("--board", default="dawn", help="board: 'dawn' or a TOML file")
    parser.add_argument(
        "--fast-games", type=int, default=1_000_000, help="games for the compiled simulator"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="compiled runs per path (the least CPU time counts)"
    )
    args = parser.parse_args()

    game = build_game("akros", board=args.board)
    rng = random.Random(args.seed)
    initial = game.new_initial_state()
    games = ifrit_wins = actions = 0
    start = time.perf_counter()
    cpu = time.process_time()
    deadline = start + args.seconds if args.seconds else None
    while (deadline is None and games < args.games) or (
        deadline is not None and time.perf_counter() < deadline
    ):
        state = initial
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply_trusted(state.sample_chance(rng))
            else:
                state = state.apply_trusted(rng.choice(state.legal_actions()))
            actions += 1
        games += 1
        ifrit_wins += state.returns()[1] > 0
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    report("engine", game.board.name, games, ifrit_wins, actions, elapsed, cpu, args.seed)

    fast.simulate(game, 10, args.seed)  # compile (or load the compiled kernels)
    generic(game, 10, args.seed)
    best: dict[str, tuple[float, float, Simulation]] = {}
    for _ in range(max(1, args.repeat)):
        for path, run in (("compiled", fast.simulate), ("compiled, generic loop", generic)):
            start, cpu = time.perf_counter(), time.process_time()
            sim = run(game, args.fast_games, args.seed)
            elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
            if path not in best or cpu < best[path][1]:
                best[path] = (elapsed, cpu, sim)
    one, other = (best[path][2] for path in best)
    for field in ("returns", "scores", "actions", "decisions", "forced", "options"):
        assert np.array_equal(getattr(one, field), getattr(other, field)), field
    for path, (elapsed, cpu, sim) in best.items():
        ifrit = int((sim.winners() == 1).sum())
        actions = int(sim.actions.sum())
        report(path, game.board.name, sim.games, ifrit, actions, elapsed, cpu, args.seed)
    ratio = best["compiled, generic loop"][1] / best["compiled"][1]
    print(f"the same games; the register kernel takes 1/{ratio:.2f} of the generic loop's CPU time")


def generic(game: Game, games: int, seed: int) -> Simulation:
    """Random games by the compiled generic loop (``simulate_generic``), as ``fast.simulate``
    returns them."""
    simulator = fast.simulator_for(game)
    assert simulator is not None
    kinds, weights = simulator.policies(game, "random")
    outputs = [np.zeros((games, 2)), np.zeros((games, 2)), np.zeros(games, dtype=np.int64)]
    outputs += [np.zeros((games, 2), dtype=np.int64) for _ in range(3)]
    simulator.kernels().simulate_generic(
        simulator.encode(game.new_initial_state()), simulator.table(game), seed, 0,
        kinds, weights, False, 1_000_000, *outputs, np.zeros(1, dtype=np.int64),
        *(np.zeros(0, dtype=np.int32) for _ in range(4)),
        np.zeros((0, 0, 2), dtype=np.int64), np.zeros(0, dtype=np.int64),
    )  # fmt: skip
    return Simulation(*outputs)


def report(
    path: str,
    board: str,
    games: int,
    ifrit_wins: int,
    actions: int,
    elapsed: float,
    cpu: float,
    seed: int,
) -> None:
    low, high = wilson(ifrit_wins, games)
    print(f"{path}, board {board}: {games} games in {elapsed:.2f} s ({cpu:.2f} s CPU), seed {seed}")
    print(
        f"  {games / elapsed:,.0f} games/s ({games / cpu:,.0f} per CPU second), "
        f"{actions / elapsed:,.0f} actions/s"
    )
    print(
        f"  Ifrit wins {ifrit_wins / games:.4f} of random games "
        f"(95% Wilson interval {low:.4f}-{high:.4f})"
    )


if __name__ == "__main__":
    main()
