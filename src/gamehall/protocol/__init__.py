"""The web protocol (docs/web-protocol.md): every message both ways is a pydantic model.

Client → server messages are a closed set told apart by ``type`` (a discriminated union):
:func:`parse_client_message` turns raw text into one of them or raises :class:`ProtocolError`
(``bad_json`` for text that is not a JSON object, ``bad_message`` for an unknown type or a
missing or ill-typed field).

Server → client messages (``state``, ``presence``, ``error``, ``pong``) and the REST answers are
models too, so what the server sends is typed where it is made and described by one JSON Schema:
``python -m gamehall.protocol --schema`` prints it, ``--write docs/web-protocol.md`` puts it
into the protocol document (a test checks the document is up to date). Every refusal the server
sends, over the WebSocket or REST, carries one :class:`ErrorCode`.

Outgoing models forbid fields they do not declare (a test validating what the server sends then
catches an undocumented field), except the action items, whose extra fields are the parts a game
gives with :meth:`gamehall.core.Game.action_parts`.
"""

from __future__ import annotations

import argparse
import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
    model_validator,
)
from pydantic_core import PydanticCustomError

PROTOCOL_VERSION = 1


# --- errors --------------------------------------------------------------------------------------


class ErrorCode(StrEnum):
    """Why the server refused a request: the ``code`` of every ``error`` message and of every
    REST error answer."""

    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    BAD_REQUEST = "bad_request"
    UNKNOWN_GAME = "unknown_game"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    HTTP_ERROR = "http_error"
    BAD_OPTION = "bad_option"
    BAD_LEVEL = "bad_level"
    BAD_SEAT = "bad_seat"
    BAD_SEAT_TOKEN = "bad_seat_token"
    NOT_YOUR_SEAT = "not_your_seat"
    NOT_YOUR_TURN = "not_your_turn"
    STALE_VERSION = "stale_version"
    ILLEGAL_MOVE = "illegal_move"
    GAME_OVER = "game_over"
    NO_RULES = "no_rules"
    NO_BOARD = "no_board"
    RULES_CHANGED = "rules_changed"
    STORE_ERROR = "store_error"
    BAD_GAME = "bad_game"
    # the hall: names, accounts, the lobby, ratings (gamehall.protocol.hall)
    BAD_NAME = "bad_name"
    NAME_TAKEN = "name_taken"
    BAD_PASSWORD = "bad_password"
    WRONG_PASSWORD = "wrong_password"
    TOO_MANY_ATTEMPTS = "too_many_attempts"
    SIGNED_IN = "signed_in"
    ACCOUNT_NEEDED = "account_needed"
    UNKNOWN_PLAYER = "unknown_player"
    BAD_CLOCK = "bad_clock"
    NOT_RATABLE = "not_ratable"
    TOO_MANY_SEEKS = "too_many_seeks"
    LOBBY_FULL = "lobby_full"
    UNKNOWN_SEEK = "unknown_seek"
    NOT_YOUR_SEEK = "not_your_seek"
    OWN_SEEK = "own_seek"
    SELF_PAIRING = "self_pairing"
    BAD_TEXT = "bad_text"
    TOO_LARGE = "too_large"
    OVER_LIMIT = "over_limit"
    BAD_ORIGIN = "bad_origin"
    QUARANTINED = "quarantined"
    GAME_TOO_LONG = "game_too_long"
    NOT_OVER = "not_over"
    SEAT_TAKEN = "seat_taken"
    PAUSED = "paused"
    NOT_PAUSED = "not_paused"
    CANNOT_ABORT = "cannot_abort"
    NO_TAKEBACK = "no_takeback"
    CANNOT_CLAIM = "cannot_claim"
    BAD_CHAT = "bad_chat"
    CHAT_TOO_FAST = "chat_too_fast"
    BAD_START = "bad_start"
    NO_HINTS = "no_hints"
    NOT_FINISHED = "not_finished"
    NO_REVIEW = "no_review"
    UNKNOWN_PUZZLE = "unknown_puzzle"
    RATE_LIMITED = "rate_limited"
    BUSY = "busy"
    ANALYSIS_FAILED = "analysis_failed"

    @property
    def status(self) -> int:
        """The HTTP status of a REST answer with this code."""
        return ERRORS[self][0]

    @property
    def meaning(self) -> str:
        return ERRORS[self][1]


ERRORS: dict[ErrorCode, tuple[int, str]] = {
    ErrorCode.BAD_JSON: (400, "WebSocket: the message is not a JSON object"),
    ErrorCode.BAD_MESSAGE: (400, "WebSocket: an unknown message type, or a missing or ill-typed field"),
    ErrorCode.BAD_REQUEST: (400, "REST: a malformed body or query"),
    ErrorCode.UNKNOWN_GAME: (404, "no game with this id, or no game of this name"),
    ErrorCode.NOT_FOUND: (404, "REST: no such route"),
    ErrorCode.METHOD_NOT_ALLOWED: (405, "REST: the route does not take this method"),
    ErrorCode.HTTP_ERROR: (400, "REST: any other HTTP error (the status says which)"),
    ErrorCode.BAD_OPTION: (400, "an unknown option, a bad value, or a file path (options from the web may not name files)"),
    ErrorCode.BAD_LEVEL: (400, "no computer level of this name"),
    ErrorCode.BAD_SEAT: (400, "no seat with this index"),
    ErrorCode.BAD_SEAT_TOKEN: (403, "join: the seat token is not one of this game's"),
    ErrorCode.NOT_YOUR_SEAT: (403, "you hold no seat in this game (you are watching)"),
    ErrorCode.NOT_YOUR_TURN: (409, "you hold seats, but not the one to move (also while chance or a computer is to move)"),
    ErrorCode.STALE_VERSION: (409, "the move was for another version than the current one; a `state` follows, resync from it"),
    ErrorCode.ILLEGAL_MOVE: (400, "the rules forbid the move, or it does not parse; the message names it and the legal ones"),
    ErrorCode.GAME_OVER: (409, "the game is over; no more moves"),
    ErrorCode.NO_RULES: (404, "the game has no rules text, or no How to play page"),
    ErrorCode.NO_BOARD: (404, "the game has no board module or stylesheet of its own"),
    ErrorCode.RULES_CHANGED: (409, "the game was stored under another rules version than the server plays; the message names both"),
    ErrorCode.STORE_ERROR: (500, "the server could not store the game or the move (nothing changed)"),
    ErrorCode.BAD_GAME: (500, "a stored game no longer replays under the engine"),
    ErrorCode.BAD_NAME: (400, "a name or username breaks the naming rule (3 to 20 letters, digits, '_' or '-'); the message says how"),
    ErrorCode.NAME_TAKEN: (409, "another player has this name (names are unique regardless of case)"),
    ErrorCode.BAD_PASSWORD: (400, "sign-up: a password has 8 to 256 characters"),
    ErrorCode.WRONG_PASSWORD: (401, "sign-in: no account with this username and password"),
    ErrorCode.TOO_MANY_ATTEMPTS: (429, "sign-in: too many failed attempts from this address (for this username, or for any); the message names the limit and says when to try again"),
    ErrorCode.SIGNED_IN: (409, "signed in already: sign out first (sign-up), or an account's name is its username (renaming)"),
    ErrorCode.ACCOUNT_NEEDED: (403, "rated games, and signing out, need an account: sign up or sign in"),
    ErrorCode.UNKNOWN_PLAYER: (404, "no player of this name"),
    ErrorCode.BAD_CLOCK: (400, "a time control that does not parse or is out of bounds: M+S (minutes each, seconds added a move; minutes may be fractional), dN (days a move) or null"),
    ErrorCode.NOT_RATABLE: (400, "rated games are for games of two seats"),
    ErrorCode.TOO_MANY_SEEKS: (429, "this player has as many open seeks as one may"),
    ErrorCode.LOBBY_FULL: (503, "the lobby holds as many seeks or waiting players as it can; try later"),
    ErrorCode.UNKNOWN_SEEK: (404, "no open seek with this id (taken, cancelled or lapsed)"),
    ErrorCode.NOT_YOUR_SEEK: (403, "only the player who made a seek may cancel it"),
    ErrorCode.OWN_SEEK: (409, "nobody can accept their own seek"),
    ErrorCode.SELF_PAIRING: (409, "a rated game between two accounts used in one browser (one person on both sides)"),
    ErrorCode.BAD_TEXT: (400, "a text holds a NUL byte or a lone surrogate (anywhere: body, query, message)"),
    ErrorCode.TOO_LARGE: (413, "the request body or message is larger than the server reads"),
    ErrorCode.OVER_LIMIT: (429, "over a per-client limit; the message names the limit (see Limits)"),
    ErrorCode.BAD_ORIGIN: (403, "a state-changing request or WebSocket from a page of another origin"),
    ErrorCode.QUARANTINED: (409, "the stored game could not be loaded and is set aside; the message says why"),
    ErrorCode.GAME_TOO_LONG: (409, "the game reached the most actions this server plays (limit max_actions)"),
    ErrorCode.NOT_OVER: (409, "a rematch is asked for before the game is over"),
    ErrorCode.SEAT_TAKEN: (409, "join: the invite was used already, or you hold the game's other seat; you watch"),
    ErrorCode.PAUSED: (409, "play waits for the players to go on (the end of a round): send `continue`"),
    ErrorCode.NOT_PAUSED: (409, "`continue` when nothing waits, or for a pause you already went on from"),
    ErrorCode.CANNOT_ABORT: (409, "abort after every side has moved (resign instead)"),
    ErrorCode.NO_TAKEBACK: (409, "nothing of yours to take back (or only across chance), no offer to answer, or your own offer"),
    ErrorCode.CANNOT_CLAIM: (409, "claim the win while the opponent is here, before the grace period is over, or where claims do not apply"),
    ErrorCode.BAD_CHAT: (400, "a chat message that is empty, longer than 300 characters or holds control characters, or a game whose chat is full (2000 messages)"),
    ErrorCode.CHAT_TOO_FAST: (429, "more chat messages than the rate limit allows; wait a few seconds"),
    ErrorCode.BAD_START: (400, "create: `start` names no position of that game (a step past its end, or its last position, where the game is over), or names another game, or comes with options (the game plays the stored game's)"),
    ErrorCode.NO_HINTS: (403, "hints are given in games against the computer and hot-seat games, to the player to move; never in online games"),
    ErrorCode.NOT_FINISHED: (409, "review: the game is not finished yet"),
    ErrorCode.NO_REVIEW: (404, "review record: the game has no finished review yet"),
    ErrorCode.UNKNOWN_PUZZLE: (404, "no stored puzzle of this game with this id"),
    ErrorCode.RATE_LIMITED: (429, "too many hints or reviews asked for by this player in a short time (or one is still being worked out); the message says when to ask again"),
    ErrorCode.BUSY: (503, "the server has as much analysis queued as it takes; ask again in a little while"),
    ErrorCode.ANALYSIS_FAILED: (500, "the hint or review could not be worked out (the message says why)"),
}  # fmt: skip
assert set(ERRORS) == set(ErrorCode)


class ProtocolError(Exception):
    """A refused request: its :class:`ErrorCode`, a message for people, and the HTTP status
    (by default the code's own)."""

    def __init__(self, code: ErrorCode | str, message: str, status: int | None = None) -> None:
        if len(message) > MESSAGE_CHARS:  # a bound on what a refusal repeats, whatever made it
            message = message[: MESSAGE_CHARS - 1] + "…"
        super().__init__(message)
        self.code = ErrorCode(code)
        self.message = message
        self.status = self.code.status if status is None else status


MESSAGE_CHARS = 800
"""The longest message a refusal carries (values in it are quoted by a short prefix)."""


# --- text from the network ---------------------------------------------------------------------


def text_problem(value: str) -> str | None:
    """What is wrong with a text from the network, or None: a NUL byte (no store takes it) or a
    lone surrogate (no UTF-8 encoder takes it)."""
    if "\x00" in value:
        return "a NUL byte"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "a lone surrogate (text that is not valid Unicode)"
    return None


def find_bad_text(data: Any, where: str = "the message") -> str | None:
    """The first text in a JSON value (keys included) with a :func:`text_problem`, described
    with where it is, or None when every text is clean."""
    stack: list[tuple[Any, str]] = [(data, where)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            problem = text_problem(item)
            if problem:
                return f"{path} holds {problem}"
        elif isinstance(item, dict):
            for key, inner in item.items():
                problem = text_problem(str(key))
                if problem:
                    return f"a key of {path} holds {problem}"
                stack.append((inner, f"{path}.{key}"))
        elif isinstance(item, list):
            stack.extend((inner, f"{path}[{i}]") for i, inner in enumerate(item))
    return None


def _short(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- client → server -----------------------------------------------------------------------------


class _In(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


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


# --- REST request bodies -------------------------------------------------------------------------

Mode = Literal["computer", "hotseat", "online"]


class _Body(BaseModel):
    """A REST request body: every text in it is clean (:func:`text_problem`), or the request is
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


class StartFrom(BaseModel):
    """Where a new game starts: the position of game ``game_id`` after its first ``step``
    actions (the server finds the position itself; a client never sends one)."""

    model_config = ConfigDict(extra="forbid")

    game_id: Annotated[str, Field(min_length=1, max_length=32)]
    step: Annotated[int, Field(ge=0, le=100_000)]


class CreateGame(_Body):
    """``POST /api/games``. ``clock`` is a time control: ``"5+3"`` (minutes each, seconds added
    per move; minutes may be fractional) or ``"d3"`` (days per move); none by default. With
    ``start``, the game (and its options) are those of the game it starts from."""

    model_config = ConfigDict(extra="forbid")

    game: Annotated[str, Field(min_length=1, max_length=64)]
    options: dict[str, bool | int | str] = Field(default_factory=dict)
    mode: Mode = "computer"
    seat: Annotated[int, Field(ge=0, le=16)] = 0
    level: Annotated[str, Field(max_length=64)] = "easy"
    clock: Annotated[str, Field(max_length=20)] | None = None
    start: StartFrom | None = None


class HintRequest(_Body):
    """``POST /api/games/{id}/hint``: hints for the position at ``version`` (the current one;
    omitted: whatever is current)."""

    model_config = ConfigDict(extra="forbid")

    version: Annotated[int | None, Field(ge=0)] = None


class PuzzleTry(_Body):
    """``POST /api/puzzles/{game}/{id}/answer``: the move (the text of one of the puzzle's
    ``legal`` items)."""

    model_config = ConfigDict(extra="forbid")

    move: Annotated[StrictStr, Field(min_length=1, max_length=500)]


class Join(_Body):
    """``POST /api/games/{id}/join``."""

    model_config = ConfigDict(extra="ignore")

    seat: Annotated[str, Field(min_length=1, max_length=200)]


# --- server → client: the parts --------------------------------------------------------------------


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Item(BaseModel):
    # The extra fields are the action's parts (Game.action_parts), in the game's own words.
    model_config = ConfigDict(extra="allow", frozen=True)


class LegalAction(_Item):
    """A legal action of the player to move: its text (what a ``move`` sends), its dense index,
    and the game's parts of it (e.g. ``"kind": "place", "region": 5``) as further fields."""

    text: str
    index: int


class PlayedAction(_Item):
    """An action that was played: its text, who played it (a seat index, -1 for chance) and the
    game's parts of it as further fields."""

    text: str
    mover: int


class SeatInfo(_Out):
    """A seat: its index, the game's name for it, who plays it (and the computer's level), and
    the name of the player holding it (null: nobody has taken it yet, or a computer)."""

    index: int
    name: str
    kind: Literal["human", "computer"]
    level: str | None = None
    player: str | None = None


class SeatPresence(SeatInfo):
    """A seat and whether someone holding it is connected (computers always are)."""

    connected: bool


class OutcomeInfo(_Out):
    """How a game ended: the winner (a seat index, or null for a draw), why, each side's score
    and the PGN-style result from the first seat's point of view."""

    winner: int | None
    winner_name: str | None
    reason: str
    scores: list[float]
    result: Literal["1-0", "0-1", "1/2-1/2", "*"] = Field(
        description="'*' for a game aborted with no result"
    )


class ClockInfo(_Out):
    """The clocks as the server measured them when it sent the message: each seat's remaining
    milliseconds (null for a seat without a clock: a computer), whose clock runs and the
    server's time. A client counts the running clock down from when it received the message."""

    control: str = Field(description="the time control: '5+3' or 'd3'")
    remaining: list[int | None]
    running: int | None = Field(description="the seat whose clock runs, if any")
    sent: int = Field(description="the server's time (ms since the epoch)")
    lag_allowance: int = Field(description="ms given back on every move for the network")


class PauseInfo(_Out):
    """Play waits for the players to go on (e.g. a round is over): why, how long it waits at
    most, and the seats that have not yet sent ``continue``."""

    reason: str
    left_ms: int | None = Field(description="ms until play goes on by itself, if it does")
    waiting: list[int]


class TakebackInfo(_Out):
    """A takeback offer that stands: the offering seat's last move would be taken back."""

    by: int


class AbsentInfo(_Out):
    """A human seat that nobody holding it is connected to: for how long, and in how many ms
    its opponent may claim the win (null: no claim applies, e.g. it has not moved yet)."""

    seat: int
    away_ms: int
    claim_in_ms: int | None


# --- server → client: the WebSocket messages -------------------------------------------------------


class StateMessage(_Out):
    """The game as one reader sees it: sent on ``hello`` and ``resync``, after every action
    (one per version, chance included) and by ``GET /api/games/{id}``. Everything but the
    action history is whole; the history comes as the actions after version ``since`` (all of
    them over REST and on a full resync, only the new ones otherwise)."""

    type: Literal["state"] = "state"
    version: int = Field(
        description="the number of entries in the game's log so far: actions (chance included), "
        "takebacks and their offers, and how the game ended; it only grows"
    )
    game: str
    rules_version: str
    id: str
    position: str = Field(description="the state's text form")
    view: dict[str, Any] = Field(
        description="State.view(): what a board draws, in the game's words"
    )
    to_move: int | None = Field(description="the seat to move; null at chance and at the end")
    to_move_name: str = Field(description="its name, or 'chance', or 'nobody'")
    last: PlayedAction | None
    over: bool
    outcome: OutcomeInfo | None
    status: Literal["ongoing", "finished"]
    mode: Mode
    # From here on the fields change between versions too (presence, clocks, time passing): the
    # server writes the fields above once per version and these when it sends (gamehall.web.play.live).
    seats: list[SeatPresence]
    rematch: str | None = Field(description="the id of the rematch, once there is one")
    clock: ClockInfo | None = Field(description="the clocks, in a game with a time control")
    pause: PauseInfo | None = Field(description="play waits for the players to go on")
    takeback: TakebackInfo | None = Field(description="a takeback offer that stands")
    absent: list[AbsentInfo] = Field(description="human seats nobody is connected to")
    abortable: bool = Field(description="whether the game may still be aborted")
    # The last fields: the server writes the message up to here when it sends, and splices in
    # the actions the reader does not have and the reader's own seats (see gamehall.web.play.live).
    since: int = Field(
        description="`actions` and `movers` are the game's actions after its first `since`: 0 "
        "for every action; on the WebSocket, as many as this reader still has right (a delta: "
        "the actions it was sent that no takeback has undone since)"
    )
    actions: list[str] = Field(description="the game's actions after the first `since`")
    movers: list[int] = Field(description="who played each of them: a seat index, -1 for chance")
    you: list[int] = Field(description="the seats this reader holds")
    legal: list[LegalAction] = Field(
        description="the legal actions of the seat to move, for everyone to see"
    )


class PresenceMessage(_Out):
    """A seat's connection status changed."""

    type: Literal["presence"] = "presence"
    seats: list[SeatPresence]
    absent: list[AbsentInfo]


class ChatLine(_Out):
    """One chat message: its number in the game's chat, the writer (a seat and its name, or a
    spectator), the text (always shown as text, never as markup) and when it was written."""

    number: int
    seat: int | None
    name: str
    text: str
    at: str


class ChatMessage(_Out):
    """Chat for this reader's room (players or spectators): the recent lines on ``hello``, then
    each new line as it is written."""

    type: Literal["chat"] = "chat"
    room: Literal["players", "spectators"]
    lines: list[ChatLine]


class ErrorMessage(_Out):
    """The request was refused and nothing changed. ``version`` is the game's current version
    (null when there is no game to speak of, after which the server closes the socket)."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    version: int | None


class PongMessage(_Out):
    """The answer to ``ping``."""

    type: Literal["pong"] = "pong"


ServerOut = StateMessage | PresenceMessage | ChatMessage | ErrorMessage | PongMessage
ServerMessage = Annotated[ServerOut, Field(discriminator="type")]
SERVER_MESSAGE: TypeAdapter[ServerOut] = TypeAdapter(ServerMessage)


# --- server → client: REST answers -----------------------------------------------------------------


class OptionInfo(_Out):
    """A game option, described fully (Option.describe()): a form is built from its kind."""

    name: str
    kind: Literal["bool", "int", "str", "choice", "data", "path"]
    default: bool | int | str
    help: str
    choices: list[str] | None = None
    minimum: int | None = None
    maximum: int | None = None
    max_length: int | None = None


class DiagramInfo(_Out):
    """A real position drawn for people: its text, its view (what a board draws), the move
    drawn on it (``last``: on the position before it, or the move just played) and a caption."""

    position: str
    view: dict[str, Any]
    last: PlayedAction | None
    caption: str


class GameInfo(_Out):
    """What the server says of one game: names, seats, options, rules and board files, and
    what a newcomer reads first (summary, duration, a picture of a real position)."""

    name: str
    title: str
    summary: str
    duration: str = Field(description="how long a game takes, in words")
    sample: DiagramInfo | None = Field(description="a position that shows what the game is like")
    how_to_play: bool = Field(description="whether /api/howto/{game} has a How to play page")
    rules_version: str
    seats: list[str]
    options: list[OptionInfo]
    board_module: str | None = Field(description="the URL of the game's board module, if any")
    board_style: str | None = Field(description="the URL of its stylesheet, if any")
    rules: bool = Field(description="whether /api/rules/{game} has the rules text")
    puzzles: bool = Field(
        default=False, description="whether the game has puzzles (an exact solver and a margin)"
    )
    level_ratings: dict[str, int] = Field(
        default_factory=dict,
        description="the computer levels' fixed ratings, estimated by tournament (may be empty)",
    )
    level_intervals: dict[str, int] = Field(
        default_factory=dict,
        description="half the 95% interval of each level's rating, relative to beginner's",
    )


class MetaAnswer(_Out):
    """``GET /api/meta``."""

    protocol: int
    games: list[GameInfo]
    levels: list[str]


class CreatedAnswer(_Out):
    """``POST /api/games`` and ``POST /api/games/{id}/rematch``."""

    id: str
    url: str
    seats: list[SeatInfo]
    you: list[int]
    invite: str | None = Field(
        default=None, description="online: the link with the other seat's token"
    )


class GameSummary(_Out):
    """One of the games a browser holds a seat in."""

    id: str
    game: str
    rules_version: str
    mode: Mode
    status: Literal["ongoing", "finished"]
    result: OutcomeInfo | None
    created: str
    updated: str
    version: int
    seats: list[SeatInfo]
    clock: str | None = Field(description="the time control, if any")


class GameList(_Out):
    """``GET /api/games``: newest first."""

    games: list[GameSummary]


class HowToText(_Out):
    """Part of a How to play page: Markdown text."""

    kind: Literal["text"] = "text"
    markdown: str


class HowToDiagram(_Out):
    """Part of a How to play page: a diagram of a real position."""

    kind: Literal["diagram"] = "diagram"
    diagram: DiagramInfo


class HowToAnswer(_Out):
    """``GET /api/howto/{game}``: a first lesson for players, text and diagrams in order."""

    game: str
    title: str
    summary: str
    duration: str
    parts: list[Annotated[HowToText | HowToDiagram, Field(discriminator="kind")]]
    rules: bool = Field(description="whether /api/rules/{game} has the complete rules")


class ReplayAnswer(_Out):
    """``GET /api/games/{id}/replay``: ``states[k]`` is the view after ``k`` actions."""

    id: str
    game: str
    seats: list[str]
    actions: list[PlayedAction]
    states: list[dict[str, Any]]


class JoinAnswer(_Out):
    """``POST /api/games/{id}/join``."""

    you: list[int]


class InviteAnswer(_Out):
    """``GET /api/games/{id}/invite``: the invite link of an online game's free seat, for the
    browser that holds the other seat, until someone takes it (then null)."""

    invite: str | None


class HintItem(_Out):
    """One hint: a move, what is known of its value in words from the asking player's side
    (``exact: ...``, or ``estimate (not exact): ...`` with its interval and simulations, or
    proven bounds), and the line of play after it."""

    move: str
    evaluation: str
    method: Literal["exact", "bounds", "estimate"]
    visits: int | None
    line: list[str] = Field(description="the moves that follow (after ``move``)")
    line_exact: bool = Field(description="the line is perfect play (else the search's likeliest)")


class HintAnswer(_Out):
    """``POST /api/games/{id}/hint``: the best moves for the player to move, best first; a
    move is never ranked above one proven better (gamehall.ai.hints)."""

    id: str
    version: int
    to_move: int
    to_move_name: str
    headline: str = Field(description="the position's value in words when it is exact, else ''")
    proven: bool = Field(description="every hint exact and no other move can beat them")
    seconds: float
    hints: list[HintItem]


class JudgementInfo(_Out):
    """How a review classes moves by their cost, in the game's unit."""

    unit: str
    inaccuracy: float
    mistake: float
    blunder: float


class ReviewPoint(_Out):
    """One point of the evaluation graph: the value before judged move ``number`` (or after
    the last), from the first seat's side; ``low``/``high`` bound an estimate's band."""

    number: int
    value: float | None
    low: float | None
    high: float | None
    exact: bool


class ReviewMove(_Out):
    """One judged move: values before and after (from the mover's side, as text), its cost,
    class and the best alternative, with the position after the best move for a board."""

    number: int = Field(description="the action's number in the game, from 1, chance included")
    player: int
    move: str
    before: str
    after: str
    cost: str
    exact: bool
    verdict: Literal["best", "good", "inaccuracy", "mistake", "blunder"] | None
    best: str | None
    best_item: PlayedAction | None
    best_view: dict[str, Any] | None = Field(description="State.view() after the best move")
    forced: bool
    comment: str = Field(description="the record annotation, e.g. {value +1 → 0, cost 1, ...}")


class ReviewSummary(_Out):
    """One player's review: moves judged, how many exactly, what was given up (exact costs,
    and estimated ones apart) and the count of each class."""

    player: int
    name: str
    moves: int
    exact: int
    given_up: str
    given_up_estimated: str | None
    classes: dict[str, int]
    text: str


class ReviewData(_Out):
    kind: Literal["points", "probability"]
    unit: str
    perspective: str = Field(description="the seat whose side the graph is drawn from")
    judgement: JudgementInfo | None
    budget: dict[str, float]
    seconds: float
    moves: list[ReviewMove]
    summary: list[ReviewSummary]
    series: list[ReviewPoint]


class ReviewAnswer(_Out):
    """``GET`` and ``POST /api/games/{id}/review``: the review's status (``none``: never asked
    for), its progress in judged moves, and the review once done (stored with the game)."""

    id: str
    status: Literal["none", "queued", "running", "done", "failed"]
    done: int
    total: int
    error: str | None = None
    review: ReviewData | None = None


class PuzzleInfo(_Out):
    """A puzzle as a player sees it before answering: the position, its view for the board
    and the legal moves (one of them is the answer)."""

    id: str
    game: str
    position: str
    to_move: int
    to_move_name: str
    view: dict[str, Any]
    legal: list[LegalAction]
    attempted: bool | None = Field(description="null: not yet; true/false: solved at first try")


class PuzzleAnswer(_Out):
    """``GET /api/puzzles/{game}`` (the next puzzle this player has not tried) and
    ``GET /api/puzzles/{game}/{id}``; with the player's counts. No puzzle: ``how`` says why."""

    game: str
    total: int
    solved: int
    failed: int
    puzzle: PuzzleInfo | None
    how: str | None = Field(default=None, description="when there is no puzzle: why, in words")


class PuzzleVerdict(_Out):
    """``POST /api/puzzles/{game}/{id}/answer``: right or not, the answer and its solution line
    (each move as an item with the view after it, for a board to step through)."""

    id: str
    correct: bool
    move: str
    answer: str
    line: list[PlayedAction]
    views: list[dict[str, Any]] = Field(description="State.view() after each move of the line")
    value: str = Field(description="the answer's exact value for the mover")
    margin: str = Field(description="what the best other move costs")
    counted: bool = Field(description="whether this was the player's first answer (it counts)")
    total: int
    solved: int
    failed: int


class ErrorBody(_Out):
    code: ErrorCode
    message: str


class ErrorAnswer(_Out):
    """Every REST error (HTTP 4xx/5xx)."""

    error: ErrorBody


REST_ANSWERS: tuple[type[BaseModel], ...] = (
    MetaAnswer,
    CreatedAnswer,
    GameList,
    StateMessage,
    ReplayAnswer,
    HowToAnswer,
    JoinAnswer,
    InviteAnswer,
    HintAnswer,
    ReviewAnswer,
    PuzzleAnswer,
    PuzzleVerdict,
    ErrorAnswer,
)


# --- the schema ----------------------------------------------------------------------------------


def json_schema() -> dict[str, Any]:
    """One JSON Schema (draft 2020-12) for the whole protocol: ``clientMessage``,
    ``serverMessage`` and the REST answers, with every model under ``$defs``."""
    from gamehall.protocol.hall import (
        HALL_REST_ANSWERS,
        LOBBY_CLIENT_MESSAGE,
        LOBBY_SERVER_MESSAGE,
    )

    rest = (*REST_ANSWERS, *HALL_REST_ANSWERS)
    keyed: list[tuple[str, Literal["validation", "serialization"], TypeAdapter[Any]]] = [
        ("clientMessage", "validation", CLIENT_MESSAGE),
        ("serverMessage", "serialization", SERVER_MESSAGE),
        ("lobbyClientMessage", "validation", LOBBY_CLIENT_MESSAGE),
        ("lobbyServerMessage", "serialization", LOBBY_SERVER_MESSAGE),
        *((model.__name__, "serialization", TypeAdapter(model)) for model in rest),
    ]
    refs, defs = TypeAdapter.json_schemas(keyed, ref_template="#/$defs/{model}")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"gamehall web protocol, version {PROTOCOL_VERSION}",
        "clientMessage": refs[("clientMessage", "validation")],
        "serverMessage": refs[("serverMessage", "serialization")],
        "lobbyClientMessage": refs[("lobbyClientMessage", "validation")],
        "lobbyServerMessage": refs[("lobbyServerMessage", "serialization")],
        "rest": {model.__name__: refs[(model.__name__, "serialization")] for model in rest},
        "$defs": defs.get("$defs", {}),
    }


def schema_text() -> str:
    return json.dumps(json_schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def error_table() -> str:
    """The error codes as a Markdown table (code, HTTP status, meaning)."""
    rows = ["| code | HTTP | meaning |", "|---|---|---|"]
    rows += [f"| `{code.value}` | {code.status} | {code.meaning} |" for code in ErrorCode]
    return "\n".join(rows) + "\n"


BEGIN = "<!-- generated by `python -m gamehall.protocol --write docs/web-protocol.md`: begin -->"
END = "<!-- generated: end -->"


def generated_section() -> str:
    """What goes between :data:`BEGIN` and :data:`END` in docs/web-protocol.md."""
    return (
        f"{BEGIN}\n\n### Error codes\n\n{error_table()}\n### JSON Schema\n\n"
        f"```json\n{schema_text()}```\n\n{END}"
    )


def with_generated_section(document: str) -> str:
    """``document`` with its generated section replaced (appended if it has none)."""
    start, end = document.find(BEGIN), document.find(END)
    if start < 0 or end < start:
        return document.rstrip("\n") + "\n\n" + generated_section() + "\n"
    return document[:start] + generated_section() + document[end + len(END) :]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m gamehall.protocol", description="The web protocol's JSON Schema."
    )
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--schema", action="store_true", help="print the JSON Schema")
    group.add_argument("--write", metavar="DOC", help="update the generated section of DOC")
    args = parser.parse_args(argv)
    if args.schema:
        sys.stdout.write(schema_text())
        return 0
    path = Path(args.write)
    path.write_text(with_generated_section(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
