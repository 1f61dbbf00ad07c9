"""Computer moves: fair shares between clients and levels, and worker processes bounded in time
and memory, replaced when they die, and gone when the server is killed."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, ClassVar

import psutil
import pytest

from gamehall.ai import make_agent
from gamehall.core import Agent, Limit, find_game
from gamehall.web.base.engine import derived_seed
from gamehall.web.compute.computers import Computers, _Job, _Lane, move_bound
from gamehall.web.compute.workers import GRACE_SECONDS, fallback_seconds

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
    def choose(self, state):
        time.sleep(30)
        return state.legal_actions()[0]


def test_a_computer_past_its_time_plays_a_random_move_instead(server_factory):
    from gamehall.web.base.settings import Settings

    with server_factory(
        agent_factory=lambda level, seed: StuckAgent(), settings=Settings(computer_seconds=0.5)
    ) as server:
        game = _computer_first(server.client, "medium")
        started = time.monotonic()
        _wait(lambda: server.stored(game["id"])[0] >= 2, seconds=8)
        assert time.monotonic() - started < 0.5 + 3.0 + 1.5
        assert server.hub.computers.replaced == 1


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
            await asyncio.wait_for(_ready(computers), 120)
            started = time.monotonic()
            choice = await computers.choose(
                "g_big0000000", state, actions, state.current_player, "perfect", 1, "me"
            )
            return choice, time.monotonic() - started, computers.replaced
        finally:
            await computers.stop()

    choice, seconds, replaced = asyncio.run(scenario())
    assert choice.how == "stopped" and state.parse_action(choice.text) in state.legal_actions()
    assert seconds < 2.0 + 2.0 + 1.0 and replaced == 0


async def _ready(computers: Computers) -> None:
    while not all(slot.ready for lane in computers.lanes.values() for slot in lane.slots):
        await asyncio.sleep(0.05)


@pytest.mark.slow
def test_a_worker_past_its_memory_plays_the_fallback_and_is_replaced():
    state, actions = _acadmu_round()

    async def scenario():
        # 1 MiB over its size once warm (the solver's table is allocated by then, in the
        # warm-up): a search of perfect needs more.
        computers = Computers(processes=True, workers=1, limit=Limit(seconds=20.0, memory_mb=1))
        await computers.start()
        try:
            await asyncio.wait_for(_ready(computers), 120)
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
            await asyncio.wait_for(_ready(computers), 120)
            for pid in computers.pids():
                os.kill(pid, signal.SIGKILL)  # an OOM killer, an operator, a crash
            await asyncio.sleep(0.2)
            choice = await computers.choose(
                "g_dead000000", state, actions, state.current_player, "easy", 1, "me"
            )
            return choice, computers.replaced
        finally:
            await computers.stop()

    choice, replaced = asyncio.run(scenario())
    assert choice.how == "search" and replaced == 1


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _http(url: str, body: dict[str, Any] | None = None, cookie: str = "") -> tuple[dict, str]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method="POST" if body is not None else "GET")
    request.add_header("content-type", "application/json")
    if cookie:
        request.add_header("cookie", cookie)
    with urllib.request.urlopen(request, timeout=20) as answer:
        set_cookie = answer.headers.get("set-cookie", "")
        return json.loads(answer.read()), set_cookie.split(";")[0] or cookie


def start_server(tmp_path: Path, port: int) -> subprocess.Popen[bytes]:
    """``gamehall serve`` in a process of its own, ready to answer."""
    gamehall = Path(sys.executable).with_name("gamehall")
    server = subprocess.Popen(
        [
            str(gamehall),
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{tmp_path / 'k.sqlite3'}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            _http(f"http://127.0.0.1:{port}/api/meta")
            return server
        except OSError:
            assert time.monotonic() < deadline and server.poll() is None, "the server did not start"
            time.sleep(0.1)


@pytest.mark.slow
def test_a_server_killed_with_sigkill_leaves_no_process_behind(tmp_path):
    port = _free_port()
    server = start_server(tmp_path, port)
    try:
        base = f"http://127.0.0.1:{port}"
        game, cookie = _http(
            f"{base}/api/games", {"game": "akros", "mode": "computer", "seat": 1, "level": "medium"}
        )
        deadline = time.monotonic() + 60
        while 0 not in _http(f"{base}/api/games/{game['id']}", cookie=cookie)[0]["movers"]:
            assert time.monotonic() < deadline, "the computer did not move"
            time.sleep(0.1)
        children = psutil.Process(server.pid).children(recursive=True)
        assert len(children) >= 2  # the workers (quick and search)
        assert not any("resource_tracker" in " ".join(c.cmdline()) for c in children)
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        _, alive = psutil.wait_procs(children, timeout=5)
        assert alive == [], [p.pid for p in alive]
    finally:
        if server.poll() is None:
            server.kill()


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
            await asyncio.wait_for(_ready(computers), 120)
            stuck = computers.lanes["search"].slots[0].process
            os.kill(stuck.pid, signal.SIGSTOP)
            started = time.monotonic()
            first = await computers.choose(
                "g_stuck00000", state, actions, state.current_player, "medium", 1, "me"
            )
            took = time.monotonic() - started
            await asyncio.wait_for(_ready(computers), 120)  # a new worker took its place
            alive = stuck.pid not in computers.pids()
            return first, took, alive, computers.replaced
        finally:
            await computers.stop()

    first, took, replaced_pid, replaced = asyncio.run(scenario())
    assert first.how == "lost" and state.parse_action(first.text) in state.legal_actions()
    hard_bound = 1.0 + fallback_seconds(1.0) + GRACE_SECONDS
    assert took < hard_bound + 0.5, took
    assert replaced == 1 and replaced_pid


# --- the bound holds end to end -----------------------------------------------------------------


class SlowAgent(Agent):
    """Plays a legal move after ``seconds``: a search within its time, but not by much."""

    seconds = 0.9

    def choose(self, state):
        time.sleep(self.seconds)
        return state.legal_actions()[0]


def test_a_move_waiting_for_a_worker_past_its_time_plays_the_fallback():
    """The time a move waits behind others' counts: eight clients' moves at once on one worker,
    each search taking nearly the whole second, are all answered within the bound, not one
    after another (the last after 7 s)."""
    seconds = 1.0
    state, actions = _acadmu_round()

    async def scenario():
        computers = Computers(
            lambda level, seed: SlowAgent(), workers=1, limit=Limit(seconds=seconds)
        )
        await computers.start()
        try:
            started = time.monotonic()

            async def one(i: int) -> tuple[Any, float]:
                choice = await computers.choose(
                    f"g_queue{i:05d}", state, actions, state.current_player, "hard", i, f"client{i}"
                )
                return choice, time.monotonic() - started

            return await asyncio.gather(*(one(i) for i in range(8)))
        finally:
            await computers.stop()

    answers = asyncio.run(scenario())
    assert all(state.parse_action(choice.text) in state.legal_actions() for choice, _ in answers)
    assert max(took for _, took in answers) < move_bound(seconds) + 0.5, answers
    hows = [choice.how for choice, _ in answers]
    assert hows.count("search") >= 1 and "late" in hows, hows


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
            await asyncio.wait_for(_ready(computers), 120)
            worker = computers.lanes["search"].slots[0].process

            async def kill_late() -> None:
                await asyncio.sleep(seconds - 0.5)
                os.kill(worker.pid, signal.SIGKILL)

            killer = asyncio.create_task(kill_late())
            started = time.monotonic()
            choice = await computers.choose(
                "g_late000000", state, actions, state.current_player, "perfect", 1, "me"
            )
            took = time.monotonic() - started
            await killer
            await asyncio.wait_for(_ready(computers), 120)  # computer play goes on
            return choice, took, computers.replaced
        finally:
            await computers.stop()

    choice, took, replaced = asyncio.run(scenario())
    assert state.parse_action(choice.text) in state.legal_actions()
    assert replaced == 1, (took, choice)  # the worker was killed during the move
    assert choice.how == "lost" and took < seconds + 1.0 < move_bound(seconds), (took, choice)


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

    def slowly(_a: int, _b: int) -> int:
        try:
            time.sleep(0.5)  # the alarm lands here
        except BaseException as error:
            landed.append(error)
            raise
        return 0

    callback = compare(slowly)
    items = (ctypes.c_int * 2)()
    started = time.monotonic()
    stopped_after = None
    try:
        with stops.deadline(0.2):
            ctypes.CDLL(None).qsort(items, 2, ctypes.sizeof(ctypes.c_int), callback)
            while time.monotonic() - started < 5.0:  # the search, past its time
                pass
    except stops.Stopped:
        stopped_after = time.monotonic() - started
    assert landed and isinstance(landed[0], stops.Stopped)  # the case: it landed in the callback
    assert stopped_after is not None, "the stop was lost"
    assert stopped_after < 1.0
    assert "Exception ignored" not in capsys.readouterr().err


def test_a_stop_waits_until_numba_has_compiled(stops):
    """A stop that cut through numba's compiler left it half done: its cache then raised
    "no compiled object yet" and the worker died (the abuse run's second traceback). While
    numba's (or llvmlite's) Python code runs, a stop waits; it lands once the compiler returns.
    The "compiler" here is a function of a module named like one of numba's."""
    compiler: dict[str, Any] = {"__name__": "numba.core.stand_in", "time": time}
    exec("def compile(done):\n    time.sleep(0.5)\n    done.append(True)\n", compiler)
    done: list[bool] = []
    started = time.monotonic()
    stopped_after = None
    try:
        with stops.deadline(0.2):
            compiler["compile"](done)
            while time.monotonic() - started < 5.0:  # the search, past its time
                pass
    except stops.Stopped:
        stopped_after = time.monotonic() - started
    assert done == [True], "the stop cut through the compiler"
    assert stopped_after is not None and 0.5 <= stopped_after < 1.0, stopped_after


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
