"""The web protocol's messages (docs/web-protocol.md), parsed at the edge.

Client → server messages are a closed set of pydantic models, told apart by ``type`` (a
discriminated union). :func:`parse_client_message` turns raw text into one of them or raises
:class:`ProtocolError` with the error code the client gets back: ``bad_json`` for text that is not
a JSON object, ``bad_message`` for an unknown type or a missing or ill-typed field.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

PROTOCOL_VERSION = 1

ERROR_CODES = (
    "bad_json",
    "bad_message",
    "unknown_game",
    "not_your_seat",
    "not_your_turn",
    "stale_version",
    "illegal_move",
    "game_over",
)
"""The codes of the WebSocket ``error`` message."""


class ProtocolError(Exception):
    """A rejected request: ``code`` is one of :data:`ERROR_CODES` (or a REST code)."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


class _Message(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class Hello(_Message):
    """First message: the version the client has (-1 for none)."""

    type: Literal["hello"]
    version: StrictInt = -1


class Move(_Message):
    """Play ``action`` for the sender's seat; ``version`` must be the current version."""

    type: Literal["move"]
    version: StrictInt
    action: Annotated[StrictStr, Field(min_length=1, max_length=500)]


class Resync(_Message):
    """Ask for the full state again."""

    type: Literal["resync"]


class Ping(_Message):
    """Keep-alive, answered by ``pong``."""

    type: Literal["ping"]


ClientMessage = Annotated[Hello | Move | Resync | Ping, Field(discriminator="type")]
_CLIENT_MESSAGE: TypeAdapter[Hello | Move | Resync | Ping] = TypeAdapter(ClientMessage)
CLIENT_TYPES = ("hello", "move", "resync", "ping")


def parse_client_message(text: str | bytes) -> Hello | Move | Resync | Ping:
    """Read one client message; raises ProtocolError(bad_json | bad_message)."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        raise ProtocolError("bad_json", f"the message is not valid JSON: {error}") from None
    except RecursionError:
        raise ProtocolError("bad_json", "the message is nested too deeply") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", 'the message must be a JSON object like {"type": ...}')
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            "bad_message",
            f"unknown message type {kind!r}; the types are: {', '.join(CLIENT_TYPES)}",
        )
    try:
        return _CLIENT_MESSAGE.validate_python(data)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'][1:]) or 'message'}: {e['msg']}"
            for e in error.errors()
        )
        raise ProtocolError("bad_message", f"bad {kind!r} message: {problems}") from None


def error_message(code: str, message: str, version: int | None) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, "version": version}


# --- REST request bodies -------------------------------------------------------------------------


class CreateGame(BaseModel):
    """``POST /api/games``."""

    model_config = ConfigDict(extra="forbid")

    game: Annotated[str, Field(min_length=1, max_length=64)]
    options: dict[str, bool | int | str] = Field(default_factory=dict)
    mode: Literal["computer", "hotseat", "online"] = "computer"
    seat: Annotated[int, Field(ge=0, le=16)] = 0
    level: str = "easy"


class Join(BaseModel):
    """``POST /api/games/{id}/join``."""

    model_config = ConfigDict(extra="ignore")

    seat: Annotated[str, Field(min_length=1, max_length=200)]
