"""A serving process's cyclic garbage collector, run on the server's schedule: :class:`Collector`.

Reference counting frees every object without cycles the moment it is dropped; only cycles wait
for Python's collector, which stops the whole process while it walks the objects of a
generation. Left to itself it walks when allocations pass its thresholds, and a server holding
thousands of games (two sockets each, each a stack of coroutines and buffers) has millions of
objects: at 5,000 human-paced games its walks stopped every player for 190-310 ms every few
seconds, and those stops were the whole of the server's p99 (``bench/load.py --paced``).

So a server turns the automatic collector off and walks on a clock instead:

- every :data:`YOUNG_SECONDS` it walks the young generation (what was allocated since the last walk:
  milliseconds, 15-60 ms at worst at 5,000 games) and freezes what survives (:func:`gc.freeze`), so
  no later walk visits it again. Reference counting still frees a frozen object the moment it is
  dropped, so the sockets' short-lived state (a pending receive is remade on every message) never
  piles up.
- every ``full_seconds`` (the ``collect_seconds`` setting, an hour by default) it walks
  everything, frozen or not, for the cycles that died after they were frozen. The server leaves
  few: the one each WebSocket handshake left is broken where it is made
  (:class:`gamehall.web.http.server.HttpProtocol`), and after 600 sockets of 300 games had opened and
  closed a full walk found 20 objects. This walk stops the process in proportion to everything
  it holds (seconds at 5,000 games in play, README "The web server under load"), so it is rare.

A middle generation walked every few seconds (Python's own design) was tried and is not used: at
5,000 games it holds the last seconds' sockets' state, hundreds of thousands of objects, and its
walks were the p99.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

YOUNG_SECONDS = 0.1
"""How often the young generation (what was allocated since the last walk) is walked."""

SLOW_FULL_WALK = 0.1
"""A full walk that stops the server longer than this is logged as a warning."""

YOUNG, FULL = 0, 2
"""The generation a walk covers (Python's numbering)."""

log = logging.getLogger(__name__)


@dataclass
class Walks:
    """What the walks of one generation have done: how many, how many objects they freed and how
    long they stopped the process (the longest and the sum), in seconds."""

    count: int = 0
    freed: int = 0
    longest: float = 0.0
    total: float = 0.0

    def add(self, freed: int, seconds: float) -> None:
        self.count += 1
        self.freed += freed
        self.longest = max(self.longest, seconds)
        self.total += seconds


@dataclass
class Collector:
    """Python's cyclic garbage collector, walked on a clock rather than by allocation counts (see
    the module docstring). :meth:`start` it in the server's event loop once the server has
    loaded what it keeps; :meth:`stop` it when the server stops."""

    full_seconds: float = 3600.0
    """How often every object is walked (0: never while serving)."""
    young_seconds: float = YOUNG_SECONDS
    clock: Callable[[], float] = time.monotonic
    walks: dict[int, Walks] = field(default_factory=lambda: {YOUNG: Walks(), FULL: Walks()})
    _task: asyncio.Task[None] | None = field(default=None, init=False, repr=False)
    _full_due: float = field(default=0.0, init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.young_seconds > 0:
            raise ValueError(f"young_seconds is above 0, not {self.young_seconds}")
        if self.full_seconds < 0:
            raise ValueError(f"full_seconds is at least 0 (0: never), not {self.full_seconds}")
        self._due_from(self.clock())

    def _due_from(self, now: float) -> None:
        self._full_due = now + self.full_seconds

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Collect and freeze what start loaded, turn the automatic collector off and walk on
        the clock from now on (in the running event loop)."""
        if self.running:
            return
        gc.collect()
        gc.freeze()
        gc.disable()
        self._due_from(self.clock())
        self._task = asyncio.get_running_loop().create_task(self._run(), name="gc walks")

    def stop(self) -> None:
        """Stop walking and give the collector back to Python (everything it froze thawed)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        gc.unfreeze()
        gc.enable()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.young_seconds)
            self.walk()

    def walk(self) -> int:
        """One walk, of everything if one is due, else of the young generation, then what
        survives it frozen. Returns the generation walked."""
        now = self.clock()
        generation = YOUNG
        if self.full_seconds and now >= self._full_due:
            generation = FULL
            self._due_from(now)
        started = time.perf_counter()
        if generation == FULL:
            gc.unfreeze()
        freed = gc.collect(generation)
        gc.freeze()
        seconds = time.perf_counter() - started
        self.walks[generation].add(freed, seconds)
        if generation == FULL:
            # Past the p99 budget of a move it is the operator's business (collect_seconds).
            level = logging.WARNING if seconds > SLOW_FULL_WALK else logging.INFO
            log.log(
                level,
                "full garbage collection stopped the server for %.0f ms (%d objects freed; "
                "the collect_seconds setting says how often)",
                seconds * 1e3,
                freed,
            )
        return generation


__all__ = ["FULL", "YOUNG", "YOUNG_SECONDS", "Collector", "Walks"]
