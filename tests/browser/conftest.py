"""Browser tests: the real server in a subprocess, Debian's chromium driven by Playwright.

Run them in their own pytest invocation (``pytest tests/browser``; a plain ``pytest`` leaves this
folder out, see ``addopts`` in pyproject.toml): Playwright's sync fixtures leave an event loop
running, which would upset the async tests of the rest of the suite, so a run that collects both
is refused. Chromium and Playwright are hard dependencies (``make test`` installs Debian's
chromium; the ``test`` extra brings Playwright): without them these tests fail, never skip.

Screenshots go to ``test-artifacts/screenshots/`` (gitignored) at the repository root.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import DESKTOP, PHONE, watch

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CHROMIUM = os.environ.get("GAMEHALL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    mine = [item for item in items if HERE in Path(str(item.path)).resolve().parents]
    if mine and len(mine) != len(items):
        raise pytest.UsageError(
            "the browser tests run in their own pytest invocation (pytest tests/browser): "
            "Playwright's sync fixtures leave an event loop running"
        )


@pytest.fixture(scope="session")
def browser_type_launch_args(pytestconfig: pytest.Config) -> dict[str, Any]:
    """pytest-playwright's launch arguments: Debian's chromium, headless, no sandbox."""
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.fail(
            f"chromium not found at {CHROMIUM}: apt-get install chromium (make test does)",
            pytrace=False,
        )
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


# --- the server ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """``gamehall.web.http.server.serve`` in a subprocess on 127.0.0.1, a free port and its own
    SQLite file; :meth:`kill` and :meth:`start` again keep the port and the store."""

    def __init__(self, db_path: Path, log_path: Path) -> None:
        self.db_url = f"sqlite:///{db_path}"
        self.puzzles = db_path.parent / "puzzles"  # none stored: each game's starter set alone
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None

    def start_code(self) -> str:
        """The Python the server process runs."""
        return (
            "from gamehall.web.http.server import serve; "
            f"serve('127.0.0.1', {self.port}, {self.db_url!r}, {str(self.puzzles)!r})"
        )

    def start(self, timeout: float = 120.0) -> None:  # the workers warm the solvers first
        code = self.start_code()
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        src = str(ROOT / "src")
        env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        log = self.log_path.open("ab")
        # Its own session, so kill() can end the server and its computer-player workers together.
        self.process = subprocess.Popen(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited early:\n{self.log()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/meta", timeout=2) as response:
                    if response.status == 200:
                        self.wait_ready(deadline)
                        return
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.15)  # another process: its port answering is the sign it serves
        raise RuntimeError(f"the server did not come up in {timeout} s:\n{self.log()}")

    def wait_ready(self, deadline: float) -> None:
        """Wait until the server's workers are warm (it serves pages before: they warm up in the
        background), so a test's first computer move or hint does not wait for them."""
        while time.monotonic() < deadline:
            with urllib.request.urlopen(f"{self.url}/api/ready?wait=true", timeout=30) as answer:
                if json.loads(answer.read())["ready"]:
                    return
        raise RuntimeError(f"the server's workers did not get ready in time:\n{self.log()}")

    def kill(self) -> None:
        """Kill the server outright (SIGKILL to its process group), like a crash."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()
        self.process = None

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(f"{self.url}{path}", timeout=10) as response:
            return json.loads(response.read())


class AppServer(Server):
    """The app alone under uvicorn (its computer players on threads: no worker processes to
    warm), made by ``create_app(db_url, <app_args>)`` after ``before`` (Python that sets up the
    process, e.g. a shorter limit of a module)."""

    def __init__(self, db_path: Path, log_path: Path, *, app_args: str = "", before: str = ""):
        super().__init__(db_path, log_path)
        self.app_args = app_args
        self.before = before

    def start_code(self) -> str:
        args = f"{self.db_url!r}, {self.app_args}" if self.app_args else f"{self.db_url!r}"
        return (
            f"import uvicorn; {self.before}"
            "from gamehall.web.http.app import create_app; "
            f"uvicorn.run(create_app({args}), "
            f"host='127.0.0.1', port={self.port}, log_level='warning')"
        )


@contextlib.contextmanager
def started(
    tmp_path_factory: pytest.TempPathFactory, name: str, kind: type[Server] = Server, **kwargs: Any
) -> Iterator[Server]:
    """A ``kind`` of server with a fresh store in a new folder ``name``, started, and stopped at
    the end; ``kwargs`` go to ``kind`` (say :class:`AppServer`'s ``app_args`` and ``before``)."""
    folder = tmp_path_factory.mktemp(name)
    running = kind(folder / "gamehall.sqlite3", folder / "server.log", **kwargs)
    running.start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A fresh server (and store) per test module."""
    with started(tmp_path_factory, "server") as running:
        yield running


# --- browsers ------------------------------------------------------------------------------------


@pytest.fixture
def desktop(browser: Any) -> Iterator[Any]:
    """A desktop-sized page in its own browser context (its own cookies)."""
    context = browser.new_context(**DESKTOP)
    context.set_default_timeout(15000)
    page = context.new_page()
    yield watch(page)
    context.close()


@pytest.fixture
def new_context(browser: Any) -> Iterator[Any]:
    """Make more browser contexts (people): new_context(phone=False)."""
    contexts = []

    def make(phone: bool = False, dark: bool = False) -> Any:
        scheme = {"color_scheme": "dark"} if dark else {}
        context = browser.new_context(**(PHONE if phone else DESKTOP), **scheme)
        context.set_default_timeout(15000)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
