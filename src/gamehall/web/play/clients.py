"""The clients of the games in play: their coming and going, their messages, and their rates.

A client's message is parsed at the edge (:func:`~gamehall.protocol.parse_client_message`) and
answered here when it asks for something to read (the state, a pong); what it asks to do (a move,
going on, resigning, aborting, a takeback, a claim, a chat message) is handed to the hub's
:class:`Actions`. A refusal is answered with an error message, never a crash, and a client told
its version is stale gets the state it lacks. The server holds at most ``max_connections``
clients. Each client may send ``messages_per_second``
(past it its messages are dropped, and a flood closes it), ask for ``resyncs_per_minute`` full
states (a state with more than :data:`FREE_DELTA` actions of history), and its browser
``takebacks_per_minute`` takeback requests (:mod:`gamehall.web.base.limits`). When a client
comes or goes, the game's clients are told who is connected now, and so are the other processes
of the hall (:mod:`gamehall.web.play.processes`).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from gamehall.protocol import (
    Abort,
    Chat,
    Claim,
    Continue,
    ErrorCode,
    ErrorMessage,
    Hello,
    Move,
    Ping,
    PongMessage,
    ProtocolError,
    Resign,
    Resync,
    Takeback,
    parse_client_message,
)
from gamehall.web.base.clock import Clock
from gamehall.web.base.limits import Rate, RateTable, over_limit
from gamehall.web.base.settings import Settings
from gamehall.web.play.connection import Connection
from gamehall.web.play.live import LiveGame

FREE_DELTA = 32
"""A state asked for (hello, resync) with at most this many actions of history is not counted
as a full resync."""


class Actions(Protocol):
    """What a client may ask the hub to do (each refused with ProtocolError, changing nothing)."""

    async def move(self, live: LiveGame, seats: frozenset[int], message: Move) -> None: ...

    async def go_on(self, live: LiveGame, seats: frozenset[int], version: int) -> None: ...

    async def resign(self, live: LiveGame, seats: frozenset[int]) -> None: ...

    async def abort(self, live: LiveGame, seats: frozenset[int]) -> None: ...

    async def takeback(self, live: LiveGame, seats: frozenset[int], op: str) -> None: ...

    async def claim_win(self, live: LiveGame, seats: frozenset[int]) -> None: ...

    async def chat(self, live: LiveGame, connection: Connection, text: str) -> None: ...


class Clients:
    """Every client of the hub's games: how many, what they send, and within which rates."""

    def __init__(
        self,
        settings: Settings,
        clock: Clock,
        actions: Actions,
        *,
        seconds: Callable[[], float],
        tell_presence: Callable[[LiveGame, frozenset[int]], None],
        chat_history: Callable[[LiveGame, Connection], Awaitable[None]],
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.actions = actions
        self._tell_presence = tell_presence
        """Tells the other processes which seats are connected here, if that changed."""
        self._chat_history = chat_history
        takebacks = settings.takebacks_per_minute
        self._takebacks = RateTable(takebacks / 60, max(1, takebacks // 2), clock=seconds)
        self.connections = 0
        """WebSocket connections held now."""

    def attach(self, live: LiveGame, connection: Connection) -> None:
        """Add a client to a game (ProtocolError(over_limit) when the server holds too many)."""
        if self.connections >= self.settings.max_connections:
            raise over_limit("max_connections", "the server holds all the connections it can")
        self.connections += 1
        connection.limit_messages(self.settings.messages_per_second)
        resyncs = self.settings.resyncs_per_minute
        connection.rates["resyncs"] = Rate(resyncs / 60, resyncs, time.monotonic())
        before, mine = live.connected(), live.local_seats()
        live.connections.add(connection)
        live.touch()
        connection.start()
        live.note_presence(self.clock.now())
        if live.connected() != before:
            live.broadcast_presence(self.clock.now())
        self._tell_presence(live, mine)

    async def detach(self, live: LiveGame, connection: Connection) -> None:
        """Take a client from a game (it went away, or the server stops)."""
        before, mine = live.connected(), live.local_seats()
        if connection in live.connections:
            self.connections -= 1
        live.connections.discard(connection)
        live.touch()
        await connection.stop()
        live.note_presence(self.clock.now())
        if live.connected() != before:
            live.broadcast_presence(self.clock.now())
        self._tell_presence(live, mine)

    def within_rate(self, connection: Connection) -> bool:
        """Whether a client's message is within ``messages_per_second`` (see
        :meth:`Connection.within_rate`: past it dropped, and a flood closes the client)."""

        def refuse(error: ProtocolError) -> None:
            connection.send(ErrorMessage(code=error.code, message=error.message, version=None))

        return connection.within_rate(self.settings.messages_per_second, refuse)

    def count_takeback(self, connection: Connection) -> None:
        """Count one takeback request of the connection's client, or refuse it (over_limit)."""
        if not self._takebacks.take(connection.client):
            limit = self.settings.takebacks_per_minute
            raise over_limit(
                "takebacks_per_minute", f"more than {limit} takeback requests a minute"
            )

    def send_state(self, live: LiveGame, connection: Connection, since: int | None) -> None:
        """Answer a client's request for the state: the actions after ``since`` (None: all),
        counted against ``resyncs_per_minute`` when that is more than a few."""
        start = 0 if since is None or not 0 <= since <= live.version else since
        if live.version - start > FREE_DELTA:
            rate = connection.rates.get("resyncs")
            if isinstance(rate, Rate) and not rate.take(time.monotonic()):
                limit = self.settings.resyncs_per_minute
                raise over_limit(
                    "resyncs_per_minute", f"more than {limit} full states asked for a minute"
                )
        live.send_state(connection, self.clock.now(), start)

    async def receive(self, live: LiveGame, connection: Connection, text: str | bytes) -> None:
        """Handle one message from a client: answer it, or have the hub do what it asks (not
        once it is closing: its session ended, or it broke a limit)."""
        if connection.closed or not self.within_rate(connection):
            return
        live.touch()
        seats, hub = connection.seats, self.actions
        try:
            message = parse_client_message(text)
            if isinstance(message, Hello):
                self.send_state(live, connection, message.version)
                await self._chat_history(live, connection)
            elif isinstance(message, Resync):
                self.send_state(live, connection, None)
            elif isinstance(message, Ping):
                connection.send(PongMessage())
            elif isinstance(message, Move):
                longest = self.settings.max_action_chars
                if len(message.action) > longest:
                    raise ProtocolError(
                        ErrorCode.BAD_MESSAGE,
                        f"a move is at most {longest} characters (limit max_action_chars), "
                        f"not {len(message.action)}",
                    )
                await hub.move(live, seats, message)
            elif isinstance(message, Continue):
                await hub.go_on(live, seats, message.version)
            elif isinstance(message, Resign):
                await hub.resign(live, seats)
            elif isinstance(message, Abort):
                await hub.abort(live, seats)
            elif isinstance(message, Takeback):
                self.count_takeback(connection)
                await hub.takeback(live, seats, message.op)
            elif isinstance(message, Claim):
                await hub.claim_win(live, seats)
            elif isinstance(message, Chat):
                await hub.chat(live, connection, message.text)
        except ProtocolError as error:
            connection.send(
                ErrorMessage(code=error.code, message=error.message, version=live.version)
            )
            if error.code == ErrorCode.STALE_VERSION:
                with contextlib.suppress(ProtocolError):
                    self.send_state(live, connection, connection.version)


__all__ = ["FREE_DELTA", "Actions", "Clients"]
