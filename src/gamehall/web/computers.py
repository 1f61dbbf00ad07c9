"""Computer players on the server: one agent per computer seat, kept from move to move.

An agent that keeps a search tree (MCTS) reuses the subtree of what really happened, as long as
the same agent object is told of every action (:meth:`Agent.observe`: its own, the opponent's and
chance) and asked again. The server keeps such agents in an :class:`AgentCache`, keyed by game id
and seat. The cache is lazy: an agent catches up when it is next asked to move, observing every
action stored since it last moved (so a computer seat costs nothing while a person thinks); an
agent that is missing (a restart, an eviction, another worker) is made afresh and catches up
from the game's start the same way. Its seed comes from the game's secret seed and the seat.

Agents run off the event loop, so one slow search never delays another game:

* **threads** (tests, or a given agent factory): one cache in the server process;
* **processes** (``gamehall serve``): CPU-bound search needs processes, and agents cannot be
  shared between them, so each worker process keeps its own cache and the server routes a game's
  moves to the worker that has its agents (its *home*), unless another worker is less busy: then
  the move goes there (that worker makes or catches up its own agent, losing the tree but not a
  moment) and that worker becomes the game's home. Each worker is a one-process pool, so a
  crashed worker is replaced alone. Caches are bounded (least recently used agents go first) and a
  finished game's agents are dropped. Each worker loads every game's solver kernels when it
  starts (:func:`gamehall.web.workers.warm_worker`), and the server waits for them all
  (:meth:`Computers.warm`) before it offers computer moves, so the first move of a fresh server
  is no slower than later ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from gamehall.ai import make_agent
from gamehall.core import Agent, Game, GamehallError, State
from gamehall.web.engine import make_game, start_state
from gamehall.web.protocol import ErrorCode, ProtocolError
from gamehall.web.workers import warm_pools, warmed_pool

log = logging.getLogger("gamehall.web")

AgentFactory = Callable[[str, int | None], Agent]
"""Makes the computer player for a level and a seed (default: :func:`gamehall.ai.make_agent`)."""

SeatKey = tuple[str, int]
"""A computer seat: (game id, seat index)."""

CACHE_LIMIT = 64
"""Agents kept per cache (per worker process): an MCTS tree of a strong level is a few MB."""


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

    def choose(
        self,
        key: SeatKey,
        game: Game,
        actions: Sequence[str],
        level: str,
        seed: int,
        setup: str | None = None,
    ) -> str:
        """The move of seat ``key`` after ``actions`` (the game's every action so far, from its
        ``setup`` position if it has one)."""
        with self._lock:  # taken out while it thinks: an agent serves one move at a time
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
        chosen = str(entry.agent.choose(state))
        with self._lock:
            self._agents[key] = entry
            while len(self._agents) > self.limit:
                self._agents.popitem(last=False)
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


# --- in a worker process -------------------------------------------------------------------------

_WORKER_CACHE: AgentCache | None = None


def _worker_cache() -> AgentCache:
    global _WORKER_CACHE
    if _WORKER_CACHE is None:
        _WORKER_CACHE = AgentCache()
    return _WORKER_CACHE


def worker_choose(
    key: SeatKey,
    game_name: str,
    options_json: str,
    actions: list[str],
    level: str,
    seed: int,
    setup: str | None = None,
) -> str:
    """Choose a computer move in a worker process, with the worker's agent for the seat."""
    game = make_game(game_name, options_json)
    return _worker_cache().choose(key, game, actions, level, seed, setup)


def worker_forget(game_id: str) -> None:
    _worker_cache().forget(game_id)


# --- the scheduler -------------------------------------------------------------------------------


class Computers:
    """Chooses computer seats' moves off the event loop (see the module docstring)."""

    def __init__(
        self,
        factory: AgentFactory | None = None,
        *,
        processes: bool = False,
        workers: int | None = None,
    ) -> None:
        self.factory = factory
        # A factory given in-process (tests) may not be picklable: it runs on threads.
        self.processes = processes and factory is None
        self.workers = max(1, workers or ((os.cpu_count() or 1) if self.processes else 8))
        self.cache = AgentCache(factory or make_agent)
        """The agents of the thread mode (processes keep their own)."""
        self._threads: ThreadPoolExecutor | None = None
        self._shards: list[Executor] = []
        self._busy: list[int] = []
        self._home: dict[str, int] = {}
        self._homed: list[int] = []
        self._used: dict[str, set[int]] = {}

    def check_level(self, level: str) -> None:
        """Refuse a level no agent can be made for."""
        try:
            (self.factory or make_agent)(level, 0)
        except GamehallError as error:
            raise ProtocolError(ErrorCode.BAD_LEVEL, str(error)) from None

    def start(self) -> None:
        if self.processes:
            self._shards = [self._new_shard() for _ in range(self.workers)]
            self._busy = [0] * self.workers
            self._homed = [0] * self.workers
        else:
            self._threads = ThreadPoolExecutor(
                max_workers=self.workers, thread_name_prefix="gamehall-agent"
            )

    async def warm(self) -> float:
        """Start every worker process and wait until each has loaded the solvers' kernels (at
        once on threads); the seconds the slowest took."""
        if not self.processes:
            return 0.0
        return await warm_pools(self._shards)

    def stop(self) -> None:
        for executor in [*self._shards, self._threads]:
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)

    @staticmethod
    def _new_shard() -> Executor:
        return warmed_pool()

    async def choose(
        self,
        game_id: str,
        game: Game,
        actions: Sequence[str],
        seat: int,
        level: str,
        seed: int,
        setup: str | None = None,
    ) -> str:
        """The move of computer seat ``seat`` of game ``game_id`` after ``actions`` (from its
        ``setup`` position, if it has one)."""
        loop = asyncio.get_running_loop()
        key = (game_id, seat)
        if not self.processes:
            assert self._threads is not None, "the computers are not started"
            return await loop.run_in_executor(
                self._threads, self.cache.choose, key, game, list(actions), level, seed, setup
            )
        options = json.dumps(dict(game.options), sort_keys=True)
        for attempt in (1, 2):
            shard = self._route(game_id)
            self._busy[shard] += 1
            try:
                return await loop.run_in_executor(
                    self._shards[shard],
                    worker_choose,
                    key,
                    game.name,
                    options,
                    list(actions),
                    level,
                    seed,
                    setup,
                )
            except BrokenProcessPool:
                if attempt == 2:
                    raise
                log.error("computer worker %d died; starting a new one", shard)
                self._replace(shard)
            finally:
                self._busy[shard] -= 1
        raise AssertionError("unreachable")

    def _route(self, game_id: str) -> int:
        """The game's home worker, unless another is less busy (which becomes its home); a new
        game goes to the least busy worker with the fewest games."""
        home = self._home.get(game_id)
        least = min(
            range(len(self._shards)), key=lambda i: (self._busy[i], i != home, self._homed[i])
        )
        if home is None or self._busy[least] < self._busy[home]:
            if home is not None:
                self._homed[home] -= 1
            self._homed[least] += 1
            home = self._home[game_id] = least
        self._used.setdefault(game_id, set()).add(home)
        return home

    def _replace(self, shard: int) -> None:
        with contextlib.suppress(Exception):
            self._shards[shard].shutdown(wait=False, cancel_futures=True)
        self._shards[shard] = self._new_shard()
        for used in self._used.values():
            used.discard(shard)

    def forget(self, game_id: str) -> None:
        """A game is over: drop its computers' agents wherever they are."""
        self.cache.forget(game_id)
        home = self._home.pop(game_id, None)
        if home is not None:
            self._homed[home] -= 1
        for shard in self._used.pop(game_id, ()):
            with contextlib.suppress(Exception):
                self._shards[shard].submit(worker_forget, game_id)
