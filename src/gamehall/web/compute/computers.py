"""Jobs off the event loop, scheduled fairly and bounded: computer moves, hints and reviews.

:class:`Computers` is the scheduler. Its pieces live beside it: the computer seats' agents
(:mod:`gamehall.web.compute.agents`), the lanes of workers that serve clients in turn
(:mod:`gamehall.web.compute.lanes`), and the two ways a worker runs a job, on a thread or in a
process (:mod:`gamehall.web.compute.runners`). Moves are asked with :meth:`Computers.choose`,
analysis jobs (hints, reviews: :class:`~gamehall.web.compute.workers.Lane`) with
:meth:`Computers.call`.

**Bounds.** Every move is bounded by the settings' :class:`~gamehall.core.Limit` (wall-clock
seconds and memory). The time is counted from when the move is asked for (the computer is to
move), whatever it is spent on: waiting for a free worker, a worker starting again, the search,
a second try after a lost worker; a move is answered at most :func:`move_bound` seconds after it
was asked (``seconds`` + its fallback's time, at most 2 s, + the grace of 3 s), and a move still
waiting for a worker at its time plays a random legal move (``late``). An analysis job has the
same bounds: its lane's seconds (past them it fails with ``analysis_failed``), the worker's
memory, and a lost worker replaced and the job asked again (once).

**Warm.** Every worker process loads the solvers' kernels before it is ready
(:func:`gamehall.web.compute.workers.warm_worker`; the first alone, as it may compile the kernels
into numba's cache for the others). The server serves pages meanwhile: a computer move or an
analysis job asked for before every worker is warm waits for them (:meth:`Computers.ready`
says whether they are; :meth:`Computers.warm` waits), and its time counts from then, so the
first move of a fresh server is no slower than later ones and is never played at random for
want of a warm worker.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any

from gamehall.ai import LEVELS, make_agent
from gamehall.core import GamehallError, Limit, State
from gamehall.protocol import ErrorCode, ProtocolError
from gamehall.web.compute.agents import AgentCache, AgentFactory, SeatKey
from gamehall.web.compute.lanes import (
    QUICK_LEVELS,
    Call,
    Choice,
    Job,
    Slot,
    WorkerLane,
    move_bound,
    random_move,
)
from gamehall.web.compute.runners import ProcessRunner, Runner, ThreadRunner
from gamehall.web.compute.workers import Progress

# The lane tests' names for the lanes' pieces.
_Job = Job
_Lane = WorkerLane


class Computers:
    """Chooses computer seats' moves, and runs analysis jobs, off the event loop (see the
    module docstring)."""

    def __init__(
        self,
        factory: AgentFactory | None = None,
        *,
        processes: bool = False,
        workers: int | None = None,
        quick_workers: int = 1,
        limit: Limit | None = None,
        analysis: Mapping[str, int] | None = None,
    ) -> None:
        """``analysis`` names the lanes of analysis jobs and their workers (as ``{"hint": 1}``)."""
        self.factory = factory
        # A factory given in-process (tests) may not be picklable: it runs on threads.
        self.processes = processes and factory is None
        self.limit = limit or Limit(seconds=30.0, memory_mb=1024)
        search = max(1, workers or 1)
        self.lanes = {
            "quick": WorkerLane("quick", max(1, quick_workers)),
            "search": WorkerLane("search", search),
            **{name: WorkerLane(name, max(1, size)) for name, size in (analysis or {}).items()},
        }
        self.cache = AgentCache(factory or make_agent)
        """The agents of the thread mode (processes keep their own)."""
        self.runner: Runner = (
            ProcessRunner(
                self.limit.memory_mb or 1024, self.lanes, self._background, self._dispatch
            )
            if self.processes
            else ThreadRunner(self.cache)
        )
        self._tasks: set[asyncio.Task[Any]] = set()
        self._warming: asyncio.Task[None] | None = None
        self.held: list[Callable[[str], None]] = []
        """Called on the event loop with what was asked (``"move"`` or a lane's name) each time
        a job waits for the warm-up (for tests and monitoring)."""
        self.taken: list[Callable[[str], None]] = []
        """Called on the event loop with a lane's name each time one of its workers takes a
        job (for tests and monitoring: a job in a worker's hands)."""

    @property
    def replaced(self) -> int:
        """How many workers were started again (killed, dead, out of memory)."""
        return self.runner.replaced

    def check_level(self, level: str) -> None:
        """Refuse a level no agent can be made for, and the stepping stones (``greedy:P``,
        ``mcts:N``): players for measuring the levels, whose search has no time bound."""
        if ":" in level:
            raise ProtocolError(
                ErrorCode.BAD_LEVEL,
                f"{level[:40]!r} is not a computer level; levels are: {', '.join(LEVELS)}",
            )
        try:
            (self.factory or make_agent)(level, 0)
        except GamehallError as error:
            raise ProtocolError(ErrorCode.BAD_LEVEL, str(error)) from None

    # --- life ---

    def _slots(self) -> list[Slot]:
        return [slot for lane in self.lanes.values() for slot in lane.slots]

    async def start(self) -> None:
        self._warming = self.runner.start(self._slots())

    @property
    def ready(self) -> bool:
        """Whether every worker is warm (a job asked for now does not wait for the warm-up)."""
        return self._warming is None or self._warming.done()

    async def _until_ready(self, what: str) -> None:
        """Wait for the warm-up, if it is still running (a failed warm-up is waited for no
        longer: the workers that could not start are started again when a job needs them)."""
        if self.ready:
            return
        for listener in self.held:
            listener(what)
        assert self._warming is not None
        with contextlib.suppress(Exception):
            await asyncio.shield(self._warming)

    async def warm(self) -> float:
        """Wait until every worker process has loaded the solvers' kernels and is ready (at
        once on threads); the seconds the slowest warm-up took."""
        if self._warming is not None:
            await asyncio.shield(self._warming)
        return max(
            (slot.process.warmed for slot in self._slots() if slot.process is not None),
            default=0.0,
        )

    async def stop(self) -> None:
        if self._warming is not None and not self._warming.done():
            self._warming.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._warming
        for lane in self.lanes.values():
            for queue in lane.queues.values():
                for job in queue:
                    if not job.future.done():
                        job.future.cancel()
            lane.queues.clear()
        tasks = [task for task in self._tasks if not task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.runner.stop(self._slots())

    def _background(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # --- asking for moves ---

    async def choose(
        self,
        game_id: str,
        state: State,
        actions: Sequence[str],
        seat: int,
        level: str,
        seed: int,
        client: str = "",
        setup: str | None = None,
    ) -> Choice:
        """The move of computer seat ``seat`` of game ``game_id`` at ``state`` (after
        ``actions`` from its ``setup`` position, if any), asked for ``client`` (the browser
        whose game it is). Before the workers are warm the move waits for them; its time
        counts from then."""
        await self._until_ready("move")
        loop = asyncio.get_running_loop()
        job = Job(
            game_id, seat, client, state, list(actions), level, seed, loop.create_future(), setup
        )
        job.deadline = loop.time() + self._seconds()
        job.overdue = loop.call_at(job.deadline, self._late, job)
        self.lanes["quick" if level in QUICK_LEVELS else "search"].put(job)
        self._dispatch()
        try:
            return await job.future  # type: ignore[no-any-return]
        finally:
            job.overdue.cancel()

    async def call(
        self,
        lane: str,
        function: Callable[..., Any],
        args: tuple[Any, ...],
        *,
        client: str = "",
        seconds: float,
        progress: Progress | None = None,
    ) -> Any:
        """``function(*args)`` (with ``progress=`` if given) in a worker of analysis lane
        ``lane``, for ``client``, within ``seconds`` and the worker's memory; its result, or
        the error it raised, or ProtocolError(analysis_failed) past its bounds. Before the
        workers are warm the job waits for them."""
        loop = asyncio.get_running_loop()
        if lane not in self.lanes or lane in ("quick", "search"):
            raise ValueError(f"no analysis lane {lane!r}")
        await self._until_ready(lane)
        job = Job(
            "", -1, client, None, [], "", 0, loop.create_future(),
            call=Call(function, args, seconds, progress),
        )  # fmt: skip
        self.lanes[lane].put(job)
        self._dispatch()
        return await job.future

    def _seconds(self) -> float:
        return self.limit.seconds or 30.0

    def _late(self, job: Job) -> None:
        """A move still waiting for a worker when its time is up: the fallback plays now (its
        worker, once free, passes it by)."""
        if not job.future.done():
            job.future.set_result(random_move(job, "no worker was free within its time", "late"))

    def waiting(self) -> int:
        """Moves waiting for a worker, in every lane."""
        return sum(lane.waiting() for lane in self.lanes.values())

    def _dispatch(self) -> None:
        for lane in self.lanes.values():
            while (taken := lane.take()) is not None:
                slot, job = taken
                if job.overdue is not None:
                    job.overdue.cancel()  # a worker has it: the worker's bounds hold from here
                slot.busy = True
                self._background(self._run(slot, job))
                for listener in self.taken:
                    listener(lane.name)

    async def _run(self, slot: Slot, job: Job) -> None:
        try:
            choice: Any
            if job.call is not None:
                choice = await self.runner.call(slot, job.call)
            else:
                choice = await self.runner.move(slot, job)
        except asyncio.CancelledError:
            if not job.future.done():
                job.future.cancel()
            raise
        except Exception as error:
            if not job.future.done():
                job.future.set_exception(error)
        else:
            if not job.future.done():
                job.future.set_result(choice)
        finally:
            slot.busy = False
            self._dispatch()

    def forget(self, game_id: str) -> None:
        """A game is over: drop its computers' agents wherever they are."""
        self.cache.forget(game_id)
        for lane in self.lanes.values():
            if lane.home.pop(game_id, None) is not None:
                for slot in lane.slots:
                    slot.forget.append(game_id)

    def pids(self) -> list[int]:
        """The worker processes' ids (for tests and the bench scripts)."""
        return [
            slot.process.pid
            for slot in self._slots()
            if slot.process is not None and slot.process.pid is not None and slot.process.alive
        ]


__all__ = [
    "QUICK_LEVELS",
    "AgentCache",
    "AgentFactory",
    "Choice",
    "Computers",
    "SeatKey",
    "move_bound",
]
