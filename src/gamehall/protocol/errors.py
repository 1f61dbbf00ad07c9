"""Why the server refuses a request, and the check every text from the network goes through.

Every refusal, over the WebSocket or REST, carries one :class:`ErrorCode`; :data:`ERRORS` gives
each its HTTP status and meaning (the table in docs/web-protocol.md is made from it).
:func:`find_bad_text` finds what no store or encoder takes: a NUL byte or a lone surrogate.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


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
    BOT_ACCOUNT = "bot_account"
    TOO_MANY_BOTS = "too_many_bots"
    UNKNOWN_PLAYER = "unknown_player"
    BAD_CLOCK = "bad_clock"
    NOT_RATABLE = "not_ratable"
    TOO_MANY_SEEKS = "too_many_seeks"
    LOBBY_FULL = "lobby_full"
    UNKNOWN_SEEK = "unknown_seek"
    NOT_YOUR_SEEK = "not_your_seek"
    OWN_SEEK = "own_seek"
    SELF_PAIRING = "self_pairing"
    RATED_LIMIT = "rated_limit"
    SELF_CHALLENGE = "self_challenge"
    TOO_MANY_CHALLENGES = "too_many_challenges"
    CHALLENGE_OPEN = "challenge_open"
    UNKNOWN_CHALLENGE = "unknown_challenge"
    NOT_YOUR_CHALLENGE = "not_your_challenge"
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
    BAD_POSITION = "bad_position"
    IMPOSSIBLE_POSITION = "impossible_position"

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
    ErrorCode.TOO_MANY_ATTEMPTS: (429, "sign-in or sign-up: too many attempts from this address (failed ones for this username or for any, sign-ins of any kind, or accounts made); the message names the limit and says when to try again"),
    ErrorCode.SIGNED_IN: (409, "signed in already: sign out first (sign-up), or an account's name is its username (renaming)"),
    ErrorCode.ACCOUNT_NEEDED: (403, "rated games, signing out, and starting the review of a game one watched need an account: sign up or sign in"),
    ErrorCode.BOT_ACCOUNT: (403, "a bot account asked for what only a person's account may do (making a bot)"),
    ErrorCode.TOO_MANY_BOTS: (429, "the account has made as many bot accounts as one may"),
    ErrorCode.UNKNOWN_PLAYER: (404, "no player of this name"),
    ErrorCode.BAD_CLOCK: (400, "a time control that does not parse or is out of bounds: M+S (minutes each, seconds added a move; minutes may be fractional), dN (days a move) or null"),
    ErrorCode.NOT_RATABLE: (400, "rated games are for games of two seats"),
    ErrorCode.TOO_MANY_SEEKS: (429, "this player has as many open seeks as one may"),
    ErrorCode.LOBBY_FULL: (503, "the lobby holds as many seeks or waiting players as it can; try later"),
    ErrorCode.UNKNOWN_SEEK: (404, "no open seek with this id (taken, cancelled or lapsed)"),
    ErrorCode.NOT_YOUR_SEEK: (403, "only the player who made a seek may cancel it"),
    ErrorCode.OWN_SEEK: (409, "nobody can accept their own seek"),
    ErrorCode.SELF_PAIRING: (409, "a rated game between two accounts used in one browser (one person on both sides)"),
    ErrorCode.RATED_LIMIT: (429, "these two players have played as many rated games with each other in the last day as two may (casual games are unlimited)"),
    ErrorCode.SELF_CHALLENGE: (409, "nobody can challenge themselves"),
    ErrorCode.TOO_MANY_CHALLENGES: (429, "the challenger has as many open challenges as one may (or their network address has), the challenged player has as many waiting as one may, or the hall holds as many as it can; the message says which"),
    ErrorCode.CHALLENGE_OPEN: (409, "the challenger has an open challenge to this player already: one at a time (cancel it first)"),
    ErrorCode.UNKNOWN_CHALLENGE: (404, "no open challenge with this id (accepted, declined, cancelled or lapsed)"),
    ErrorCode.NOT_YOUR_CHALLENGE: (403, "only the challenged player may accept or decline a challenge, and only the challenger may cancel it"),
    ErrorCode.BAD_TEXT: (400, "a text holds a NUL byte or a lone surrogate (anywhere: body, query, message)"),
    ErrorCode.TOO_LARGE: (413, "the request body or message is larger than the server reads"),
    ErrorCode.OVER_LIMIT: (429, "over a per-client limit; the message names the limit (see Limits)"),
    ErrorCode.BAD_ORIGIN: (403, "a state-changing request or WebSocket from a page of another origin"),
    ErrorCode.QUARANTINED: (409, "the stored game could not be loaded and is set aside; the message says why"),
    ErrorCode.GAME_TOO_LONG: (409, "the game reached the most moves this server plays (limit max_actions)"),
    ErrorCode.NOT_OVER: (409, "a rematch is asked for before the game is over"),
    ErrorCode.SEAT_TAKEN: (409, "join: the invite was used already, or you hold the game's other seat; you watch"),
    ErrorCode.PAUSED: (409, "play waits for the players to go on (the end of a round): send `continue`"),
    ErrorCode.NOT_PAUSED: (409, "`continue` when nothing waits, or for a pause you already went on from"),
    ErrorCode.CANNOT_ABORT: (409, "abort after every side has moved (resign instead)"),
    ErrorCode.NO_TAKEBACK: (409, "nothing of yours to take back (or only across chance), no offer to answer, or your own offer"),
    ErrorCode.CANNOT_CLAIM: (409, "claim the win while the opponent is here, before the grace period is over, or where claims do not apply"),
    ErrorCode.BAD_CHAT: (400, "a chat message that is empty, longer than 300 characters or holds control characters, or a game whose players' chat is full (2000 messages)"),
    ErrorCode.CHAT_TOO_FAST: (429, "more chat messages than the rate limit allows; wait a few seconds"),
    ErrorCode.BAD_START: (400, "create: `start` names no position of that game (a step past its end, or its last position, where the game is over), or names another game, or comes with options (the game plays the stored game's)"),
    ErrorCode.NO_HINTS: (403, "hints are given in games against the computer and hot-seat games, to the player to move; never in online games"),
    ErrorCode.NOT_FINISHED: (409, "review: the game is not finished yet"),
    ErrorCode.NO_REVIEW: (404, "review record: the game has no finished review yet"),
    ErrorCode.UNKNOWN_PUZZLE: (404, "no stored puzzle of this game with this id"),
    ErrorCode.RATE_LIMITED: (429, "too many hints or reviews asked for by this player in a short time (or one is still being worked out); the message says when to ask again"),
    ErrorCode.BUSY: (503, "the server has as much analysis queued as it takes; ask again in a little while"),
    ErrorCode.ANALYSIS_FAILED: (500, "the hint or review could not be worked out (the message says why)"),
    ErrorCode.BAD_POSITION: (400, "analysis, or a game started from a position: the position text does not parse (the message says what the game reads)"),
    ErrorCode.IMPOSSIBLE_POSITION: (400, "analysis, or a game started from a position: the position parses but cannot occur under the rules (the message says why)"),
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
