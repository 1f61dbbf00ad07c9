"""Worker processes, as the server sees them: warmed, started, bounded, replaced.

One design for every job done off the event loop: computer moves, hints and reviews. A
:class:`ProcessWorker` is one ``python -m gamehall.web.compute.worker`` subprocess (see that module for
the worker's side) and the socket to it. The scheduler (:class:`gamehall.web.compute.computers.Computers`:
lanes of workers, a queue per client in each, served in turn) asks it for one job at a time
(:meth:`ProcessWorker.call`, a blocking call the scheduler runs on a thread of its own) and
bounds it:

* **warm**: a new worker loads (or compiles, once after installing) every game's solver and
  search kernels and imports the jobs' modules (:func:`warm_worker`) before it says it is ready,
  and a move or job asked for before the first workers are ready waits for them (the server
  serves pages meanwhile: :meth:`~gamehall.web.compute.computers.Computers.ready`), so no first
  move, hint or review pays for a compiler within its time; a replaced worker is warm before it takes a job too;

* **memory**: the worker holds its address space to its size once warm plus the limit's
  ``memory_mb`` (``RLIMIT_AS``); past it the worker plays the fallback and exits;
* **time**: the worker stops a search at the limit's ``seconds`` and plays the fallback (an
  analysis job past its own bound fails with ``analysis_failed``); a worker
  that still has not answered a little later (a search stuck in compiled code) is killed
  (:class:`WorkerTimeout`), and the scheduler starts another;
* **death**: a worker that dies (killed, out of memory, a crash) raises :class:`WorkerDied`; the
  scheduler starts another and asks again.

The worker dies with the server (see :mod:`gamehall.web.compute.worker`), and no multiprocessing
helper process (a resource tracker) is ever started.

A :class:`Lane` is how the hint and review services see their lane of the scheduler: its bound
on jobs waiting, and their progress reports. :class:`RateLimit` counts each player's requests.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, Protocol, TypeVar

from gamehall.core import game_names
from gamehall.protocol import ErrorCode, ProtocolError

T = TypeVar("T")

Progress = Callable[[int, int], None]
"""``progress(done, total)``, as a long job reports it."""

log = logging.getLogger("gamehall.web")

START_SECONDS = 300.0
"""How long a new worker may take to import the players, warm the kernels (compiling them once
after installing) and say it is ready."""
GRACE_SECONDS = 3.0
"""How long past a move's time (and its fallback's) a worker may be silent before it is killed."""


class WorkerDied(Exception):
    """The worker process ended (or never started) before it answered."""


class WorkerTimeout(Exception):
    """The worker did not answer in time and was killed."""


def fallback_seconds(seconds: float) -> float:
    """The time the worker gives the fallback move after stopping a search (as it does)."""
    return max(0.2, min(2.0, seconds / 5))


class ProcessWorker:
    """One worker subprocess and its socket."""

    def __init__(self, name: str, memory_mb: int) -> None:
        self.name = name
        self.memory_mb = memory_mb
        self.process: subprocess.Popen[bytes] | None = None
        self.connection: Connection | None = None
        self.pid: int | None = None
        self.warmed = 0.0
        """The seconds its warm-up took (once ready)."""
        self._lock = threading.Lock()

    def spawn(self) -> None:
        """Start the subprocess (quick: it says it is ready later, see :meth:`wait_ready`).
        Call it from a thread that lives as long as the server (the event loop's): on Linux a
        worker dies with the thread that started it."""
        ours, theirs = socket.socketpair()
        try:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gamehall.web.compute.worker",
                    str(os.getpid()),
                    str(theirs.fileno()),
                    str(self.memory_mb),
                ],
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                close_fds=True,
                # The worker imports what the server can (a job is named by its module).
                env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)},
            )
        except OSError:
            ours.close()
            raise
        finally:
            theirs.close()
        self.connection = Connection(ours.detach())
        self.pid = self.process.pid

    def wait_ready(self, timeout: float = START_SECONDS) -> None:
        """Block until the worker says it is ready (WorkerDied if it does not)."""
        connection = self.connection
        if connection is None:
            raise WorkerDied(f"worker {self.name} was not started")
        try:
            if not connection.poll(timeout):
                self.kill()
                raise WorkerDied(f"worker {self.name} did not start within {timeout:g} s")
            message = connection.recv()
        except (EOFError, OSError) as error:
            self.kill()
            raise WorkerDied(f"worker {self.name} ended while starting") from error
        if not (isinstance(message, tuple) and message and message[0] == "ready"):
            self.kill()
            raise WorkerDied(f"worker {self.name} said {message!r} instead of ready")
        self.warmed = float(message[2]) if len(message) > 2 else 0.0

    def call(
        self,
        request: tuple[Any, ...],
        seconds: float,
        progress: Progress | None = None,
    ) -> tuple[Any, ...]:
        """Send one request and wait for its answer: at most ``seconds`` (the job's time) plus
        its fallback's time plus :data:`GRACE_SECONDS`, else the worker is killed. Progress
        reports that come first go to ``progress``."""
        connection = self.connection
        if connection is None:
            raise WorkerDied(f"worker {self.name} is not running")
        with self._lock:
            try:
                connection.send(request)
                wait = seconds + fallback_seconds(seconds) + GRACE_SECONDS
                deadline = time.monotonic() + wait
                while True:
                    if not connection.poll(max(0.0, deadline - time.monotonic())):
                        self.kill()
                        raise WorkerTimeout(
                            f"worker {self.name} did not answer within {wait:g} s and was stopped"
                        )
                    answer = connection.recv()
                    if not (isinstance(answer, tuple) and answer and answer[0] == "progress"):
                        break
                    if progress is not None:
                        progress(answer[1], answer[2])
            except (EOFError, OSError, BrokenPipeError) as error:
                code = self.reap()
                raise WorkerDied(f"worker {self.name} ended (exit status {code})") from error
        return answer  # type: ignore[no-any-return]

    def kill(self) -> None:
        """Stop the worker at once and reap it."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(OSError):
                self.process.kill()
        self.reap()

    def reap(self, timeout: float = 5.0) -> int | None:
        """Wait for the ended process (so it leaves no zombie) and close the socket."""
        code = None
        if self.process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self.process.wait(timeout)
        if self.connection is not None:
            with contextlib.suppress(OSError):
                self.connection.close()
            self.connection = None
        return code

    def stop(self) -> None:
        """End the worker: close its socket (it exits), then kill it if it lingers."""
        if self.connection is not None:
            with contextlib.suppress(OSError):
                self.connection.close()
            self.connection = None
        if self.process is not None:
            deadline = time.monotonic() + 1.0
            while self.process.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            self.kill()

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None


# --- warm workers --------------------------------------------------------------------------------


def warm_solvers() -> float:
    """Load (or compile, once after installing) every game's kernels: its exact solver's and its
    compiled search's (:func:`gamehall.ai.warm.warm_up_game`); the seconds it took. A game that
    fails to warm up is logged and left to warm itself when used."""
    from gamehall.ai.warm import warm_up_game

    started = time.perf_counter()
    for name in game_names():
        try:
            warm_up_game(name)
        except Exception:
            log.exception("cannot warm up the %s kernels", name)
    return time.perf_counter() - started


_WARMED: float | None = None
"""In a worker process: how long its warm-up took."""


JOB_MODULES = (
    "gamehall.web.compute.agents",
    "gamehall.web.compute.analysis",
    "gamehall.web.compute.hints",
    "gamehall.web.compute.puzzles",
    "gamehall.web.compute.review",
    "gamehall.web.compute.jobs",
)
"""The modules whose code the workers run (computer seats' agents, the jobs' table and its
modules), imported by the warm-up too: importing the hint module alone took 1.2 s in a fresh
worker at load 13, which the first hint of a server paid."""


def warm_worker() -> float:
    """What a worker process does before it says it is ready: warm every solver, and import the
    jobs' modules; the seconds it took."""
    global _WARMED
    started = time.perf_counter()
    warm_solvers()
    for module in JOB_MODULES:
        try:
            importlib.import_module(module)
        except Exception:  # (out of memory, say): the worker serves, and its jobs say why
            log.exception("cannot import %s", module)
    _WARMED = time.perf_counter() - started
    return _WARMED


def warmed_seconds() -> float | None:
    """In a worker process: how long its warm-up took (None: it has not warmed up)."""
    return _WARMED


def worker_ready() -> float:
    """What the server asks each new worker to learn that it is warm: its warm-up seconds."""
    return _WARMED if _WARMED is not None else 0.0


# --- lanes of analysis jobs ----------------------------------------------------------------------


class JobRunner(Protocol):
    """The scheduler, as a lane sees it (:class:`gamehall.web.compute.computers.Computers`)."""

    async def call(
        self,
        lane: str,
        function: Callable[..., Any],
        args: tuple[Any, ...],
        *,
        client: str,
        seconds: float,
        progress: Progress | None,
    ) -> Any: ...


class Lane:
    """One kind of analysis job (hints, reviews) in a lane of the scheduler's workers (a worker
    process of its own under ``gamehall serve``, so a long review never holds up a hint or a
    computer move), under the same bounds as computer moves: each job within ``seconds`` and the
    worker's memory, a dead worker replaced and the job asked again, clients served in turn.
    At most ``limit`` jobs wait or run at once (beyond: ``busy``)."""

    def __init__(
        self,
        name: str,
        runner: JobRunner,
        *,
        limit: int = 8,
        seconds: float,
        what: str | None = None,
    ) -> None:
        self.name = name
        self.what = what or name
        """What its jobs are called in a refusal (several kinds of job may share a lane)."""
        self.runner = runner
        self.limit = limit
        self.seconds = seconds
        self.waiting = 0
        """Jobs queued or running."""

    async def run(
        self,
        function: Callable[..., T],
        *args: Any,
        progress: Progress | None = None,
        client: str = "",
    ) -> T:
        """``function(*args, progress=...)`` (``progress`` only if given; ``function`` at a
        module's top level) in the lane's worker, for ``client``.

        Raises ProtocolError(busy) when ``limit`` jobs are already queued or running, and
        ProtocolError(analysis_failed) past the lane's bounds or when its worker was lost."""
        if self.waiting >= self.limit:
            raise ProtocolError(
                ErrorCode.BUSY,
                f"the server has {self.waiting} {self.what} jobs queued already (at most "
                f"{self.limit}); ask again in a little while",
            )
        self.waiting += 1
        try:
            return await self.runner.call(  # type: ignore[no-any-return]
                self.name,
                function,
                args,
                client=client,
                seconds=self.seconds,
                progress=progress,
            )
        finally:
            self.waiting -= 1


# --- rate limits ---------------------------------------------------------------------------------


class RateLimit:
    """At most ``count`` requests per ``seconds`` for each key (a player), and at most
    ``at_once`` of them in flight; refusals name the limit and when to ask again."""

    def __init__(self, what: str, count: int, seconds: float, at_once: int = 1) -> None:
        self.what = what
        self.count = count
        self.seconds = seconds
        self.at_once = at_once
        self._times: dict[str, deque[float]] = {}
        self._flying: dict[str, int] = {}

    KEYS = 4096
    """Past this many players remembered, those with no recent request are forgotten."""

    def _recent(self, key: str, now: float) -> deque[float]:
        if len(self._times) > self.KEYS:
            for old in [k for k, t in self._times.items() if not t or t[-1] <= now - self.seconds]:
                del self._times[old]
        times = self._times.setdefault(key, deque())
        while times and times[0] <= now - self.seconds:
            times.popleft()
        return times

    @contextlib.contextmanager
    def hold(self, key: str) -> Any:
        """Count one request of ``key`` while it runs; raises ProtocolError(rate_limited)."""
        now = time.monotonic()
        times = self._recent(key, now)
        if self._flying.get(key, 0) >= self.at_once:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"your last {self.what} is still being worked out: one at a time",
            )
        if len(times) >= self.count:
            wait = times[0] + self.seconds - now
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"at most {self.count} {self.what}s every {self.seconds:g} s; "
                f"ask again in {max(1, round(wait))} s",
            )
        times.append(now)
        self._flying[key] = self._flying.get(key, 0) + 1
        try:
            yield
        except ProtocolError as error:
            if error.code == ErrorCode.BUSY:  # refused for want of room: the asker loses nothing
                with contextlib.suppress(ValueError):
                    times.remove(now)
            raise
        finally:
            self._flying[key] -= 1
            if not self._flying[key]:
                del self._flying[key]


class InFlight:
    """At most ``at_once`` jobs of one kind in flight for each network address, so identities
    made up at one address cannot hold a lane (several people behind one address share it;
    an unknown address, "", is not counted)."""

    def __init__(self, what: str, at_once: int) -> None:
        self.what = what
        self.at_once = at_once
        self._flying: dict[str, int] = {}

    def check(self, address: str, flying: int) -> None:
        """Refuse (ProtocolError(rate_limited)) when ``address`` has ``flying`` jobs already."""
        if address and flying >= self.at_once:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"{flying} {self.what}s asked for from your network address are being worked "
                f"out already (at most {self.at_once} at once); ask again when one is done",
            )

    @contextlib.contextmanager
    def hold(self, address: str) -> Any:
        """Count one job of ``address`` while it runs (refused past ``at_once``)."""
        self.check(address, self._flying.get(address, 0))
        if not address:
            yield
            return
        self._flying[address] = self._flying.get(address, 0) + 1
        try:
            yield
        finally:
            self._flying[address] -= 1
            if not self._flying[address]:
                del self._flying[address]


__all__ = [
    "GRACE_SECONDS",
    "JOB_MODULES",
    "InFlight",
    "Lane",
    "ProcessWorker",
    "Progress",
    "RateLimit",
    "WorkerDied",
    "WorkerTimeout",
    "fallback_seconds",
    "warm_solvers",
    "warm_worker",
    "warmed_seconds",
    "worker_ready",
]
