"""The other processes of the hall: what this one hears from them and tells them on the bus.

Several processes on one database are one hall (:mod:`~gamehall.store.bus`). The seeks live in
the store; this process's :class:`~gamehall.web.hall.pairing.Lobby` is a copy of them, reloaded
when any process says on the bus that the lobby changed (a ``lobby`` event). A pairing made on
one process tells the players connected to any other (a ``paired`` event). Account sessions
that end on one process close their sockets on every other (a ``signed_out`` event); other
parts of the hall handle kinds of their own (:attr:`Processes.handlers`: ``challenges``). Quick pairing's waits
are rows of the seeks' table too (:mod:`~gamehall.web.hall.stored`), renewed by their process
while its player waits, so a dead process's waits lapse within
:data:`~gamehall.web.hall.stored.WAIT_LEASE`. The live games list is the store's (every
process's games), read every :data:`LIVE_EVERY` seconds.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from gamehall.protocol.hall import PairedMessage
from gamehall.store.bus import Bus, Event
from gamehall.web.hall.lobby import LIVE_GAMES_SHOWN, LobbyRoom
from gamehall.web.hall.pairing import Lobby, Seek
from gamehall.web.hall.pairing import Waiting as WaitingEntry
from gamehall.web.hall.stored import WAIT_LEASE, is_wait, restored_seek, restored_wait, wait_id
from gamehall.web.play.connection import SESSION_ENDED

if TYPE_CHECKING:  # the store is built by the transport layer and injected
    from gamehall.store.hall import HallStore

log = logging.getLogger("gamehall.web.hall")

SESSIONS_PER_EVENT = 60
"""Session hashes (64 characters) one ``signed_out`` event carries (well inside a NOTIFY)."""
LIVE_EVERY = 5.0
"""Seconds between reads of the hall's live games from the store (several processes)."""


class Processes:
    """This process's part in a hall of several: its copy of the stored lobby, and the bus."""

    def __init__(
        self, hub: Any, store: HallStore, room: LobbyRoom, clock: Callable[[], float]
    ) -> None:
        self.hub = hub
        self.store = store
        self.room = room
        self.lobby: Lobby = room.lobby
        self.clock = clock
        self.waits_here: set[str] = set()
        """The players whose quick-pairing wait was made through this process."""
        self._live_read = -LIVE_EVERY
        self.handlers: dict[str, Callable[[Event], Awaitable[None]]] = {}
        """What other parts of the hall do with an event kind of theirs (``challenges``)."""

    @property
    def bus(self) -> Bus:
        return self.hub.bus

    @property
    def shared(self) -> bool:
        """Whether other processes share the store (else this one is the whole hall)."""
        return self.bus.shared

    async def start(self) -> None:
        """Listen to the other processes, and begin from the stored seeks."""
        self.bus.subscribe(self.on_event)
        if self.bus.shared:  # other processes' seeks stay; those of one that died lapse
            await self.hub.db(self.store.remove_lapsed_seeks)
            await self.reload_seeks()
        else:  # one process: seeks lapse with their creators' connections
            await self.hub.db(self.store.clear_seeks)

    async def on_event(self, event: Event) -> None:
        """A lobby event of another process: reload the seeks, or tell a player of a game."""
        if event.get("origin") == self.bus.origin:
            return
        kind = event.get("kind")
        if kind == "lobby":
            await self.reload_seeks()
            self.room.changed()
        elif kind == "unwatched":  # a seek made where its creator has no lobby page
            player = event.get("player")
            if isinstance(player, str) and self.room.connections.get(player):
                await self._tell("watching", player)
        elif kind == "watching":  # the creator has a lobby page on another process
            player = event.get("player")
            if isinstance(player, str):
                self.room.unwatched.pop(player, None)
        elif kind == "signed_out":
            hashes = event.get("sessions")
            if isinstance(hashes, list):
                self.close_sessions({h for h in hashes if isinstance(h, str)})
        elif kind == "paired":
            player, game_id = event.get("player"), event.get("id")
            if isinstance(player, str) and isinstance(game_id, str):
                message = PairedMessage(
                    id=game_id,
                    url=f"/game/{game_id}",
                    rated=bool(event.get("rated")),
                    clock=event.get("clock") if isinstance(event.get("clock"), str) else None,
                )
                self.room.tell(player, message)
            self.room.changed()
        elif isinstance(kind, str) and kind in self.handlers:
            await self.handlers[kind](event)

    async def lobby_changed(self) -> None:
        """The stored seeks changed here: the other processes reload them."""
        self.room.changed()
        if self.bus.shared:
            try:
                await self.bus.publish(self.bus.event("lobby", ""))
            except Exception:  # they reload on their next change or restart
                log.exception("cannot tell the other processes of the lobby")

    async def unwatched(self, player: str) -> None:
        """A seek of ``player`` was made here with no lobby page of theirs here: it lapses after
        :data:`~gamehall.web.hall.pairing.UNWATCHED_GRACE` unless a process with one of their
        lobby pages says so (``watching``), which each is asked now."""
        if self.bus.shared:
            await self._tell("unwatched", player)

    async def watching(self, player: str) -> None:
        """A lobby page of ``player`` opened here: a process holding a seek of theirs made with
        no page open hears that one is open now."""
        if self.bus.shared and any(s.player == player for s in self.lobby.seeks.values()):
            await self._tell("watching", player)

    async def _tell(self, kind: str, player: str) -> None:
        try:
            await self.bus.publish(self.bus.event(kind, "", player=player))
        except Exception:  # the seek lapses as if no page were open: it can be made again
            log.exception("cannot tell the other processes of a lobby page")

    def close_sessions(self, hashes: set[str]) -> int:
        """Close this process's sockets (lobby, game, spectator) opened with one of these
        account sessions; returns how many."""
        closed = 0
        sockets = [c for held in self.room.connections.values() for c in held]
        sockets += [c for live in list(self.hub.games.values()) for c in live.connections]
        for connection in sockets:
            if connection.session is not None and connection.session in hashes:
                connection.close(SESSION_ENDED)
                closed += 1
        return closed

    async def sessions_ended(self, hashes: list[str]) -> None:
        """Account sessions ended here: their sockets close, here and on every other process
        (a ``signed_out`` event, in parts that fit the bus)."""
        self.close_sessions(set(hashes))
        if not self.bus.shared:
            return
        for start in range(0, len(hashes), SESSIONS_PER_EVENT):
            part = hashes[start : start + SESSIONS_PER_EVENT]
            try:
                await self.bus.publish(self.bus.event("signed_out", "", sessions=part))
            except Exception:  # their next request finds the session gone
                log.exception("cannot tell the other processes of a sign-out")

    async def paired(self, player: str, message: PairedMessage) -> None:
        """Tell the other processes of a pairing (the player's lobby page may be on one)."""
        if not self.bus.shared:
            return
        event = self.bus.event(
            "paired", "", player=player, id=message.id, rated=message.rated, clock=message.clock
        )
        try:
            await self.bus.publish(event)
        except Exception:  # the game is made: they find it on their games list
            log.exception("cannot tell the other processes of a pairing")

    async def reload_seeks(self) -> None:
        """Make this process's seeks and waits those of the store; when they changed (a
        dead process's lapsed, another's player came or was paired), this process's lobby
        pages hear of it."""
        rows = await self.hub.db(self.store.open_seeks)
        now, wall = self.clock(), datetime.datetime.now(datetime.UTC)
        known = self.lobby.seeks
        seeks: dict[str, Seek] = {}
        waits: dict[str, WaitingEntry] = {}
        for row in rows:
            if is_wait(row):
                mine = self.lobby.waiting.get(row["player_id"])
                if mine is None or row["player_id"] not in self.waits_here:
                    mine = restored_wait(row, now, wall)
                waits[mine.player] = mine
                continue
            old = known.get(row["id"])
            seeks[row["id"]] = old if old is not None else restored_seek(row, now, wall)
        changed = set(waits) != set(self.lobby.waiting) or set(seeks) != set(known)
        self.lobby.seeks = seeks
        self.lobby.waiting = waits
        self.waits_here &= set(waits)  # the others were paired through another process
        if changed:
            self.room.changed()

    async def shared_round(self, now: float) -> None:
        """Of a lobby round with other processes: renew this process's waits, drop the lapsed
        seeks and waits (a dead process's), read the pools again, and now and then the live
        games of the whole hall."""
        lease = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=WAIT_LEASE)
        renewed = [wait_id(player) for player in self.waits_here]
        await self.hub.db(self.store.renew, renewed, lease.isoformat(timespec="milliseconds"))
        await self.hub.db(self.store.remove_lapsed_seeks)
        await self.reload_seeks()
        if now - self._live_read >= LIVE_EVERY:
            self._live_read = now
            self.room.show_live(await self.hub.db(self.store.live_games, LIVE_GAMES_SHOWN))


__all__ = ["LIVE_EVERY", "Processes"]
