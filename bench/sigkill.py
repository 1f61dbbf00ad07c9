"""SIGKILL the server mid-play, again and again (not a test): no acknowledged move may be lost,
and no process of the server's may outlive it.

One SQLite store lives through ``--kills`` servers. In each life, ``--games`` online games (two
browsers each, random legal moves as fast as the server answers) and ``--computer`` games against
a computer level (so the worker processes are busy) play until 1 to 15 new actions have been
seen, and a random 0–0.3 s more; then the server is SIGKILLed, mid-move. Every state a client received counts as acknowledged (the server stores
an action before it tells anyone), so each life's start checks that every action any client saw
is still there, in its place, through ``GET /api/games/ID``. Each kill also checks that every
descendant of the server (computer workers, any resource tracker) is gone within 5 s of it.
Finished games are replaced by new ones; the per-client limits are lifted, they are not what is
measured here::

    .venv/bin/python bench/sigkill.py --kills 100
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

from server_kit import Browser, Seen, Server, online_pair, play_seats

LIFTED = {"games_per_minute": 100_000, "computer_games": 1000, "messages_per_second": 1000}


class Books:
    """Every action a client was told of, by game and version; and what the kills found."""

    def __init__(self) -> None:
        self.seen: dict[str, dict[int, str]] = {}
        self.acknowledged = 0
        self.lost: set[tuple[str, int]] = set()
        self.left_over: list[str] = []
        self.workers_at_kill: list[int] = []

    def recorder(self, game_id: str) -> Any:
        book = self.seen.setdefault(game_id, {})

        def record(seen: Seen) -> None:
            for number in range(len(book), len(seen.actions)):
                book[number] = seen.actions[number]

        return record

    def check(self, browser: Browser) -> None:
        """After a restart: every action seen is stored where it was seen."""
        for game_id, book in self.seen.items():
            actions = browser.state(game_id)["actions"]
            for number, text in book.items():
                if number >= len(actions) or actions[number] != text:
                    self.lost.add((game_id, number))
        self.acknowledged = sum(map(len, self.seen.values()))


async def life(
    server: Server,
    books: Books,
    games: list[tuple[str, Browser, Browser | None]],
    seconds: float,
    rng: random.Random,
) -> None:
    """Play every game until the server is killed (``seconds`` after a few new actions)."""
    tasks = []
    for game_id, first, second in games:
        for browser in (first, second):
            if browser is None:
                continue
            url = f"{server.ws_base}/ws/games/{game_id}"
            coroutine = play_seats(
                url, browser.ws_headers(), random.Random(rng.random()), books.recorder(game_id)
            )
            tasks.append(asyncio.create_task(coroutine))
    # Mid-play: once a few new actions have been seen, at a random moment.
    before = sum(map(len, books.seen.values()))
    wanted = before + rng.randint(1, 15)
    deadline = time.monotonic() + 60
    while sum(map(len, books.seen.values())) < wanted and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    await asyncio.sleep(seconds)
    books.workers_at_kill.append(len(server.descendants()))
    left = server.descendants()
    server.kill()
    _, alive = psutil.wait_procs(left, timeout=5)
    for process in alive:
        with contextlib.suppress(psutil.Error):
            books.left_over.append(" ".join(process.cmdline())[:80])
            process.kill()
    await asyncio.wait(tasks, timeout=10)
    for task in tasks:
        task.cancel()


def new_games(
    server: Server, args: argparse.Namespace, count: int
) -> list[tuple[str, Browser, Browser | None]]:
    made: list[tuple[str, Browser, Browser | None]] = []
    for _ in range(count):
        game, creator, friend = online_pair(
            server.base, {"game": "acadmu", "options": {"target": 3}}, ("10.1.0.1", "10.1.0.2")
        )
        made.append((game["id"], creator, friend))
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--games", type=int, default=3, help="online games at once")
    parser.add_argument("--computer", type=int, default=2, help="games against the computer")
    parser.add_argument("--level", default="medium")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    books = Books()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="gamehall-sigkill-") as workdir:
        server = Server(Path(workdir), LIFTED)
        games: list[tuple[str, Browser, Browser | None]] = []
        startups = []
        try:
            for kill in range(args.kills):
                startups.append(server.start())
                checker = Browser(server.base, "10.1.0.9")
                books.check(checker)
                states = {game_id: checker.state(game_id) for game_id, _, _ in games}
                games = [g for g in games if not states[g[0]]["over"]]
                online = [g for g in games if g[2] is not None]
                computer = [g for g in games if g[2] is None]
                games += new_games(server, args, args.games - len(online))
                for _ in range(args.computer - len(computer)):
                    player = Browser(server.base, f"10.2.{kill % 250}.{rng.randrange(1, 250)}")
                    body = {"game": "acadmu", "mode": "computer", "level": args.level}
                    body |= {"seat": rng.randrange(2), "options": {"target": 3}}
                    games.append((player.created(body)["id"], player, None))
                asyncio.run(life(server, books, games, rng.uniform(0.0, 0.3), rng))
                print(
                    f"kill {kill + 1:3}: {len(books.seen)} games, "
                    f"{sum(map(len, books.seen.values())):6} actions seen, "
                    f"{books.workers_at_kill[-1]} workers killed with it, "
                    f"lost {len(books.lost)}, left over {len(books.left_over)}",
                    flush=True,
                )
            server.start()
            books.check(Browser(server.base, "10.1.0.9"))
        finally:
            server.stop()
        tracebacks = server.tracebacks()
    print()
    print(f"SIGKILLs mid-play:          {args.kills}")
    print(f"games played:               {len(books.seen)}")
    print(f"acknowledged actions checked after restarts: {books.acknowledged:,}")
    print(f"acknowledged actions lost:  {len(books.lost)}")
    print(f"processes left over:        {len(books.left_over)}  {books.left_over[:3]}")
    print(
        f"server descendants at a kill: {min(books.workers_at_kill)}–{max(books.workers_at_kill)}"
    )
    print(f"server tracebacks logged:   {tracebacks}")
    print(f"restart to /api/meta: median {sorted(startups)[len(startups) // 2]:.1f} s")
    print(f"wall time {time.monotonic() - started:.0f} s")
    sys.exit(1 if books.lost or books.left_over else 0)


if __name__ == "__main__":
    main()
