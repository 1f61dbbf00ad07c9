"""What the server benches share (``load.py``, ``abuse.py``, ``ws_fuzz.py``, ``sigkill.py``).

* :class:`Server`: ``gamehall serve`` in a process of its own on 127.0.0.1 (a free port, a
  SQLite store of its own), with ``--set NAME=VALUE`` settings, its stderr kept in a log file
  (the server's tracebacks are counted from it), and its descendants (the computer workers) found
  through ``psutil``.
* :class:`Browser`: one browser as the server sees it: one identity cookie (``gh_player``), and
  a network address of its own given in ``X-Forwarded-For``. The bench plays the proxy in front:
  its servers name loopback a trusted proxy (``trusted_proxies=127.0.0.1``, unless the settings
  given say otherwise), so they believe that header from it, and one bench can be many clients.
* :func:`store_rows`: every row the store holds, read from the SQLite file, for "did anything
  stored change".
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import resource
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import httpx
import psutil
from websockets.sync.client import connect

IDENTITY_COOKIE = "gh_player"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def raise_fd_limit() -> int:
    """Lift the soft limit on open files to the hard limit (thousands of sockets)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def cpu_seconds(pid: int) -> float:
    """The user and system CPU time of process ``pid`` so far (Linux /proc), 0 if unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Server:
    """``gamehall serve`` on 127.0.0.1 in a process of its own (see the module docstring)."""

    def __init__(
        self, workdir: Path, settings: Mapping[str, object] | None = None, port: int | None = None
    ) -> None:
        self.workdir = workdir
        self.db_path = workdir / "bench.sqlite3"
        self.log_path = workdir / "server.log"
        # the bench plays the proxy in front: its X-Forwarded-For names each browser
        self.settings = {"trusted_proxies": "127.0.0.1", **dict(settings or {})}
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120.0) -> float:
        """Start the server and wait for ``/api/meta``; the seconds that took."""
        gamehall = Path(sys.executable).with_name("gamehall")
        command = [str(gamehall), "serve", "--port", str(self.port)]
        command += ["--db", f"sqlite:///{self.db_path}"]
        for name, value in self.settings.items():
            command += ["--set", f"{name}={value}"]
        started = time.monotonic()
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
        wait_until_up(self.base, timeout, self.process)
        return time.monotonic() - started

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def descendants(self) -> list[psutil.Process]:
        """The server's processes below it (workers, resource trackers), now."""
        try:
            return psutil.Process(self.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def rss_mb(self) -> float:
        return psutil.Process(self.pid).memory_info().rss / 2**20

    def kill(self) -> None:
        """SIGKILL the server (only the server: its workers must go by themselves)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL) and anything it left."""
        if self.process is None:
            return
        left = self.descendants()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        _, alive = psutil.wait_procs(left, timeout=5)
        for process in alive:
            with contextlib.suppress(psutil.NoSuchProcess):
                process.kill()

    def tracebacks(self) -> int:
        """How many tracebacks the server has written to its log so far."""
        return len(self.traceback_heads())

    def traceback_heads(self, frames: int = 3) -> list[str]:
        """Each traceback in the server's log so far, shortened to what tells it apart: the log
        line before it (the server's message), its first ``frames`` frames, its last frame and
        the exception (the traceback's last line)."""
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return []
        return traceback_heads(lines, frames)


def traceback_heads(lines: list[str], frames: int = 3) -> list[str]:
    """The tracebacks in a log's ``lines``, each shortened (see :meth:`Server.traceback_heads`)."""
    heads = []
    for start, line in enumerate(lines):
        if not line.startswith("Traceback (most recent"):
            continue
        end = start + 1
        while end < len(lines) and (lines[end].startswith((" ", "\t")) or not lines[end]):
            end += 1  # the frames are indented; the exception's line is the first that is not
        body = lines[start + 1 : end]
        frame_starts = [i for i, text in enumerate(body) if text.startswith("  File ")]
        shown = body[: frame_starts[frames]] if len(frame_starts) > frames else body
        if len(frame_starts) > frames:
            shown += ["  ...", *body[frame_starts[-1] :]]
        before = [lines[start - 1]] if start > 0 else []
        exception = lines[end : end + 1]
        heads.append("\n".join([*before, line, *shown, *exception]))
    return heads


def wait_until_up(
    base: str, timeout: float = 60.0, process: subprocess.Popen[bytes] | None = None
) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(f"{base}/api/meta", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if process is not None and process.poll() is not None:
            raise SystemExit(f"the server exited with {process.returncode}")
        if time.monotonic() > deadline:
            raise SystemExit("the server did not start")
        time.sleep(0.05)


class Browser:
    """One browser: an identity cookie, an address (``X-Forwarded-For``), same-origin requests."""

    def __init__(self, base: str, address: str = "127.0.0.1", identity: str | None = None) -> None:
        self.base = base
        self.address = address
        self.http = httpx.Client(
            base_url=base, timeout=60, headers={"x-forwarded-for": address, "origin": base}
        )
        if identity:
            self.http.cookies.set(IDENTITY_COOKIE, identity)

    @property
    def identity(self) -> str | None:
        return self.http.cookies.get(IDENTITY_COOKIE)

    def ws_headers(self) -> dict[str, str]:
        """The headers a WebSocket of this browser's carries (cookie, origin, address)."""
        headers = {"origin": self.base, "x-forwarded-for": self.address}
        if self.identity:
            headers["cookie"] = f"{IDENTITY_COOKIE}={self.identity}"
        return headers

    def create(self, body: Mapping[str, Any]) -> httpx.Response:
        return self.http.post("/api/games", json=dict(body))

    def created(self, body: Mapping[str, Any]) -> dict[str, Any]:
        answer = self.create(body)
        if answer.status_code != 200:
            raise SystemExit(f"cannot create {body}: {answer.status_code} {answer.text[:200]}")
        return dict(answer.json())

    def join(self, invite: str) -> httpx.Response:
        """Open an invite link as the front end does: post its secret once."""
        game_id = invite.split("/game/", 1)[1].split("?", 1)[0]
        secret = invite.split("?seat=", 1)[1]
        return self.http.post(f"/api/games/{game_id}/join", json={"seat": secret})

    def state(self, game_id: str) -> dict[str, Any]:
        return dict(self.http.get(f"/api/games/{game_id}").json())

    def close(self) -> None:
        self.http.close()


def online_pair(
    base: str, body: Mapping[str, Any], addresses: tuple[str, str]
) -> tuple[dict[str, Any], Browser, Browser]:
    """An online game of two browsers: the creator (seat 0) and the friend who took the invite."""
    creator, friend = Browser(base, addresses[0]), Browser(base, addresses[1])
    game = creator.created({**body, "mode": "online", "seat": 0})
    answer = friend.join(game["invite"])
    if answer.status_code != 200:
        raise SystemExit(f"cannot join: {answer.status_code} {answer.text[:200]}")
    return game, creator, friend


def store_rows(db_path: Path, games: Iterable[str] | None = None) -> dict[str, Any]:
    """Every row of the store (read-only), by table, each led by its game's id; only those of
    ``games`` if given."""
    wanted = None if games is None else set(games)
    connection = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=30)
    try:
        rows: dict[str, Any] = {}
        for table, key in (("games", "id"), ("actions", "game_id"), ("holdings", "game_id")):
            found = connection.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
            column = [
                d[0] for d in connection.execute(f"SELECT * FROM {table} LIMIT 0").description
            ]
            index = column.index(key)
            rows[table] = [(r[index], *r) for r in found if wanted is None or r[index] in wanted]
        return rows
    finally:
        connection.close()


def changed_rows(before: Mapping[str, Any], after: Mapping[str, Any]) -> int:
    """How many rows of ``before`` are not in ``after`` as they were (changed or gone), plus the
    rows ``after`` has more for the same games."""
    count = 0
    for table, rows in before.items():
        now = set(map(tuple, after.get(table, [])))
        count += sum(1 for row in rows if tuple(row) not in now)
    before_games = {row[0] for row in before.get("games", [])}
    for table in ("actions", "holdings"):
        old = set(map(tuple, before.get(table, [])))
        count += sum(
            1 for row in after.get(table, []) if row[0] in before_games and tuple(row) not in old
        )
    return count


def dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def ws_url(base: str, game_id: str, query: str = "") -> str:
    return f"{base.replace('http', 'ws', 1)}/ws/games/{game_id}{query}"


def settled(state: dict[str, Any]) -> bool:
    mover = state["to_move"]
    return bool(state["over"]) or (mover is not None and state["seats"][mover]["kind"] == "human")


PACE = 0.07  # s between a bench player's messages: under the default 20 a second


def play(base: str, browser: Browser, game_id: str, moves: int, rng: random.Random) -> dict:
    """Play ``moves`` random moves of the browser's seats; the settled state after them."""
    with connect(ws_url(base, game_id), additional_headers=browser.ws_headers()) as ws:
        ws.send(dumps({"type": "hello", "version": -1}))
        made, expected = 0, 0
        while True:
            state = json.loads(ws.recv(timeout=120))
            if state["type"] != "state" or state["version"] < expected:
                continue
            pause = state.get("pause")
            if pause and set(pause["waiting"]) & set(state["you"]):
                # a round's end: play waits for these seats to go on (the game room's pause)
                time.sleep(PACE)
                ws.send(dumps({"type": "continue", "version": state["version"]}))
                expected = state["version"] + 1
                continue
            if not settled(state) or pause:
                continue
            if made >= moves or state["over"] or state["to_move"] not in state["you"]:
                return state
            action = rng.choice(state["legal"])["text"]
            time.sleep(PACE)  # within the server's messages_per_second, as a player is
            ws.send(dumps({"type": "move", "version": state["version"], "action": action}))
            made, expected = made + 1, state["version"] + 1


def answer_codes(answers: list[httpx.Response]) -> str:
    """The answers' statuses (and error codes), most common first: "429 over_limit ×3"."""
    counts = Counter(
        f"{a.status_code} {a.json()['error']['code']}"
        if a.headers.get("content-type", "").startswith("application/json") and a.status_code >= 400
        else str(a.status_code)
        for a in answers
    )
    return ", ".join(f"{k} ×{v}" for k, v in counts.most_common())


class Seen:
    """What one WebSocket client knows of a game: its history, made whole from the deltas."""

    def __init__(self) -> None:
        self.actions: list[str] = []
        self.state: dict[str, Any] | None = None

    def take(self, message: dict[str, Any]) -> dict[str, Any]:
        since = int(message["since"])
        if since > len(self.actions):
            raise AssertionError(
                f"a delta from version {since}, but this client has {len(self.actions)}"
            )
        self.actions = self.actions[:since] + list(message["actions"])
        if len(self.actions) != message["version"]:
            raise AssertionError(f"{len(self.actions)} actions at version {message['version']}")
        self.state = message
        return message


async def play_seats(
    ws_url: str,
    headers: Mapping[str, str],
    rng: Any,
    on_state: Any = None,
    pause: float = 0.0,
) -> dict[str, Any] | None:
    """Play random legal moves for the seats this client holds (``you``) until the game is over
    or the connection ends; ``on_state(seen)`` after every state. The last state, or None."""
    import asyncio

    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    seen = Seen()
    try:
        async with connect(
            ws_url, additional_headers=dict(headers), max_size=None, open_timeout=30
        ) as ws:
            await ws.send(dumps({"type": "hello", "version": -1}))
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] != "state":
                    continue  # (a stale_version is followed by the state)
                seen.take(message)
                if on_state is not None:
                    on_state(seen)
                if message["over"]:
                    return message
                if message["to_move"] in message["you"]:
                    if pause:
                        await asyncio.sleep(pause * rng.random())
                    action = rng.choice(message["legal"])["text"]
                    move = {"type": "move", "version": message["version"], "action": action}
                    await ws.send(dumps(move))
    except (ConnectionClosed, OSError, TimeoutError):
        pass
    return seen.state
