"""The computer levels' fixed ratings, estimated by self-play on a schedule of pairings.

A round robin of the levels alone says little: in a game of long matches a level beats the one
below it in nearly every match, and a clean sweep only says "far stronger" (its rating is then
the prior's, not the games'). So the schedule also seats **stepping stones** between levels,
players of graded strength (``greedy:P``: greedy with probability P, else random; ``mcts:N``:
MCTS with N simulations), and pairs each player with its neighbours, where results are mixed
and each game tells something. The schedule is data in the game's package
(``level_ratings.json``'s ``schedule``: ``[A, B, games]`` rows), so this script names no game.

Every pairing is played with sides alternated (the self-play runner's seeds, reproducible from
``--seed``); the ratings are one Bradley–Terry fit (draws count half, one virtual draw a pair
that met so a sweep stays finite) on the Elo scale, which is the hall's Glicko-2 scale (400
points for odds of 10 to 1). Only the origin is chosen: ``beginner`` (random legal moves) is
:data:`ANCHOR`, and each interval is of the rating relative to it (the variance of the
difference, from the fit's Fisher information), which is what "1500 ± 60" means here.
``--write`` stores the levels' figures (stepping stones are not levels: they are printed only)
in the game's package, the data its plugin's ``level_ratings`` names; the web server shows them
in the level menu and never computes them.

    nice -n 19 python bench/level_ratings.py GAME --write             # the package's schedule
    nice -n 19 python bench/level_ratings.py GAME --scale 0.1         # a tenth of the games
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from gamehall.ai import LEVELS
from gamehall.analysis.selfplay import RunSpec, game_seed
from gamehall.analysis.stats import ELO_PER_NATURAL_UNIT
from gamehall.analysis.tournament import PRIOR_DRAWS, run_tournament, standings
from gamehall.core import find_game, find_plugin

ANCHOR = 800.0
"""The rating given to ``beginner`` (random legal moves): where the scale starts."""
Z95 = 1.959964


def schedule_of(path: Path) -> list[tuple[str, str, int]]:
    """The pairings to play: ``(A, B, games)`` rows of the package's ``level_ratings.json``."""
    rows = json.loads(path.read_text(encoding="utf-8")).get("schedule") or []
    return [(str(a), str(b), int(n)) for a, b, n in rows]


def anchored_intervals(table: Any, anchor: int) -> np.ndarray:
    """Half-widths (Elo, 95%) of each rating relative to the anchor's: from the Fisher
    information of the fit (prior draws included, as the fit has them), with the anchor's
    strength held fixed."""
    scores = table.wins + 0.5 * table.draws
    games = scores + scores.T
    games = games + PRIOR_DRAWS * (games > 0)
    p = np.exp(np.asarray(table.ratings.theta))
    weight = games * (p[:, None] * p[None, :]) / (p[:, None] + p[None, :]) ** 2
    information = np.diag(weight.sum(axis=1)) - weight
    keep = [i for i in range(len(p)) if i != anchor]
    variance = np.zeros(len(p))
    variance[keep] = np.diag(np.linalg.inv(information[np.ix_(keep, keep)]))
    return Z95 * np.sqrt(variance) * ELO_PER_NATURAL_UNIT


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--scale", type=float, default=1.0, help="play this share of each count")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--schedule", type=Path, help="a JSON file with another schedule")
    parser.add_argument(
        "--cache",
        type=Path,
        action="append",
        help="a JSON file keeping each pairing's results, to resume from (the first is written; "
        "more are read too: several runs, one for each --pairing, play on several cores)",
    )
    parser.add_argument(
        "--pairing", type=int, help="play only this row of the schedule (into the cache)"
    )
    parser.add_argument("--rows", type=int, help="fit on the schedule's first ROWS rows only")
    parser.add_argument("--write", action="store_true", help="store them in the game's package")
    args = parser.parse_args(argv)
    plugin = find_plugin(args.game)
    game = find_game(plugin.name)
    path = Path(str(resources.files(plugin.package).joinpath("level_ratings.json")))
    planned = schedule_of(args.schedule or path)[: args.rows]
    schedule = [(a, b, max(2, round(n * args.scale))) for a, b, n in planned]
    players = list(dict.fromkeys(name for a, b, _ in schedule for name in (a, b)))
    if "beginner" not in players:
        parser.error(f"{path}'s schedule must seat beginner, the anchor of the scale")
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []
    caches = args.cache or []
    cache: dict[str, Any] = {}
    cached_seconds: list[float] = []
    for kept in reversed(caches):
        if kept.exists():
            cache.update(json.loads(kept.read_text()))
    for p, (a, b, n) in enumerate(schedule):
        if args.pairing is not None and p != args.pairing:
            continue
        label = f"{p} {a}-{b} {n} {args.seed}"  # a pairing's seed is its place in the schedule
        pair_started = time.perf_counter()
        if label in cache:
            played = cache[label]["rows"]
            cached_seconds.append(cache[label]["seconds"])
        else:
            spec = RunSpec.make(game, (a, b), game_seed(args.seed, p), label=f"{a}-{b}")
            played = [
                {key: row[key] for key in ("player_a", "player_b", "winner_side")}
                for row in run_tournament([spec], n, workers=1)
            ]
            if caches:
                cache[label] = {"rows": played, "seconds": time.perf_counter() - pair_started}
                caches[0].write_text(json.dumps(cache))
        rows += played
        wins = sum(1 for row in played if row["winner_side"] == "A")
        draws = sum(1 for row in played if row["winner_side"] is None)
        took = time.perf_counter() - pair_started
        print(f"{a} - {b}: {wins}-{n - wins - draws} ({draws} drawn) in {took:.0f} s", flush=True)
    seconds = time.perf_counter() - started
    if args.pairing is not None:
        return 0
    table = standings(players, rows)
    anchor = players.index("beginner")
    elo = table.ratings.elo
    half = anchored_intervals(table, anchor)
    ratings = {name: round(ANCHOR + elo[i] - elo[anchor]) for i, name in enumerate(players)}
    played_by = {name: table.played(i) for i, name in enumerate(players)}
    print(f"{plugin.name}: {len(rows)} games, seed {args.seed}, {seconds:.0f} s wall")
    print(f"{'player':<12} {'rating':>7} {'± 95%':>7} {'games':>6}")
    for i, name in enumerate(players):
        mark = "" if name in LEVELS else "  (stepping stone)"
        print(f"{name:<12} {ratings[name]:>7} {half[i]:>7.0f} {played_by[name]:>6}{mark}")
    if args.write:
        data = json.loads(path.read_text(encoding="utf-8"))
        levels = [name for name in players if name in LEVELS]
        data.update(
            ratings={name: ratings[name] for name in levels},
            anchor={"beginner": ANCHOR},
            interval_95={name: round(float(half[players.index(name)])) for name in levels},
            games={name: played_by[name] for name in levels},
            seed=args.seed,
            command="python bench/level_ratings.py " + " ".join(argv or sys.argv[1:]),
            seconds=math.ceil(seconds + sum(cached_seconds)),
        )
        data.pop("games_per_pair", None)
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
