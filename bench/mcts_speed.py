"""Benchmark: MCTS simulations per second on one core, per game, from a fixed mid-game state.

* Äcädmü: a full-size match (27 discs a side), eight random moves into round 1; the search
  stops at the round's end (``horizon_returns``), as in play.
* Äcädmü bare round: the same position as a one-round game (no match around it).
* Akros (if its engine is available): a random game's first decision of turn 3 with a choice.

Each search starts from a fresh tree and runs for ``--seconds``. Where a game has a compiled
simulator MCTS runs compiled; ``--python`` measures the Python search instead. The CPU time is
printed beside the wall-clock time (the machine is shared).

    python bench/mcts_speed.py [--seconds S] [--seed N] [--python]
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from gamehall.ai.mcts import MCTSAgent
from gamehall.core import GamehallError, State, find_game


def random_walk(state: State, rng: random.Random, moves: int) -> State:
    """Play ``moves`` random actions (chance drawn from ``rng``) and stop at a decision."""
    while moves > 0 or state.is_chance_node():
        if state.is_terminal():
            raise GamehallError("the game ended before the benchmark position")
        if state.is_chance_node():
            state = state.apply_trusted(state.sample_chance(rng))
        else:
            state = state.apply_trusted(rng.choice(state.legal_actions()))
            moves -= 1
    return state


def positions(seed: int) -> list[tuple[str, State]]:
    acadmu = find_game("acadmu")
    match_state = random_walk(acadmu.deal(seed), random.Random(seed), 8)
    bare = acadmu.round_state(match_state.dark, match_state.light, match_state.to_move)
    found = [("acadmu match, mid-round", match_state), ("acadmu bare round", bare)]
    try:
        akros = find_game("akros")
    except GamehallError:
        return found
    rng = random.Random(seed)
    state = akros.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 2 or state.turn < 3:
        action = (
            state.sample_chance(rng)
            if state.is_chance_node()
            else rng.choice(state.legal_actions())
        )
        state = state.apply_trusted(action)
    found.append((f"akros turn {state.turn} {state.step_name}", state))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--python", action="store_true", help="the Python search, not compiled")
    args = parser.parse_args()
    compiled = not args.python
    print(f"python {platform.python_version()} on {platform.machine()}, one core")
    for label, state in positions(args.seed):
        agent = MCTSAgent(seconds=args.seconds, seed=args.seed, compiled=compiled)
        agent.analyse(state, simulations=50)  # warm-up
        agent = MCTSAgent(seconds=args.seconds, seed=args.seed, compiled=compiled)
        start, cpu = time.perf_counter(), time.process_time()
        stats = agent.analyse(state)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        best = stats[0]
        print(
            f"{label:34s} {agent.last_simulations / elapsed:8,.0f} sims/s "
            f"({agent.last_simulations / cpu:,.0f} per CPU second; "
            f"{agent.last_simulations:,} in {elapsed:.2f} s, {len(stats)} moves; "
            f"best {best.action} {best.visits:,} visits, {agent.value_text(best.value)})"
        )
        print(f"    {state}")


if __name__ == "__main__":
    main()
