"""Benchmark: complete random Äcädmü rounds per second at full size (27 discs a side), one core,
by the engine and by the compiled simulator (``gamehall.fast``), side by side.

Each round is poured from a seeded generator and played to its end by uniformly random legal
moves: by the engine through the trusted fast path (``apply_trusted``) that search and self-play
use, and by the compiled simulator from the same position (the pour of round 1) to the round's
end (its first resting point). CPU time is printed beside wall-clock time (the machine is shared).

    python bench/acadmu_rounds.py [--rounds N] [--fast-rounds N] [--seed S]
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from gamehall import fast
from gamehall.core import find_game
from gamehall.games.acadmu import AcadmuState, Pour


def play_round(game_start: AcadmuState, rng: random.Random) -> int:
    """Pour and play one random round; return the number of moves."""
    state = game_start.apply_trusted(game_start.sample_chance(rng))
    moves = 0
    while not state.is_terminal() and not state.is_chance_node():
        state = state.apply_trusted(rng.choice(state.legal_actions()))
        moves += 1
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fast-rounds", type=int, default=500_000)
    args = parser.parse_args()
    game = find_game("acadmu")
    # A round ends the game only in a bare position; start each round from the pour of round 1.
    pour_state = game.parse_state("pour d 0-0")
    rng = random.Random(args.seed)
    assert isinstance(pour_state.sample_chance(random.Random(0)), Pour)
    play_round(pour_state, rng)  # warm-up
    start, cpu = time.perf_counter(), time.process_time()
    moves = sum(play_round(pour_state, rng) for _ in range(args.rounds))
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"python {platform.python_version()} on {platform.machine()}")
    report("engine", args.rounds, moves, elapsed, cpu)

    fast.simulate(game, 10, args.seed, start=pour_state, horizon=True)  # compile or load
    start, cpu = time.perf_counter(), time.process_time()
    sim = fast.simulate(game, args.fast_rounds, args.seed, start=pour_state, horizon=True)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    moves = int(sim.decisions.sum())
    report("compiled", sim.games, moves, elapsed, cpu)
    print(
        f"  points a round: Dark (first) {sim.scores[:, 0].mean():.3f}, Light {sim.scores[:, 1].mean():.3f}"
    )


def report(path: str, rounds: int, moves: int, elapsed: float, cpu: float) -> None:
    print(
        f"{path}: {rounds} random rounds in {elapsed:.2f} s ({cpu:.2f} s CPU): "
        f"{rounds / elapsed:,.0f} rounds/s ({rounds / cpu:,.0f} per CPU second), "
        f"{moves / elapsed:,.0f} moves/s, {moves / rounds:.1f} moves a round"
    )


if __name__ == "__main__":
    main()
