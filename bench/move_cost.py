"""The server's own cost per move (not a test): the hub alone, without HTTP or WebSockets.

Plays ``--games`` online Äcädmü games at once through :class:`gamehall.web.play.hub.Hub` on a temporary
SQLite store (or ``--db``): each game has two connections, one per seat, on transports that only
count what they are sent, and each seat answers every state where it is to move with a random
legal move as a client's ``move`` message. Reports the CPU time per move of the whole process
(the hub, the referee, the store, the messages; no client parsing, no sockets) and the number of
store transactions per action: a figure a shared, loaded machine disturbs far less than a
latency. Run it on two versions of the code to compare them::

    .venv/bin/python bench/move_cost.py --games 100 --moves 5000
    PYTHONPATH=/path/to/other/src .venv/bin/python bench/move_cost.py --games 100 --moves 5000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path

from sqlalchemy import text

from gamehall.store import Store
from gamehall.web.base.settings import Settings
from gamehall.web.play.hub import Connection, Hub, LiveGame


class Counting:
    """A transport that only counts the messages and bytes it is sent."""

    messages = 0
    size = 0

    async def send_text(self, data: str) -> None:
        Counting.messages += 1
        Counting.size += len(data)

    async def close(self, code: int = 1000) -> None:
        pass


async def seat(
    hub: Hub, live: LiveGame, connection: Connection, rng: random.Random, left: list[int]
) -> None:
    """Move for one seat whenever it is to move, until ``left`` moves are done in all."""
    while left[0] > 0 and not live.state.is_terminal():
        if live.state.current_player in connection.seats:
            action = str(rng.choice(live.state.legal_actions()))
            move = {"type": "move", "version": live.version, "action": action}
            left[0] -= 1
            await hub.receive(live, connection, json.dumps(move))
        else:
            await asyncio.sleep(0.0005)


async def game(hub: Hub, number: int, left: list[int]) -> None:
    rng = random.Random(number)
    while left[0] > 0:
        live, _ = await hub.create(
            game_name="acadmu",
            options={"target": 1},
            mode="online",
            seat=0,
            level="easy",
            player_id=f"p{number}a",
        )
        await hub.claim(live, f"p{number}b", live.row.seats[1].token)
        connections = [
            Connection(Counting(), frozenset({s}), identity=f"p{number}{'ab'[s]}") for s in (0, 1)
        ]
        for connection in connections:
            hub.attach(live, connection)
            await hub.receive(live, connection, json.dumps({"type": "hello", "version": -1}))
        await asyncio.gather(*(seat(hub, live, c, rng, left) for c in connections))
        for connection in connections:
            await hub.detach(live, connection)


async def run(db: str, games: int, moves: int) -> None:
    settings = Settings(games_per_minute=10**6, messages_per_second=10**6, max_live_games=10**6)
    hub = Hub(Store(db), settings=settings)
    await hub.start()
    left = [moves]
    try:
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.gather(*(game(hub, n, left) for n in range(games)))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        with hub.store.engine.connect() as conn:
            actions = conn.execute(text("SELECT count(*) FROM actions")).scalar_one()
    finally:
        await hub.stop()
    made = moves - left[0]
    print(f"{games} games at once, {made} moves ({actions} actions with chance) in {wall:.1f} s")
    print(f"CPU per move: {1000 * cpu / made:.3f} ms (the whole process: hub, store, messages)")
    commits = getattr(hub, "commits", None)
    if commits:
        print(f"store transactions per action: {commits / actions:.2f} (group commit)")
    print(
        f"messages sent: {Counting.messages / made:.2f} per move, {Counting.size / Counting.messages:.0f} B each"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games at once (100)")
    parser.add_argument("--moves", type=int, default=5000, help="moves to play in all (5000)")
    parser.add_argument("--db", help="the store's URL (default: a temporary SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'moves.sqlite3'}"
        asyncio.run(run(db, args.games, args.moves))


if __name__ == "__main__":
    main()
