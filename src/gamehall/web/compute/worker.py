"""A computer-player worker process: ``python -m gamehall.web.compute.worker PARENT FD MEMORY_MB``.

The server (:mod:`gamehall.web.compute.workers`) starts each worker as a plain subprocess and talks to it
over one socket (``FD``, pickled messages of :mod:`multiprocessing.connection`), so no
multiprocessing machinery (no resource tracker) is left behind. The worker:

* dies with its parent: ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` on Linux, and a thread that exits
  when its parent process is no longer ``PARENT`` (any system), so a server killed with SIGKILL
  leaves no worker running;
* holds its address space to its size at start plus ``MEMORY_MB`` (``RLIMIT_AS``): a search
  that needs more gets ``MemoryError``, and the worker answers with the fallback move and asks to
  be replaced;
* stops a move at its time (``SIGALRM``, the soft bound; the server kills a worker that does
  not answer soon after, the hard one) and plays the fallback instead: the ``easy`` player
  (greedy), then, if even that cannot finish, a random legal move. A stop is held while numba
  compiles a kernel (cutting through numba's compiler broke it: see :func:`_alarm`), and one
  that lands in any other callback from compiled code, where Python can only print it and go
  on, is raised again a moment later instead of being lost;
* plays the fallback too when a search fails (an exception: its traceback goes to the log),
  and exits after answering, as after running out of memory (the server starts another).

* loads (or compiles, once after installing) every game's solver and search kernels and imports
  the jobs' modules (:func:`gamehall.web.compute.workers.warm_worker`) *before* it says it is ready, so
  no job of a fresh server pays for a compiler; the memory bound is measured after that.

Two kinds of request, both under the same bounds:

* ``("choose", key, game, options_json, setup, actions, level, seed, seconds, forget)``, a
  computer move; answered ``("moved", text, how)`` where ``how`` is ``"search"``, ``"stopped"``
  (past its time), ``"failed"`` (the search raised an error) or ``"memory"`` (past its memory);
  after the last two the worker exits;
* ``("call", job, args, seconds, progress)``, an analysis job (a hint, a review): the function
  named ``job`` in :data:`gamehall.web.compute.jobs.JOBS` called with ``*args`` (with ``progress=`` when asked, whose reports come back as
  ``("progress", done, total)`` before the answer); answered ``("result", value)``,
  ``("raised", error)``, ``("stopped",)`` or ``("memory",)`` (then the worker exits).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import resource
import signal
import sys
import threading
import time
import traceback
from collections.abc import Iterator
from multiprocessing.connection import Connection
from types import FrameType
from typing import Any

from gamehall.ai.basic import GreedyAgent, RandomAgent
from gamehall.web.base.engine import make_game, start_state
from gamehall.web.compute.agents import AgentCache
from gamehall.web.compute.jobs import JOBS
from gamehall.web.compute.workers import fallback_seconds, warm_worker

PR_SET_PDEATHSIG = 1
AGAIN_SECONDS = 0.05
"""How soon a stop that could not be raised (see :func:`install_stops`) is raised again."""


class Stopped(BaseException):
    """The move's time ran out (raised in the worker's main thread by SIGALRM). A BaseException,
    so no ``except Exception`` in a search swallows it."""


def watch_parent(parent: int) -> None:
    """End this process when ``parent`` ends."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="gamehall-parent-watch", daemon=True).start()


def address_space() -> int:
    """This process's virtual memory size in bytes (0 when the system does not say)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def limit_memory(memory_mb: int) -> int:
    """Hold the address space to its present size plus ``memory_mb`` MiB; returns the limit."""
    limit = address_space() + memory_mb * 1024 * 1024
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return limit


_armed = False
"""A :func:`deadline` is running: its alarm raises :class:`Stopped`."""


COMPILERS = ("numba", "llvmlite")
"""Packages whose Python code a stop must not cut through (see :func:`_alarm`)."""


def _in_compiler(frame: FrameType | None) -> bool:
    """Whether ``frame`` runs in, or is called by, numba's or llvmlite's Python code."""
    while frame is not None:
        if str(frame.f_globals.get("__name__", "")).partition(".")[0] in COMPILERS:
            return True
        frame = frame.f_back
    return False


def _alarm(_signum: int, frame: FrameType | None) -> None:
    """The move's time is up: raise :class:`Stopped`, unless numba is compiling a kernel (its
    Python code runs between LLVM's calls and calls back from them): a stop there is lost
    (printed as "Exception ignored") or leaves numba half done (its cache then fails with
    "no compiled object yet" and the worker died). The stop is tried again shortly, and
    lands once the compiler has returned (or the server's hard bound ends the worker)."""
    if not _armed:
        return
    if _in_compiler(frame):
        signal.setitimer(signal.ITIMER_REAL, AGAIN_SECONDS)
        return
    raise Stopped


def install_stops() -> None:
    """Let :func:`deadline` stop this (the main) thread: the alarm's handler, and a hook for
    a stop that was lost. A :class:`Stopped` raised where it cannot propagate (a ctypes
    callback: numba's compiler calls back into Python) is printed and dropped by Python, and
    the search would run on past its time: it is raised again shortly instead, quietly.
    Anything else unraisable is reported as before."""
    signal.signal(signal.SIGALRM, _alarm)
    previous = sys.unraisablehook

    def unraisable(report: Any) -> None:
        if isinstance(report.exc_value, Stopped):
            if _armed:
                signal.setitimer(signal.ITIMER_REAL, AGAIN_SECONDS)
            return
        previous(report)

    sys.unraisablehook = unraisable


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise :class:`Stopped` in this (the main) thread after ``seconds`` (after
    :func:`install_stops`)."""
    global _armed
    _armed = True
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))
    try:
        yield
    finally:
        _armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)


def serve(connection: Connection, warmed: float = 0.0) -> None:
    """Answer requests until the server closes the socket."""
    cache = AgentCache()
    install_stops()
    connection.send(("ready", os.getpid(), warmed))
    while True:
        try:
            request = connection.recv()
        except (EOFError, OSError):
            return
        if request[0] == "call":
            if not call(connection, request):
                return  # out of memory: a clean process for the next job
            continue
        _, key, game_name, options, setup, actions, level, seed, seconds, forget = request
        for game_id in forget:
            cache.forget(game_id)
        how = "search"
        text: str | None = None
        game = make_game(game_name, options)
        state = None
        try:
            with deadline(seconds):
                entry, state = cache.catch_up(key, game, actions, level, seed, setup)
                text = str(entry.agent.choose(state))
            cache.keep(key, entry)
        except Stopped:
            how = "stopped"
        except MemoryError:
            how = "memory"
        except Exception:  # a search that fails: its traceback is logged, the fallback plays
            traceback.print_exc()
            how = "failed"
        if text is None:
            cache.drop(key)
            gc.collect()
            if state is None:
                state = start_state(game, setup)
                for action in actions:
                    state = state.apply_trusted(game.parse_action(action))
            try:
                with deadline(fallback_seconds(seconds)):
                    text = str(GreedyAgent(seed).choose(state))
            except (Stopped, MemoryError):
                text = str(RandomAgent(seed).choose(state))
        connection.send(("moved", text, how))
        if how in ("memory", "failed"):
            return  # a clean process for the next move: the server starts another


def call(connection: Connection, request: tuple[Any, ...]) -> bool:
    """Run one analysis job and answer it; False when the worker must exit (out of memory)."""
    _, name, args, seconds, wants_progress = request

    def progress(done: int, total: int) -> None:
        # Not cut by the job's alarm halfway through a message: it is raised once sent.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        try:
            connection.send(("progress", done, total))
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})

    answer: tuple[Any, ...]
    try:
        function = JOBS.get(name)
        if function is None:
            raise ValueError(f"no worker job {name!r}; the jobs are {', '.join(JOBS)}")
        with deadline(seconds):
            value = function(*args, progress=progress) if wants_progress else function(*args)
        answer = ("result", value)
    except Stopped:
        answer = ("stopped",)
    except MemoryError:
        answer = ("memory",)
    except Exception as error:
        answer = ("raised", error)
    gc.collect()
    try:
        connection.send(answer)
    except Exception:  # an answer or error that does not pickle
        connection.send(("raised", RuntimeError(f"{name} gave an answer that cannot be sent")))
    return answer[0] != "memory"


def main(argv: list[str]) -> int:
    parent, fd, memory_mb = (int(x) for x in argv[1:4])
    watch_parent(parent)
    connection = Connection(fd)
    # Every kernel and solver table (and, imported above, the players, the games and the jobs'
    # modules), loaded before the memory is measured (numpy's BLAS alone cannot start under a
    # small bound): a job's bound is what it needs beyond them.
    warmed = warm_worker()
    limit_memory(memory_mb)
    serve(connection, warmed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
