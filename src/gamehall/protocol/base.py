"""What the protocol's models stand on: the protocol's version, how a game is played, and the
private bases that say what each kind of message does with fields it does not declare."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, model_validator
from pydantic_core import PydanticCustomError

from gamehall.protocol.errors import find_bad_text

PROTOCOL_VERSION = 1

Mode = Literal["computer", "hotseat", "online"]


class _In(BaseModel):
    """A client message on a WebSocket: fields it does not declare are ignored."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class _Body(BaseModel):
    """A REST request body: every text in it is clean (:func:`~gamehall.protocol.errors.text_problem`), or the request is
    refused with ``bad_text`` before any field is read."""

    @model_validator(mode="before")
    @classmethod
    def _clean_text(cls, data: Any) -> Any:
        bad = find_bad_text(data, "the body")
        if bad is not None:
            raise PydanticCustomError(
                "bad_text", "{bad}; text must be valid Unicode without NUL bytes", {"bad": bad}
            )
        return data


class _Out(BaseModel):
    """What the server sends: a field it does not declare is an error (a test validating what
    the server sends then catches an undocumented field)."""

    model_config = ConfigDict(extra="forbid")


class _Item(BaseModel):
    """An action item: its extra fields are the action's parts (Game.action_parts), in the
    game's own words."""

    model_config = ConfigDict(extra="allow", frozen=True)
