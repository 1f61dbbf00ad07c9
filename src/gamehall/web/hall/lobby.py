"""The lobby's clients: their connections, and what they are shown.

Each lobby page holds a connection; a player whose last page went away is *away* (their seeks
and waits lapse after :data:`~gamehall.web.hall.pairing.LEAVE_GRACE`). Every change of the lobby
marks it changed; a broadcaster then sends each client the whole lobby, soon and once for many
changes: the open seeks, the quick-pairing pools and the player's own wait, and the live games
(this process's, or with other processes the whole hall's as last read from the store).

Each change also moves the lobby's :attr:`LobbyRoom.version` on. The lobby a client was last sent
is kept with the version it showed, so a ``hello`` is answered from it while the lobby has not
changed (and for at most :data:`HELLO_FRESH` seconds, for the live games' running clocks): a
client repeating ``hello`` never has the lobby built again for it. A lobby socket sends at most
``messages_per_second`` like a game's (:meth:`~gamehall.web.play.connection.Connection.within_rate`:
past it dropped, and a flood closes it).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gamehall.protocol import RatingShown
from gamehall.protocol.hall import (
    LiveInfo,
    LobbyMessage,
    MeAnswer,
    PairedMessage,
    PoolInfo,
    SeekInfo,
    Waiting,
)
from gamehall.web.hall.bots import BotNames
from gamehall.web.hall.pairing import QUICK_CONTROLS, Lobby, Seek, one_browser
from gamehall.web.hall.players import Me, person_of
from gamehall.web.hall.ratings import NEW_DEVIATION
from gamehall.web.hall.standings import shown
from gamehall.web.play.live import Connection, LiveGame

if TYPE_CHECKING:  # the store is built by the transport layer and injected
    from gamehall.store.hall import HallStore

log = logging.getLogger("gamehall.web.hall")

LIVE_GAMES_SHOWN = 50
HELLO_FRESH = 1.0
"""Seconds a lobby message kept for a client answers its ``hello`` while the lobby has not
changed (past it the message is built again: the live games' clocks count on from it)."""


class LobbyRoom:
    """The lobby's connected clients, by player, and the lobby they are sent."""

    def __init__(
        self, hub: Any, store: HallStore, lobby: Lobby, clock: Callable[[], float]
    ) -> None:
        self.hub = hub
        self.store = store
        self.lobby = lobby
        self.clock = clock
        self.connections: dict[str, dict[Connection, Me]] = {}
        self.away: dict[str, float] = {}
        """Players whose last lobby page went away, and when (the hall's clock)."""
        self.live: list[LiveInfo] | None = None
        """The whole hall's live games as last read from the store (with other processes)."""
        self.unwatched: dict[str, float] = {}
        """Players with seeks who have had no lobby page here since they made them (REST),
        and since when (the hall's clock)."""
        self.version = 0
        """Moves on with every change of the lobby (:meth:`changed`)."""
        self.builds = 0
        """Lobby messages built (for the tests: a repeated ``hello`` builds none)."""
        self._sent: dict[Connection, tuple[int, float, str]] = {}
        """The lobby each client was last sent: the version it shows, when it was built, its
        text."""
        self._dirty = asyncio.Event()
        self.bots: BotNames | None = None
        """Which names are bots' (the hall's; None: none are marked)."""

    def attach(self, me: Me, connection: Connection) -> None:
        self.connections.setdefault(me.id, {})[connection] = me
        self.away.pop(me.id, None)
        self.unwatched.pop(me.id, None)
        connection.limit_messages(self.hub.settings.messages_per_second)
        connection.start()

    async def leave(self, me: Me, connection: Connection) -> bool:
        """A lobby page went away; returns whether it was the player's last (now away)."""
        held = self.connections.get(me.id, {})
        held.pop(connection, None)
        self._sent.pop(connection, None)
        await connection.stop()
        if held:
            return False
        self.connections.pop(me.id, None)
        self.away[me.id] = self.clock()
        return True

    def tell(self, player: str, message: PairedMessage) -> None:
        """Send a message to each lobby page of a player connected to this process."""
        for connection in self.connections.get(player, ()):
            connection.send(message)

    def changed(self) -> None:
        """The lobby changed: every lobby client hears of it (soon, once for many changes)."""
        self.version += 1
        self._dirty.set()

    async def broadcaster(self) -> None:
        """Send the lobby to every client whenever it changed (runs until cancelled)."""
        while True:
            await self._dirty.wait()
            await asyncio.sleep(0.05)
            self._dirty.clear()
            version = self.version
            for player, connections in list(self.connections.items()):
                try:
                    row = await self.hub.db(self.store.player, player)  # names may have changed
                except Exception:
                    log.exception("cannot tell the lobby")
                    continue
                for connection, me in list(connections.items()):
                    fresh = Me(row or me.player, me.browser, me.session)
                    if connection in connections:  # still here (the store call yielded)
                        connections[connection] = fresh  # a hello is answered with this name
                    connection.send(await self._build(fresh, connection, version))

    async def hello(self, me: Me, connection: Connection) -> None:
        """Answer a client's ``hello``: the lobby it was last sent, if the lobby has not changed
        since (and that is at most :data:`HELLO_FRESH` seconds old), else the lobby built now."""
        sent = self._sent.get(connection)
        if sent is not None:
            version, built, text = sent
            if version == self.version and self.clock() - built < HELLO_FRESH:
                connection.send(text)
                return
        me = self.connections.get(me.id, {}).get(connection, me)
        connection.send(await self._build(me, connection, self.version))

    async def _build(self, me: Me, connection: Connection, version: int) -> str:
        """The lobby as ``me`` sees it, kept as what ``connection`` was last sent at
        ``version``."""
        text = (await self.lobby_message(me)).model_dump_json()
        self.builds += 1
        if connection in self.connections.get(me.id, {}):
            self._sent[connection] = (version, self.clock(), text)
        return text

    async def stop(self) -> None:
        """Close every lobby connection."""
        for connections in self.connections.values():
            for connection in list(connections):
                await connection.stop()
        self.connections.clear()
        self._sent.clear()

    def seek_info(self, seek: Seek, reader: Me | None) -> SeekInfo:
        """An open seek as ``reader`` sees it (None: as anyone sees it)."""
        rating = None
        if seek.rating is not None:  # as every page shows a rating (standings.shown)
            rating = shown(seek.rating, seek.deviation or NEW_DEVIATION)
        return SeekInfo(
            id=seek.id,
            game=seek.game,
            options=seek.options,
            clock=seek.clock,
            rated=seek.rated,
            side=seek.side,
            name=seek.name,
            bot=seek.bot or self.is_bot(seek.name),
            rating=rating.rating if rating is not None else None,
            provisional=rating.provisional if rating is not None else False,
            mine=reader is not None and seek.player == reader.id,
            same_person=bool(
                reader is not None
                and seek.player != reader.id
                and reader.player.account
                and one_browser(seek.rated, seek.browsers, frozenset({person_of(reader.player)}))
            ),
        )

    def is_bot(self, name: str | None) -> bool:
        return self.bots is not None and self.bots.known(name)

    def live_games(self) -> list[LiveInfo]:
        """The games being played between people: this process's, or with other processes
        the whole hall's as last read from the store."""
        if self.hub.bus.shared and self.live is not None:
            return self.live
        games = [
            self.live_game(live)
            for live in self.hub.games.values()
            if live.row.mode == "online" and not live.over
        ]
        games.sort(key=lambda g: -g.version)
        return games[:LIVE_GAMES_SHOWN]

    def show_live(self, rows: list[dict[str, Any]]) -> None:
        """The hall's live games as just read from the store (told if they changed)."""
        live = [self._live_info(row) for row in rows]
        if live != self.live:
            self.live = live
            self.changed()

    def _live_info(self, row: dict[str, Any]) -> LiveInfo:
        here = self.hub.games.get(row["id"])
        if here is not None and not here.over:  # held here: its clocks, as they run
            return self.live_game(here)
        return LiveInfo(
            id=row["id"],
            game=row["game"],
            rated=row["rated"],
            clock=row["clock"],
            players=[row["players"].get(i) for i in range(row["seats"])],
            bots=[self.is_bot(row["players"].get(i)) for i in range(row["seats"])],
            version=row["version"],
            clocks=None,
        )

    def live_game(self, live: LiveGame) -> LiveInfo:
        info = live.hall or {}
        return LiveInfo(
            id=live.id,
            game=live.game.name,
            rated=bool(info.get("rated")),
            clock=info.get("clock"),
            players=[live.players.get(i) for i in range(len(live.row.seats))],
            bots=[i in live.bots for i in range(len(live.row.seats))],
            ratings=table_ratings(live),
            version=live.version,
            clocks=live.clock_info(self.hub.clock.now()),
        )

    async def lobby_message(self, me: Me) -> LobbyMessage:
        waiting = self.lobby.waiting.get(me.id)
        games = self.live_games()
        if self.bots is not None:  # the names shown, asked once each: which are bots'
            await self.bots.among(
                [s.name for s in self.lobby.seeks.values()] + [p for g in games for p in g.players]
            )
            games = [_marked(g, self.is_bot) for g in games]
        return LobbyMessage(
            you=MeAnswer(
                name=me.player.name,
                account=me.signed_in,
                sessions=None,
                bot=me.signed_in and me.player.bot,
            ),
            waiting=Waiting(game=waiting.game, clock=waiting.clock, rated=waiting.rated)
            if waiting is not None
            else None,
            controls=list(QUICK_CONTROLS),
            seeks=[self.seek_info(s, me) for s in self.lobby.seeks.values()],
            pools=[
                PoolInfo(game=game, clock=clock, rated=rated, waiting=count)
                for (game, clock, rated), count in sorted(
                    self.lobby.pools().items(), key=lambda item: str(item[0])
                )
            ],
            games=games,
        )


def _marked(game: LiveInfo, is_bot: Callable[[str | None], bool]) -> LiveInfo:
    """A live game with each seat's bot mark (a bot known here, or by name)."""
    given = game.bots + [False] * (len(game.players) - len(game.bots))
    bots = [mark or is_bot(name) for mark, name in zip(given, game.players, strict=True)]
    return game if bots == game.bots else game.model_copy(update={"bots": bots})


def table_ratings(live: LiveGame) -> list[RatingShown | None]:
    """Each seat's player's rating as the game's room shows it (a rated game's table), by seat;
    empty for a casual game."""
    table = live.table or {}
    if not table.get("rated"):
        return []
    by_seat = {entry["seat"]: entry for entry in table.get("ratings", [])}
    shown_: list[RatingShown | None] = []
    for seat in range(len(live.row.seats)):
        entry = by_seat.get(seat)
        if entry is None:
            shown_.append(None)
        else:
            shown_.append(RatingShown(**(entry["after"] or entry["rating"])))
    return shown_


__all__ = ["HELLO_FRESH", "LIVE_GAMES_SHOWN", "LobbyRoom"]
