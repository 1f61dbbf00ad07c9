"""Computer moves: fair shares between clients and levels, and worker processes bounded in time
and memory, replaced when they die, and gone when the server is killed."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import sys
import threading
import time
from typing import Any, ClassVar

import psutil
import pytest

from gamehall.ai import make_agent
from gamehall.core import Agent, Limit, find_game
from gamehall.web.base.engine import derived_seed
from gamehall.web.compute.computers import Computers, _Job, _Lane
from tests.web.server_processes import Member, Process

_PAIRINGS = [c + s for c in "RBY" for s in "TSC"]
_DISCS = random.Random(7)
BIG_DISCS = ",".join(f"{_DISCS.choice(_PAIRINGS)}:{_DISCS.choice(_PAIRINGS)}" for _ in range(200))
"""200 random discs (the most a set holds), written out: 1,199 characters."""

# --- the lanes ----------------------------------------------------------------------------------


def _job(client: str, game: str, loop: asyncio.AbstractEventLoop) -> _Job:
    state = find_game("akros").new_initial_state()
    return _Job(game, 0, client, state, [], "hard", 0, loop.create_future())


def test_a_lane_serves_its_clients_in_turn():
    loop = asyncio.new_event_loop()
    try:
        lane = _Lane("search", 1)
        lane.slots[0].ready = True
        for i in range(30):
            lane.put(_job("greedy", f"g_a{i}", loop))
        lane.put(_job("patient", "g_b", loop))
        served = []
        while (taken := lane.take()) is not None:
            served.append(taken[1].client)
            taken[0].busy = False
        # One client's thirty moves delay another's by one move, not thirty.
        assert served[:3] == ["greedy", "patient", "greedy"] and len(served) == 31
        assert lane.waiting() == 0
    finally:
        loop.close()


def test_a_game_goes_to_the_worker_that_has_its_agents_when_that_one_is_free():
    loop = asyncio.new_event_loop()
    try:
        lane = _Lane("search", 3)
        for slot in lane.slots:
            slot.ready = True
        lane.put(_job("a", "g_one", loop))
        slot, _ = lane.take()
        home = slot.index
        slot.busy = False
        lane.put(_job("a", "g_one", loop))
        again, _ = lane.take()
        assert again.index == home  # home again
        again.busy = True
        lane.put(_job("a", "g_one", loop))  # home is busy: another free one takes it
        moved, _ = lane.take()
        assert moved.index != home and lane.home["g_one"] == moved.index
    finally:
        loop.close()


# --- through the server (agents on threads) -----------------------------------------------------


class GatedAgent(Agent):
    """``hard`` thinks until the test lets it go; the other levels play at once. Notes the seed
    of each agent asked, in order, so the test sees whose move was served when."""

    gate = threading.Event()
    asked: ClassVar[list[int | None]] = []

    def __init__(self, level: str, seed: int | None) -> None:
        self.level = level
        self.seed = seed
        self.inner = make_agent("beginner", seed)

    def choose(self, state):
        GatedAgent.asked.append(self.seed)
        if self.level == "hard":
            self.gate.wait(timeout=60)
        return self.inner.choose(state)


def _computer_first(client, level: str) -> dict[str, Any]:
    """An Akros game whose computer (the Jinn) moves first."""
    body = {"game": "akros", "mode": "computer", "seat": 1, "level": level}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def _wait(predicate, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_one_clients_many_searches_delay_another_by_one_move(server_factory):
    GatedAgent.gate.clear()
    GatedAgent.asked = []
    try:
        with server_factory(agent_factory=GatedAgent) as server:
            hub = server.hub
            greedy = [_computer_first(server.client, "hard") for _ in range(5)]
            _wait(lambda: len(GatedAgent.asked) == 1)  # one thinks, four wait their turn
            other = server.browser()
            # A quick level never queues behind a search: it moves while every search waits.
            easy = _computer_first(other, "easy")
            _wait(lambda: server.stored(easy["id"])[0] >= 2)
            patient = _computer_first(other, "hard")
            patient_seed = derived_seed(hub.games[patient["id"]].row.seed, "agent", 0)
            GatedAgent.gate.set()
            _wait(lambda: server.stored(patient["id"])[0] >= 2)
            seeds = {derived_seed(hub.games[g["id"]].row.seed, "agent", 0) for g in greedy}
            searches = [seed for seed in GatedAgent.asked if seed in seeds | {patient_seed}]
            # The other client's search came right after the one that was thinking.
            assert searches.index(patient_seed) == 1, searches
    finally:
        GatedAgent.gate.set()


class StuckAgent(Agent):
    """Thinks until the test lets it go (past any move's time)."""

    gate = threading.Event()

    def choose(self, state):
        self.gate.wait(timeout=120)
        return state.legal_actions()[0]


def test_a_computer_past_its_time_plays_a_random_move_instead(server_factory):
    from gamehall.web.base.settings import Settings

    StuckAgent.gate.clear()
    try:
        with server_factory(
            agent_factory=lambda level, seed: StuckAgent(), settings=Settings(computer_seconds=0.5)
        ) as server:
            game = _computer_first(server.client, "medium")
            _wait(lambda: server.stored(game["id"])[0] >= 2, seconds=60)
            # The move came while the agent was still stuck: it was the random move, and the
            # stuck thread was left behind (the slot has a new one).
            assert not StuckAgent.gate.is_set()
            assert server.hub.computers.replaced == 1
    finally:
        StuckAgent.gate.set()


# --- worker processes ---------------------------------------------------------------------------


def _acadmu_round(discs: str | None = None):

    game = find_game("acadmu", **({"discs": discs} if discs else {}))
    state, actions, rng = game.new_initial_state(), [], random.Random(4)
    while state.is_chance_node():
        action = state.sample_chance(rng)
        actions.append(str(action))
        state = state.apply_trusted(action)
    return state, actions


@pytest.mark.slow
def test_a_worker_stops_a_search_at_its_time_and_plays_the_fallback():
    """``perfect`` on 200 discs (the issue: minutes, gigabytes): stopped at its time."""
    state, actions = _acadmu_round(BIG_DISCS)

    async def scenario():
        computers = Computers(processes=True, workers=1, limit=Limit(seconds=2.0, memory_mb=1024))
        await computers.start()
        try:
            await asyncio.wait_for(computers.warm(), 120)
            choice = await computers.choose(
                "g_big0000000", state, actions, state.current_player, "perfect", 1, "me"
            )
            return choice, computers.replaced
        finally:
            await computers.stop()

    choice, replaced = asyncio.run(scenario())
    # Stopped by the worker at its time (not killed at the hard bound: that is "lost", and
    # replaces the worker).
    assert choice.how == "stopped" and state.parse_action(choice.text) in state.legal_actions()
    assert replaced == 0


def _said_ready(computers: Computers) -> asyncio.Event:
    """An event set when a worker process (a replacement too) next says it is ready."""
    said = asyncio.Event()
    runner: Any = computers.runner
    dispatch = runner.ready

    def ready() -> None:
        said.set()
        dispatch()

    runner.ready = ready
    return said


def _all_ready(computers: Computers) -> bool:
    return all(slot.ready for lane in computers.lanes.values() for slot in lane.slots)


@pytest.mark.slow
def test_a_worker_past_its_memory_plays_the_fallback_and_is_replaced():
    state, actions = _acadmu_round()

    async def scenario():
        # 1 MiB over its size once warm (the solver's table is allocated by then, in the
        # warm-up): a search of perfect needs more.
        computers = Computers(processes=True, workers=1, limit=Limit(seconds=20.0, memory_mb=1))
        await computers.start()
        try:
            await asyncio.wait_for(computers.warm(), 120)
            first = await computers.choose(
                "g_mem0000000", state, actions, state.current_player, "perfect", 1, "me"
            )
            replaced = computers.replaced
            again = await computers.choose(
                "g_mem0000001", state, actions, state.current_player, "beginner", 1, "me"
            )
            return first, replaced, again
        finally:
            await computers.stop()

    first, replaced, again = asyncio.run(scenario())
    assert first.how in ("memory", "lost"), first
    assert state.parse_action(first.text) in state.legal_actions()
    assert replaced >= 1
    assert again.how == "search"  # computer play goes on, on a new worker


@pytest.mark.slow
def test_a_dead_worker_is_replaced_and_the_move_asked_again():
    state, actions = _acadmu_round()

    async def scenario():
        computers = Computers(processes=True, workers=1, quick_workers=1)
        await computers.start()
        try:
            await asyncio.wait_for(computers.warm(), 120)
            workers = [psutil.Process(pid) for pid in computers.pids()]
            for worker in workers:
                worker.kill()  # an OOM killer, an operator, a crash
            _, alive = psutil.wait_procs(workers, timeout=30)
            assert alive == [], alive
            choice = await computers.choose(
                "g_dead000000", state, actions, state.current_player, "easy", 1, "me"
            )
            return choice, computers.replaced
        finally:
            await computers.stop()

    choice, replaced = asyncio.run(scenario())
    assert choice.how == "search" and replaced == 1


@pytest.mark.slow
def test_a_server_killed_with_sigkill_leaves_no_process_behind(tmp_path):
    # ``gamehall serve`` in a process of its own, its output read as it comes: it says when it
    # serves (its workers warm).
    server = Process(f"sqlite:///{tmp_path / 'k.sqlite3'}")
    try:
        server.wait_up()
        me = Member()
        body = {"game": "akros", "mode": "computer", "seat": 1, "level": "medium"}
        game = me.call(server, "POST", "/api/games", body)
        ws = me.socket(server, f"/ws/games/{game['id']}")
        try:
            ws.hello()
            if 0 not in ws.state["movers"]:  # the computer's move, as the page hears it
                ws.until(lambda m: m["type"] == "state" and 0 in m["movers"], timeout=60)
        finally:
            ws.close()
        children = psutil.Process(server.popen.pid).children(recursive=True)
        assert len(children) >= 2  # the workers (quick and search)
        assert not any("resource_tracker" in " ".join(c.cmdline()) for c in children)
        server.popen.send_signal(signal.SIGKILL)
        server.popen.wait(10)
        _, alive = psutil.wait_procs(children, timeout=5)
        assert alive == [], [p.pid for p in alive]
    finally:
        server.stop()


@pytest.mark.slow
def test_a_worker_that_does_not_answer_is_killed_and_the_fallback_plays_at_once():
    """A search stuck where no signal reaches it (here: the worker stopped): the worker is
    killed at the move's hard bound and the fallback plays then, not after a new worker has
    started (it starts meanwhile, and computer play goes on)."""
    state, actions = _acadmu_round()

    async def scenario():
        computers = Computers(processes=True, workers=1, limit=Limit(seconds=1.0, memory_mb=1024))
        await computers.start()
        try:
            await asyncio.wait_for(computers.warm(), 120)
            slot = computers.lanes["search"].slots[0]
            stuck = slot.process
            os.kill(stuck.pid, signal.SIGSTOP)
            said_ready = _said_ready(computers)
            first = await computers.choose(
                "g_stuck00000", state, actions, state.current_player, "medium", 1, "me"
            )
            # The fallback played before the replacement was ready (it is still warming up).
            replacement_ready = slot.ready or said_ready.is_set()
            await asyncio.wait_for(said_ready.wait(), 120)  # a new worker took its place
            assert _all_ready(computers)
            alive = stuck.pid not in computers.pids()
            return first, replacement_ready, alive, computers.replaced
        finally:
            await computers.stop()

    first, replacement_ready, replaced_pid, replaced = asyncio.run(scenario())
    assert first.how == "lost" and state.parse_action(first.text) in state.legal_actions()
    assert not replacement_ready, "the fallback waited for the new worker"
    assert replaced == 1 and replaced_pid


# --- the bound holds end to end -----------------------------------------------------------------


class HeldAgent(Agent):
    """Plays a legal move once the test lets it go: a search that holds its worker."""

    gate = threading.Event()

    def choose(self, state):
        self.gate.wait(timeout=120)
        return state.legal_actions()[0]


def test_a_move_waiting_for_a_worker_past_its_time_plays_the_fallback():
    """The time a move waits behind others' counts: eight clients' moves at once on one worker,
    the first search holding it: the seven others are answered at their time (``late``), not
    one after another once the worker is free."""
    state, actions = _acadmu_round()
    HeldAgent.gate.clear()

    async def scenario():
        computers = Computers(lambda level, seed: HeldAgent(), workers=1, limit=Limit(seconds=1.0))
        await computers.start()
        try:

            def move(i: int) -> asyncio.Future[Any]:
                return asyncio.ensure_future(
                    computers.choose(
                        f"g_queue{i:05d}",
                        state,
                        actions,
                        state.current_player,
                        "hard",
                        i,
                        f"client{i}",
                    )
                )

            moves = [move(i) for i in range(8)]
            # The first holds the worker until the gate opens: the others cannot be searched.
            waited = await asyncio.wait_for(asyncio.gather(*moves[1:]), 60)
            assert not moves[0].done()
            HeldAgent.gate.set()
            return [await asyncio.wait_for(moves[0], 60), *waited]
        finally:
            HeldAgent.gate.set()
            await computers.stop()

    answers = asyncio.run(scenario())
    assert all(state.parse_action(choice.text) in state.legal_actions() for choice in answers)
    assert [choice.how for choice in answers] == ["search"] + ["late"] * 7, answers


@pytest.mark.slow
def test_a_worker_lost_late_in_a_move_leaves_it_its_bound():
    """A worker killed late in a move's time (the OOM killer, a crash): the move is not asked
    again with a whole new time on a new worker (a 30 s move took 61.7 s so); it gets what is
    left of its time, here too little for a new worker to start, and the fallback plays at its
    time. (``perfect`` on 200 discs searches past its 2 s: it is stopped at its time.)"""
    state, actions = _acadmu_round(BIG_DISCS)
    seconds = 2.0

    async def scenario():
        computers = Computers(
            processes=True, workers=1, limit=Limit(seconds=seconds, memory_mb=1024)
        )
        await computers.start()
        try:
            await asyncio.wait_for(computers.warm(), 120)
            worker = computers.lanes["search"].slots[0].process
            said_ready = _said_ready(computers)

            async def kill_late() -> None:
                await asyncio.sleep(seconds - 0.5)
                os.kill(worker.pid, signal.SIGKILL)

            killer = asyncio.create_task(kill_late())
            choice = await computers.choose(
                "g_late000000", state, actions, state.current_player, "perfect", 1, "me"
            )
            await killer
            await asyncio.wait_for(said_ready.wait(), 120)  # computer play goes on
            assert _all_ready(computers)
            return choice, computers.replaced
        finally:
            await computers.stop()

    choice, replaced = asyncio.run(scenario())
    assert state.parse_action(choice.text) in state.legal_actions()
    assert replaced == 1, choice  # the worker was killed during the move
    # Not asked again with a whole new time on a new worker (that search would be "stopped"):
    # the fallback played at the move's time.
    assert choice.how == "lost", choice


# --- the worker's own stops ---------------------------------------------------------------------


@pytest.fixture
def stops():
    """The worker's stops installed in this (the test's main) thread, undone after."""
    from gamehall.web.compute import worker

    handler, hook = signal.getsignal(signal.SIGALRM), sys.unraisablehook
    worker.install_stops()
    try:
        yield worker
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, handler)
        sys.unraisablehook = hook


def test_a_stop_that_lands_in_a_callback_from_compiled_code_is_raised_again(stops, capsys):
    """numba compiling a kernel calls back into Python (llvmlite's object cache): a stop raised
    there was printed ("Exception ignored on calling ctypes callback function", the abuse run's
    traceback) and dropped, and the search ran on until the worker was killed. Here the
    "compiler" is qsort calling back into Python for half a second, the "search" a loop."""
    import ctypes

    compare = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)

    landed = []
    events: list[str] = []
    broken = time.monotonic() + 60  # only a broken run gets this far

    def slowly(_a: int, _b: int) -> int:
        try:
            while time.monotonic() < broken:  # the alarm lands here
                pass
        except BaseException as error:
            landed.append(error)
            raise
        return 0

    callback = compare(slowly)
    items = (ctypes.c_int * 2)()
    try:
        with stops.deadline(0.2):
            ctypes.CDLL(None).qsort(items, 2, ctypes.sizeof(ctypes.c_int), callback)
            events.append("callback returned")
            while time.monotonic() < broken:  # the search, past its time
                pass
    except stops.Stopped:
        events.append("stopped")
    assert landed and isinstance(landed[0], stops.Stopped)  # the case: it landed in the callback
    assert events == ["callback returned", "stopped"], "the stop was lost"
    assert "Exception ignored" not in capsys.readouterr().err


def test_a_stop_waits_until_numba_has_compiled(stops):
    """A stop that cut through numba's compiler left it half done: its cache then raised
    "no compiled object yet" and the worker died (the abuse run's second traceback). While
    numba's (or llvmlite's) Python code runs, a stop waits; it lands once the compiler returns.
    The "compiler" here is a function of a module named like one of numba's."""
    events: list[str] = []
    alarm = signal.getsignal(signal.SIGALRM)
    assert callable(alarm)

    def noted(signum: int, frame: Any) -> None:
        if events[-1:] != ["alarm"]:
            events.append("alarm")
        alarm(signum, frame)

    signal.signal(signal.SIGALRM, noted)
    # The "compiler" runs until the move's time is up (the first alarm), then returns.
    compiler: dict[str, Any] = {"__name__": "numba.core.stand_in"}
    exec("def compile(events):\n    while not events:\n        pass\n", compiler)
    broken = time.monotonic() + 60  # only a broken run gets this far
    try:
        with stops.deadline(0.2):
            compiler["compile"](events)
            events.append("compiled")
            while time.monotonic() < broken:  # the search, past its time
                pass
    except stops.Stopped:
        events.append("stopped")
    # The alarm came while it compiled, did not cut through it, and the stop landed after.
    assert events == ["alarm", "compiled", "alarm", "stopped"], events


def test_a_search_that_fails_plays_the_fallback_then_the_worker_exits(stops, monkeypatch):
    """A search that raises an error (a bug, or numba's "no compiled object yet" after a stop
    had cut through its compiler) answers the fallback, its traceback logged, and the worker
    then exits (a clean process for the next move). It died of it without an answer, and the
    move was asked again on a new worker with a whole new time."""
    from multiprocessing.connection import Connection

    import gamehall.web.compute.worker as worker_module

    class Failing(worker_module.AgentCache):
        def catch_up(self, *args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("a bug in a search")

    monkeypatch.setattr(worker_module, "AgentCache", Failing)
    state, actions = _acadmu_round()
    options = json.dumps(dict(state.game.options), sort_keys=True)
    ours, theirs = socket.socketpair()
    worker_side, test_side = Connection(ours.detach()), Connection(theirs.detach())
    answers: list[Any] = []

    def ask() -> None:
        try:
            assert test_side.poll(10) and test_side.recv()[0] == "ready"
            key = ("g_fail000000", state.current_player)
            test_side.send(("choose", key, "acadmu", options, None, actions, "perfect", 1, 2.0, []))
            if test_side.poll(10):
                answers.append(test_side.recv())
        finally:
            test_side.close()

    asking = threading.Thread(target=ask)
    asking.start()
    try:
        stops.serve(worker_side)  # returns after the answer: the worker process would exit
    finally:
        worker_side.close()
        asking.join(20)
    assert [how for _, _, how in answers] == ["failed"], answers
    assert all(state.parse_action(text) in state.legal_actions() for _, text, _ in answers)
