"""Load test for the web server (not a test): many online games over WebSockets, on loopback.

Starts ``gamehall serve`` (one process or several, on a temporary SQLite store or a PostgreSQL
database) on free ports of 127.0.0.1 and keeps ``--games`` online Äcädmü games going at once: each
game has two WebSocket clients, one per seat, each a browser of its own (its own identity cookie;
the second seat is taken through the invite, as a browser does). When a game ends its slot starts
a new one. Every client runs on one asyncio event loop (uvloop if installed) with ``websockets``.

Two paces:

* saturated (default): a seat answers each state where it is to move at once, so every game
  always has a move in flight and latency grows with the number of games;
* ``--paced``: people's pace, each player thinks a random 2–10 s (``--think``) before moving.

Saturated games are one round (``--target 1``), so games end and are replaced often. Paced games
are the match people play, to the game's own target of 12 (``--target`` sets another): at one
round a game, 5,000 games at people's pace would end and start again about 30 times a second,
many times what a hall with as many games going sees (lichess plays about five million games a
day, some 60 a second, with tens of thousands going at once).

Moves (and CPU time) in the first ``--warmup`` seconds, while games are made and sockets open,
are not counted.

With ``--servers K`` (PostgreSQL) the hall is K independent processes on one database and each
game's two seats are on different processes, so every move crosses processes through
LISTEN/NOTIFY (the worst case: both processes do the work of every move). With ``--together``
both seats of a game play through one process, chosen by a hash of the game's id, as behind a
proxy that routes ``/ws/games/{id}`` by a hash of the URL (``docs/deploy.md``): each move is
then one process's work, and the others only hear of it. ``--pg`` runs a throwaway PostgreSQL
cluster for the run (as the tests do: ``initdb``/``pg_ctl`` from /usr/lib/postgresql/*/bin);
``--db URL`` uses a database you have.

Reports moves per second, the move latency (from sending a move to receiving the state with the
new version) p50 and p99, and the CPU time the servers and the clients spent per move (far less
sensitive than the rates to other load on a shared machine). ``--games`` may list several
counts: each is run in turn, and the largest whose p99 is at most ``--p99`` ms is named::

    .venv/bin/python bench/load.py --games 100 --seconds 30
    .venv/bin/python bench/load.py --paced --games 1000 2000 3000 --seconds 60
    .venv/bin/python bench/load.py --paced --pg --games 1000 2000 --seconds 60
    .venv/bin/python bench/load.py --paced --pg --servers 2 --games 1000 2000 --seconds 60
    .venv/bin/python bench/load.py --paced --pg --servers 2 --together --games 2000 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# httpcore looks for sniffio (to tell trio from asyncio) on every request; where it is not
# installed that failed import searches the whole path each time, which at thousands of games
# made the client's own loop the bottleneck. Marking it absent makes the import fail at once.
sys.modules.setdefault("sniffio", None)  # type: ignore[arg-type]

import httpx  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

SERVER_SETTINGS = [
    "games_per_minute=1000000",
    "max_connections=30000",
    "sockets_per_address=30000",
    "connections_per_address=30000",
    "max_live_games=30000",
    "messages_per_second=1000",
    "resyncs_per_minute=1000",
]
"""The load comes from one address and a few hundred browsers a second: per-client limits off."""


SETTLE = 5.0
"""Seconds between the warm-up's end (and the client's one collection) and the count."""

CREATING_AT_ONCE = 16
"""Games the client makes at once (and its HTTP connections): a crowd of thousands queued in
one HTTP pool costs the client more than the server."""


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    sent: list[float] = field(default_factory=list)
    """When each counted move was sent (``perf_counter``), in the order of ``latencies``."""
    lags: list[float] = field(default_factory=list)
    """How late the client's event loop woke a 10 ms timer, each time, while counting (s)."""
    games_started: int = 0
    games_finished: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    connect_failures: int = 0
    counting_from: float = 0.0
    """Moves sent before this ``perf_counter`` time are not counted (warm-up)."""
    counting_until: float = float("inf")
    """Nor moves sent after this one (the end, when games stop)."""
    deadline: float = 0.0
    """When the players stop (``monotonic``): once the count is over (see window)."""
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    """CPU seconds the servers and the clients spent between the two."""
    creating: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(CREATING_AT_ONCE))
    """Games being made at once (made inside the running loop: see run)."""

    def error(self, name: str) -> None:
        self.errors[name] = self.errors.get(name, 0) + 1


@dataclass
class Pace:
    think: tuple[float, float] | None
    """None: move at once (saturated); else a player thinks a random time in this range (s)."""


def raise_fd_limit() -> int:
    """Lift the soft limit on open files to the hard limit (1000 games = 2000+ sockets)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """The user and system CPU time of process ``pid`` and its waited-for children (Linux
    /proc), 0 if unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def start_server(
    port: int, db: str, profile: str | None, settings: list[str]
) -> subprocess.Popen[bytes]:
    """``gamehall serve`` on ``port`` with ``settings`` (``NAME=VALUE``) besides
    :data:`SERVER_SETTINGS` (under cProfile, its stats written to ``profile`` when it stops, if
    given)."""
    code = "from gamehall.cli.app import main; main()"
    if profile:
        code = (
            "import cProfile; from gamehall.cli.app import main; p = cProfile.Profile(); "
            f"p.enable()\ntry: main()\nfinally: p.disable(); p.dump_stats({profile!r})"
        )
    command = [sys.executable, "-c", code, "serve", "--port", str(port), "--db", db]
    for item in SERVER_SETTINGS + settings:
        command += ["--set", item]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL)


def wait_until_up(base: str, timeout: float = 180.0) -> None:
    # A server serves once its workers have loaded the solvers' kernels (20-50 s under load).
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{base}/api/meta", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise SystemExit("the server did not start")
        time.sleep(0.1)


async def browser(http: httpx.AsyncClient) -> dict[str, str]:
    """A new browser: the identity cookie the server gives (it signs them, so a made-up one
    would be a new guest on every request), asked for by a client of its own so the shared
    client's cookie jar stays empty."""
    async with httpx.AsyncClient(base_url=http.base_url, headers=http.headers) as fresh:
        answer = await fresh.get("/api/me")
    answer.raise_for_status()
    return {"cookie": f"gh_player={answer.cookies['gh_player']}"}


async def create_game(
    http: list[httpx.AsyncClient], options: dict[str, Any]
) -> tuple[str, list[dict[str, str]]]:
    """A new online game made through the first server, its invite taken through the last: its
    id and both seats' browsers."""
    creator, guest = await browser(http[0]), await browser(http[-1])
    answer = await http[0].post(
        "/api/games",
        json={"game": "acadmu", "options": options, "mode": "online", "seat": 0},
        headers=creator,
    )
    answer.raise_for_status()
    data = answer.json()
    invite = data["invite"].split("?seat=", 1)[1]
    joined = await http[-1].post(
        f"/api/games/{data['id']}/join", json={"seat": invite}, headers=guest
    )
    joined.raise_for_status()
    return data["id"], [creator, guest]


def read(raw: str | bytes) -> tuple[dict[str, Any], str | None]:
    """A message from the server, and a state's legal list as JSON text, not yet read (else
    None). The server writes ``legal`` last (gamehall.web.play.live), and it is most of a state's
    text: a seat reads it only when it moves, not in every state both seats are sent."""
    text = raw if isinstance(raw, str) else raw.decode()
    cut = text.rfind(',"legal":')
    if cut < 0 or not text.startswith('{"type":"state"'):
        return json.loads(text), None
    return json.loads(text[:cut] + "}"), text[cut + len(',"legal":') : -1]


async def player(
    ws_base: str,
    game_id: str,
    seat: int,
    headers: dict[str, str],
    totals: Totals,
    rng: random.Random,
    pace: Pace,
    deflate: bool,
) -> bool:
    """Play one seat of one game; True if the game finished."""
    async with connect(
        f"{ws_base}/ws/games/{game_id}",
        additional_headers=headers,
        max_size=None,
        open_timeout=120,
        compression="deflate" if deflate else None,
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "version": -1}))
        sent_at: float | None = None
        waiting_for = -1
        continued_at = -1  # the version this seat last said "continue" at
        actions = 0
        while True:
            # Past the deadline, stop at the next message or when the other seat has left.
            wait = max(0.0, totals.deadline - time.monotonic()) + 15.0
            try:
                # (asyncio.timeout, not wait_for: wait_for wraps every recv in a task of its
                # own, a good part of the client's CPU a message)
                async with asyncio.timeout(wait):
                    raw = await ws.recv()
            except TimeoutError:
                return False
            message, legal = read(raw)
            kind = message["type"]
            if kind != "state" and time.monotonic() > totals.deadline:
                return False
            if kind == "error":
                totals.error(message["code"])
                if message["code"] != "stale_version":
                    sent_at = None
                continue
            if kind != "state":
                continue
            version = message["version"]
            actions = message["since"] + len(message["actions"])
            if actions != version:
                totals.error("bad_delta")
            if sent_at is not None and version >= waiting_for:
                if totals.counting_from <= sent_at < totals.counting_until:
                    totals.latencies.append(time.perf_counter() - sent_at)
                    totals.sent.append(sent_at)
                sent_at = None
            if message["over"]:
                return True
            if time.monotonic() > totals.deadline:
                return False
            pause = message.get("pause")
            if pause and seat in pause["waiting"]:  # a round is over: go on to the next one
                # once: a state sent before the server read this seat's "continue" still lists
                # it as waiting, and a second one would find the pause over (not_paused)
                if continued_at != version:
                    continued_at = version
                    await ws.send(json.dumps({"type": "continue", "version": version}))
                continue
            if message["to_move"] == seat and sent_at is None:
                if pace.think is not None:
                    await asyncio.sleep(rng.uniform(*pace.think))
                items = message["legal"] if legal is None else json.loads(legal)
                action = rng.choice(items)["text"]
                waiting_for = version + 1
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "version": version, "action": action}))


async def slot(
    bases: list[str],
    http: list[httpx.AsyncClient],
    totals: Totals,
    seed: int,
    options: dict[str, Any],
    pace: Pace,
    deflate: bool,
    start_within: float,
    together: bool,
) -> None:
    """Keep one online game going until the deadline, starting a new one when one ends; with
    several servers, seat 0 plays through one and seat 1 through the next, or (``together``)
    both through the one a hash of the game's id picks."""
    rng = random.Random(seed)
    await asyncio.sleep(rng.uniform(0, start_within))
    first = seed % len(bases)
    order = [bases[first], bases[(first + 1) % len(bases)]]
    makers = [http[first], http[(first + 1) % len(bases)]]
    ws_bases = [b.replace("http://", "ws://") for b in order]
    while time.monotonic() < totals.deadline:
        try:
            async with totals.creating:  # a few at a time, as players arrive
                game_id, seats = await create_game(makers, options)
        except httpx.HTTPError as error:
            totals.connect_failures += 1
            totals.error(type(error).__name__)
            await asyncio.sleep(0.5)
            continue
        totals.games_started += 1
        if together:
            ws_bases = [by_game(bases, game_id).replace("http://", "ws://")] * 2
        try:
            done = await asyncio.gather(
                *(
                    player(ws_bases[s], game_id, s, h, totals, rng, pace, deflate)
                    for s, h in enumerate(seats)
                )
            )
        except (TimeoutError, OSError, Exception) as error:
            totals.connect_failures += 1
            totals.error(type(error).__name__)
            await asyncio.sleep(0.5)
            continue
        if all(done):
            totals.games_finished += 1


def by_game(bases: list[str], game_id: str) -> str:
    """The server a proxy hashing the game's URL would send both of its seats to."""
    return bases[zlib.crc32(game_id.encode()) % len(bases)]


async def window(totals: Totals, warmup: float, seconds: float, pids: list[int]) -> None:
    """Count the CPU time spent while moves are counted (after the warm-up).

    The client stands in for thousands of browsers in one process. Its garbage collector walked
    every socket's coroutines, in pauses of up to 2.2 s at 5,000 games, and those pauses were
    counted as the server's latency. So while it counts, the client's collector is off (what
    the warm-up made is frozen out of its walks first); it is on again afterwards.

    That first collection stops the client for a second or more, and the moves whose thinking
    ended meanwhile then reach the server together: counting starts ``SETTLE`` seconds later,
    once that crowd is served. The players stop when the count ends, not before (10,000
    sockets closing at once are work for the server that no counted move should wait for)."""
    await asyncio.sleep(warmup)
    gc.collect()
    gc.freeze()
    gc.disable()
    await asyncio.sleep(SETTLE)
    server, client = sum(cpu_seconds(p) for p in pids), time.process_time()
    totals.counting_from = time.perf_counter()
    while (now := time.perf_counter()) < totals.counting_from + seconds:
        await asyncio.sleep(0.01)
        totals.lags.append(time.perf_counter() - now - 0.01)
    totals.counting_until = time.perf_counter()
    totals.server_cpu = sum(cpu_seconds(p) for p in pids) - server
    totals.client_cpu = time.process_time() - client
    totals.deadline = time.monotonic()
    gc.enable()
    gc.unfreeze()


async def run(
    bases: list[str],
    games: int,
    seconds: float,
    warmup: float,
    options: dict[str, Any],
    pace: Pace,
    deflate: bool,
    pids: list[int],
    together: bool = False,
) -> Totals:
    totals = Totals()
    totals.counting_from = float("inf")
    limits = httpx.Limits(
        max_connections=CREATING_AT_ONCE, max_keepalive_connections=CREATING_AT_ONCE
    )
    clients = [httpx.AsyncClient(base_url=b, limits=limits, timeout=120) for b in bases]
    try:
        start = time.monotonic()
        # The window ends the games once it has counted; this is only in case it cannot.
        totals.deadline = start + warmup + SETTLE + seconds + 30
        counting = asyncio.get_running_loop().create_task(window(totals, warmup, seconds, pids))
        # Saturated games start at once; paced ones over the first half of the warm-up.
        spread = warmup / 2 if pace.think is not None else 0.0
        await asyncio.gather(
            *(
                slot(
                    bases,
                    clients,
                    totals,
                    seed,
                    options,
                    pace,
                    deflate,
                    spread,
                    together,
                )
                for seed in range(games)
            )
        )
        await counting
    finally:
        for client in clients:
            await client.aclose()
    return totals


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


@contextlib.contextmanager
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL cluster (tests/pg_cluster.py) and a database on it."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from pg_cluster import fresh_database, run_cluster

    clusters = run_cluster()
    cluster = next(clusters)
    try:
        cluster.admin("ALTER SYSTEM SET max_connections = 200")
        cluster.stop()
        cluster.start()
        yield fresh_database(cluster)
    finally:
        with contextlib.suppress(StopIteration):
            next(clusters)


def measure(args: argparse.Namespace, games: int, db: str) -> dict[str, Any]:
    """One run with ``games`` concurrent games; its figures."""
    servers: list[subprocess.Popen[bytes]] = []
    if args.url:
        bases = [u.rstrip("/") for u in args.url]
    else:
        ports = [free_port() for _ in range(args.servers)]
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        for number, port in enumerate(ports):
            profile = f"{args.profile}.{number}" if args.profile else None
            servers.append(start_server(port, db, profile, args.set))
    try:
        for base in bases:
            wait_until_up(base)
        pace = Pace((args.think[0], args.think[1]) if args.paced else None)
        pids = [s.pid for s in servers]
        options = {"target": match_target(args)}
        totals = asyncio.run(
            run(
                bases,
                games,
                args.seconds,
                args.warmup,
                options,
                pace,
                args.deflate,
                pids,
                args.together,
            )
        )
        elapsed = totals.counting_until - totals.counting_from
    finally:
        for server in servers:
            server.send_signal(signal.SIGINT if args.profile else signal.SIGTERM)
        for server in servers:
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
    moves = len(totals.latencies)
    ms = sorted(1000 * x for x in totals.latencies)
    result: dict[str, Any] = {
        "games": games,
        "seconds": elapsed,
        "moves": moves,
        "rate": moves / elapsed if elapsed > 0 else 0.0,
        "p50": percentile(ms, 0.50) if ms else float("nan"),
        "p99": percentile(ms, 0.99) if ms else float("nan"),
        "mean": statistics.fmean(ms) if ms else float("nan"),
        "max": ms[-1] if ms else float("nan"),
        "server_cpu": totals.server_cpu,
        "client_cpu": totals.client_cpu,
        "totals": totals,
    }
    return result


def match_target(args: argparse.Namespace) -> int:
    """The Äcädmü match target of the games: one round saturated, the game's own paced."""
    return args.target if args.target is not None else (12 if args.paced else 1)


def report(args: argparse.Namespace, result: dict[str, Any]) -> None:
    totals: Totals = result["totals"]
    moves = result["moves"]
    pace = f"paced {args.think[0]:g}–{args.think[1]:g} s" if args.paced else "saturated"
    print(
        f"games: {result['games']} concurrent to target {match_target(args)}, {pace}, "
        f"{args.servers} server process(es)"
        f"{' (seats of a game together)' if args.together and args.servers > 1 else ''}, "
        f"{result['seconds']:.1f} s counted ({os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.1f})"
    )
    print(f"games started {totals.games_started}, finished {totals.games_finished}")
    print(f"moves: {moves}, {result['rate']:.0f} moves/s")
    if moves:
        print(
            f"move latency: p50 {result['p50']:.1f} ms, p99 {result['p99']:.1f} ms,"
            f" mean {result['mean']:.1f} ms, max {result['max']:.1f} ms"
        )
        if not args.url:
            print(
                f"CPU per move: servers {1000 * result['server_cpu'] / moves:.2f} ms, "
                f"clients {1000 * result['client_cpu'] / moves:.2f} ms"
            )
        lags = sorted(1000 * x for x in totals.lags)
        if lags:
            print(
                f"client loop lag (a 10 ms timer woken late): p99 {percentile(lags, 0.99):.1f} "
                f"ms, max {lags[-1]:.1f} ms"
            )
        print(
            f"slowest seconds (moves over {args.p99:g} ms, by second of counting): "
            + slowest(totals, args.p99 / 1000)
        )
    if totals.errors or totals.connect_failures:
        print(f"errors: {totals.errors}, failed games/connections: {totals.connect_failures}")
    print(flush=True)


def slowest(totals: Totals, bound: float, shown: int = 6) -> str:
    """The seconds of the count in which most moves were slower than ``bound``: whether slow
    moves come in bursts (a pause of the server or the client) or are spread (a queue)."""
    over = Counter(
        int(sent - totals.counting_from)
        for sent, latency in zip(totals.sent, totals.latencies, strict=True)
        if latency > bound
    )
    if not over:
        return "none"
    worst = sorted(over.most_common(shown))
    return ", ".join(f"{second} s: {count}" for second, count in worst)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, nargs="+", default=[100], help="concurrent games (several: each)"
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to count (30)")
    parser.add_argument(
        "--target",
        type=int,
        help="Äcädmü match target (default: 1 saturated, the game's own 12 paced)",
    )
    parser.add_argument("--paced", action="store_true", help="players think before moving")
    parser.add_argument(
        "--think", type=float, nargs=2, default=[2.0, 10.0], help="think time range, s (2 10)"
    )
    parser.add_argument(
        "--warmup", type=float, default=10.0, help="seconds not counted at the start (10)"
    )
    parser.add_argument("--p99", type=float, default=100.0, help="the p99 bound, ms (100)")
    parser.add_argument("--servers", type=int, default=1, help="server processes (PostgreSQL)")
    parser.add_argument("--db", help="the store's SQLAlchemy URL (default: temporary SQLite)")
    parser.add_argument(
        "--together",
        action="store_true",
        help="both seats of a game through one server, by a hash of its id (as a proxy would)",
    )
    parser.add_argument("--pg", action="store_true", help="a throwaway PostgreSQL cluster")
    parser.add_argument(
        "--deflate",
        action="store_true",
        help="negotiate permessage-deflate as browsers do (costs CPU on both sides)",
    )
    parser.add_argument("--url", nargs="+", help="use servers already running at these URLs")
    parser.add_argument("--profile", help="run the server under cProfile, stats to this file")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a server setting (repeatable), e.g. collect_seconds=60",
    )
    args = parser.parse_args()

    limit = raise_fd_limit()
    if limit < 2 * max(args.games) + 100:
        print(f"warning: only {limit} open files allowed", file=sys.stderr)
    if args.servers > 1 and not (args.pg or (args.db or "").startswith("postgresql")):
        raise SystemExit("--servers above 1 needs PostgreSQL: --pg or --db postgresql+psycopg://…")
    with contextlib.suppress(ImportError):
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        results = []
        cluster = stack.enter_context(postgres()) if args.pg else ""
        for games in args.games:
            if args.pg:  # a fresh database for each run
                db = cluster if not results else _fresh(cluster)
            else:
                db = args.db or f"sqlite:///{Path(tmp) / f'load-{games}.sqlite3'}"
            result = measure(args, games, db)
            report(args, result)
            results.append(result)
    if len(results) > 1:
        held = [r["games"] for r in results if r["moves"] and r["p99"] <= args.p99]
        print(f"largest game count with p99 ≤ {args.p99:g} ms: {max(held) if held else 'none'}")


def _fresh(url: str) -> str:
    """Another empty database on the same cluster as ``url``."""
    import psycopg
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    name = f"load_{secrets.token_hex(4)}"
    conninfo = parsed.set(drivername="postgresql", database="postgres").render_as_string(False)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return parsed.set(database=name).render_as_string(False)


if __name__ == "__main__":
    main()
