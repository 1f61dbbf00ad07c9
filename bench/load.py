"""Load test for the web server (not a test): many bot-vs-bot online games over WebSockets.

Starts ``gamehall.web.server.serve`` in a subprocess on 127.0.0.1 (a free port, a temporary SQLite
store), then keeps ``--games`` online games going at once for ``--seconds``: each game has two
WebSocket clients, one per seat (two browsers: the creator's identity, and the friend's, who took
the invite), that answer every state where their seat is to move with a random legal move. The
server's per-client limits on creating games are lifted (they are not what is measured here). When a game ends its slot starts a new one.
Everything client-side runs on one asyncio event loop with the ``websockets`` library.

Reports moves per second, the move latency (from sending a move to receiving the state with
the new version), p50 and p99, and the CPU time the server and the clients spent per move (less
sensitive than the rates to other load on a shared machine)::

    .venv/bin/python bench/load.py --games 100 --seconds 20
    .venv/bin/python bench/load.py --games 1000 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from server_kit import IDENTITY_COOKIE, Server, cpu_seconds, raise_fd_limit, wait_until_up


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    games_started: int = 0
    games_finished: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    connect_failures: int = 0


def start_server(workdir: Path) -> Server:
    server = Server(workdir, {"games_per_minute": 10**6, "computer_games": 10**6})
    server.start()
    return server


def _as(identity: str) -> dict[str, str]:
    return {"cookie": f"{IDENTITY_COOKIE}={identity}"}


async def create_game(http: httpx.AsyncClient, options: dict[str, Any]) -> tuple[str, list[str]]:
    """A new online game of two new browsers: its id and both browsers' identities."""
    creator, friend = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    answer = await http.post(
        "/api/games",
        json={"game": "acadmu", "options": options, "mode": "online", "seat": 0},
        headers=_as(creator),
    )
    answer.raise_for_status()
    data = answer.json()
    invite = data["invite"].split("?seat=", 1)[1]
    joined = await http.post(
        f"/api/games/{data['id']}/join", json={"seat": invite}, headers=_as(friend)
    )
    joined.raise_for_status()
    return data["id"], [creator, friend]


async def player(
    ws_base: str,
    game_id: str,
    seat: int,
    identity: str,
    totals: Totals,
    deadline: float,
    rng: random.Random,
    deflate: bool,
) -> bool:
    """Play one seat of one game; True if the game finished."""
    async with connect(
        f"{ws_base}/ws/games/{game_id}",
        additional_headers=_as(identity),
        max_size=None,
        open_timeout=60,
        compression="deflate" if deflate else None,
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "version": -1}))
        sent_at: float | None = None
        waiting_for = -1
        while True:
            # Past the deadline, stop at the next message or when the other seat has left.
            wait = max(0.0, deadline - time.monotonic()) + 5.0
            try:
                raw = await asyncio.wait_for(ws.recv(), wait)
            except TimeoutError:
                return False
            message = json.loads(raw)
            kind = message["type"]
            if kind != "state" and time.monotonic() > deadline:
                return False
            if kind == "error":
                totals.errors[message["code"]] = totals.errors.get(message["code"], 0) + 1
                if message["code"] != "stale_version":
                    sent_at = None
                continue
            if kind != "state":
                continue
            version = message["version"]
            if sent_at is not None and version >= waiting_for:
                totals.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if message["over"]:
                return True
            if time.monotonic() > deadline:
                return False
            pause = message.get("pause")
            if pause and seat in pause["waiting"]:  # a round is over: go on to the next one
                await ws.send(json.dumps({"type": "continue", "version": version}))
                continue
            if message["to_move"] == seat and sent_at is None:
                action = rng.choice(message["legal"])["text"]
                waiting_for = version + 1
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "version": version, "action": action}))


async def slot(
    base: str,
    http: httpx.AsyncClient,
    totals: Totals,
    deadline: float,
    seed: int,
    options: dict[str, Any],
    deflate: bool,
) -> None:
    """Keep one online game going until the deadline, starting a new one when one ends."""
    rng = random.Random(seed)
    ws_base = base.replace("http://", "ws://")
    while time.monotonic() < deadline:
        try:
            game_id, identities = await create_game(http, options)
        except httpx.HTTPError:
            totals.connect_failures += 1
            await asyncio.sleep(0.5)
            continue
        totals.games_started += 1
        try:
            done = await asyncio.gather(
                *(
                    player(ws_base, game_id, seat, identity, totals, deadline, rng, deflate)
                    for seat, identity in enumerate(identities)
                )
            )
        except (TimeoutError, OSError, Exception) as error:
            totals.connect_failures += 1
            totals.errors[type(error).__name__] = totals.errors.get(type(error).__name__, 0) + 1
            await asyncio.sleep(0.5)
            continue
        if all(done):
            totals.games_finished += 1


async def run(
    base: str, games: int, seconds: float, options: dict[str, Any], deflate: bool
) -> Totals:
    totals = Totals()
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with httpx.AsyncClient(
        base_url=base,
        limits=limits,
        timeout=120,
    ) as http:
        deadline = time.monotonic() + seconds
        await asyncio.gather(
            *(slot(base, http, totals, deadline, seed, options, deflate) for seed in range(games))
        )
    return totals


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to run (default 30)")
    parser.add_argument("--target", type=int, default=1, help="Äcädmü match target (default 1)")
    parser.add_argument(
        "--deflate",
        action="store_true",
        help="negotiate permessage-deflate as browsers do (costs CPU on both sides)",
    )
    parser.add_argument("--url", help="use a server already running at this URL")
    args = parser.parse_args()

    limit = raise_fd_limit()
    if limit < 2 * args.games + 100:
        print(f"warning: only {limit} open files allowed", file=sys.stderr)
    server = None
    with tempfile.TemporaryDirectory() as tmp:
        if args.url:
            base = args.url.rstrip("/")
        else:
            server = start_server(Path(tmp))
            base = server.base
        try:
            wait_until_up(base)
            with contextlib.suppress(ImportError):
                import uvloop

                asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
            started = time.perf_counter()
            server_cpu = cpu_seconds(server.pid) if server is not None else 0.0
            client_cpu = time.process_time()
            totals = asyncio.run(
                run(base, args.games, args.seconds, {"target": args.target}, args.deflate)
            )
            elapsed = time.perf_counter() - started
            client_cpu = time.process_time() - client_cpu
            if server is not None:
                server_cpu = cpu_seconds(server.pid) - server_cpu
        finally:
            if server is not None:
                server.stop()

    moves = len(totals.latencies)
    print(f"games: {args.games} concurrent for {elapsed:.1f} s ({os.cpu_count()} CPUs)")
    print(f"games started {totals.games_started}, finished {totals.games_finished}")
    print(f"moves: {moves}, {moves / elapsed:.0f} moves/s")
    if moves:
        ms = [1000 * x for x in totals.latencies]
        print(
            f"move latency: p50 {percentile(ms, 0.50):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms,"
            f" mean {statistics.fmean(ms):.1f} ms, max {max(ms):.1f} ms"
        )
    if moves and server is not None:
        print(
            f"CPU per move: server {1000 * server_cpu / moves:.2f} ms, "
            f"clients {1000 * client_cpu / moves:.2f} ms"
        )
    if totals.errors or totals.connect_failures:
        print(f"errors: {totals.errors}, failed games/connections: {totals.connect_failures}")


if __name__ == "__main__":
    main()
