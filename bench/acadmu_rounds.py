"""Benchmark: complete random Äcädmü rounds per second at full size (27 discs a side), one core.

Each round is poured from a seeded generator and played to its end by uniformly random legal
moves, through the trusted fast path (``apply_trusted``) that search and self-play use.

    python bench/acadmu_rounds.py [--rounds N] [--seed S]
"""

from __future__ import annotations

import argparse
import platform
import random
import time

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
    args = parser.parse_args()
    game = find_game("acadmu")
    # A round ends the game only in a bare position; start each round from the pour of round 1.
    pour_state = game.parse_state("pour d 0-0")
    rng = random.Random(args.seed)
    assert isinstance(pour_state.sample_chance(random.Random(0)), Pour)
    play_round(pour_state, rng)  # warm-up
    start = time.perf_counter()
    moves = sum(play_round(pour_state, rng) for _ in range(args.rounds))
    elapsed = time.perf_counter() - start
    print(f"python {platform.python_version()} on {platform.machine()}")
    print(
        f"{args.rounds} random rounds in {elapsed:.2f} s: "
        f"{args.rounds / elapsed:,.0f} rounds/s, {moves / elapsed:,.0f} moves/s, "
        f"{moves / args.rounds:.1f} moves a round"
    )


if __name__ == "__main__":
    main()
