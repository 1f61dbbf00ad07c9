"""The scheduler's lanes: slots of workers, and per client a queue of jobs served in turn.

**Fair shares.** :class:`~gamehall.web.compute.computers.Computers` keeps two lanes of workers
for computer moves: the quick levels (:data:`QUICK_LEVELS`) have workers of their own, so they
never queue behind a search, and the search levels share the rest. In each lane every client
(the browser a game belongs to) has its own queue, and free workers take the next job from the
clients in turn (round robin), so one client's thirty games delay another's move by at most one
move each. A game's moves go to the worker that has its agents when that one is free, else to
any free one. Analysis jobs (hints, reviews) have lanes of their own, with the same per-client
turns, so a review never holds up a hint and neither holds up a computer move.

A job is a move (:class:`Job`) or an analysis call (:class:`Call`); what a slot's worker
answers is a :class:`Choice`, or, when it cannot, :func:`random_move` or
:func:`analysis_failed`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from gamehall.ai.basic import RandomAgent
from gamehall.core import State
from gamehall.protocol import ErrorCode, ProtocolError
from gamehall.web.compute.workers import GRACE_SECONDS, ProcessWorker, Progress, fallback_seconds

log = logging.getLogger("gamehall.web")

QUICK_LEVELS = frozenset({"beginner", "easy"})
"""Levels that answer at once: they have workers of their own."""


@dataclass(frozen=True)
class Choice:
    """A computer's move and how it was found: ``search`` (the level played), ``stopped`` (past
    its time: the fallback played), ``memory`` (past its memory: the fallback played),
    ``failed`` (the search raised an error, logged: the fallback played), ``lost``
    (the worker was lost: a random legal move) or ``late`` (no worker was free before its time
    was up: a random legal move)."""

    text: str
    how: str = "search"


@dataclass(frozen=True)
class Call:
    """An analysis job: ``function(*args)`` (a module-level function) within ``seconds``."""

    function: Callable[..., Any]
    args: tuple[Any, ...]
    seconds: float
    progress: Progress | None

    def relay(self, loop: asyncio.AbstractEventLoop) -> Progress | None:
        """The job's ``progress`` as a worker's thread may call it (it runs on ``loop``)."""
        progress = self.progress
        if progress is None:
            return None

        def relay(done: int, total: int) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closing
                loop.call_soon_threadsafe(progress, done, total)

        return relay


@dataclass(eq=False)
class Job:
    """A computer move waiting for, or being made by, a worker (or an analysis :class:`Call`)."""

    game_id: str
    seat: int
    client: str
    state: State | None
    actions: list[str]
    level: str
    seed: int
    future: asyncio.Future[Any]
    setup: str | None = None
    call: Call | None = None
    """An analysis job instead of a move."""
    deadline: float = 0.0
    """When the move's time is up (the event loop's clock): it was asked ``seconds`` before."""
    overdue: asyncio.TimerHandle | None = None
    """Plays the fallback if the move is still waiting for a worker at its deadline."""

    def left(self) -> float:
        """The seconds left of the move's time (0 when it is up)."""
        return max(0.0, self.deadline - asyncio.get_running_loop().time())


def move_bound(seconds: float) -> float:
    """The longest a computer move with ``seconds`` of time takes from being asked to being
    answered, whatever happens meanwhile: its time, its fallback's, and the grace after which
    a silent worker is killed (then a random legal move plays at once)."""
    return seconds + fallback_seconds(seconds) + GRACE_SECONDS


def random_move(job: Job, why: str, how: str = "lost") -> Choice:
    """A random legal move (seeded), when the worker could not give one."""
    log.error(
        "computer move in %s (%s): %s; a random legal move plays", job.game_id, job.level, why
    )
    assert job.state is not None
    return Choice(str(RandomAgent(job.seed).choose(job.state)), how)


def analysis_failed(why: str) -> ProtocolError:
    """The error of an analysis job stopped past its bounds."""
    return ProtocolError(ErrorCode.ANALYSIS_FAILED, f"the job was stopped: {why}")


class Slot:
    """One worker of a lane: a process, or (thread mode) a one-thread pool."""

    def __init__(self, lane: str, index: int) -> None:
        self.lane = lane
        self.name = f"{lane}-{index}"
        self.index = index
        self.busy = False
        self.ready = False
        self.process: ProcessWorker | None = None
        self.threads: ThreadPoolExecutor | None = None
        self.forget: list[str] = []
        """Games over since the worker last served: its agents of them are dropped then."""


class WorkerLane:
    """Workers and, per client, a queue of moves to make; a free worker serves the waiting
    client it served least recently (round robin that remembers: a client whose queue ran dry
    does not jump the others when its next move arrives)."""

    MEMORY = 10_000
    """Clients whose last turn is remembered (the oldest are forgotten past it)."""

    def __init__(self, name: str, size: int) -> None:
        self.name = name
        self.slots = [Slot(name, i) for i in range(size)]
        self.queues: dict[str, deque[Job]] = {}
        self.served: OrderedDict[str, int] = OrderedDict()
        """When each client was last served (a count of moves taken), oldest first."""
        self.taken = 0
        self.home: dict[str, int] = {}
        """The worker that has each game's agents."""

    def put(self, job: Job) -> None:
        self.queues.setdefault(job.client, deque()).append(job)

    def take(self) -> tuple[Slot, Job] | None:
        """The next move to make and the worker to make it, if a worker is free."""
        free = [slot for slot in self.slots if slot.ready and not slot.busy]
        while free and self.queues:
            client = min(self.queues, key=lambda c: self.served.get(c, -1))
            queue = self.queues[client]
            job = queue.popleft()
            if not queue:
                del self.queues[client]
            if job.future.done():  # given up (the server stops)
                continue
            self.taken += 1
            self.served.pop(client, None)
            self.served[client] = self.taken
            while len(self.served) > self.MEMORY:
                self.served.popitem(last=False)
            if job.call is not None:
                return free[0], job
            home = self.home.get(job.game_id)
            slot = next((s for s in free if s.index == home), free[0])
            self.home[job.game_id] = slot.index
            return slot, job
        return None

    def lost(self, slot: Slot) -> None:
        """The slot's worker is gone, and its agents with it: its games have no home now."""
        for game_id in [g for g, home in self.home.items() if home == slot.index]:
            del self.home[game_id]

    def waiting(self) -> int:
        return sum(len(queue) for queue in self.queues.values())


__all__ = [
    "QUICK_LEVELS",
    "Call",
    "Choice",
    "Job",
    "Slot",
    "WorkerLane",
    "analysis_failed",
    "move_bound",
    "random_move",
]
