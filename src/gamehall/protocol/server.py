"""Server → client messages on a game's WebSocket (``state``, ``presence``, ``chat``, ``error``,
``pong``) and the items they are made of: actions, seats, outcome, clocks, pauses.

The items are shared with the REST answers (:mod:`gamehall.protocol.answers`) and the hall's
messages (:mod:`gamehall.protocol.hall`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from gamehall.protocol.base import Mode, _Item, _Out
from gamehall.protocol.errors import ErrorCode

# --- the items -----------------------------------------------------------------------------------


class LegalAction(_Item):
    """A legal action of the player to move: its text (what a ``move`` sends), its dense index,
    the action told in words as it would be played here, and the game's parts of it (e.g.
    ``"kind": "place", "region": 5``) as further fields."""

    text: str
    index: int
    words: str = ""


class PlayedAction(_Item):
    """An action that was played: its text, who played it (a seat index, -1 for chance), the
    action told in words (the game's plugin: ``"Jinn keeps the Sea and passes Forest and
    Mountain"``) and the game's parts of it as further fields."""

    text: str
    mover: int
    words: str = ""
    chapter: str = ""
    """The round or turn it belongs to ("Round 2"), in a replay and a state's ``last``."""
    end: str = ""
    """After the action that ends a round, the round's result ("Round 1: Dark +2, match 2–0")."""


class SeatInfo(_Out):
    """A seat: its index, the game's name for it, who plays it (and the computer's level), and
    the name of the player holding it (null: nobody has taken it yet, or a computer)."""

    index: int
    name: str
    kind: Literal["human", "computer"]
    level: str | None = None
    player: str | None = None
    bot: bool = False
    """Whether the player holding it is a bot account (docs/bots.md)."""


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


class RatingShown(_Out):
    """A rating as people are shown it: rounded, and whether it is still provisional (its
    deviation is large: shown with a "?", as "1662?")."""

    rating: int
    provisional: bool


class SeatRating(_Out):
    """A seat's player's rating in a rated game: ``rating`` is the rating the game is played
    at (before it counted: the player's rating now; once it counted: the rating before it);
    ``after`` and ``change`` once the result is in the ratings (null until then, and for an
    aborted game, which changes no rating). ``change`` is ``after.rating − rating``."""

    seat: int
    rating: RatingShown
    after: RatingShown | None = None
    change: int | None = None


class TableInfo(_Out):
    """How the hall made a game: rated or casual, its time control (``"3+2"``, ``"d3"``, or
    null: untimed) and, in a rated game, each seated player's rating."""

    rated: bool
    clock: str | None
    ratings: list[SeatRating] = Field(default_factory=list)


# --- the messages --------------------------------------------------------------------------------


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
    table: TableInfo | None = Field(
        default=None,
        description="how the hall made the game (rated or casual, its clock, the players' "
        "ratings and, once a rated result counted, their changes); null for a game not made "
        "in the hall's lobby",
    )
    # The last fields: the server writes the message up to here when it sends, and splices in
    # the actions the reader does not have and the reader's own seats (see gamehall.web.play.live).
    since: int = Field(
        description="`actions` and `movers` are the game's actions after its first `since`: 0 "
        "for every action; on the WebSocket, as many as this reader still has right (a delta: "
        "the actions it was sent that no takeback has undone since)"
    )
    actions: list[str] = Field(description="the game's actions after the first `since`")
    movers: list[int] = Field(description="who played each of them: a seat index, -1 for chance")
    words: list[str] = Field(description="each of them told in words, for people")
    chapters: list[str] = Field(
        description='the round or turn each of them belongs to ("Round 2", "Turn 3"; '
        '"" for a game without rounds), for move lists grouped by round and turn'
    )
    ends: list[str] = Field(
        description="after each of them, the result of the round it ended "
        '("Round 1: Dark +2, match 2–0"), or ""'
    )
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
