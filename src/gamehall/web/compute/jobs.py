"""The analysis jobs a worker process runs, by name: an explicit table, so a worker runs only
the functions listed here (a request names a job, never a module and attribute to look up).

``hint``, ``analysis`` and ``review`` are the hint, analysis board and review services' work
(:mod:`gamehall.web.compute.hints`, :mod:`gamehall.web.compute.analysis`,
:mod:`gamehall.web.compute.review`), ``value_kinds`` each game's solver value kind for the puzzles
(:mod:`gamehall.web.compute.puzzles`); the ``probe_*`` jobs check a worker itself (warm, its time and
memory bounds, progress reports), for health checks and the tests of those bounds.

Both ends of a worker's socket read this one table: the server names a job by :func:`job_name`
(:class:`~gamehall.web.compute.runners.ProcessRunner`), the worker runs the function of that name
(:mod:`gamehall.web.compute.worker`). Jobs running on threads (tests' ``agent_factory``) are
called directly and need no entry.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from gamehall.web.compute import analysis, hints, puzzles, review, workers


def probe_warmed() -> bool:
    """Whether this worker's warm-up ran and imported every job module."""
    return workers.warmed_seconds() is not None and all(
        module in sys.modules for module in workers.JOB_MODULES
    )


def probe_sleep(seconds: float) -> float:
    """Take ``seconds`` (to test a lane's time bound)."""
    time.sleep(seconds)
    return seconds


def probe_count(steps: int, progress: workers.Progress | None = None) -> int:
    """Report each of ``steps`` steps (to test progress reports); ``10 * steps``."""
    for done in range(steps + 1):
        if progress is not None:
            progress(done, steps)
    return steps * 10


def probe_allocate(size: int) -> int:
    """Hold ``size`` bytes (to test a worker's memory bound); their number."""
    return len(bytearray(size))


JOBS: dict[str, Callable[..., Any]] = {
    "hint": hints.worker_hint,
    "analysis": analysis.worker_analysis,
    "review": review.worker_review,
    "value_kinds": puzzles.value_kinds,
    "probe_warmed": probe_warmed,
    "probe_sleep": probe_sleep,
    "probe_count": probe_count,
    "probe_allocate": probe_allocate,
}
"""Every job a worker process runs, by the name a request gives."""

_NAMES = {function: name for name, function in JOBS.items()}


def job_name(function: Callable[..., Any]) -> str:
    """The name ``function`` has in :data:`JOBS`; ValueError for a function not listed there."""
    try:
        return _NAMES[function]
    except KeyError:
        raise ValueError(
            f"{function!r} is not a worker job; the jobs are {', '.join(JOBS)} "
            "(add it to gamehall.web.compute.jobs.JOBS)"
        ) from None


__all__ = [
    "JOBS",
    "job_name",
    "probe_allocate",
    "probe_count",
    "probe_sleep",
    "probe_warmed",
]
