"""The hall's messages: players, accounts, the lobby (REST and its WebSocket), ratings.

Part of the web protocol (docs/web-protocol.md): the models here join its JSON Schema through
:data:`HALL_REST_ANSWERS`, :data:`LOBBY_CLIENT_MESSAGE` and :data:`LOBBY_SERVER_MESSAGE`, and
their refusals use :class:`~gamehall.protocol.errors.ErrorCode` like every other.

The lobby's WebSocket (``/ws/lobby``) takes ``hello``, ``pair`` (quick pairing: wait for an
opponent in a pool), ``unpair`` and ``ping``; it sends ``lobby`` (the whole lobby as this player
sees it, after every change), ``paired`` (a game was made for this player: open its ``url``),
``challenges`` (this player's open challenges, :mod:`gamehall.protocol.challenges`), ``error``
and ``pong``.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr, TypeAdapter

from gamehall.protocol.base import _Body, _In, _Out
from gamehall.protocol.challenges import ChallengeInfo, ChallengeList, ChallengesMessage, Side
from gamehall.protocol.errors import ErrorCode, ProtocolError, find_bad_text
from gamehall.protocol.server import ClockInfo, OutcomeInfo, RatingShown


class _Form(_Body):
    """A hall REST body: a field it does not declare is refused, and every text in it is
    clean (``bad_text`` for a NUL byte or a lone surrogate, passwords included), as in every
    other body."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# --- REST bodies -----------------------------------------------------------------------------


class NameChange(_Form):
    """``PUT /api/me/name``: the name to be known by (anonymous players; an account's name is
    its username)."""

    name: Annotated[StrictStr, Field(min_length=1, max_length=64)]


class Credentials(_Form):
    """``POST /api/account/signup`` and ``/login``. The password is never stored, logged or
    sent back."""

    username: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    password: Annotated[StrictStr, Field(min_length=1, max_length=256)]


class BotSignup(_Form):
    """``POST /api/account/bots``: a signed-in person's account makes a bot account named
    ``name`` (docs/bots.md); the answer is :class:`BotCreated`."""

    name: Annotated[StrictStr, Field(min_length=1, max_length=64)]


class Logout(_Form):
    """``POST /api/account/logout``: ``everywhere`` ends every session of the account."""

    everywhere: StrictBool = False


class CreateSeek(_Form):
    """``POST /api/seeks``: an open offer to play. ``clock`` is ``M+S``, ``dN`` or null;
    ``side`` a seat index or ``"random"``; rated games need an account."""

    game: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    options: dict[str, bool | int | str] = Field(default_factory=dict, max_length=32)
    clock: Annotated[StrictStr, Field(max_length=16)] | None = None
    rated: StrictBool = False
    side: Side = "random"


# --- REST answers ----------------------------------------------------------------------------


class MeAnswer(_Out):
    """``GET /api/me``, and the answer to renaming, signing up, in and out."""

    name: str
    account: bool = Field(description="whether this browser is signed in to an account")
    sessions: int | None = Field(description="the account's open sessions (signed in only)")
    bot: bool = Field(default=False, description="whether the account is a bot's")


class BotCreated(_Out):
    """The answer to ``POST /api/account/bots``: the bot's name and its secret token, shown
    once (the bot signs in with its name and this token as the password; the server keeps only
    its hash)."""

    name: str
    owner: str = Field(description="the person's account that made it")
    token: str


class AccountRules(_Out):
    """``GET /api/account/rules``: what a username and a password must be, as the server checks
    them at sign-up (the pages show them before one types; the server stays the judge)."""

    name_min: int = Field(description="the fewest characters of a name (a username)")
    name_max: int = Field(description="the most characters of a name")
    password_min: int = Field(description="the fewest characters of a password")
    password_max: int = Field(description="the most characters of a password")
    name_rules: list[str] = Field(description="the naming rule, one sentence each")
    password_rules: list[str] = Field(description="the password rule, one sentence each")


class TurnGame(_Out):
    """An ongoing game in which the caller holds the seat to move."""

    id: str
    game: str
    mode: str
    seat: int = Field(description="the seat to move, held by the caller")
    seat_name: str = Field(description="the game's name for that seat")
    opponents: list[str] = Field(description="who plays the other seats (names, or computer)")
    clock: str | None
    version: int = Field(description="moves played so far")
    updated: str
    url: str = Field(description="the game page")


class TurnsAnswer(_Out):
    """``GET /api/me/turns``: the caller's ongoing games (online and against the computer, not
    hot-seat) where it is their move, most recently moved first: among the ``looked`` most
    recently moved ongoing games (a bound), so ``count`` is ``len(games)``."""

    count: int
    games: list[TurnGame]
    looked: int = Field(description="how many ongoing games were looked at (the bound)")


class SeekInfo(_Out):
    """An open seek as the lobby shows it."""

    id: str
    game: str
    options: dict[str, bool | int | str]
    clock: str | None
    rated: bool
    side: int | Literal["random"]
    name: str = Field(description="the creator's name")
    bot: bool = Field(default=False, description="whether the creator is a bot account")
    rating: int | None = Field(description="the creator's rating in this game (rated seeks)")
    provisional: bool = Field(
        default=False,
        description="whether that rating is still provisional (shown with '?', as everywhere)",
    )
    mine: bool = Field(description="whether the reader made it")
    same_person: bool = Field(
        default=False,
        description="whether the reader may not accept it, a rated seek of the same person: "
        "made by the reader's own bot, or by the owner or another bot of a bot reader "
        "(docs/bots.md)",
    )


class SeekList(_Out):
    """``GET /api/seeks``: oldest first."""

    seeks: list[SeekInfo]


class LiveInfo(_Out):
    """A game being played between people, to watch."""

    id: str
    game: str
    rated: bool
    clock: str | None
    players: list[str | None] = Field(description="each seat's player name (null: nobody yet)")
    bots: list[bool] = Field(
        default_factory=list, description="whether each seat's player is a bot account"
    )
    ratings: list[RatingShown | None] = Field(
        default_factory=list,
        description="in a rated game, each seat's player's rating as the room shows it "
        "(empty: a casual game, or one this process does not hold)",
    )
    version: int
    clocks: ClockInfo | None = Field(
        description="the clocks as the game's state shows them (null: no clock), to run on"
    )


class HallNow(_Out):
    """``GET /api/hall/now``: what the home page shows of the hall, a few of each: the games
    being played between people (most moves first) and the open seeks (oldest first)."""

    games: list[LiveInfo]
    seeks: list[SeekInfo]


class PoolInfo(_Out):
    """A quick-pairing pool and how many wait in it."""

    game: str
    clock: str | None
    rated: bool
    waiting: int


class HistoryPoint(_Out):
    at: str
    rating: int
    deviation: int
    game_id: str


class SeatScore(_Out):
    """A player's rated results on one seat of a game (asymmetric games differ by seat)."""

    seat: int
    name: str
    wins: int
    draws: int
    losses: int


class RatingInfo(_Out):
    """A player's rating in one game: Glicko-2, rounded; ``provisional`` while the deviation
    is large."""

    game: str
    rating: int
    deviation: int
    games: int
    provisional: bool
    history: list[HistoryPoint]
    seats: list[SeatScore]


class GamePlayer(_Out):
    seat: int
    name: str = Field(description="the seat's name in the game")
    player: str | None = Field(description="who played it: a name, 'computer (level)', or null")
    bot: bool = Field(default=False, description="whether that player is a bot account")


class ProfileGame(_Out):
    id: str
    game: str
    status: Literal["ongoing", "finished"]
    rated: bool
    clock: str | None
    result: OutcomeInfo | None
    seats: list[GamePlayer]
    updated: str
    replay: str = Field(description="the replay page")
    review: str | None = Field(description="the review page, where the server has one")


class ProfileAnswer(_Out):
    """``GET /api/players/{name}``."""

    name: str
    account: bool
    bot: bool = Field(default=False, description="whether this is a bot account")
    created: str
    ratings: list[RatingInfo]
    games: list[ProfileGame] = Field(description="the most recent first")


class LeaderRow(_Out):
    rank: int
    name: str
    bot: bool = Field(
        default=False, description="whether this is a bot account (listed with people, tagged)"
    )
    rating: int
    provisional: bool = Field(
        default=False, description="whether the rating is still provisional (shown with '?')"
    )
    deviation: int
    games: int


class LeaderboardAnswer(_Out):
    """``GET /api/leaderboard/{game}``: players with at least ``min_games`` rated games against
    at least ``min_opponents`` different players and a deviation of at most ``max_deviation``,
    best first."""

    game: str
    min_games: int
    min_opponents: int
    max_deviation: int
    players: list[LeaderRow]


# --- the lobby WebSocket ---------------------------------------------------------------------


class LobbyHello(_In):
    """First message; answered by ``lobby``."""

    type: Literal["hello"]


class Pair(_In):
    """Wait for an opponent in the pool (``game``, ``clock``, ``rated``) with the game's
    default options; asking again for another pool moves there."""

    type: Literal["pair"]
    game: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    clock: Annotated[StrictStr, Field(max_length=16)] | None = None
    rated: StrictBool = False


class Unpair(_In):
    """Stop waiting."""

    type: Literal["unpair"]


class LobbyPing(_In):
    type: Literal["ping"]


LobbyClientMessage = Annotated[LobbyHello | Pair | Unpair | LobbyPing, Field(discriminator="type")]
LOBBY_CLIENT_MESSAGE: TypeAdapter[LobbyHello | Pair | Unpair | LobbyPing] = TypeAdapter(
    LobbyClientMessage
)
LOBBY_TYPES = ("hello", "pair", "unpair", "ping")


class Waiting(_Out):
    game: str
    clock: str | None
    rated: bool


class LobbyMessage(_Out):
    """The lobby as one player sees it (sent on ``hello`` and after every change)."""

    type: Literal["lobby"] = "lobby"
    you: MeAnswer
    waiting: Waiting | None = Field(description="the pool this player waits in, if any")
    controls: list[str] = Field(description="the time controls of the quick pairing buttons")
    seeks: list[SeekInfo]
    pools: list[PoolInfo]
    games: list[LiveInfo]


class PairedMessage(_Out):
    """A game was made for this player (their seek was accepted, or quick pairing matched)."""

    type: Literal["paired"] = "paired"
    id: str
    url: str = Field(description="the game page, with this player's seat")
    rated: bool
    clock: str | None


class LobbyError(_Out):
    """A lobby request was refused; nothing changed."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str


class LobbyPong(_Out):
    type: Literal["pong"] = "pong"


LobbyServerMessage = Annotated[
    LobbyMessage | PairedMessage | ChallengesMessage | LobbyError | LobbyPong,
    Field(discriminator="type"),
]
LOBBY_SERVER_MESSAGE: TypeAdapter[
    LobbyMessage | PairedMessage | ChallengesMessage | LobbyError | LobbyPong
] = TypeAdapter(LobbyServerMessage)

HALL_REST_ANSWERS: tuple[type[BaseModel], ...] = (
    MeAnswer,
    BotCreated,
    SeekList,
    SeekInfo,
    ProfileAnswer,
    LeaderboardAnswer,
    AccountRules,
    TurnsAnswer,
    ChallengeInfo,
    ChallengeList,
    HallNow,
)


def parse_lobby_message(text: str | bytes) -> LobbyHello | Pair | Unpair | LobbyPing:
    """Read one lobby client message; raises ProtocolError(bad_json | bad_message)."""
    try:
        data: Any = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise ProtocolError(ErrorCode.BAD_JSON, f"the message is not valid JSON: {error}") from None
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
    if kind not in LOBBY_TYPES:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            f"unknown message type {kind!r}; the lobby's types are: {', '.join(LOBBY_TYPES)}",
        )
    try:
        return LOBBY_CLIENT_MESSAGE.validate_python(data)
    except ValueError as error:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"bad {kind!r} message: {error}") from None
