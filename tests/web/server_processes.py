"""Halls of real `gamehall serve` processes for the tests that need more than one (or a real
process to kill): a process with its log lines to wait on, and browsers that talk to any of
them with their cookies (tests/web/http/test_multiprocess.py, tests/web/compute)."""

from __future__ import annotations

import collections
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

TIMEOUT = 20.0
STARTUP = 180.0
"""The longest a server may take to start serving."""
SETTINGS = [
    "messages_per_second=1000",
    "games_per_minute=1000",
    "resyncs_per_minute=1000",
    "search_workers=1",
]
GAMEHALL = [sys.executable, "-c", "from gamehall.cli.app import main; main()"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Process:
    """One ``gamehall serve`` process, its output read as it comes (the serving lines are the
    events the tests wait for; reading also keeps the pipes from filling up)."""

    def __init__(self, db: str, workers: int = 1, log_level: str = "info") -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.workers = workers
        command = [*GAMEHALL, "serve", "--port", str(self.port), "--db", db]
        command += ["--log-level", log_level]  # the log lines some tests wait for
        for item in SETTINGS:
            command += ["--set", item]
        if workers > 1:
            command += ["--workers", str(workers)]
        self.popen = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        self.serving = 0
        """How many "… is serving at …" lines it printed: one per server process once its
        workers are warm (one, or one per ``--workers`` process and per replacement)."""
        self.warm = 0
        """How many "… computer players are ready …" lines it printed: one per server process
        once its workers are warm (they warm up in the background, after it serves)."""
        self.errors: collections.deque[str] = collections.deque(maxlen=100)
        self.said: list[str] = []
        """Every line of its standard error: its log (see ``--log-level``)."""
        self._said = threading.Condition()
        self._readers = [
            threading.Thread(target=self._read, args=(stream, out), daemon=True)
            for stream, out in ((self.popen.stdout, True), (self.popen.stderr, False))
        ]
        for reader in self._readers:
            reader.start()

    def _read(self, stream: Any, out: bool) -> None:
        for line in stream:
            with self._said:
                if not out:
                    self.errors.append(line)
                    self.said.append(line)
                elif " is serving at " in line:
                    self.serving += 1
                elif " computer players are ready " in line:
                    self.warm += 1
                self._said.notify_all()
        with self._said:  # the process has ended (or closed its output)
            self._said.notify_all()

    def wait_serving(self, count: int, timeout: float = STARTUP) -> None:
        """Wait until ``count`` server processes have said they serve (the timeout only fails
        a broken run)."""
        self._wait_count("serving", count, timeout, "servers serve")

    def wait_warm(self, count: int, timeout: float = STARTUP) -> None:
        """Wait until ``count`` server processes have said their workers are warm (a server
        serves before; its first computer move or hint waits for them)."""
        self._wait_count("warm", count, timeout, "servers have warm workers")

    def _wait_count(self, counter: str, count: int, timeout: float, what: str) -> None:
        """Wait until the count ``counter`` of the processes' sayings reaches ``count``, or the
        server exits (an error with its output)."""
        with self._said:
            self._said.wait_for(
                lambda: getattr(self, counter) >= count or self.popen.poll() is not None, timeout
            )
            if self.popen.poll() is not None:
                raise AssertionError(f"the server exited: {''.join(self.errors)[-2000:]}")
            seen = getattr(self, counter)
            assert seen >= count, f"{seen} of {count} {what}"

    def lines(self, text: str) -> list[str]:
        """The log lines so far that contain ``text``."""
        with self._said:
            return [line for line in self.said if text in line]

    def wait_said(self, text: str, count: int = 1, timeout: float = TIMEOUT) -> list[str]:
        """Wait until ``count`` log lines contain ``text`` (the timeout only fails a broken
        run); those lines."""
        with self._said:
            self._said.wait_for(
                lambda: len(self.lines(text)) >= count or self.popen.poll() is not None, timeout
            )
            lines = self.lines(text)
            assert len(lines) >= count, f"{len(lines)} of {count} lines with {text!r}"
            return lines

    def wait_up(self) -> None:
        # A server serves at once and its workers load the solvers' kernels in the background:
        # 20-25 s each at a load of 10 on this machine's 2 cores, and `--workers 2` warms two
        # servers' at once. The tests start once they are warm.
        self.wait_serving(self.workers)
        self.wait_warm(self.workers)
        # One process binds its port just after it says so (the app's startup comes first);
        # nothing outside it tells of that moment, so the first connection may be refused.
        deadline = time.monotonic() + 10
        while True:
            try:
                assert httpx.get(f"{self.base}/api/meta", timeout=TIMEOUT).status_code == 200
                return
            except httpx.ConnectError:
                assert time.monotonic() < deadline, "the server said it serves but does not"
                time.sleep(0.02)

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=10)

    def stop(self) -> None:
        if self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        for reader in self._readers:
            reader.join(timeout=10)


@contextlib.contextmanager
def hall(db: str, count: int, workers: int = 1, log_level: str = "info") -> Iterator[list[Process]]:
    processes = [Process(db, workers, log_level) for _ in range(count)]
    try:
        for process in processes:
            process.wait_up()
        yield processes
    finally:
        for process in processes:
            process.stop()


class Browser:
    """A browser: one identity cookie, used on whichever process it talks to."""

    def __init__(self) -> None:
        self.cookie = ""

    def post(self, process: Process, path: str, body: dict[str, Any]) -> dict[str, Any]:
        headers = {"cookie": f"gh_player={self.cookie}"} if self.cookie else {}
        answer = httpx.post(f"{process.base}{path}", json=body, headers=headers, timeout=TIMEOUT)
        assert answer.status_code == 200, answer.text
        self.cookie = answer.cookies.get("gh_player") or self.cookie
        return answer.json()

    def socket(self, process: Process, game_id: str) -> Socket:
        ws = connect(
            f"ws://127.0.0.1:{process.port}/ws/games/{game_id}",
            additional_headers={"cookie": f"gh_player={self.cookie}"} if self.cookie else {},
            open_timeout=TIMEOUT,
        )
        return Socket(ws)


class Socket:
    """A WebSocket client that keeps the game's history from the state deltas."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.actions: list[str] = []
        self.state: dict[str, Any] = {}

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def receive(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        message = json.loads(self.ws.recv(timeout=timeout))
        if message["type"] == "state":
            assert message["since"] <= len(self.actions)
            self.actions = self.actions[: message["since"]] + message["actions"]
            self.state = message
        return message

    def hello(self) -> dict[str, Any]:
        # The version had (a log's entries: the actions, unless there were takebacks or their
        # offers), else the actions had, else nothing.
        had = self.state["version"] if self.state else len(self.actions) if self.actions else -1
        self.send({"type": "hello", "version": had})
        return self.until(lambda m: m["type"] == "state")

    def until(self, wanted: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            message = self.receive(timeout=left)
            if wanted(message):
                return message
        raise AssertionError("no such message in time")

    def at_least(self, version: int) -> dict[str, Any]:
        if self.state and self.state["version"] >= version:
            return self.state
        return self.until(lambda m: m["type"] == "state" and m["version"] >= version)

    def close(self) -> None:
        self.ws.close()


class Member:
    """A browser that keeps every cookie the hall sets (identity and session)."""

    def __init__(self) -> None:
        self.cookies: dict[str, str] = {}

    def headers(self) -> dict[str, str]:
        return {"cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}

    def call(self, process: Process, method: str, path: str, body: Any = None) -> Any:
        answer = httpx.request(
            method, f"{process.base}{path}", json=body, headers=self.headers(), timeout=TIMEOUT
        )
        assert answer.status_code in (200, 201), answer.text
        self.cookies.update({k: v for k, v in answer.cookies.items() if v})
        return answer.json()

    def socket(self, process: Process, path: str) -> Socket:
        ws = connect(
            f"ws://127.0.0.1:{process.port}{path}",
            additional_headers=self.headers(),
            open_timeout=TIMEOUT,
        )
        return Socket(ws)
