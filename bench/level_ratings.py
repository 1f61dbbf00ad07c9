"""The computer levels' fixed ratings, estimated with the project's tournament tool.

Runs ``gamehall tournament GAME --players LEVELS`` (a round robin, sides alternated; its Elo by
Bradley–Terry with a prior of virtual draws, so a clean sweep stays finite) and puts the Elo on
the hall's Glicko-2 scale, which is the same logistic scale (400 points for odds of 10 to 1):
only the origin is chosen, by anchoring ``beginner`` (random legal moves) at
:data:`ANCHOR`. ``--write`` stores the figures in the game's package as ``level_ratings.json``,
the data its plugin's ``level_ratings`` names; the web server shows them in the level menu and
never computes them itself.

    python bench/level_ratings.py akros --levels beginner,easy,medium --games 20 --workers 2 --write
    python bench/level_ratings.py acadmu --levels beginner,easy,medium --games 20 --workers 2 --write

Levels left out (e.g. ``hard``, minutes a game) get no rating and the menu shows none for them.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

from gamehall.core import find_plugin

ANCHOR = 800.0
"""The rating given to ``beginner`` (random legal moves): where the scale starts."""


def tournament(game: str, levels: list[str], games: int, workers: int, seed: int) -> dict:
    """Run the tournament tool; its ranking.json."""
    tool = shutil.which("gamehall", path=str(Path(sys.executable).parent)) or "gamehall"
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "run"
        command = [
            tool, "tournament", game, "--players", ",".join(levels), "--games", str(games),
            "--workers", str(workers), "--seed", str(seed), "--out", str(out),
        ]  # fmt: skip
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        return json.loads((out / "ranking.json").read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--levels", default="beginner,easy,medium")
    parser.add_argument("--games", type=int, default=20, help="games per pair of levels")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--write", action="store_true", help="store them in the game's package")
    args = parser.parse_args(argv)
    levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    if "beginner" not in levels:
        parser.error("the levels must include beginner, the anchor of the scale")
    plugin = find_plugin(args.game)
    started = time.perf_counter()
    ranking = tournament(plugin.name, levels, args.games, args.workers, args.seed)
    seconds = time.perf_counter() - started
    elo, se = ranking["elo"], ranking["elo_se"]
    ratings = {level: round(ANCHOR + elo[level] - elo["beginner"]) for level in levels}
    print(f"{plugin.name}: {args.games} games a pair, seed {args.seed}, {seconds:.0f} s wall")
    print(f"{'level':<10} {'rating':>7} {'± 95%':>7}")
    for level in levels:
        print(f"{level:<10} {ratings[level]:>7} {1.96 * se[level]:>7.0f}")
    if args.write:
        data = {
            "ratings": ratings,
            "anchor": {"beginner": ANCHOR},
            "interval_95": {level: round(1.96 * se[level]) for level in levels},
            "games_per_pair": args.games,
            "seed": args.seed,
            "command": "python bench/level_ratings.py " + " ".join(argv or sys.argv[1:]),
        }
        path = Path(str(resources.files(plugin.package).joinpath("level_ratings.json")))
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
