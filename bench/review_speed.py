"""Benchmark: how long `gamehall review` takes on a full-size Äcädmü round and an Akros game.

* Äcädmü: ``--rounds`` full-size rounds (27 discs a side, the deal of seed i), played by
  ``medium`` against ``easy`` from the pour, each reviewed with the default budgets (the solver
  10 s a position); the target is every position exact and the round reviewed in at most 30 s.
* Akros: ``--games`` games (``medium`` against ``easy``, sides alternating, seed i), each reviewed
  with the default budgets; the target is every position from turn 4 on exact and the game
  reviewed in at most 30 s.

Each review's CPU time is printed beside its wall time (the machine is shared). Each review
starts in this process with the solvers' tables as the previous review left them
(as in a long-running server); the kernels are compiled or loaded before any timing. Prints each
review's time, its exact share and (Akros) the first turn from which every position is exact.

    .venv/bin/python bench/review_speed.py [--rounds 5] [--games 5] [--seconds 10]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from gamehall.ai import make_agent
from gamehall.ai.review import DEFAULT_SECONDS, Review, review
from gamehall.core import Record, find_game, find_plugin, make_record, play_game

TARGET = 30.0


def acadmu_round(seed: int) -> Record:
    game = find_game("acadmu")
    start = find_plugin("acadmu").load_deal()(game, random.Random(seed), None)
    agents = [make_agent("medium", seed), make_agent("easy", seed + 1)]
    played = play_game(game, agents, seed=seed, start=start)
    return make_record(game, played.actions, setup=start, final=played.final)


def akros_game(seed: int) -> Record:
    game = find_game("akros")
    names = ["medium", "easy"] if seed % 2 == 0 else ["easy", "medium"]
    agents = [make_agent(n, seed + i) for i, n in enumerate(names)]
    played = play_game(game, agents, seed=seed)
    return make_record(game, played.actions, players=names, final=played.final)


def exact_from_turn(result: Review) -> int:
    """The first turn from which every reviewed position is exact (Akros; 10: none is)."""
    states = result.record.replay()
    estimated = [states[m.number - 1].view()["turn"] for m in result.moves if not m.exact]
    return max(estimated, default=0) + 1


def timed_review(record: Record, seconds: float) -> tuple[Review, float]:
    """The review and the CPU seconds it took (less disturbed than wall time on a busy machine)."""
    cpu = time.process_time()
    result = review(record, seconds=seconds)
    return result, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS)
    parser.add_argument("--only", choices=("acadmu", "akros"), help="one game only")
    args = parser.parse_args()
    for name in ("acadmu", "akros"):
        find_plugin(name).load_solver().warm_up()
    ok = True
    times = []
    print(f"== Äcädmü: full-size rounds, the solver {args.seconds:g} s a position ==")
    for seed in range(0 if args.only == "akros" else args.rounds):
        result, cpu = timed_review(acadmu_round(seed), args.seconds)
        exact = sum(m.exact for m in result.moves)
        times.append(result.seconds)
        ok &= exact == len(result.moves) and result.seconds <= TARGET
        print(
            f"  round {seed}: {len(result.moves)} moves, {exact} exact, {result.seconds:.1f} s "
            f"(CPU {cpu:.1f} s)"
        )
    if times:
        print(f"  median {statistics.median(times):.1f} s, worst {max(times):.1f} s")
    times = []
    print(f"== Akros: games, the solver {args.seconds:g} s a position ==")
    for seed in range(0 if args.only == "acadmu" else args.games):
        result, cpu = timed_review(akros_game(seed), args.seconds)
        exact = sum(m.exact for m in result.moves)
        turn = exact_from_turn(result)
        times.append(result.seconds)
        ok &= turn <= 4 and result.seconds <= TARGET
        print(
            f"  game {seed}: {len(result.moves)} moves, {exact} exact (every one from turn "
            f"{turn}), {result.seconds:.1f} s (CPU {cpu:.1f} s)"
        )
    if times:
        print(f"  median {statistics.median(times):.1f} s, worst {max(times):.1f} s")
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"target (exact as above, each review <= {TARGET:g} s): {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
