"""A client of a game in play: the seats it holds and its queue of messages to send.

A :class:`Connection` writes to a :class:`Transport`, anything with ``send_text`` and ``close`` (a
Starlette WebSocket, or a fake in the tests), so a game in play runs without a web framework. Its
messages are queued and written by its own task, so telling many clients never waits on a slow
one. It remembers the last version of the game it was sent, so the next state message carries
only the actions after those it still has right (see :mod:`gamehall.web.play.live`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Protocol

from pydantic import BaseModel

from gamehall.protocol import ProtocolError
from gamehall.web.base.limits import Rate, over_limit

SESSION_ENDED = 4401
"""The close code of a connection whose account session ended (signed out, here or on another
browser): it acted for the account, and may no longer."""
SEND_QUEUE_LIMIT = 512
"""A client that falls this many messages behind is disconnected (it resyncs on reconnect)."""
DROPPED_SECONDS = 20
"""A client that has had this many seconds' worth of messages (at its rate) dropped over its
life is disconnected (1008)."""


class Transport(Protocol):
    """Where a connection's messages go (a WebSocket)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000) -> None: ...


class Connection:
    """One client of a game: the seats it holds and its outgoing queue.

    Messages are queued and written by the connection's own task, so telling many clients never
    waits on a slow one; one that falls :data:`SEND_QUEUE_LIMIT` messages behind is closed.
    """

    def __init__(
        self,
        transport: Transport,
        seats: frozenset[int],
        *,
        identity: str | None = None,
        address: str = "",
        session: str | None = None,
    ) -> None:
        self.transport = transport
        self.seats = seats
        self.identity = identity
        """The key of the browser's identity (None: it has none), see gamehall.web.http.identity."""
        self.session = session
        """The token hash of the account session it was opened with (None: not signed in);
        the connection closes when that session ends."""
        self.address = address
        self.version: int | None = None
        """The last version this client was sent a state of (None: none yet, it has not said
        hello); the next state carries the actions after those it still has right."""
        self.queue: asyncio.Queue[str | int] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.closed = False
        self.rates: dict[str, object] = {}
        """The connection's own rate buckets (see gamehall.web.base.limits), made when it is
        attached (:mod:`gamehall.web.play.clients`)."""
        self.dropped = 0
        """Messages dropped for being over the rate (the socket closes past a bound)."""
        self.warned = False
        """Whether this run of dropped messages was answered with ``over_limit`` already."""
        self.seconds: Callable[[], float] = time.monotonic
        """The clock of the message rate (a test may give one it moves by hand)."""

    @property
    def client(self) -> str:
        """Whose rates the connection's chat and takebacks count against: its browser, else its
        network address, else the connection alone."""
        return self.identity or self.address or f"connection {id(self)}"

    def limit_messages(self, per_second: float) -> None:
        """Give the client its message rate: ``per_second``, with a burst of twice that (the
        setting ``messages_per_second``; the game's and the lobby's sockets alike)."""
        self.rates["messages"] = Rate(per_second, 2 * per_second, self.seconds())

    def within_rate(self, per_second: float, refuse: Callable[[ProtocolError], None]) -> bool:
        """Whether the client's next message is within its rate (see :meth:`limit_messages`):
        past it the message is dropped (the first dropped one of a run is answered through
        ``refuse`` with ``over_limit``), and a client that has had :data:`DROPPED_SECONDS`'
        worth of messages dropped is closed (counted over the connection's life, so a slow
        link or a busy server cannot stretch a flood out of it)."""
        rate = self.rates.get("messages")
        if not isinstance(rate, Rate) or rate.take(self.seconds()):
            self.warned = False
            return True
        self.dropped += 1
        if not self.warned:
            self.warned = True
            refuse(over_limit("messages_per_second", f"more than {per_second:g} messages a second"))
        if self.dropped > DROPPED_SECONDS * per_second:
            self.close(1008)
        return False

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._pump())

    def send(self, message: BaseModel | str) -> None:
        """Queue a message (a protocol model, or its JSON text)."""
        if self.closed:
            return
        if self.queue.qsize() >= SEND_QUEUE_LIMIT:
            self.close(1013)  # try again later: it resyncs on reconnect
            return
        text = message if isinstance(message, str) else message.model_dump_json()
        self.queue.put_nowait(text)

    def close(self, code: int = 1000) -> None:
        """Close the connection once what is queued has been sent (1008: it broke a limit)."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(code)

    async def _pump(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if isinstance(text, int):
                    with contextlib.suppress(Exception):
                        await self.transport.close(code=text)
                    return
                await self.transport.send_text(text)
        except Exception:  # the client went away; the receive loop notices and detaches
            self.closed = True

    async def stop(self) -> None:
        self.closed = True
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task


__all__ = ["DROPPED_SECONDS", "SEND_QUEUE_LIMIT", "SESSION_ENDED", "Connection", "Transport"]
