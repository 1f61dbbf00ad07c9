"""Check: the compiled simulator's greedy player is the engine's (level ``easy``), by its results.

Plays greedy against random as the Jinn on the default Akros board, ``--engine`` games through the
engine (``GreedyAgent`` against ``RandomAgent``) and ``--fast`` games through the compiled
simulator, and prints both win rates with 95% Wilson intervals: the same player gives the same
rate within the intervals.

    python bench/greedy_law.py --engine 3000 --fast 20000
"""

from __future__ import annotations

import argparse

from gamehall import fast
from gamehall.ai.basic import GreedyAgent, RandomAgent
from gamehall.analysis.stats import proportion
from gamehall.core import find_game, play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", type=int, default=3000)
    parser.add_argument("--fast", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    game = find_game("akros")
    sim = fast.simulate(game, args.fast, args.seed, policy=("greedy", "random"))
    print(f"compiled: greedy wins {proportion(int((sim.winners() == 0).sum()), args.fast)}")
    wins = 0
    for i in range(args.engine):
        agents = [GreedyAgent(10**6 + i), RandomAgent(2 * 10**6 + i)]
        wins += play_game(game, agents, seed=3 * 10**6 + i).final.returns()[0] > 0
    print(f"engine:   greedy wins {proportion(wins, args.engine)}")


if __name__ == "__main__":
    main()
