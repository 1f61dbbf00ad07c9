"""A game's chat: one room for its players and one for its spectators.

Players (anyone holding a seat) write to and read the players' room; everyone else writes to and
reads the spectators' room, so spectators never talk to the players during a game. Messages are
stored with the game (:meth:`gamehall.store.Store.add_chat`), at most :data:`CHAT_LENGTH`
characters of plain text (clients show them as text, never as markup; the characters that
reorder or hide text, :data:`HIDDEN`, are taken out), and each browser may send a burst of
``chat_burst`` messages, then ``chat_per_second``, and each network address ``chat_address_burst``,
then ``chat_address_per_second`` (settings of the server, :mod:`gamehall.web.base.settings`,
counted by :class:`Chats`), so made-up identities gain nothing. Each room of a game holds at most
:data:`CHAT_STORED` messages: the players' room then refuses more, while in the spectators'
room the oldest give way, so spectators can never fill the players' chat, nor their own for
good. Each player can turn the chat off in their page (a preference of the page).

:class:`Chats` is the hub's chat: it stores a message (the bus is told in the transaction that
stores it, so the other processes of a hall tell their clients in its room), tells the writer's
room here, and gives a client that says hello its room's last :data:`CHAT_HISTORY` messages.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING

from gamehall.protocol import ChatLine, ChatMessage, ErrorCode, ProtocolError
from gamehall.store.bus import Bus, Event
from gamehall.store.rows import ChatRow
from gamehall.web.base.limits import RateTable
from gamehall.web.base.settings import Settings
from gamehall.web.play import conduct
from gamehall.web.play.connection import Connection
from gamehall.web.play.live import LiveGame
from gamehall.web.play.pools import Run

if TYPE_CHECKING:  # the store is built by the transport layer and injected
    from gamehall.store.db import Store

log = logging.getLogger("gamehall.web")

CHAT_LENGTH = 300
"""The longest chat message, in characters."""
CHAT_BURST = 5
CHAT_WINDOW_MS = 10_000
"""With the default settings a writer may send :data:`CHAT_BURST` messages at once, and as many
again after :data:`CHAT_WINDOW_MS` milliseconds (``chat_burst``, ``chat_per_second``)."""
CHAT_STORED = 2000
"""The most messages each room of a game's chat holds: then the players' room refuses more, and
the spectators' oldest give way."""
CHAT_HISTORY = 100
"""How many of a room's last messages a client gets when it connects."""

PLAYERS, SPECTATORS = "players", "spectators"

HIDDEN = frozenset(
    [chr(c) for c in range(0x202A, 0x202F)]  # bidi embeddings and overrides
    + [chr(c) for c in range(0x2066, 0x206A)]  # bidi isolates
    + ["\u200e", "\u200f", "\u061c"]  # bidi marks
    + ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]  # zero-width characters
)
"""Characters that reorder the text around them or are invisible: taken out of a chat message
(a line cannot show another's words backwards, or two that look alike differ unseen)."""


def room_of(seats: frozenset[int]) -> str:
    return PLAYERS if seats else SPECTATORS


def clean(text: str) -> str:
    """The message as stored: without the characters of :data:`HIDDEN`, trimmed; refused
    (BAD_CHAT) if empty, too long, or holding control characters other than line breaks and
    tabs (which become spaces)."""
    text = "".join(char for char in text if char not in HIDDEN).strip()
    if not text:
        raise ProtocolError(ErrorCode.BAD_CHAT, "a chat message cannot be empty")
    if len(text) > CHAT_LENGTH:
        raise ProtocolError(
            ErrorCode.BAD_CHAT,
            f"a chat message is at most {CHAT_LENGTH} characters; this one has {len(text)}",
        )
    out = []
    for char in text:
        if char in "\n\r\t":
            out.append(" ")
        elif unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn") or char == "\u2028":
            raise ProtocolError(
                ErrorCode.BAD_CHAT,
                f"a chat message cannot hold the control character U+{ord(char):04X}",
            )
        else:
            out.append(char)
    return "".join(out)


class Chats:
    """The chat of every game in play: its messages stored, told to their room, and recalled."""

    def __init__(
        self,
        store: Store,
        bus: Bus,
        settings: Settings,
        *,
        db: Run,
        seconds: Callable[[], float],
    ) -> None:
        self.store = store
        self.bus = bus
        self.settings = settings
        self._db = db
        self._rates = RateTable(settings.chat_per_second, settings.chat_burst, clock=seconds)
        self._address_rates = RateTable(
            settings.chat_address_per_second, settings.chat_address_burst, clock=seconds
        )

    async def say(
        self, live: LiveGame, connection: Connection, text: str, *, most: int = CHAT_STORED
    ) -> None:
        """Store a chat message and tell the writer's room (each room holds ``most``)."""
        line = clean(text)
        settings = self.settings
        if connection.address and not self._address_rates.take(connection.address):
            burst, rate = settings.chat_address_burst, settings.chat_address_per_second
            raise ProtocolError(
                ErrorCode.CHAT_TOO_FAST,
                f"at most {burst} chat messages at once and {rate:g} a second after from one "
                "network address (limits chat_address_burst, chat_address_per_second): "
                "wait a few seconds",
            )
        if not self._rates.take(connection.client):
            burst, rate = settings.chat_burst, settings.chat_per_second
            raise ProtocolError(
                ErrorCode.CHAT_TOO_FAST,
                f"at most {burst} chat messages at once and {rate:g} a second after "
                "(limits chat_burst, chat_per_second): wait a few seconds",
            )
        room = room_of(connection.seats)
        seat = None
        if connection.seats:
            player = live.state.current_player
            seat = conduct.acting_seat(connection.seats, player if player >= 0 else None)

        def notify(row: ChatRow) -> str | None:  # the other processes' clients, on PostgreSQL
            return self.bus.in_transaction(self._event(live, row))

        try:
            row = await self._db(
                self.store.add_chat, live.id, room, seat, line, most, notify,
                roll=room == SPECTATORS,
            )  # fmt: skip
        except Exception as error:
            log.exception("cannot store a chat message of %s", live.id)
            raise ProtocolError(
                ErrorCode.STORE_ERROR, f"the message could not be stored: {error}"
            ) from None
        if row is None:
            raise ProtocolError(
                ErrorCode.BAD_CHAT,
                f"this game's players' chat holds its {most} messages already; it takes no more",
            )
        message = ChatMessage(room=room, lines=[chat_line(live, row)])  # type: ignore[arg-type]
        text_out = message.model_dump_json()
        for other in list(live.connections):
            if room_of(other.seats) == room:
                other.send(text_out)

    def _event(self, live: LiveGame, row: ChatRow) -> Event:
        return self.bus.event(
            "chat",
            live.id,
            number=row.number,
            room=row.room,
            seat=row.seat,
            text=row.text,
            at=row.at,
        )

    def tell(self, live: LiveGame, event: Event) -> None:
        """A chat message stored through another process: tell the clients in its room here."""
        try:
            row = ChatRow(
                int(event["number"]),
                str(event["room"]),
                None if event.get("seat") is None else int(event["seat"]),
                str(event["text"]),
                str(event["at"]),
            )
            message = ChatMessage(room=row.room, lines=[chat_line(live, row)])  # type: ignore[arg-type]
        except (KeyError, TypeError, ValueError, IndexError):
            log.error("a malformed chat event for %s", live.id)
            return
        text = message.model_dump_json()
        for other in list(live.connections):
            if room_of(other.seats) == row.room:
                other.send(text)

    async def send_history(self, live: LiveGame, connection: Connection) -> None:
        """Send a client its room's last messages."""
        room = room_of(connection.seats)
        rows = await self._db(self.store.chat, live.id, room, CHAT_HISTORY)
        lines = [chat_line(live, row) for row in rows]
        connection.send(ChatMessage(room=room, lines=lines))  # type: ignore[arg-type]


def chat_line(live: LiveGame, row: ChatRow) -> ChatLine:
    """A stored message as the protocol shows it, with its writer's seat name."""
    name = live.game.player_names[row.seat] if row.seat is not None else "spectator"
    return ChatLine(number=row.number, seat=row.seat, name=name, text=row.text, at=row.at)


__all__ = [
    "CHAT_BURST",
    "CHAT_HISTORY",
    "CHAT_LENGTH",
    "CHAT_STORED",
    "CHAT_WINDOW_MS",
    "HIDDEN",
    "PLAYERS",
    "SPECTATORS",
    "Chats",
    "chat_line",
    "clean",
    "room_of",
]
