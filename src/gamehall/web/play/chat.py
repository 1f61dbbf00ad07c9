"""A game's chat: one room for its players and one for its spectators.

Players (anyone holding a seat) write to and read the players' room; everyone else writes to and
reads the spectators' room, so spectators never talk to the players during a game. Messages are
stored with the game (:meth:`gamehall.store.Store.add_chat`), at most :data:`CHAT_LENGTH`
characters of plain text (clients show them as text, never as markup), and each browser may send
a burst of ``chat_burst`` messages, then ``chat_per_second`` (settings of the server,
:mod:`gamehall.web.base.settings`, counted by the hub's per-client rate table); a game's chat holds
at most :data:`CHAT_STORED` messages. Each player can turn the chat off
in their page (a preference of the page).
"""

from __future__ import annotations

import unicodedata

from gamehall.protocol import ErrorCode, ProtocolError

CHAT_LENGTH = 300
"""The longest chat message, in characters."""
CHAT_BURST = 5
CHAT_WINDOW_MS = 10_000
"""With the default settings a writer may send :data:`CHAT_BURST` messages at once, and as many
again after :data:`CHAT_WINDOW_MS` milliseconds (``chat_burst``, ``chat_per_second``)."""
CHAT_STORED = 2000
"""The most messages a game's chat holds (both rooms together); then it refuses more."""
CHAT_HISTORY = 100
"""How many of a room's last messages a client gets when it connects."""

PLAYERS, SPECTATORS = "players", "spectators"


def room_of(seats: frozenset[int]) -> str:
    return PLAYERS if seats else SPECTATORS


def clean(text: str) -> str:
    """The message as stored: trimmed; refused (BAD_CHAT) if empty, too long, or holding control
    characters other than line breaks and tabs (which become spaces)."""
    text = text.strip()
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


__all__ = [
    "CHAT_BURST",
    "CHAT_HISTORY",
    "CHAT_LENGTH",
    "CHAT_STORED",
    "CHAT_WINDOW_MS",
    "PLAYERS",
    "SPECTATORS",
    "clean",
    "room_of",
]
