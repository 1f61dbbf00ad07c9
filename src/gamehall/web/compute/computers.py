"""Jobs off the event loop, scheduled fairly and bounded: computer moves, hints and reviews.

**Agents.** An agent that keeps a search tree (MCTS) reuses the subtree of what really happened,
as long as the same agent object is told of every action (:meth:`Agent.observe`: its own, the
opponent's and chance) and asked again. Agents live in an :class:`AgentCache`, keyed by game id
and seat. The cache is lazy: an agent catches up when it is next asked to move, observing every
action stored since it last moved (so a computer seat costs nothing while a person thinks); an
agent that is missing (a restart, an eviction, another worker) is made afresh and catches up
from the game's start the same way. Its seed comes from the game's secret seed and the seat.

**Fair shares.** Moves are asked of :class:`Computers`, which keeps two *lanes* of workers:
the quick levels (``beginner``, ``easy``) have workers of their own, so they never queue behind a
search, and the search levels share the rest. In each lane every client (the browser a game
belongs to) has its own queue, and free workers take the next move from the clients in turn
(round robin), so one client's thirty games delay another's move by at most one move each.
A game's moves go to the worker that has its agents when that one is free, else to any free one.
Analysis jobs (hints, reviews: :class:`~gamehall.web.compute.workers.Lane`, :meth:`Computers.call`)
have lanes of their own in the same scheduler, with the same per-client turns, so a review
never holds up a hint and neither holds up a computer move.

**Bounds.** Every move is bounded by the settings' :class:`~gamehall.core.Limit` (wall-clock
seconds and memory). The time is counted from when the move is asked for (the computer is to
move), whatever it is spent on: waiting for a free worker, a worker starting again, the search,
a second try after a lost worker; a move is answered at most :func:`move_bound` seconds after it
was asked (``seconds`` + its fallback's time, at most 2 s, + :data:`GRACE_SECONDS`, 3 s), and a
move still waiting for a worker at its time plays a random legal move (``late``):

* **processes** (``gamehall serve``): each worker is a process of its own
  (:mod:`gamehall.web.compute.workers`) that stops a search at its time or memory and plays the fallback
  (the ``easy`` player, then a random legal move); a worker that does not answer soon after is
  killed, and one that dies is replaced and asked again (once, with what is left of the
  move's time), so a lost worker never breaks computer play;
* **threads** (tests, or a given agent factory): one cache in the server process; a move past its
  time is given up (its thread cannot be stopped, and is left to finish) and a random legal move
  plays instead.

An analysis job has the same bounds: its lane's seconds (past them it fails with
``analysis_failed``; a thread is left to finish), the worker's memory, and a lost worker replaced
and the job asked again (once).

**Warm.** Every worker process loads the solvers' kernels before it is ready
(:func:`gamehall.web.compute.workers.warm_worker`), and the server waits for all of them
(:meth:`Computers.warm`: the first alone, as it may compile the kernels into numba's cache for
the others) before it offers computer moves, hints or reviews, so the first move of a fresh
server is no slower than later ones.

Caches are bounded (least recently used agents go first) and a finished game's agents are
dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from gamehall.ai import LEVELS, make_agent
from gamehall.ai.basic import RandomAgent
from gamehall.core import Agent, Game, GamehallError, Limit, State
from gamehall.protocol import ErrorCode, ProtocolError
from gamehall.web.base.engine import start_state
from gamehall.web.compute.workers import (
    GRACE_SECONDS,
    ProcessWorker,
    Progress,
    WorkerDied,
    WorkerTimeout,
    fallback_seconds,
)

log = logging.getLogger("gamehall.web")

AgentFactory = Callable[[str, int | None], Agent]
"""Makes the computer player for a level and a seed (default: :func:`gamehall.ai.make_agent`)."""

SeatKey = tuple[str, int]
"""A computer seat: (game id, seat index)."""

CACHE_LIMIT = 64
"""Agents kept per cache (per worker process): an MCTS tree of a strong level is a few MB."""

_WHY = {
    "stopped": "stopped at its time",
    "memory": "stopped at its memory",
    "failed": "failed (the worker logged why)",
}

QUICK_LEVELS = frozenset({"beginner", "easy"})
"""Levels that answer at once: they have workers of their own."""


@dataclass
class _SeatAgent:
    agent: Agent
    level: str
    state: State
    seen: list[str] = field(default_factory=list)
    """The actions the agent has been told of, in order (``state`` is the state after them)."""


class AgentCache:
    """The agents of computer seats, one per (game id, seat), told of every action."""

    def __init__(self, factory: AgentFactory = make_agent, limit: int = CACHE_LIMIT) -> None:
        self.factory = factory
        self.limit = limit
        self._agents: OrderedDict[SeatKey, _SeatAgent] = OrderedDict()
        self._lock = threading.Lock()
        self.made = 0
        """How many agents were made (a test can see that one agent serves a whole game)."""

    def catch_up(
        self,
        key: SeatKey,
        game: Game,
        actions: Sequence[str],
        level: str,
        seed: int,
        setup: str | None = None,
    ) -> tuple[_SeatAgent, State]:
        """The seat's agent, taken out of the cache (it serves one move at a time) and told of
        every action since it last moved, and the state after ``actions`` (from the game's
        ``setup`` position, if it has one)."""
        with self._lock:
            entry = self._agents.pop(key, None)
        if (
            entry is None
            or entry.level != level
            or entry.state.game != game
            or len(entry.seen) > len(actions)
            or list(actions[: len(entry.seen)]) != entry.seen
        ):
            entry = _SeatAgent(self.factory(level, seed), level, start_state(game, setup))
            self.made += 1
        state = entry.state
        for text in actions[len(entry.seen) :]:
            action = game.parse_action(text)  # stored actions were checked when played
            entry.agent.observe(state, action)
            state = state.apply_trusted(action)
            entry.seen.append(text)
        entry.state = state
        return entry, state

    def keep(self, key: SeatKey, entry: _SeatAgent) -> None:
        """Put an agent back after its move (the least recently used go past the limit)."""
        with self._lock:
            self._agents[key] = entry
            while len(self._agents) > self.limit:
                self._agents.popitem(last=False)

    def drop(self, key: SeatKey) -> None:
        """Forget one seat's agent (its search was stopped: its tree may be half made)."""
        with self._lock:
            self._agents.pop(key, None)

    def choose(
        self,
        key: SeatKey,
        game: Game,
        actions: Sequence[str],
        level: str,
        seed: int,
        setup: str | None = None,
    ) -> str:
        """The move of seat ``key`` after ``actions`` (the game's every action so far)."""
        entry, state = self.catch_up(key, game, actions, level, seed, setup)
        chosen = str(entry.agent.choose(state))
        self.keep(key, entry)
        return chosen

    def forget(self, game_id: str) -> None:
        """Drop a game's agents (it is over)."""
        with self._lock:
            for key in [k for k in self._agents if k[0] == game_id]:
                del self._agents[key]

    def __contains__(self, key: SeatKey) -> bool:
        return key in self._agents

    def __len__(self) -> int:
        return len(self._agents)


# --- the scheduler -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """A computer's move and how it was found: ``search`` (the level played), ``stopped`` (past
    its time: the fallback played), ``memory`` (past its memory: the fallback played),
    ``failed`` (the search raised an error, logged: the fallback played), ``lost``
    (the worker was lost: a random legal move) or ``late`` (no worker was free before its time
    was up: a random legal move)."""

    text: str
    how: str = "search"


@dataclass(eq=False)
class _Job:
    game_id: str
    seat: int
    client: str
    state: State | None
    actions: list[str]
    level: str
    seed: int
    future: asyncio.Future[Any]
    setup: str | None = None
    call: _Call | None = None
    """An analysis job instead of a move."""
    deadline: float = 0.0
    """When the move's time is up (the event loop's clock): it was asked ``seconds`` before."""
    overdue: asyncio.TimerHandle | None = None
    """Plays the fallback if the move is still waiting for a worker at its deadline."""

    def left(self) -> float:
        """The seconds left of the move's time (0 when it is up)."""
        return max(0.0, self.deadline - asyncio.get_running_loop().time())


@dataclass(frozen=True)
class _Call:
    """An analysis job: ``function(*args)`` (a module-level function) within ``seconds``."""

    function: Callable[..., Any]
    args: tuple[Any, ...]
    seconds: float
    progress: Progress | None


def move_bound(seconds: float) -> float:
    """The longest a computer move with ``seconds`` of time takes from being asked to being
    answered, whatever happens meanwhile: its time, its fallback's, and the grace after which
    a silent worker is killed (then a random legal move plays at once)."""
    return seconds + fallback_seconds(seconds) + GRACE_SECONDS


class _Slot:
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


class _Lane:
    """Workers and, per client, a queue of moves to make; a free worker serves the waiting
    client it served least recently (round robin that remembers: a client whose queue ran dry
    does not jump the others when its next move arrives)."""

    MEMORY = 10_000
    """Clients whose last turn is remembered (the oldest are forgotten past it)."""

    def __init__(self, name: str, size: int) -> None:
        self.name = name
        self.slots = [_Slot(name, i) for i in range(size)]
        self.queues: dict[str, deque[_Job]] = {}
        self.served: OrderedDict[str, int] = OrderedDict()
        """When each client was last served (a count of moves taken), oldest first."""
        self.taken = 0
        self.home: dict[str, int] = {}
        """The worker that has each game's agents."""

    def put(self, job: _Job) -> None:
        self.queues.setdefault(job.client, deque()).append(job)

    def take(self) -> tuple[_Slot, _Job] | None:
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

    def waiting(self) -> int:
        return sum(len(queue) for queue in self.queues.values())


class Computers:
    """Chooses computer seats' moves off the event loop (see the module docstring)."""

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
            "quick": _Lane("quick", max(1, quick_workers)),
            "search": _Lane("search", search),
            **{name: _Lane(name, max(1, size)) for name, size in (analysis or {}).items()},
        }
        self.cache = AgentCache(factory or make_agent)
        """The agents of the thread mode (processes keep their own)."""
        self._io: ThreadPoolExecutor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.replaced = 0
        """How many workers were started again (killed, dead, out of memory)."""
        self._warming: asyncio.Task[None] | None = None

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

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        slots = [slot for lane in self.lanes.values() for slot in lane.slots]
        self._io = ThreadPoolExecutor(
            max_workers=len(slots) + 1, thread_name_prefix="gamehall-agent"
        )
        if self.processes:
            self._warming = self._loop.create_task(self._start_all(slots))
            return
        for slot in slots:
            slot.threads = ThreadPoolExecutor(1, thread_name_prefix=f"gamehall-{slot.name}")
            slot.ready = True

    async def _start_all(self, slots: list[_Slot]) -> None:
        """The first worker warms alone: after a fresh install it compiles the kernels into
        numba's cache, and the others then load them from there instead of each compiling."""
        await self._start_process(slots[0])
        await asyncio.gather(*(self._start_process(slot) for slot in slots[1:]))

    async def warm(self) -> float:
        """Wait until every worker process has loaded the solvers' kernels and is ready (at
        once on threads); the seconds the slowest warm-up took."""
        if self._warming is not None:
            await asyncio.shield(self._warming)
        return max(
            (
                slot.process.warmed
                for lane in self.lanes.values()
                for slot in lane.slots
                if slot.process is not None
            ),
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
        loop = asyncio.get_running_loop()
        stops = []
        for lane in self.lanes.values():
            for slot in lane.slots:
                if slot.process is not None:
                    stops.append(loop.run_in_executor(None, slot.process.stop))
                if slot.threads is not None:
                    slot.threads.shutdown(wait=False, cancel_futures=True)
        for stopping in stops:
            with contextlib.suppress(Exception):
                await stopping
        if self._io is not None:
            self._io.shutdown(wait=False, cancel_futures=True)

    def _background(self, coroutine: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _start_process(self, slot: _Slot) -> None:
        """Start (or start again) a slot's worker process; the slot serves once it is ready."""
        slot.ready = False
        worker = ProcessWorker(slot.name, self.limit.memory_mb or 1024)
        worker.spawn()  # on the event loop's thread, which lives as long as the server
        slot.process = worker
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._io, worker.wait_ready)
        except WorkerDied as error:
            log.error("computer %s", error)
            await asyncio.sleep(1.0)
            self._background(self._start_process(slot))
            return
        slot.forget.clear()
        slot.ready = True
        self._dispatch()

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
        whose game it is)."""
        loop = asyncio.get_running_loop()
        job = _Job(
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
        the error it raised, or ProtocolError(analysis_failed) past its bounds."""
        loop = asyncio.get_running_loop()
        if lane not in self.lanes or lane in ("quick", "search"):
            raise ValueError(f"no analysis lane {lane!r}")
        job = _Job(
            "", -1, client, None, [], "", 0, loop.create_future(),
            call=_Call(function, args, seconds, progress),
        )  # fmt: skip
        self.lanes[lane].put(job)
        self._dispatch()
        return await job.future

    def _seconds(self) -> float:
        return self.limit.seconds or 30.0

    def _late(self, job: _Job) -> None:
        """A move still waiting for a worker when its time is up: the fallback plays now (its
        worker, once free, passes it by)."""
        if not job.future.done():
            job.future.set_result(self._fallback(job, "no worker was free within its time", "late"))

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
                self._background(self._run(lane, slot, job))

    async def _run(self, lane: _Lane, slot: _Slot, job: _Job) -> None:
        try:
            choice: Any
            if job.call is not None:
                if self.processes:
                    choice = await self._call_in_process(slot, job.call)
                else:
                    choice = await self._call_on_thread(slot, job.call)
            elif self.processes:
                choice = await self._in_process(slot, job)
            else:
                choice = await self._on_thread(slot, job)
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

    def _fallback(self, job: _Job, why: str, how: str = "lost") -> Choice:
        """A random legal move (seeded), when the worker could not give one."""
        log.error(
            "computer move in %s (%s): %s; a random legal move plays", job.game_id, job.level, why
        )
        assert job.state is not None
        return Choice(str(RandomAgent(job.seed).choose(job.state)), how)

    async def _on_thread(self, slot: _Slot, job: _Job) -> Choice:
        assert slot.threads is not None and self._loop is not None and job.state is not None
        seconds = job.left()  # what the move's time has left after waiting for this worker
        running = self._loop.run_in_executor(
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
            # A thread cannot be stopped: leave it to finish and give the slot a new thread.
            slot.threads.shutdown(wait=False)
            slot.threads = ThreadPoolExecutor(1, thread_name_prefix=f"gamehall-{slot.name}")
            self.cache.drop((job.game_id, job.seat))
            self.replaced += 1
            return self._fallback(job, f"no move within {seconds:g} s")
        except MemoryError:
            self.cache.drop((job.game_id, job.seat))
            return self._fallback(job, "out of memory")
        return Choice(text)

    async def _in_process(self, slot: _Slot, job: _Job) -> Choice:
        assert self._loop is not None and job.state is not None
        options = json.dumps(dict(job.state.game.options), sort_keys=True)
        for attempt in (1, 2):
            worker = slot.process
            if worker is None or not slot.ready:
                if not await self._restarted(slot, job):
                    return self._fallback(job, "its worker was not ready again within its time")
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
                answer = await self._loop.run_in_executor(self._io, worker.call, request, seconds)
            except WorkerTimeout as error:
                # The fallback plays now; the new worker starts meanwhile (the slot serves
                # again once it is ready), so a stopped search costs no worker start-up.
                self._replaced(slot, str(error))
                self._background(self._start_process(slot))
                return self._fallback(job, str(error))
            except WorkerDied as error:
                self._replaced(slot, str(error))
                if attempt == 2 or job.left() <= 0:
                    self._background(self._start_process(slot))
                    why = "twice" if attempt == 2 else "with no time left to ask again"
                    return self._fallback(job, f"{error}, {why}")
                continue
            _, text, how = answer
            if how != "search":
                why = _WHY.get(how, how)
                log.warning(
                    "computer move in %s (%s) %s: the fallback played", job.game_id, job.level, why
                )
            if how in ("memory", "failed"):  # the worker exits after such a move: start another
                self._replaced(slot, "it ran out of memory" if how == "memory" else "it failed")
                self._background(self._start_process(slot))
            return Choice(text, how)
        raise AssertionError("unreachable")

    async def _restarted(self, slot: _Slot, job: _Job) -> bool:
        """Start the slot's worker again, waiting for it no longer than ``job`` has time left;
        whether it is ready (if not, it goes on starting and serves once ready)."""
        starting = self._background(self._start_process(slot))
        try:
            await asyncio.wait_for(asyncio.shield(starting), job.left())
        except TimeoutError:
            pass
        except OSError as error:  # it could not even be started
            log.error("computer worker %s cannot start: %s", slot.name, error)
        return slot.ready and slot.process is not None and slot.process.alive

    def _relay(self, progress: Progress | None) -> Progress | None:
        """``progress`` as a worker's thread may call it (on the event loop)."""
        loop = self._loop
        if progress is None or loop is None:
            return None

        def relay(done: int, total: int) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closing
                loop.call_soon_threadsafe(progress, done, total)

        return relay

    async def _call_on_thread(self, slot: _Slot, call: _Call) -> Any:
        assert slot.threads is not None and self._loop is not None
        relay = self._relay(call.progress)
        if relay is not None:
            running = self._loop.run_in_executor(
                slot.threads, _with_progress, call.function, call.args, relay
            )
        else:
            running = self._loop.run_in_executor(slot.threads, call.function, *call.args)
        try:
            return await asyncio.wait_for(running, call.seconds + GRACE_SECONDS)
        except TimeoutError:
            # A thread cannot be stopped: leave it to finish and give the slot a new thread.
            slot.threads.shutdown(wait=False)
            slot.threads = ThreadPoolExecutor(1, thread_name_prefix=f"gamehall-{slot.name}")
            self.replaced += 1
            raise _failed(f"it took longer than {call.seconds:g} s") from None

    async def _call_in_process(self, slot: _Slot, call: _Call) -> Any:
        assert self._loop is not None
        from gamehall.web.compute.jobs import job_name  # the jobs' modules import this one

        request = (
            "call",
            job_name(call.function),
            call.args,
            call.seconds,
            call.progress is not None,
        )
        relay = self._relay(call.progress)
        for attempt in (1, 2):
            worker = slot.process
            if worker is None or not slot.ready:
                await self._start_process(slot)
                worker = slot.process
                assert worker is not None
            try:
                answer = await self._loop.run_in_executor(
                    self._io, worker.call, request, call.seconds, relay
                )
            except WorkerTimeout as error:
                self._replaced(slot, str(error))
                self._background(self._start_process(slot))
                raise _failed(f"its worker did not answer within its time ({error})") from None
            except WorkerDied as error:
                self._replaced(slot, str(error))
                await self._start_process(slot)
                if attempt == 2:
                    raise _failed(f"its worker was lost twice ({error})") from None
                continue
            kind = answer[0]
            if kind == "result":
                return answer[1]
            if kind == "raised":
                raise answer[1]
            if kind == "memory":  # the worker exits after such a job: start another
                self._replaced(slot, "it ran out of memory")
                self._background(self._start_process(slot))
                raise _failed(
                    f"it needed more than {self.limit.memory_mb or 1024} MB (limit "
                    "computer_memory_mb)"
                )
            raise _failed(f"it took longer than {call.seconds:g} s")
        raise AssertionError("unreachable")

    def _replaced(self, slot: _Slot, why: str) -> None:
        log.error("computer worker %s is replaced: %s", slot.name, why)
        slot.ready = False
        self.replaced += 1
        if slot.process is not None:
            slot.process.kill()
        lane = self.lanes[slot.lane]
        for game_id in [g for g, home in lane.home.items() if home == slot.index]:
            del lane.home[game_id]  # its agents are gone with the worker

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
            for lane in self.lanes.values()
            for slot in lane.slots
            if slot.process is not None and slot.process.pid is not None and slot.process.alive
        ]


def _with_progress(function: Callable[..., Any], args: tuple[Any, ...], progress: Progress) -> Any:
    return function(*args, progress=progress)


def _failed(why: str) -> ProtocolError:
    return ProtocolError(ErrorCode.ANALYSIS_FAILED, f"the job was stopped: {why}")
