"""Work off the event loop: warmed worker processes, lanes of analysis jobs, and rate limits.

**Warm workers.** The exact solvers' and the compiled search's kernels are compiled by numba
(tens of seconds a game after installing, a second or two to load once cached). Every worker
process the server starts runs :func:`warm_worker` as its initialiser: it loads (or compiles)
every game's kernels (each plugin solver's ``warm_up()``, and a tiny compiled MCTS search:
:func:`gamehall.ai.warm.warm_up_game`) before it takes any job, and the server waits for its
workers to be warm before it offers computer moves, hints or reviews (:meth:`Lane.warm`), so no
first move pays for a compiler.

**Lanes.** A :class:`Lane` runs one kind of analysis job (hints, reviews) on its own: in a
one-process pool (``gamehall serve``: CPU-bound search needs a process, and a long review never
holds up a hint or a computer move), or on threads (tests). A job may report progress
(``progress(done, total)``); from a process the reports come back over a queue and are handed to
the event loop. A lane's queue is bounded: :meth:`Lane.run` refuses work beyond ``limit`` jobs
waiting or running (``busy``). A crashed worker process is replaced and its job fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import itertools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any, TypeVar

from gamehall.core import game_names
from gamehall.web.protocol import ErrorCode, ProtocolError

log = logging.getLogger("gamehall.web")

T = TypeVar("T")

Progress = Callable[[int, int], None]
"""``progress(done, total)``, as a long job reports it."""


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
_PROGRESS_QUEUE: Any = None
"""In a worker process: where its jobs' progress reports go (see :class:`_Relay`)."""


JOB_MODULES = (
    "gamehall.web.computers",
    "gamehall.web.hints",
    "gamehall.web.puzzles",
    "gamehall.web.review",
)
"""The modules whose functions the workers run, imported by the warm-up too: importing the hint
module alone took 1.2 s in a fresh worker at load 13, which the first hint of a server paid."""


def warm_worker(progress_queue: Any = None) -> None:
    """A worker process's initialiser: warm every solver, and import the jobs' modules, before
    the first job."""
    global _WARMED, _PROGRESS_QUEUE
    _PROGRESS_QUEUE = progress_queue
    started = time.perf_counter()
    warm_solvers()
    for module in JOB_MODULES:
        importlib.import_module(module)
    _WARMED = time.perf_counter() - started


def worker_ready() -> float:
    """What the server asks each new worker to learn that it is warm: its warm-up seconds."""
    return _WARMED if _WARMED is not None else 0.0


@dataclass(frozen=True)
class _Relay:
    """A job's progress callback inside a worker process: reports go to the lane's queue,
    tagged with the job's token (picklable, unlike a closure)."""

    token: int

    def __call__(self, done: int, total: int) -> None:
        if _PROGRESS_QUEUE is not None:
            _PROGRESS_QUEUE.put((self.token, done, total))


def warmed_pool(progress_queue: Any = None) -> ProcessPoolExecutor:
    """A one-process pool whose worker warms the solvers before its first job (spawned: a
    fork of a server with threads and an event loop is not safe)."""
    return ProcessPoolExecutor(
        max_workers=1,
        mp_context=get_context("spawn"),
        initializer=warm_worker,
        initargs=(progress_queue,),
    )


async def warm_pools(pools: list[Executor]) -> float:
    """Start every pool's worker and wait until each is warm; the longest warm-up's seconds.

    The first warms alone: after a fresh install it compiles the kernels into numba's cache,
    and the others then load them from there instead of each compiling them too."""
    if not pools:
        return 0.0
    loop = asyncio.get_running_loop()
    first = await loop.run_in_executor(pools[0], worker_ready)
    rest = await asyncio.gather(*(loop.run_in_executor(p, worker_ready) for p in pools[1:]))
    return max([first, *rest])


# --- lanes ---------------------------------------------------------------------------------------

LATE_REPORTS = 5.0
"""Seconds a job's progress reports are still passed on after its result came back."""


class Lane:
    """Jobs of one kind, one at a time, off the event loop (see the module docstring)."""

    def __init__(self, name: str, *, processes: bool, limit: int = 8) -> None:
        self.name = name
        self.processes = processes
        self.limit = limit
        self.waiting = 0
        """Jobs queued or running."""
        self._executor: Executor | None = None
        self._queue: Any = None
        self._reader: threading.Thread | None = None
        self._listeners: dict[int, Progress] = {}
        self._tokens = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        if not self.processes:
            self._executor = ThreadPoolExecutor(
                max_workers=1, thread_name_prefix=f"gamehall-{self.name}"
            )
            return
        self._queue = get_context("spawn").Queue()
        self._executor = warmed_pool(self._queue)
        self._reader = threading.Thread(
            target=self._read_progress, name=f"gamehall-{self.name}-progress", daemon=True
        )
        self._reader.start()

    async def warm(self) -> float:
        """Wait until the lane's worker is warm (at once for threads); its warm-up seconds."""
        if not self.processes or self._executor is None:
            return 0.0
        return await warm_pools([self._executor])

    def stop(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        if self._queue is not None:
            with contextlib.suppress(Exception):
                self._queue.put(None)  # ends the reader
        if self._reader is not None:
            self._reader.join(timeout=5)

    def _read_progress(self) -> None:
        while True:
            try:
                item = self._queue.get()
            except (EOFError, OSError):
                return
            if item is None:
                return
            token, done, total = item
            listener = self._listeners.get(token)
            if listener is not None and self._loop is not None:
                with contextlib.suppress(RuntimeError):  # the loop is closing
                    self._loop.call_soon_threadsafe(listener, done, total)

    async def run(
        self, function: Callable[..., T], *args: Any, progress: Progress | None = None
    ) -> T:
        """``function(*args, progress=...)`` (``progress`` only if given) in the lane's worker.

        Raises ProtocolError(busy) when ``limit`` jobs are already queued or running, and
        ProtocolError(analysis_failed) when the worker process died on it."""
        if self._executor is None or self._loop is None:
            raise ProtocolError(ErrorCode.BUSY, f"the {self.name} worker is not running")
        if self.waiting >= self.limit:
            raise ProtocolError(
                ErrorCode.BUSY,
                f"the server has {self.waiting} {self.name} jobs queued already (at most "
                f"{self.limit}); ask again in a little while",
            )
        loop = self._loop
        token = next(self._tokens)
        call_args: tuple[Any, ...] = args
        relay: Any = None
        if progress is not None:
            if self.processes:
                self._listeners[token] = progress
                relay = _Relay(token)
            else:

                def relay(done: int, total: int) -> None:
                    with contextlib.suppress(RuntimeError):
                        loop.call_soon_threadsafe(progress, done, total)

        self.waiting += 1
        try:
            if relay is not None:
                return await loop.run_in_executor(
                    self._executor, _with_progress, function, call_args, relay
                )
            return await loop.run_in_executor(self._executor, function, *call_args)
        except BrokenProcessPool:
            log.error("the %s worker died; starting a new one", self.name)
            self._replace()
            raise ProtocolError(
                ErrorCode.ANALYSIS_FAILED, f"the {self.name} worker stopped on this job"
            ) from None
        finally:
            self.waiting -= 1
            # Reports come back on a queue of their own, and may arrive after the result.
            loop.call_later(LATE_REPORTS, self._listeners.pop, token, None)

    def _replace(self) -> None:
        with contextlib.suppress(Exception):
            assert self._executor is not None
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = warmed_pool(self._queue)


def _with_progress(function: Callable[..., T], args: tuple[Any, ...], progress: Progress) -> T:
    return function(*args, progress=progress)


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
        finally:
            self._flying[key] -= 1
            if not self._flying[key]:
                del self._flying[key]


__all__ = [
    "Lane",
    "RateLimit",
    "warm_pools",
    "warm_solvers",
    "warm_worker",
    "warmed_pool",
    "worker_ready",
]
