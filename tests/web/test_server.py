"""``gamehall serve``'s process set-up: once started, the garbage collector is kept out of the
players' way (what start loaded is frozen out of its walks, and it runs less often)."""

from __future__ import annotations

import gc

from gamehall.web.server import GC_THRESHOLDS, settle_heap


def test_a_started_server_freezes_what_it_loaded_and_collects_less_often():
    before = gc.get_threshold()
    kept = [[n] for n in range(1000)]  # loaded at start: lives as long as the process
    try:
        assert gc.get_freeze_count() == 0
        settle_heap()
        assert gc.get_freeze_count() >= len(kept)
        assert gc.get_threshold() == GC_THRESHOLDS
        young, middle, full = GC_THRESHOLDS
        assert young > before[0] and full > before[2]
        assert young * middle <= 20_000  # the middle generation stays small: its walks are short
        # Garbage in cycles is still collected.
        cycle: list[object] = []
        cycle.append(cycle)
        del cycle
        assert gc.collect() >= 1
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
