"""Work off the event loop, one design for computer moves and analysis: worker processes warm the
kernels before their first job, analysis jobs report progress from another process and keep the
computers' bounds (time, a dead worker replaced and the job asked again), lanes serve clients in
turn and are bounded, and rate limits count per player."""

from __future__ import annotations

import asyncio
import os
import signal
import threading

import pytest

from gamehall.core import Limit
from gamehall.protocol import ErrorCode, ProtocolError
from gamehall.web.compute import jobs, workers
from gamehall.web.compute.computers import Computers
from gamehall.web.compute.workers import Lane, Progress, RateLimit

# The jobs run in worker processes are those of gamehall.web.compute.jobs.JOBS (probes of the worker);
# on threads any function runs.
counting = jobs.probe_count
slow = jobs.probe_sleep
was_warmed = jobs.probe_warmed


def _reports() -> tuple[list[tuple[int, int]], Progress, asyncio.Event]:
    """Progress reports as a job's callback sees them, and an event set by the last one."""
    seen: list[tuple[int, int]] = []
    reported = asyncio.Event()

    def report(done: int, total: int) -> None:
        seen.append((done, total))
        if done == total:
            reported.set()

    return seen, report, reported


def test_a_worker_runs_only_the_jobs_of_its_table():
    assert jobs.job_name(jobs.probe_count) == "probe_count"
    assert all(jobs.job_name(function) == name for name, function in jobs.JOBS.items())
    with pytest.raises(ValueError, match="not a worker job"):
        jobs.job_name(print)


@pytest.mark.slow
def test_worker_processes_are_warm_before_their_first_job_and_report_progress():
    async def scenario() -> None:
        computers = Computers(processes=True, workers=1, analysis={"test": 1})
        await computers.start()
        lane = Lane("test", computers, seconds=30.0)
        try:
            assert await computers.warm() > 0  # each worker loaded the kernels at its start
            assert all(slot.ready for one in computers.lanes.values() for slot in one.slots)
            assert await lane.run(was_warmed)
            seen, report, reported = _reports()
            assert await lane.run(counting, 3, progress=report) == 30
            await asyncio.wait_for(reported.wait(), 30)  # the last report's callback ran
            assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]
        finally:
            await computers.stop()

    asyncio.run(scenario())


@pytest.mark.slow
def test_an_analysis_job_past_its_time_fails_and_a_dead_worker_is_replaced_and_asked_again():
    """The computers' bounds hold for analysis jobs: a job past its lane's seconds is stopped
    (analysis_failed) and the worker serves the next; a worker killed mid-job is replaced, warm,
    and the job asked again."""

    async def scenario() -> None:
        computers = Computers(processes=True, workers=1, analysis={"test": 1})
        await computers.start()
        lane = Lane("test", computers, seconds=0.5)
        try:
            await computers.warm()
            with pytest.raises(ProtocolError) as stopped:
                await lane.run(slow, 5.0)
            assert stopped.value.code == ErrorCode.ANALYSIS_FAILED
            assert "longer than 0.5 s" in stopped.value.message
            assert await lane.run(slow, 0.0) == 0.0  # the same worker serves on
            slot = computers.lanes["test"].slots[0]
            before = slot.process.pid
            lane.seconds = 60.0
            running = asyncio.ensure_future(lane.run(slow, 1.0))
            await asyncio.sleep(0)  # the job is queued and its slot takes it at once
            assert slot.busy and lane.waiting == 1
            os.kill(before, signal.SIGKILL)
            assert await running == 1.0  # asked again of a new worker
            assert slot.process.pid != before and computers.replaced == 1
            assert await lane.run(was_warmed)  # the new one is warm too
        finally:
            await computers.stop()

    asyncio.run(scenario())


@pytest.mark.slow
def test_an_analysis_job_past_its_memory_fails_and_its_worker_is_replaced():
    async def scenario() -> None:
        limit = Limit(seconds=20.0, memory_mb=16)
        computers = Computers(processes=True, workers=1, limit=limit, analysis={"test": 1})
        await computers.start()
        lane = Lane("test", computers, seconds=30.0)
        try:
            await computers.warm()
            with pytest.raises(ProtocolError) as refused:
                await lane.run(jobs.probe_allocate, 256 * 2**20)
            assert refused.value.code == ErrorCode.ANALYSIS_FAILED
            assert "more than 16 MB" in refused.value.message
            assert await lane.run(was_warmed)  # a new, warm worker serves on
            assert computers.replaced == 1
        finally:
            await computers.stop()

    asyncio.run(scenario())


def test_analysis_lanes_on_threads_serve_clients_in_turn_and_refuse_work_past_their_limit():
    async def scenario() -> None:
        computers = Computers(processes=False, analysis={"test": 1})
        await computers.start()
        lane = Lane("test", computers, limit=3, seconds=30.0)
        gate = threading.Event()
        try:
            assert await computers.warm() == 0.0
            seen, report, reported = _reports()
            assert await lane.run(counting, 2, progress=report) == 20
            await asyncio.wait_for(reported.wait(), 30)  # the last report's callback ran
            assert seen == [(0, 2), (1, 2), (2, 2)]
            order: list[str] = []

            def gated() -> None:
                gate.wait(30)

            async def ask(client: str) -> None:
                await lane.run(gated, client=client)
                order.append(client)

            # one client's two jobs, then another's: the other is served between them. The
            # first holds the lane's one worker until the gate opens; each job is queued (the
            # lane counts it) before the next is asked.
            jobs = []
            for client in ("greedy", "greedy", "patient"):
                jobs.append(asyncio.ensure_future(ask(client)))
                await asyncio.sleep(0)  # the job's first step: it is queued
                assert lane.waiting == len(jobs)
            with pytest.raises(ProtocolError) as refused:
                await lane.run(counting, 1)
            assert refused.value.code == ErrorCode.BUSY and "at most 3" in refused.value.message
            assert order == []  # the first job still holds the worker
            gate.set()
            await asyncio.wait_for(asyncio.gather(*jobs), 30)
            assert order == ["greedy", "patient", "greedy"]
            assert await lane.run(counting, 1) == 10  # room again
        finally:
            gate.set()
            await computers.stop()

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
