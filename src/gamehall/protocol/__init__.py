"""The web protocol (docs/web-protocol.md): every message both ways is a pydantic model.

The wire contract of the server (:mod:`gamehall.web`) and of its clients (the browser, and the
terminal app's ``--connect``), beneath both; no web framework, no server, no store. By concern:

- :mod:`~gamehall.protocol.errors`: :class:`ErrorCode` (with each code's HTTP status and
  meaning), :class:`ProtocolError`, and the check every text from the network goes through;
- :mod:`~gamehall.protocol.base`: :data:`PROTOCOL_VERSION`, the game modes, and the bases that
  say what a model does with fields it does not declare;
- :mod:`~gamehall.protocol.client`: client → server messages on a game's WebSocket, a closed
  set told apart by ``type``, and :func:`parse_client_message`;
- :mod:`~gamehall.protocol.bodies`: the REST request bodies of games;
- :mod:`~gamehall.protocol.server`: server → client messages on a game's WebSocket (``state``,
  ``presence``, ``chat``, ``error``, ``pong``) and their items (actions, seats, clocks);
- :mod:`~gamehall.protocol.answers`: the REST answers of games, and the error answer;
- :mod:`~gamehall.protocol.hall`: the hall's messages (players, accounts, the lobby, ratings);
- :mod:`~gamehall.protocol.challenges`: challenges (one player asks a named other to play);
- :mod:`~gamehall.protocol.schema`: one JSON Schema for all of them. ``python -m
  gamehall.protocol --schema`` prints it, ``--write docs/web-protocol.md`` puts it into the
  protocol document (a test checks the document is up to date).

Outgoing models forbid fields they do not declare (a test validating what the server sends then
catches an undocumented field), except the action items, whose extra fields are the parts a game
gives with :meth:`gamehall.core.Game.action_parts`. The names below are those of every module
but the hall's, which is imported as :mod:`gamehall.protocol.hall`.
"""

from __future__ import annotations

from gamehall.protocol.answers import (
    REST_ANSWERS,
    AnalysisAnswer,
    AnalysisMove,
    AnalysisOutcome,
    AnalysisStep,
    CreatedAnswer,
    DiagramInfo,
    ErrorAnswer,
    ErrorBody,
    GameInfo,
    GameList,
    GameSummary,
    HintAnswer,
    HintItem,
    HowToAnswer,
    HowToDiagram,
    HowToText,
    InviteAnswer,
    JoinAnswer,
    JudgementInfo,
    MetaAnswer,
    OptionInfo,
    PuzzleAnswer,
    PuzzleInfo,
    PuzzleVerdict,
    ReplayAnswer,
    ReviewAnswer,
    ReviewData,
    ReviewMove,
    ReviewPoint,
    ReviewSummary,
    ReviewWorst,
)
from gamehall.protocol.base import PROTOCOL_VERSION, Mode
from gamehall.protocol.bodies import (
    AnalysisRequest,
    CreateGame,
    HintRequest,
    Join,
    PuzzleTry,
    StartFrom,
)
from gamehall.protocol.client import (
    CLIENT_MESSAGE,
    CLIENT_TYPES,
    Abort,
    Chat,
    Claim,
    ClientIn,
    ClientMessage,
    Continue,
    Hello,
    Move,
    Ping,
    Resign,
    Resync,
    Takeback,
    parse_client_message,
)
from gamehall.protocol.errors import (
    ERRORS,
    MESSAGE_CHARS,
    ErrorCode,
    ProtocolError,
    find_bad_text,
    text_problem,
)
from gamehall.protocol.schema import (
    BEGIN,
    END,
    error_table,
    generated_section,
    json_schema,
    main,
    schema_text,
    with_generated_section,
)
from gamehall.protocol.server import (
    SERVER_MESSAGE,
    AbsentInfo,
    ChatLine,
    ChatMessage,
    ClockInfo,
    ErrorMessage,
    LegalAction,
    OutcomeInfo,
    PauseInfo,
    PlayedAction,
    PongMessage,
    PresenceMessage,
    SeatInfo,
    SeatPresence,
    ServerMessage,
    ServerOut,
    StateMessage,
    TakebackInfo,
)

__all__ = [  # every module's public names but the hall's
    "BEGIN",
    "CLIENT_MESSAGE",
    "CLIENT_TYPES",
    "END",
    "ERRORS",
    "MESSAGE_CHARS",
    "PROTOCOL_VERSION",
    "REST_ANSWERS",
    "SERVER_MESSAGE",
    "Abort",
    "AbsentInfo",
    "AnalysisAnswer",
    "AnalysisMove",
    "AnalysisOutcome",
    "AnalysisRequest",
    "AnalysisStep",
    "Chat",
    "ChatLine",
    "ChatMessage",
    "Claim",
    "ClientIn",
    "ClientMessage",
    "ClockInfo",
    "Continue",
    "CreateGame",
    "CreatedAnswer",
    "DiagramInfo",
    "ErrorAnswer",
    "ErrorBody",
    "ErrorCode",
    "ErrorMessage",
    "GameInfo",
    "GameList",
    "GameSummary",
    "Hello",
    "HintAnswer",
    "HintItem",
    "HintRequest",
    "HowToAnswer",
    "HowToDiagram",
    "HowToText",
    "InviteAnswer",
    "Join",
    "JoinAnswer",
    "JudgementInfo",
    "LegalAction",
    "MetaAnswer",
    "Mode",
    "Move",
    "OptionInfo",
    "OutcomeInfo",
    "PauseInfo",
    "Ping",
    "PlayedAction",
    "PongMessage",
    "PresenceMessage",
    "ProtocolError",
    "PuzzleAnswer",
    "PuzzleInfo",
    "PuzzleTry",
    "PuzzleVerdict",
    "ReplayAnswer",
    "Resign",
    "Resync",
    "ReviewAnswer",
    "ReviewData",
    "ReviewMove",
    "ReviewPoint",
    "ReviewSummary",
    "ReviewWorst",
    "SeatInfo",
    "SeatPresence",
    "ServerMessage",
    "ServerOut",
    "StartFrom",
    "StateMessage",
    "Takeback",
    "TakebackInfo",
    "error_table",
    "find_bad_text",
    "generated_section",
    "json_schema",
    "main",
    "parse_client_message",
    "schema_text",
    "text_problem",
    "with_generated_section",
]
