"""How a slot's worker runs a job: on a thread of the server, or in a worker process.

The scheduler (:class:`~gamehall.web.compute.computers.Computers`) holds one runner and hands
it each job a free slot takes; the runner answers within the job's bounds:

* :class:`ProcessRunner` (``gamehall serve``): each slot's worker is a process of its own
  (:class:`~gamehall.web.compute.workers.ProcessWorker`), started and warmed here, that stops a
  search at its time or memory and plays the fallback; a worker that does not answer soon after
  is killed, and one that dies is replaced and asked again (once, with what is left of the
  move's time). An analysis job is sent by its name in :data:`gamehall.web.compute.jobs.JOBS`,
  the table the worker runs it from;
* :class:`ThreadRunner` (tests, or a given agent factory): one agent cache in the server
  process; a job past its time is given up (its thread cannot be stopped, and is left to
  finish) and a random legal move plays instead, or the analysis job fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Coroutine, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from gamehall.web.compute.agents import AgentCache
from gamehall.web.compute.jobs import job_name
from gamehall.web.compute.lanes import (
    Call,
    Choice,
    Job,
    Slot,
    WorkerLane,
    analysis_failed,
    random_move,
)
from gamehall.web.compute.workers import (
    GRACE_SECONDS,
    ProcessWorker,
    Progress,
    WorkerDied,
    WorkerTimeout,
)

log = logging.getLogger("gamehall.web")

_WHY = {
    "stopped": "stopped at its time",
    "memory": "stopped at its memory",
    "failed": "failed (the worker logged why)",
}

Spawn = Callable[[Coroutine[Any, Any, Any]], asyncio.Task[Any]]
"""Runs a coroutine in the background, as a task the scheduler cancels when it stops."""


class Runner(Protocol):
    """What the scheduler asks of its slots' workers."""

    replaced: int
    """How many workers were started again (killed, dead, out of memory)."""

    def start(self, slots: list[Slot]) -> asyncio.Task[None] | None:
        """Give every slot its worker; the task that warms them, if they need warming."""
        ...

    async def move(self, slot: Slot, job: Job) -> Choice:
        """The computer move ``job`` asks for, made by ``slot``'s worker."""
        ...

    async def call(self, slot: Slot, call: Call) -> Any:
        """The analysis job ``call`` run by ``slot``'s worker: its result or its error."""
        ...

    async def stop(self, slots: list[Slot]) -> None:
        """End every slot's worker."""
        ...


# --- threads -------------------------------------------------------------------------------------


def _with_progress(function: Callable[..., Any], args: tuple[Any, ...], progress: Progress) -> Any:
    return function(*args, progress=progress)


class ThreadRunner:
    """Each slot is a one-thread pool; the agents are in one :class:`AgentCache`."""

    def __init__(self, cache: AgentCache) -> None:
        self.cache = cache
        self.replaced = 0

    def start(self, slots: list[Slot]) -> None:
        for slot in slots:
            slot.threads = ThreadPoolExecutor(1, thread_name_prefix=f"gamehall-{slot.name}")
            slot.ready = True

    def _renew(self, slot: Slot) -> None:
        """A thread cannot be stopped: leave it to finish and give the slot a new thread."""
        assert slot.threads is not None
        slot.threads.shutdown(wait=False)
        slot.threads = ThreadPoolExecutor(1, thread_name_prefix=f"gamehall-{slot.name}")
        self.replaced += 1

    async def move(self, slot: Slot, job: Job) -> Choice:
        assert slot.threads is not None and job.state is not None
        seconds = job.left()  # what the move's time has left after waiting for this worker
        running = asyncio.get_running_loop().run_in_executor(
            slot.threads,
            self.cache.choose,
            (job.game_id, job.seat),
            job.state.game,
            job.actions,
            job.level,
            job.seed,
            job.setup,
        )
        try:
            text = await asyncio.wait_for(running, seconds + GRACE_SECONDS)
        except TimeoutError:
            self._renew(slot)
            self.cache.drop((job.game_id, job.seat))
            return random_move(job, f"no move within {seconds:g} s")
        except MemoryError:
            self.cache.drop((job.game_id, job.seat))
            return random_move(job, "out of memory")
        return Choice(text)

    async def call(self, slot: Slot, call: Call) -> Any:
        assert slot.threads is not None
        loop = asyncio.get_running_loop()
        relay = call.relay(loop)
        if relay is not None:
            running = loop.run_in_executor(
                slot.threads, _with_progress, call.function, call.args, relay
            )
        else:
            running = loop.run_in_executor(slot.threads, call.function, *call.args)
        try:
            return await asyncio.wait_for(running, call.seconds + GRACE_SECONDS)
        except TimeoutError:
            self._renew(slot)
            raise analysis_failed(f"it took longer than {call.seconds:g} s") from None

    async def stop(self, slots: list[Slot]) -> None:
        for slot in slots:
            if slot.threads is not None:
                slot.threads.shutdown(wait=False, cancel_futures=True)


# --- processes -----------------------------------------------------------------------------------


class ProcessRunner:
    """Each slot is a worker process (:class:`ProcessWorker`), started, warmed and replaced
    here; ``spawn`` runs its background starts, and ``ready`` is called when a slot serves."""

    def __init__(
        self,
        memory_mb: int,
        lanes: Mapping[str, WorkerLane],
        spawn: Spawn,
        ready: Callable[[], None],
    ) -> None:
        self.memory_mb = memory_mb
        self.lanes = lanes
        self.spawn = spawn
        self.ready = ready
        self.replaced = 0
        self._io: ThreadPoolExecutor | None = None
        """The threads that wait for the workers' answers (one per slot, and one to spare)."""

    # --- life ---

    def start(self, slots: list[Slot]) -> asyncio.Task[None]:
        self._io = ThreadPoolExecutor(
            max_workers=len(slots) + 1, thread_name_prefix="gamehall-agent"
        )
        return asyncio.get_running_loop().create_task(self._start_all(slots))

    async def _start_all(self, slots: list[Slot]) -> None:
        """The first worker warms alone: after a fresh install it compiles the kernels into
        numba's cache, and the others then load them from there instead of each compiling."""
        await self.start_process(slots[0])
        await asyncio.gather(*(self.start_process(slot) for slot in slots[1:]))

    async def start_process(self, slot: Slot) -> None:
        """Start (or start again) a slot's worker process; the slot serves once it is ready."""
        slot.ready = False
        worker = ProcessWorker(slot.name, self.memory_mb)
        worker.spawn()  # on the event loop's thread, which lives as long as the server
        slot.process = worker
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._io, worker.wait_ready)
        except WorkerDied as error:
            log.error("computer %s", error)
            await asyncio.sleep(1.0)
            self.spawn(self.start_process(slot))
            return
        slot.forget.clear()
        slot.ready = True
        self.ready()

    async def stop(self, slots: list[Slot]) -> None:
        loop = asyncio.get_running_loop()
        stops = [
            loop.run_in_executor(None, slot.process.stop)
            for slot in slots
            if slot.process is not None
        ]
        for stopping in stops:
            with contextlib.suppress(Exception):
                await stopping
        if self._io is not None:
            self._io.shutdown(wait=False, cancel_futures=True)

    def _replaced(self, slot: Slot, why: str) -> None:
        log.error("computer worker %s is replaced: %s", slot.name, why)
        slot.ready = False
        self.replaced += 1
        if slot.process is not None:
            slot.process.kill()
        self.lanes[slot.lane].lost(slot)

    async def _restarted(self, slot: Slot, job: Job) -> bool:
        """Start the slot's worker again, waiting for it no longer than ``job`` has time left;
        whether it is ready (if not, it goes on starting and serves once ready)."""
        starting = self.spawn(self.start_process(slot))
        try:
            await asyncio.wait_for(asyncio.shield(starting), job.left())
        except TimeoutError:
            pass
        except OSError as error:  # it could not even be started
            log.error("computer worker %s cannot start: %s", slot.name, error)
        return slot.ready and slot.process is not None and slot.process.alive

    # --- jobs ---

    async def move(self, slot: Slot, job: Job) -> Choice:
        assert job.state is not None
        loop = asyncio.get_running_loop()
        options = json.dumps(dict(job.state.game.options), sort_keys=True)
        for attempt in (1, 2):
            worker = slot.process
            if worker is None or not slot.ready:
                if not await self._restarted(slot, job):
                    return random_move(job, "its worker was not ready again within its time")
                worker = slot.process
                assert worker is not None
            # The time left, not the whole time: waiting for this worker, a lost worker and
            # its start again all count against the move's time.
            seconds = job.left()
            forget, slot.forget = slot.forget, []
            request = (
                "choose",
                (job.game_id, job.seat),
                job.state.game.name,
                options,
                job.setup,
                job.actions,
                job.level,
                job.seed,
                seconds,
                forget,
            )
            try:
                answer = await loop.run_in_executor(self._io, worker.call, request, seconds)
            except WorkerTimeout as error:
                # The fallback plays now; the new worker starts meanwhile (the slot serves
                # again once it is ready), so a stopped search costs no worker start-up.
                self._replaced(slot, str(error))
                self.spawn(self.start_process(slot))
                return random_move(job, str(error))
            except WorkerDied as error:
                self._replaced(slot, str(error))
                if attempt == 2 or job.left() <= 0:
                    self.spawn(self.start_process(slot))
                    why = "twice" if attempt == 2 else "with no time left to ask again"
                    return random_move(job, f"{error}, {why}")
                continue
            _, text, how = answer
            if how != "search":
                why = _WHY.get(how, how)
                log.warning(
                    "computer move in %s (%s) %s: the fallback played", job.game_id, job.level, why
                )
            if how in ("memory", "failed"):  # the worker exits after such a move: start another
                self._replaced(slot, "it ran out of memory" if how == "memory" else "it failed")
                self.spawn(self.start_process(slot))
            return Choice(text, how)
        raise AssertionError("unreachable")

    async def call(self, slot: Slot, call: Call) -> Any:
        loop = asyncio.get_running_loop()
        # The worker runs a job by its name in the jobs' table, never by a module path.
        request = (
            "call",
            job_name(call.function),
            call.args,
            call.seconds,
            call.progress is not None,
        )
        relay = call.relay(loop)
        for attempt in (1, 2):
            worker = slot.process
            if worker is None or not slot.ready:
                await self.start_process(slot)
                worker = slot.process
                assert worker is not None
            try:
                answer = await loop.run_in_executor(
                    self._io, worker.call, request, call.seconds, relay
                )
            except WorkerTimeout as error:
                self._replaced(slot, str(error))
                self.spawn(self.start_process(slot))
                raise analysis_failed(
                    f"its worker did not answer within its time ({error})"
                ) from None
            except WorkerDied as error:
                self._replaced(slot, str(error))
                await self.start_process(slot)
                if attempt == 2:
                    raise analysis_failed(f"its worker was lost twice ({error})") from None
                continue
            kind = answer[0]
            if kind == "result":
                return answer[1]
            if kind == "raised":
                raise answer[1]
            if kind == "memory":  # the worker exits after such a job: start another
                self._replaced(slot, "it ran out of memory")
                self.spawn(self.start_process(slot))
                raise analysis_failed(
                    f"it needed more than {self.memory_mb} MB (limit computer_memory_mb)"
                )
            raise analysis_failed(f"it took longer than {call.seconds:g} s")
        raise AssertionError("unreachable")


__all__ = ["ProcessRunner", "Runner", "Spawn", "ThreadRunner"]
