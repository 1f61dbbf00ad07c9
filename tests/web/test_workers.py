"""Work off the event loop: worker processes warm the kernels before their first job, jobs report
progress from another process, lanes are bounded, and rate limits count per player."""

from __future__ import annotations

import asyncio
import sys
import time

import pytest

from gamehall.web import workers
from gamehall.web.computers import Computers
from gamehall.web.protocol import ErrorCode, ProtocolError
from gamehall.web.workers import Lane, RateLimit


def counting(steps: int, progress=None) -> int:
    """A job that reports each of its steps (module level: it runs in a worker process)."""
    for done in range(steps + 1):
        if progress is not None:
            progress(done, steps)
    return steps * 10


def was_warmed() -> bool:
    """In a worker: whether its initialiser warmed the kernels and imported the jobs' modules."""
    return workers._WARMED is not None and all(m in sys.modules for m in workers.JOB_MODULES)


@pytest.mark.slow
def test_worker_processes_are_warm_before_their_first_job_and_report_progress():
    async def scenario() -> None:
        lane = Lane("test", processes=True)
        lane.start()
        computers = Computers(processes=True, workers=1)
        computers.start()
        try:
            seconds = await asyncio.gather(lane.warm(), computers.warm())
            assert all(s > 0 for s in seconds)  # each worker loaded the kernels at its start
            assert await lane.run(was_warmed)
            seen: list[tuple[int, int]] = []
            assert await lane.run(counting, 3, progress=lambda d, t: seen.append((d, t))) == 30
            for _ in range(100):  # the last reports may still be on their way
                if len(seen) == 4:
                    break
                await asyncio.sleep(0.02)
            assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]
        finally:
            lane.stop()
            computers.stop()

    asyncio.run(scenario())


def test_a_lane_on_threads_reports_progress_and_refuses_work_past_its_limit():
    async def scenario() -> None:
        lane = Lane("test", processes=False, limit=1)
        lane.start()
        try:
            assert await lane.warm() == 0.0
            seen: list[tuple[int, int]] = []
            assert await lane.run(counting, 2, progress=lambda d, t: seen.append((d, t))) == 20
            await asyncio.sleep(0.01)
            assert seen == [(0, 2), (1, 2), (2, 2)]
            slow = asyncio.ensure_future(lane.run(time.sleep, 0.2))
            await asyncio.sleep(0.01)
            with pytest.raises(ProtocolError) as refused:
                await lane.run(counting, 1)
            assert refused.value.code == ErrorCode.BUSY and "at most 1" in refused.value.message
            await slow
            assert await lane.run(counting, 1) == 10  # room again
        finally:
            lane.stop()

    asyncio.run(scenario())


def test_a_rate_limit_counts_per_player_and_one_at_a_time(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(workers.time, "monotonic", lambda: now[0])
    limit = RateLimit("hint", 2, 60.0)
    with limit.hold("a"):
        with pytest.raises(ProtocolError, match="one at a time"), limit.hold("a"):
            pass
        with limit.hold("b"):  # another player is not held up
            pass
    with limit.hold("a"):
        pass
    with pytest.raises(ProtocolError) as refused, limit.hold("a"):
        pass
    assert refused.value.code == ErrorCode.RATE_LIMITED
    assert refused.value.message == "at most 2 hints every 60 s; ask again in 60 s"
    now[0] += 61  # the window has passed
    with limit.hold("a"):
        pass
