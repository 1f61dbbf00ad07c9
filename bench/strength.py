"""Strength of the computer levels: matches between levels with 95% intervals.

Akros: each pair of levels plays ``--games`` games with sides alternating (the self-play runner of
``gamehall analyze``, so every game is reproducible from the run seed and its index); it prints
the upper level's win rate overall and on each side with 95% Wilson intervals.

Äcädmü: ``hard`` plays ``perfect`` over ``--rounds`` deals (full pours, Dark to move, sides
alternating). Each deal's exact value is solved first; the table gives the points ``hard`` gives
up a round against that value, and checks that ``perfect`` never ends a round below the value of
the first position it solved exactly.

MCTS compiled against MCTS in Python at equal simulations (``--compare-mcts N``): the compiled
search (the default where a game has a compiled simulator) and the Python search
(``compiled=False``) play each other with N simulations a move, sides alternating: Akros games
(the compiled side's win rate, 95% Wilson interval) and Äcädmü full-size bare rounds (the
compiled side's mean points a round, 95% interval). No loss of strength: 50% and 0 lie inside.

    python bench/strength.py akros --games 200 --workers 2
    python bench/strength.py acadmu --rounds 40 --workers 2
    python bench/strength.py akros --compare-mcts 500 --games 200 --workers 2
    python bench/strength.py acadmu --compare-mcts 800 --rounds 200 --workers 2
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from gamehall.analysis.selfplay import RunSpec, selfplay
from gamehall.analysis.stats import mean_interval, proportion
from gamehall.core import find_game

AKROS_PAIRS = (("easy", "beginner"), ("medium", "easy"), ("hard", "easy"), ("hard", "medium"))


def akros(games: int, workers: int, seed: int, pairs: tuple[tuple[str, str], ...]) -> None:
    game = find_game("akros")
    print(f"Akros, {games} games a pair, sides alternating, seed {seed}")
    print(f"{'upper':>7} vs {'lower':<8} {'overall':>24} {'as Jinn':>24} {'as Ifrit':>24}  time")
    for upper, lower in pairs:
        start = time.perf_counter()
        rows = selfplay(RunSpec.make(game, (upper, lower), seed), games, workers=workers)
        elapsed = time.perf_counter() - start
        wins = [row["winner_side"] == "A" for row in rows]
        as_jinn = [w for w, row in zip(wins, rows, strict=True) if row["a_seat"] == 0]
        as_ifrit = [w for w, row in zip(wins, rows, strict=True) if row["a_seat"] == 1]
        cells = [proportion(sum(ws), len(ws)) for ws in (wins, as_jinn, as_ifrit)]
        print(
            f"{upper:>7} vs {lower:<8} "
            + " ".join(f"{c!s:>24}" for c in cells)
            + f"  {elapsed:.0f} s"
        )


def acadmu_round(index: int, seed: int, solve_limit: float | None) -> dict[str, Any]:
    """One deal: solve it, then play hard against perfect (hard is Dark in even deals)."""
    from gamehall.ai import make_agent
    from gamehall.games.acadmu.solver import solve

    game = find_game("acadmu")
    rng = random.Random(seed * 1_000_003 + index)
    pour = game.parse_state("pour d 0-0")
    deal = game.round_state(*_sides(pour.sample_chance(rng)))
    value = solve(deal, time_limit=solve_limit, all_best=False).value  # Dark: perfect play
    hard_side = index % 2
    agents = [make_agent("perfect", seed + index), make_agent("hard", seed + index)]
    if hard_side == 0:
        agents.reverse()
    state = deal
    perfect_first_exact: int | None = None
    perfect = agents[1 - hard_side]
    while not state.is_terminal():
        mover = state.current_player
        action = agents[mover].choose(state)
        if agents[mover] is perfect and perfect_first_exact is None:
            solution = getattr(perfect.inner(state), "last_solution", None)
            if solution is not None and solution.exact:  # value for the mover from here on
                perfect_first_exact = solution.value_for(mover)
        for agent in agents:
            agent.observe(state, action)
        state = state.apply(action)
    result = state.round_difference()  # Dark's count minus Light's
    hard_loss = (value - result) if hard_side == 0 else (result - value)
    perfect_final = -result if hard_side == 0 else result
    return {
        "index": index,
        "value": value,
        "result": result,
        "hard_side": hard_side,
        "hard_loss": hard_loss,
        "perfect_first_exact": perfect_first_exact,
        "perfect_final": perfect_final,
    }


def _sides(pour: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return pour.dark, pour.light


def acadmu(rounds: int, workers: int, seed: int, solve_limit: float | None) -> None:
    print(f"Äcädmü, hard against perfect over {rounds} full-size deals, seed {seed}")
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        rows = list(pool.map(acadmu_round, range(rounds), [seed] * rounds, [solve_limit] * rounds))
    elapsed = time.perf_counter() - start
    losses = [row["hard_loss"] for row in rows]
    print(f"points hard gives up a round against the solved value: {mean_interval(losses)}")
    print(f"  distribution (points: rounds): {dict(sorted(_tally(losses).items()))}")
    below = [
        row
        for row in rows
        if row["perfect_first_exact"] is not None
        and row["perfect_final"] < row["perfect_first_exact"]
    ]
    solved = sum(row["perfect_first_exact"] is not None for row in rows)
    print(
        f"perfect ended below the value of its first exact solve in {len(below)} of "
        f"{solved} rounds where it solved exactly"
    )
    print(f"({elapsed:.0f} s)")


def compare_one(game_name: str, index: int, seed: int, simulations: int) -> float:
    """One game (Akros) or full-size bare round (Äcädmü): compiled MCTS against Python MCTS,
    the compiled side first in even games; the compiled side's return."""
    from gamehall.ai.mcts import MCTSAgent
    from gamehall.core import play_game

    game = find_game(game_name)
    rng = random.Random(seed * 1_000_003 + index)
    start = None
    if game_name == "acadmu":
        start = game.round_state(*_sides(game.parse_state("pour d 0-0").sample_chance(rng)))
    compiled = MCTSAgent(simulations=simulations, seed=seed + index)
    python = MCTSAgent(simulations=simulations, seed=seed + index, compiled=False)
    side = index % 2
    agents = [compiled, python] if side == 0 else [python, compiled]
    played = play_game(game, agents, seed=seed + index, start=start)
    return played.final.returns()[side]


def compare_mcts(game_name: str, count: int, simulations: int, workers: int, seed: int) -> None:
    unit = "games" if game_name == "akros" else "full-size bare rounds"
    print(
        f"{game_name}: compiled MCTS against Python MCTS, {simulations} simulations a move, "
        f"{count} {unit}, sides alternating, seed {seed}"
    )
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(
            pool.map(
                compare_one,
                [game_name] * count,
                range(count),
                [seed] * count,
                [simulations] * count,
            )
        )
    elapsed = time.perf_counter() - start
    if game_name == "akros":
        wins = sum(r > 0 for r in results)
        first = [r > 0 for i, r in enumerate(results) if i % 2 == 0]
        second = [r > 0 for i, r in enumerate(results) if i % 2 == 1]
        print(f"compiled side wins {proportion(wins, count)}")
        print(
            f"  as the Jinn {proportion(sum(first), len(first))}, "
            f"as the Ifrit {proportion(sum(second), len(second))}"
        )
    else:
        print(f"compiled side's points a round: {mean_interval(results)}")
    print(f"({elapsed:.0f} s)")


def _tally(values: list[int]) -> dict[int, int]:
    tally: dict[int, int] = {}
    for value in values:
        tally[value] = tally.get(value, 0) + 1
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description="Strength of the computer levels.")
    parser.add_argument("game", choices=("akros", "acadmu"))
    parser.add_argument("--games", type=int, default=200, help="Akros games a pair")
    parser.add_argument("--rounds", type=int, default=40, help="Äcädmü deals")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", default="", help="Akros pairs, e.g. hard:easy,medium:easy")
    parser.add_argument(
        "--solve-limit",
        type=float,
        default=None,
        help="Äcädmü: seconds allowed to solve each deal (default: no limit)",
    )
    parser.add_argument(
        "--compare-mcts",
        type=int,
        default=0,
        metavar="N",
        help="compiled against Python MCTS at N simulations a move",
    )
    args = parser.parse_args()
    if args.compare_mcts:
        count = args.games if args.game == "akros" else args.rounds
        compare_mcts(args.game, count, args.compare_mcts, args.workers, args.seed)
    elif args.game == "akros":
        pairs = AKROS_PAIRS
        if args.pairs:
            pairs = tuple(tuple(p.split(":")) for p in args.pairs.split(","))  # type: ignore[misc]
        akros(args.games, args.workers, args.seed, pairs)
    else:
        acadmu(args.rounds, args.workers, args.seed, args.solve_limit)


if __name__ == "__main__":
    main()
