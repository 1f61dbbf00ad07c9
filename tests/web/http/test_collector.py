"""The serving process's garbage collector on the server's clock (:mod:`gamehall.web.http.collector`):
automatic collection off, young walks often that freeze what survives them, and rare full walks
that find the cycles which died after they were frozen."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import weakref
from collections.abc import Iterator

import pytest

from gamehall.web.http.collector import FULL, YOUNG, Collector


class Node:
    """An object in a reference cycle: only the cyclic collector can free it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture(autouse=True)
def python_collector_restored() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.enable()
    gc.set_threshold(*thresholds)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_started_collector_freezes_what_start_loaded_and_walks_on_its_own_clock():
    loaded = [[n] for n in range(1000)]  # what start loaded: lives as long as the process

    async def scenario() -> tuple[bool, int, bool, bool]:
        collector = Collector(young_seconds=0.01)
        collector.start()
        automatic = gc.isenabled()
        frozen = gc.get_freeze_count()
        # A cycle dropped while serving is freed by the walks alone.
        node = Node()
        gone = asyncio.Event()
        probe = weakref.ref(node, lambda _ref: gone.set())
        del node
        await asyncio.wait_for(gone.wait(), timeout=5)
        assert probe() is None
        running, walks = collector.running, collector._task
        collector.stop()
        assert walks is not None
        with contextlib.suppress(asyncio.CancelledError):
            await walks  # stopped: no walk comes after this (none to freeze anything again)
        assert walks.cancelled()
        return automatic, frozen, running, collector.running

    automatic, frozen, running, still_running = asyncio.run(scenario())
    assert not automatic  # Python's own collector is off while the server walks
    assert frozen >= len(loaded)
    assert running and not still_running  # the walks stop with the server...
    assert gc.isenabled() and gc.get_freeze_count() == 0  # ...which gives Python's back


def test_walks_are_young_but_a_full_one_when_it_is_due():
    clock = Clock()
    collector = Collector(full_seconds=5, young_seconds=0.25, clock=clock)
    walked = []
    for _ in range(80):  # 20 s (each walk really collects: a full one walks the whole heap)
        clock.now += 0.25
        walked.append(collector.walk())
    assert walked.count(FULL) == 4  # every 5 s
    assert walked.count(YOUNG) == 76
    assert [collector.walks[g].count for g in (YOUNG, FULL)] == [76, 4]
    assert all(w.longest >= 0 and w.total >= w.longest for w in collector.walks.values())
    assert Collector(full_seconds=0, clock=clock).walk() == YOUNG  # 0: never


def test_a_cycle_that_dies_after_it_was_frozen_waits_for_the_full_walk():
    clock = Clock()
    collector = Collector(full_seconds=600, young_seconds=0.1, clock=clock)
    gc.disable()
    node = Node()
    probe = weakref.ref(node)
    clock.now += 0.1
    assert collector.walk() == YOUNG  # it lives through a walk, so it is frozen:
    assert not any(o is node for g in (0, 1, 2) for o in gc.get_objects(g))  # in no generation
    del node
    for _ in range(3):
        clock.now += 0.1
        assert collector.walk() == YOUNG
    assert probe() is not None  # frozen: young walks never see it again
    clock.now += 600
    assert collector.walk() == FULL
    assert probe() is None
    assert collector.walks[FULL].freed >= 1


def test_a_cycle_that_dies_young_is_freed_by_the_next_young_walk():
    collector = Collector(clock=Clock())
    gc.disable()
    gc.collect()
    node = Node()
    probe = weakref.ref(node)
    del node
    assert collector.walk() == YOUNG
    assert probe() is None
    assert collector.walks[YOUNG].freed >= 1


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"young_seconds": 0}, "young_seconds"),
        ({"full_seconds": -1}, "full_seconds"),
    ],
)
def test_a_schedule_that_cannot_work_is_refused_by_name(options, named):
    with pytest.raises(ValueError, match=named):
        Collector(**options)
