"""The errors every game raises, so front ends can report them without knowing the game.

Two kinds of bad input get two errors (python-chess style): text that does not parse
(:class:`NotationError`) and a move the rules forbid (:class:`IllegalActionError`). Both are
``ValueError`` subclasses and carry what was given and what would have been accepted.
"""

from __future__ import annotations

from collections.abc import Iterable


class GamehallError(ValueError):
    """Base class of every error gamehall raises for bad input."""


class NotationError(GamehallError):
    """Text that does not parse as the notation it should be in."""

    def __init__(self, kind: str, text: str, expected: str) -> None:
        self.kind = kind
        self.text = text
        self.expected = expected
        super().__init__(f"bad {kind} {text!r}: expected {expected}")


class IllegalActionError(GamehallError):
    """A well-formed action that the rules do not allow in this position."""

    def __init__(
        self, action: str, position: str, reason: str, allowed: Iterable[str] = ()
    ) -> None:
        self.action = action
        self.position = position
        self.reason = reason
        self.allowed = tuple(allowed)
        shown = ", ".join(self.allowed[:30])
        if len(self.allowed) > 30:
            shown += f", … ({len(self.allowed)} in all)"
        message = f"illegal action {action!r} in position {position!r}: {reason}"
        if self.allowed:
            message += f"; legal: {shown}"
        super().__init__(message)


class InvalidStateError(GamehallError):
    """A position that parses but cannot occur under the rules."""


class InvalidOptionError(GamehallError):
    """An unknown game option, or a value the option does not accept."""


class UnknownGameError(GamehallError):
    """A game name that is not registered."""


class RecordError(GamehallError):
    """A game record that is malformed or contains an illegal action."""

    def __init__(self, message: str, move_number: int | None = None) -> None:
        self.move_number = move_number
        prefix = f"move {move_number}: " if move_number is not None else ""
        super().__init__(prefix + message)


class TooManyOutcomesError(GamehallError):
    """A chance node whose outcomes are too many to list; sample it instead."""
