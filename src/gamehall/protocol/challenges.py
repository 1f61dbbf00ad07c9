"""Challenges: one player asks a named other to play (part of the hall's messages,
:mod:`gamehall.protocol.hall`).

``POST /api/challenges`` (:class:`CreateChallenge`) sends one; ``GET /api/challenges`` lists a
player's open ones (:class:`ChallengeList`); ``POST /api/challenges/{id}/accept`` (the
challenged player: the game is made, answered as ``POST /api/games`` answers, and the challenger
is sent ``paired``), ``/decline`` (the challenged player) and ``/cancel`` (the challenger). The
lobby's WebSocket sends :class:`ChallengesMessage` (``challenges``) after ``hello`` and whenever
a player's challenges change.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, StrictBool, StrictStr

from gamehall.protocol.base import _Body, _Out

Side = Annotated[int, Field(ge=0, le=16)] | Literal["random"]
"""A seat asked for in a seek or a challenge: its index, or ``"random"``."""


class CreateChallenge(_Body):
    """``POST /api/challenges``: ask the player ``name`` to play. ``clock`` is ``M+S``, ``dN``
    or null; ``side`` is the challenger's seat index or ``"random"``; rated games are between
    two accounts."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    game: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    options: dict[str, bool | int | str] = Field(default_factory=dict, max_length=32)
    clock: Annotated[StrictStr, Field(max_length=16)] | None = None
    rated: StrictBool = False
    side: Side = "random"


class ChallengeInfo(_Out):
    """An open challenge as its two players see it."""

    id: str
    game: str
    options: dict[str, bool | int | str]
    clock: str | None
    rated: bool
    side: int | Literal["random"] = Field(description="the challenger's seat (or random)")
    challenger: str = Field(description="the challenger's name")
    challenged: str = Field(description="the challenged player's name")
    mine: bool = Field(description="whether the reader sent it")
    expires_in: int = Field(description="seconds until it lapses")


class ChallengeList(_Out):
    """``GET /api/challenges``: the reader's open challenges, oldest first."""

    incoming: list[ChallengeInfo]
    outgoing: list[ChallengeInfo]


class ChallengesMessage(_Out):
    """The reader's open challenges (lobby WebSocket: after ``hello`` and every change);
    ``note`` says what just happened to one of theirs, if anything (declined, lapsed)."""

    type: Literal["challenges"] = "challenges"
    incoming: list[ChallengeInfo]
    outgoing: list[ChallengeInfo]
    note: str | None = None


__all__ = ["ChallengeInfo", "ChallengeList", "ChallengesMessage", "CreateChallenge"]
