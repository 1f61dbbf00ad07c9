"""Benchmark: the first `hard` computer move and the first hint of a fresh web server, against later ones.

``gamehall serve`` warms its worker processes at start: each loads (or, once after installing,
compiles) every game's solver kernels before the server accepts a connection. This script clones
the repository's committed HEAD into a temporary directory (its numba cache starts empty, as after
a fresh clone) and, running the clone's sources with this venv's Python:

1. **cold cache**: starts the server in the clone with nothing compiled: the time until it
   serves (the warm-up compiling the kernels on the way), then the first `hard` move of a game
   against the computer and the first moves of ``--games - 1`` more games;
2. **warm cache**: starts the server again ``--starts`` times (the kernels now cached): the time
   until it serves, and the same moves.

Then, on each start, as many hints at the first move of a new hot-seat Äcädmü game (the first
the server's first), each timed beyond its own search (which varies with the position): the
first no more than 1 s longer than the later ones.

A move's time is from the last thing the player did (creating the game, or its own move) to the
computer's move arriving over the WebSocket, each the first computer move of a new Äcädmü game
(the start of a full-size round: the `hard` level searches with MCTS and asks the solver). The
target: the first move of a fresh server takes no more than 1 s longer than the later ones (the
median of the first moves of the later games). Times are wall-clock on a shared machine; the
load average is printed with them.

    .venv/bin/python bench/server_warm.py [--games 4] [--starts 2] [--keep]
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]
TARGET = 1.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """``gamehall serve`` of a clone, in its own process group, on a store of its own."""

    def __init__(self, clone: Path, folder: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        db = f"sqlite:///{folder / f'bench-{self.port}.sqlite3'}"
        code = (
            f"from gamehall.web.http.server import serve; serve('127.0.0.1', {self.port}, {db!r})"
        )
        env = dict(os.environ, PYTHONPATH=str(clone / "src"), PYTHONUNBUFFERED="1")
        self.log = (folder / f"server-{self.port}.log").open("wb")
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, "-c", code],
            cwd=clone,
            env=env,
            stdout=self.log,
            stderr=self.log,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 600.0) -> float:
        """Seconds from the start until the server's workers are warm (it answers pages
        before: they warm up in the background; ``GET /api/ready`` says when they are)."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited early (see {self.log.name})")
            try:
                with urllib.request.urlopen(
                    f"{self.url}/api/ready?wait=true", timeout=30
                ) as answer:
                    if json.loads(answer.read())["ready"]:
                        return time.perf_counter() - self.started
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"the server's workers did not get ready in {timeout} s")

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.log.close()


def first_computer_move(url: str) -> float:
    """Create an Äcädmü game against `hard` (the player holds Dark) and time the computer's first
    move from the player's last action (creating the game, or its own first move)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    body = json.dumps({"game": "acadmu", "mode": "computer", "seat": 0, "level": "hard"})
    request = urllib.request.Request(
        f"{url}/api/games", data=body.encode(), headers={"Content-Type": "application/json"}
    )
    mark = time.perf_counter()
    with opener.open(request, timeout=30) as answer:
        game_id = json.loads(answer.read())["id"]
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    ws_url = url.replace("http://", "ws://") + f"/ws/games/{game_id}"
    with connect(ws_url, additional_headers={"Cookie": cookie}, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "version": -1}))
        sent = False
        while True:
            message: dict[str, Any] = json.loads(ws.recv(timeout=300))
            if message.get("type") != "state":
                continue
            last = message.get("last")
            if last is not None and last["mover"] == 1:
                return time.perf_counter() - mark
            if message["to_move"] == 0 and not sent:
                ws.send(
                    json.dumps(
                        {
                            "type": "move",
                            "version": message["version"],
                            "action": message["legal"][0]["text"],
                        }
                    )
                )
                mark = time.perf_counter()
                sent = True


def first_hint(url: str) -> float:
    """Create a hot-seat Äcädmü game (a full-size round), ask a hint at its first move, and
    time what the hint took beyond its own search (the ``seconds`` the answer reports: the
    hint's budget and its lines, which vary with the position): the wait for the worker, any
    warm-up left to it, the trip."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            f"{url}{path}",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with opener.open(request, timeout=300) as answer:
            return json.loads(answer.read())  # type: ignore[no-any-return]

    game_id = post("/api/games", {"game": "acadmu", "mode": "hotseat"})["id"]
    mark = time.perf_counter()
    answer = post(f"/api/games/{game_id}/hint", {})
    return time.perf_counter() - mark - float(answer["seconds"])


def run(clone: Path, folder: Path, games: int) -> dict[str, Any]:
    server = Server(clone, folder)
    try:
        ready = server.wait_ready()
        moves = [first_computer_move(server.url) for _ in range(games)]
        hints = [first_hint(server.url) for _ in range(games)]
    finally:
        server.stop()
    return {"ready": ready, "moves": moves, "hints": hints}


def show(label: str, result: dict[str, Any]) -> bool:
    ok = True
    for what, times in (("hard move", result["moves"]), ("hint extra", result["hints"])):
        first, later = times[0], statistics.median(times[1:])
        listed = ", ".join(f"{t:.2f}" for t in times)
        print(
            f"{label:<22} serves after {result['ready']:6.1f} s; first {what:<10} {first:5.2f} s, "
            f"later {later:5.2f} s (median), longer by {first - later:+.2f} s   [{listed}]"
        )
        ok &= first - later <= TARGET
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per server start (2 or more)")
    parser.add_argument("--starts", type=int, default=2, help="server starts on the warm cache")
    parser.add_argument("--keep", action="store_true", help="keep the clone (print its path)")
    parser.add_argument(
        "--rev", default="HEAD", help="the commit to clone (another one: compare with it)"
    )
    args = parser.parse_args()
    if args.games < 2:
        parser.error("--games must be at least 2 (a first move and later ones)")
    base = Path(tempfile.mkdtemp(prefix="gamehall-serve-"))
    clone = base / "gamehall"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    revision = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", args.rev],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    subprocess.run(["git", "-C", str(clone), "checkout", "--quiet", revision], check=True)
    print(f"a fresh clone of {ROOT} at {revision} in {base} (numba cache empty)")
    ok = show("cold cache (compiles)", run(clone, base, args.games))
    for start in range(1, args.starts + 1):
        ok &= show(f"warm cache, start {start}", run(clone, base, args.games))
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(
        f"target (first no more than {TARGET:g} s longer than later): {'met' if ok else 'NOT met'}"
    )
    if args.keep:
        print(f"kept: {base}")
    else:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
