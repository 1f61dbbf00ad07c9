"""The referee: whether a client's move is accepted, as a pure function.

:func:`referee` takes the game's current state and version, the seats the client holds and its
``move`` message, and returns the action to play or raises :class:`ProtocolError`. It reads no
store, no clock and no socket, so every rule of acceptance is tested without an event loop.
Checks run in the order the protocol documents: ``game_over``, ``not_your_seat`` (no seat held),
``stale_version``, ``not_your_turn`` (seats held, but not the one to move; also while chance or a
computer is to move), ``illegal_move`` (through the game's checked door,
:meth:`State.parse_action`).
"""

from __future__ import annotations

from collections.abc import Sequence

from gamehall.core import Action, GamehallError, IllegalActionError, NotationError, State
from gamehall.protocol import ErrorCode, Move, ProtocolError


def referee(state: State, version: int, seats: frozenset[int], message: Move) -> Action:
    """The action ``message`` plays for one of ``seats``, if the rules and the protocol allow
    it at ``state`` (the game at ``version``); else ProtocolError, and nothing changes."""
    if state.is_terminal():
        raise ProtocolError(ErrorCode.GAME_OVER, "the game is over; no more moves")
    if not seats:
        raise ProtocolError(
            ErrorCode.NOT_YOUR_SEAT, "you hold no seat in this game (you are watching)"
        )
    if message.version != version:
        raise ProtocolError(
            ErrorCode.STALE_VERSION,
            f"your move was for version {message.version}, but the game is at version "
            f"{version}; resync",
        )
    player = state.current_player
    if player < 0 or player not in seats:
        names = [name.capitalize() for name in state.game.player_names]
        held = ", ".join(names[i] for i in sorted(seats))
        whose = "chance's" if player < 0 else f"{names[player]}'s"
        raise ProtocolError(ErrorCode.NOT_YOUR_TURN, f"it is {whose} turn; you play {held}")
    try:
        return state.parse_action(message.action)
    except IllegalActionError as error:
        reason = f"illegal move {_quote(error.action)} in position {error.position!r}: "
        legal = _listed(error.allowed)
        raise ProtocolError(ErrorCode.ILLEGAL_MOVE, reason + error.reason + legal) from None
    except NotationError as error:
        shown = f"bad {error.kind} {_quote(error.text)}: expected {error.expected}"
        legal = _listed([str(a) for a in state.legal_actions()])
        raise ProtocolError(ErrorCode.ILLEGAL_MOVE, shown + legal) from None
    except GamehallError as error:
        legal = _listed([str(a) for a in state.legal_actions()])
        raise ProtocolError(ErrorCode.ILLEGAL_MOVE, f"{error}{legal}") from None


def _quote(text: str, limit: int = 40) -> str:
    """A client's text in an error message: its repr, cut to a short prefix."""
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _listed(allowed: Sequence[str], most: int = 30) -> str:
    if not allowed:
        return ""
    shown = ", ".join(allowed[:most])
    if len(allowed) > most:
        shown += f", … ({len(allowed)} in all)"
    return f"; legal: {shown}"
