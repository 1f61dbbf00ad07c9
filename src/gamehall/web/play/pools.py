"""Where the hub's store calls run: threads off the event loop, the moves' apart from the rest.

:class:`Pools` owns two thread pools on one store. Most calls (making and opening games, chat,
the hall's reads and writes) run on the store threads; the moves' group commits
(:mod:`gamehall.web.play.committer`) run on commit threads of their own, so a move never queues
behind the reads and writes of games being made and opened (a crowd arriving at once). SQLite has
one writer at a time, so there each pool has a single thread, which keeps its writes in order,
uncontended.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

COMMITTERS = 4
COMMITTERS_SQLITE = 1
"""Group commits in flight at once (SQLite has one writer at a time)."""
STORE_THREADS = 8
"""The store threads for everything but the moves' commits (one on SQLite)."""

Spawn = Callable[[Coroutine[Any, Any, Any]], "asyncio.Task[Any]"]
"""Runs a coroutine as one of the hub's background tasks (cancelled when the hub stops)."""


class Run(Protocol):
    """Runs a store call on a pool's threads and waits for its answer."""

    async def __call__(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T: ...


class Pools:
    """The store threads and the commit threads of one hub, made when it starts."""

    def __init__(self, sqlite: bool) -> None:
        self.sqlite = sqlite
        self.committers = COMMITTERS_SQLITE if sqlite else COMMITTERS
        """How many group commits may be in flight at once (one commit thread each)."""
        self._db: ThreadPoolExecutor | None = None
        self._commit: ThreadPoolExecutor | None = None

    def start(self) -> None:
        self._db = ThreadPoolExecutor(
            max_workers=1 if self.sqlite else STORE_THREADS, thread_name_prefix="gamehall-store"
        )
        self._commit = ThreadPoolExecutor(
            max_workers=self.committers, thread_name_prefix="gamehall-commit"
        )

    def stop(self) -> None:
        """Wait for the calls under way, then let the threads go (commits first)."""
        for pool in (self._commit, self._db):
            if pool is not None:
                pool.shutdown(wait=True)

    async def db(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call on the store threads, off the event loop."""
        return await _run_on(self._db, function, *args, **kwargs)

    async def commit_db(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call on the moves' commit threads (never queued behind other calls)."""
        return await _run_on(self._commit, function, *args, **kwargs)


async def _run_on(
    pool: ThreadPoolExecutor | None, function: Callable[..., T], *args: Any, **kwargs: Any
) -> T:
    assert pool is not None, "the hub is not started"
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(pool, partial(function, *args, **kwargs))


__all__ = ["COMMITTERS", "COMMITTERS_SQLITE", "Pools", "Run", "Spawn"]
