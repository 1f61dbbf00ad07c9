"""A game's chat: one room for its players and one for its spectators.

Players (anyone holding a seat) write to and read the players' room; everyone else writes to and
reads the spectators' room, so spectators never talk to the players during a game. Messages are
stored with the game (:meth:`gamehall.store.Store.add_chat`), at most :data:`CHAT_LENGTH`
characters of plain text (clients show them as text, never as markup), and each writer may send
at most :data:`CHAT_BURST` messages in :data:`CHAT_WINDOW_MS`; a game's chat holds at most
:data:`CHAT_STORED` messages. Each player can turn the chat off
in their page (a preference of the page).
"""

from __future__ import annotations

import math
import unicodedata
from collections import deque
from collections.abc import Callable

from gamehall.web.protocol import ErrorCode, ProtocolError

CHAT_LENGTH = 300
"""The longest chat message, in characters."""
CHAT_BURST = 5
CHAT_WINDOW_MS = 10_000
"""A writer may send :data:`CHAT_BURST` messages in any :data:`CHAT_WINDOW_MS` milliseconds."""
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


class RateLimit:
    """At most ``burst`` events in any ``window_ms`` per writer (``now``: milliseconds)."""

    def __init__(
        self, now: Callable[[], int], burst: int = CHAT_BURST, window_ms: int = CHAT_WINDOW_MS
    ) -> None:
        self.now = now
        self.burst = burst
        self.window_ms = window_ms
        self._times: deque[int] = deque()

    def check(self) -> None:
        """Count one message, or refuse it (CHAT_TOO_FAST) and count nothing."""
        now = self.now()
        while self._times and now - self._times[0] >= self.window_ms:
            self._times.popleft()
        if len(self._times) >= self.burst:
            wait = math.ceil((self.window_ms - (now - self._times[0])) / 1000)
            raise ProtocolError(
                ErrorCode.CHAT_TOO_FAST,
                f"at most {self.burst} chat messages in {self.window_ms // 1000} s: wait {wait} s",
            )
        self._times.append(now)


__all__ = [
    "CHAT_BURST",
    "CHAT_HISTORY",
    "CHAT_LENGTH",
    "CHAT_STORED",
    "CHAT_WINDOW_MS",
    "PLAYERS",
    "SPECTATORS",
    "RateLimit",
    "clean",
    "room_of",
]
