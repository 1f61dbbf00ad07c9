"""Balance under random play: whole Äcädmü matches of random legal moves (chance sampled).

Prints matches per second, how often Dark (the first seat) wins with a 95% Wilson interval, and
how long matches run (rounds and moves, mean with a 95% interval)::

    .venv/bin/python bench/acadmu_matches.py --matches 1000 --seed 1
    .venv/bin/python bench/acadmu_matches.py --matches 200 --variant target=24
"""

from __future__ import annotations

import argparse
import random
import time

from gamehall.analysis.stats import mean_interval, proportion
from gamehall.cli.options import build_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000, help="matches to play")
    parser.add_argument("--seed", type=int, default=1, help="random seed")
    parser.add_argument("--variant", action="append", default=[], help="NAME=VALUE (repeatable)")
    args = parser.parse_args()

    game = build_game("acadmu", args.variant)
    rng = random.Random(args.seed)
    dark_wins = 0
    rounds: list[float] = []
    moves: list[float] = []
    start = time.perf_counter()
    for _ in range(args.matches):
        state = game.new_initial_state()
        pours = decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                action = state.sample_chance(rng)
                pours += str(action).startswith("pour")
            else:
                action = rng.choice(state.legal_actions())
                decisions += 1
            state = state.apply_trusted(action)
        outcome = state.outcome()
        assert outcome is not None and outcome.winner is not None
        dark_wins += outcome.winner == 0
        rounds.append(pours)
        moves.append(decisions)
    elapsed = time.perf_counter() - start
    dark = proportion(dark_wins, args.matches)
    print(
        f"{args.matches} random matches ({game.variant_text() or 'default options'}), seed {args.seed}"
    )
    print(f"{args.matches / elapsed:,.1f} matches/s ({elapsed:.1f} s)")
    print(f"Dark wins {dark.rate:.3f} (95% Wilson interval {dark.low:.3f}-{dark.high:.3f})")
    print(f"rounds a match: {mean_interval(rounds)}")
    print(f"moves a match: {mean_interval(moves)}")


if __name__ == "__main__":
    main()
