"""The other processes of the hall: what this one hears from them of its games, and tells them.

Several processes on one PostgreSQL store are one hall (:mod:`gamehall.store.bus`). Each entry of a
game's log is stored with a bus event in the same transaction (:mod:`gamehall.web.play.committer`),
and a process that holds the game in memory takes the entry in and tells its own clients; an entry
it cannot take in whole (a long text, a gap in the versions) it reads from the store instead
(:meth:`Processes.catch_up`), as it does whenever a client opens a game it holds, so a client that
moves to another process (its own died) resyncs there. Chat is notified in the transaction that
stores it; presence and a round's ``continue`` ride the bus. A process that loads a game asks the
others what it cannot read in the store (who is connected, who went on from the pause). Each process
says it lives every :data:`HEARTBEAT_SECONDS`; one silent for :data:`SILENT_BEATS` beats is taken
for dead, and its players are no longer shown connected.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from gamehall.core import GamehallError
from gamehall.store.bus import Bus, Event
from gamehall.store.rows import ActionRow, now_text
from gamehall.web.base.clock import Clock
from gamehall.web.play.arbiter import pause_if_due
from gamehall.web.play.live import LiveGame
from gamehall.web.play.pools import Run, Spawn

if TYPE_CHECKING:  # the store is built by the transport layer and injected
    from gamehall.store.db import Store

log = logging.getLogger("gamehall.web")

HEARTBEAT_SECONDS = 5.0
"""How often a process of a shared hall says it lives (the ``alive`` event)."""
SILENT_BEATS = 3
"""A process not heard of for this many heartbeats is taken for dead: the seats connected
through it are no longer shown connected (and its players can be claimed against)."""


async def publish(bus: Bus, event: Event) -> None:
    """Tell the other processes ``event``; a failure is logged, never the caller's problem."""
    try:
        await bus.publish(event)
    except Exception:  # the others catch up from the store when asked for the game
        log.exception("cannot publish a bus event")


class Processes:
    """This process's part in a hall of several, for the games it holds in memory."""

    def __init__(
        self,
        store: Store,
        bus: Bus,
        clock: Clock,
        games: dict[str, LiveGame],
        *,
        db: Run,
        background: Spawn,
        loaded: Callable[[LiveGame], Awaitable[None]],
        finished: Callable[[LiveGame], None],
        arm: Callable[[LiveGame], None],
        went_on: Callable[[LiveGame, Event], Awaitable[None]],
        chat: Callable[[LiveGame, Event], None],
    ) -> None:
        self.store = store
        self.bus = bus
        self.clock = clock
        self.games = games
        self._db = db
        self._background = background
        self._loaded = loaded
        self._finished = finished
        self._arm = arm
        self._went_on = went_on
        self._chat = chat
        self._heard: dict[str, float] = {}
        """When each other process of the hall was last heard of (``time.monotonic()``)."""

    async def publish(self, event: Event) -> None:
        await publish(self.bus, event)

    async def leave(self) -> None:
        """This process stops: the others forget its presence at once."""
        await self.publish(self.bus.event("leaving", ""))

    def tell_presence(self, live: LiveGame, before: frozenset[int]) -> None:
        """Say which seats are connected here, when that changed (other processes show them)."""
        if self.bus.shared and live.local_seats() != before:
            self._background(self.say_presence(live))

    async def say_presence(self, live: LiveGame) -> None:
        seats = sorted(live.local_seats())
        await self.publish(self.bus.event("presence", live.id, seats=seats))

    async def on_event(self, event: Event) -> None:
        """An event of the hall: take in what another process did to a game held here."""
        origin = str(event.get("origin"))
        if origin == self.bus.origin:
            return
        self._heard[origin] = time.monotonic()
        kind = event.get("kind")
        if kind == "leaving":  # that process stops: its clients are gone from it
            self._forget(origin)
            return
        live = self.games.get(str(event.get("game")))
        if live is None:  # not in memory here: it is loaded from the store when asked for
            return
        if kind == "action":
            version = event.get("version")
            if not isinstance(version, int) or version <= live.version:
                return
            async with live.lock:
                entry = event_entry(event) if version == live.version + 1 else None
                if entry is None:
                    await self.catch_up(live)
                else:
                    at = event.get("at")
                    try:
                        self.take(live, entry, at if isinstance(at, int) else self.clock.now())
                    except (GamehallError, ValueError):
                        await self.catch_up(live)
                    else:
                        live.broadcast_state(self.clock.now())
            self._arm(live)
        elif kind == "game":  # a seat was claimed or a rematch made there
            async with live.lock:
                await self.catch_up(live)
                await self._loaded(live)  # the hall names the seats anew
            live.broadcast_state(self.clock.now())
        elif kind == "chat":
            self._chat(live, event)
        elif kind == "continue":
            await self._went_on(live, event)
        elif kind == "presence":
            seats = event.get("seats")
            if isinstance(seats, list):
                self._set_remote(live, origin, frozenset(int(s) for s in seats))
        elif kind == "ask":  # a process loaded the game: what it cannot read in the store
            if live.connections:
                await self.say_presence(live)
            pause = live.pause
            if pause is not None and pause.gone_on and not live.over:
                event = self.bus.event(
                    "continue", live.id, version=live.version, seats=sorted(pause.gone_on)
                )
                await self.publish(event)

    def _set_remote(self, live: LiveGame, origin: str, seats: frozenset[int]) -> None:
        """The seats connected to the process ``origin`` are now ``seats``."""
        before = live.connected()
        if seats:
            live.remote[origin] = seats
        else:
            live.remote.pop(origin, None)
        now = self.clock.now()
        live.note_presence(now)
        if live.connected() != before:
            live.broadcast_presence(now)

    def _forget(self, origin: str) -> None:
        """The process ``origin`` stopped or has gone silent: nobody is connected through it."""
        self._heard.pop(origin, None)
        for live in list(self.games.values()):
            if origin in live.remote:
                self._set_remote(live, origin, frozenset())

    async def heartbeat(self) -> None:
        """Tell the other processes this one lives, and forget those silent too long (a killed
        process says nothing: its players' presence goes with its silence)."""
        while True:
            await self.publish(self.bus.event("alive", ""))
            await asyncio.sleep(HEARTBEAT_SECONDS)
            silent = time.monotonic() - SILENT_BEATS * HEARTBEAT_SECONDS
            for origin, heard in list(self._heard.items()):
                if heard < silent:
                    log.warning(
                        "process %s of the hall is silent; its presence is forgotten", origin
                    )
                    self._forget(origin)

    def take(self, live: LiveGame, entry: ActionRow, now: int) -> None:
        """Take in an entry another process committed (checked once, there), made at ``now``."""
        live.advance(entry, now)
        if entry.kind == "action":
            pause_if_due(live, now)
        if live.over:
            # The listeners hear of it here too (the hall rates a game once: the database
            # claims the rating in the same transaction, whichever process gets there first).
            self._finished(live)

    async def catch_up(self, live: LiveGame) -> None:
        """Load what other processes stored of ``live`` since its version (its log, seats
        held, its rematch) and tell this process's clients."""
        found = await self._db(self.store.since, live.id, live.version)
        if found is None:
            return
        row, holders, entries = found
        changed = False
        now = self.clock.now()
        for stored in entries:
            if stored.number != live.version + 1 or live.played.ended is not None:
                continue
            self.take(live, stored, now)
            changed = True
        if row.rematch != live.row.rematch:
            live.row.rematch = row.rematch
            changed = True
        live.set_holders(holders)
        for connection in live.connections:
            if connection.identity is not None:
                connection.seats = live.seats_for(connection.identity)
        if changed:
            live.broadcast_state(now)

    async def catch_up_all(self) -> None:
        """After events may have been missed: every game in memory catches up."""
        for live in list(self.games.values()):
            async with live.lock:
                await self.catch_up(live)


def event_entry(event: Event) -> ActionRow | None:
    """The log entry an ``action`` event of another process carries, or None when it does not
    carry it whole (a long text, or something malformed: then it is loaded from the store)."""
    text, mover, kind, clock = (event.get(k) for k in ("action", "mover", "entry", "clock"))
    if not isinstance(text, str) or not isinstance(mover, int) or not isinstance(kind, str):
        return None
    if clock is not None and not (
        isinstance(clock, list) and all(c is None or isinstance(c, int) for c in clock)
    ):
        return None
    return ActionRow(
        event["version"], text, mover, now_text(), kind, tuple(clock) if clock else None
    )


__all__ = ["HEARTBEAT_SECONDS", "SILENT_BEATS", "Processes", "event_entry", "publish"]
