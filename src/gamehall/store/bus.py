"""How the processes of one hall hear of each other's events: the :class:`Bus`.

Several ``gamehall serve`` processes on one PostgreSQL database are one hall: a move committed by
one process must reach the clients of every other. Each process has one bus; the hub publishes
every committed game event through it, and every process's hub (and anything else that
subscribes, such as a lobby) hears every event, its own included (an event says which process
sent it: ``origin``).

An :class:`Event` is small: a game id, a kind and a version (and for an action, its text, at
most ``max_action_chars``), never a state, so it fits PostgreSQL's 8000-byte NOTIFY payload. A
process that hears of version *v* of a game it holds in memory and has not seen *v - 1*, or that
lost its listening connection for a while, loads what it missed from the store, which is the
truth; an event is only a hint to look.

Two buses:

* :class:`LocalBus`: in memory, for one process (SQLite, or tests). Publishing calls the
  subscribers of this process.
* :class:`~gamehall.store.postgres_bus.PostgresBus`: PostgreSQL ``LISTEN``/``NOTIFY`` on the store's own database, no extra
  server. An action's event is sent by ``pg_notify`` *inside the transaction that stores the
  action* (:meth:`Bus.in_transaction`), so it is delivered if and only if the action is
  committed, and after the commit: commit-before-tell holds across processes too.

Kinds the hub publishes (others, such as chat or clocks, may ride the same bus with a kind of
their own and a version to load from the store; the hall's are below):

* ``action``: ``version`` is the game's new version, ``action`` and ``mover`` the action's text
  and seat (absent when the text is long: then it is loaded from the store).
* ``game``: something of the game's row or seats changed (a seat was claimed, a rematch made):
  reload it.
* ``presence``: ``seats`` are the seats whose players are connected to the ``origin`` process;
  ``ask`` asks every process to say its presence for a game (sent when a process loads it).

Kinds the hall publishes (:mod:`~gamehall.web.hall.hall`; ``game`` is empty):

* ``lobby``: the seeks in the store changed (one was made, cancelled, taken or lapsed): reload
  them.
* ``paired``: a seek was accepted or a pairing made; ``player`` (a player id) is to be told of
  the game ``id`` (with its ``rated`` and ``clock``) on whichever process their lobby page is.
* ``challenges``: the open challenges of the ``players`` (a list of ``[player id, note or
  null]``) changed: each process sends those players' lobby sockets their challenges.
* ``signed_out``: the account sessions whose token hashes are ``sessions`` ended (signed out,
  dropped or expired): every process closes the sockets opened with them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

log = logging.getLogger("gamehall.web")

Event = dict[str, Any]
"""A bus event: JSON-able, with at least ``origin``, ``kind`` and (for a game's events)
``game``."""
Handler = Callable[[Event], Awaitable[None]]

CHANNEL = "gamehall"
"""The PostgreSQL notification channel."""
MAX_PAYLOAD = 7900
"""PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; events stay below this."""


def encode(event: Event) -> str:
    """An event as compact JSON (at most :data:`MAX_PAYLOAD` bytes: the hub keeps them small)."""
    text = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
    if len(text.encode("utf-8")) > MAX_PAYLOAD:
        raise ValueError(f"a bus event is at most {MAX_PAYLOAD} bytes: {text[:80]}…")
    return text


class Bus:
    """The events of one hall (see the module docstring); this base delivers in this process."""

    shared = False
    """Whether other processes may publish on this bus (then a process catches up from the
    store when a client connects, since it may have missed something)."""

    def __init__(self) -> None:
        self.origin = secrets.token_hex(6)
        """This process's id in events."""
        self._handlers: list[Handler] = []
        self._reconnected: list[Callable[[], Awaitable[None]]] = []
        self._tasks: set[asyncio.Task[None]] = set()

    def subscribe(self, handler: Handler) -> None:
        """Call ``handler`` with every event of the hall (its own too)."""
        self._handlers.append(handler)

    def on_reconnect(self, handler: Callable[[], Awaitable[None]]) -> None:
        """Call ``handler`` after events may have been missed (the listener reconnected)."""
        self._reconnected.append(handler)

    async def start(self) -> None:
        """Start listening."""

    async def stop(self) -> None:
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def event(self, kind: str, game: str, **fields: Any) -> Event:
        return {"origin": self.origin, "kind": kind, "game": game, **fields}

    async def publish(self, event: Event) -> None:
        """Send an event that no transaction carries (presence, a claimed seat)."""
        self._deliver(event)

    def in_transaction(self, event: Event) -> str | None:
        """The payload the store should NOTIFY in the transaction that commits ``event``, or
        None if this bus delivers it itself (then the hub calls :meth:`committed` after the
        commit)."""
        return None

    def committed(self, event: Event) -> None:
        """``event`` was committed (for a bus that did not send it in the transaction)."""
        self._deliver(event)

    def _deliver(self, event: Event) -> None:
        for handler in self._handlers:
            self._spawn(partial(handler, event))

    def _spawn(self, call: Callable[[], Awaitable[None]]) -> None:
        # The coroutine is made inside the task, so a task cancelled before it starts (the bus
        # stops) leaves no coroutine never awaited.
        async def run() -> None:
            try:
                await call()
            except asyncio.CancelledError:
                raise
            except Exception:  # one bad event must not stop the others
                log.exception("handling a bus event failed")

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


class LocalBus(Bus):
    """The bus of a hall that is one process."""


__all__ = ["CHANNEL", "MAX_PAYLOAD", "Bus", "Event", "Handler", "LocalBus", "encode"]
