"""Worker processes for computer players, as the server sees them: started, bounded, replaced.

A :class:`ProcessWorker` is one ``python -m gamehall.web.worker`` subprocess (see that module for
the worker's side) and the socket to it. The server asks it for one move at a time
(:meth:`ProcessWorker.call`, a blocking call the scheduler runs on a thread of its own) and
bounds it:

* **memory**: the worker holds its address space to its size at start plus the limit's
  ``memory_mb`` (``RLIMIT_AS``); past it the worker plays the fallback and exits;
* **time**: the worker stops a search at the limit's ``seconds`` and plays the fallback; a worker
  that still has not answered a little later (a search stuck in compiled code) is killed
  (:class:`WorkerTimeout`), and the scheduler starts another;
* **death**: a worker that dies (killed, out of memory, a crash) raises :class:`WorkerDied`; the
  scheduler starts another and asks again.

The worker dies with the server (see :mod:`gamehall.web.worker`), and no multiprocessing
helper process (a resource tracker) is ever started.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

log = logging.getLogger("gamehall.web")

START_SECONDS = 120.0
"""How long a new worker may take to import the players and say it is ready."""
GRACE_SECONDS = 3.0
"""How long past a move's time (and its fallback's) a worker may be silent before it is killed."""


class WorkerDied(Exception):
    """The worker process ended (or never started) before it answered."""


class WorkerTimeout(Exception):
    """The worker did not answer in time and was killed."""


def fallback_seconds(seconds: float) -> float:
    """The time the worker gives the fallback move after stopping a search (as it does)."""
    return max(0.2, min(2.0, seconds / 5))


class ProcessWorker:
    """One worker subprocess and its socket."""

    def __init__(self, name: str, memory_mb: int) -> None:
        self.name = name
        self.memory_mb = memory_mb
        self.process: subprocess.Popen[bytes] | None = None
        self.connection: Connection | None = None
        self.pid: int | None = None
        self._lock = threading.Lock()

    def spawn(self) -> None:
        """Start the subprocess (quick: it says it is ready later, see :meth:`wait_ready`).
        Call it from a thread that lives as long as the server (the event loop's): on Linux a
        worker dies with the thread that started it."""
        ours, theirs = socket.socketpair()
        try:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gamehall.web.worker",
                    str(os.getpid()),
                    str(theirs.fileno()),
                    str(self.memory_mb),
                ],
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                close_fds=True,
            )
        except OSError:
            ours.close()
            raise
        finally:
            theirs.close()
        self.connection = Connection(ours.detach())
        self.pid = self.process.pid

    def wait_ready(self, timeout: float = START_SECONDS) -> None:
        """Block until the worker says it is ready (WorkerDied if it does not)."""
        connection = self.connection
        if connection is None:
            raise WorkerDied(f"worker {self.name} was not started")
        try:
            if not connection.poll(timeout):
                self.kill()
                raise WorkerDied(f"worker {self.name} did not start within {timeout:g} s")
            message = connection.recv()
        except (EOFError, OSError) as error:
            self.kill()
            raise WorkerDied(f"worker {self.name} ended while starting") from error
        if not (isinstance(message, tuple) and message and message[0] == "ready"):
            self.kill()
            raise WorkerDied(f"worker {self.name} said {message!r} instead of ready")

    def call(self, request: tuple[Any, ...], seconds: float) -> tuple[Any, ...]:
        """Send one request and wait for its answer: at most ``seconds`` (the move's time) plus
        its fallback's time plus :data:`GRACE_SECONDS`, else the worker is killed."""
        connection = self.connection
        if connection is None:
            raise WorkerDied(f"worker {self.name} is not running")
        with self._lock:
            try:
                connection.send(request)
                wait = seconds + fallback_seconds(seconds) + GRACE_SECONDS
                if not connection.poll(wait):
                    self.kill()
                    raise WorkerTimeout(
                        f"worker {self.name} did not answer within {wait:g} s and was stopped"
                    )
                answer = connection.recv()
            except (EOFError, OSError, BrokenPipeError) as error:
                code = self.reap()
                raise WorkerDied(f"worker {self.name} ended (exit status {code})") from error
        return answer  # type: ignore[no-any-return]

    def kill(self) -> None:
        """Stop the worker at once and reap it."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(OSError):
                self.process.kill()
        self.reap()

    def reap(self, timeout: float = 5.0) -> int | None:
        """Wait for the ended process (so it leaves no zombie) and close the socket."""
        code = None
        if self.process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self.process.wait(timeout)
        if self.connection is not None:
            with contextlib.suppress(OSError):
                self.connection.close()
            self.connection = None
        return code

    def stop(self) -> None:
        """End the worker: close its socket (it exits), then kill it if it lingers."""
        if self.connection is not None:
            with contextlib.suppress(OSError):
                self.connection.close()
            self.connection = None
        if self.process is not None:
            deadline = time.monotonic() + 1.0
            while self.process.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            self.kill()

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None


__all__ = [
    "GRACE_SECONDS",
    "ProcessWorker",
    "WorkerDied",
    "WorkerTimeout",
    "fallback_seconds",
]
