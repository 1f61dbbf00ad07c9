"""Client → server messages on a game's WebSocket: a closed set told apart by ``type``.

:func:`parse_client_message` turns raw text into one of them or raises
:class:`~gamehall.protocol.errors.ProtocolError` (``bad_json`` for text that is not a JSON
object, ``bad_text`` for a NUL byte or a lone surrogate, ``bad_message`` for an unknown type or
a missing or ill-typed field).
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import Field, StrictInt, StrictStr, TypeAdapter, ValidationError

from gamehall.protocol.base import _In
from gamehall.protocol.errors import ErrorCode, ProtocolError, find_bad_text


class Hello(_In):
    """First message: the version the client has (-1 for none)."""

    type: Literal["hello"]
    version: StrictInt = -1


class Move(_In):
    """Play ``action`` (the text of one of the ``legal`` items) for the sender's seat;
    ``version`` must be the current version."""

    type: Literal["move"]
    version: StrictInt
    action: Annotated[StrictStr, Field(min_length=1, max_length=500)]


class Resync(_In):
    """Ask for the full state again."""

    type: Literal["resync"]


class Ping(_In):
    """Keep-alive, answered by ``pong``."""

    type: Literal["ping"]


class Resign(_In):
    """Resign the game (a seated player, at any time while it goes on)."""

    type: Literal["resign"]


class Abort(_In):
    """End the game with no result: only before every side has made a move."""

    type: Literal["abort"]


class Takeback(_In):
    """Offer to take back your last move, or accept or decline the other side's offer. Where
    nobody else has to agree (against the computer, hot-seat) an offer is granted at once."""

    type: Literal["takeback"]
    op: Literal["offer", "accept", "decline"]


class Continue(_In):
    """Go on from a pause (the end of a round) at ``version``."""

    type: Literal["continue"]
    version: StrictInt


class Claim(_In):
    """Claim the win: the opponent left more than the grace period ago."""

    type: Literal["claim"]


class Chat(_In):
    """A chat message: players write to the players' chat, spectators to the spectators'."""

    type: Literal["chat"]
    text: Annotated[StrictStr, Field(max_length=2000)]


ClientIn = Hello | Move | Resync | Ping | Resign | Abort | Takeback | Continue | Claim | Chat
ClientMessage = Annotated[ClientIn, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[ClientIn] = TypeAdapter(ClientMessage)
CLIENT_TYPES = (
    "hello",
    "move",
    "resync",
    "ping",
    "resign",
    "abort",
    "takeback",
    "continue",
    "claim",
    "chat",
)


def parse_client_message(text: str | bytes) -> ClientIn:
    """Read one client message; raises ProtocolError(bad_json | bad_message)."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        raise ProtocolError(ErrorCode.BAD_JSON, f"the message is not valid JSON: {error}") from None
    except RecursionError:
        raise ProtocolError(ErrorCode.BAD_JSON, "the message is nested too deeply") from None
    if not isinstance(data, dict):
        raise ProtocolError(
            ErrorCode.BAD_JSON, 'the message must be a JSON object like {"type": ...}'
        )
    bad = find_bad_text(data)
    if bad is not None:
        raise ProtocolError(
            ErrorCode.BAD_TEXT, f"{bad}; text must be valid Unicode without NUL bytes"
        )
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            f"unknown message type {_short(kind)}; the types are: {', '.join(CLIENT_TYPES)}",
        )
    try:
        return CLIENT_MESSAGE.validate_python(data)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'][1:]) or 'message'}: {e['msg']}"
            for e in error.errors()
        )
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"bad {kind!r} message: {problems}") from None


def _short(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
