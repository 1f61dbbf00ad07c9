"""Named checks, their results, and the game they run on.

A :class:`Check` is one promise checked on one game (``random play conforms, seed 0``); running
it gives a :class:`CheckResult`. A check that fails raises :class:`ConformanceError` (an
``AssertionError``, so pytest shows it as a failed assertion) with a message that says what was
given, where, and what was expected. :func:`registered` makes any game a check can be given (a
registered name, a plugin record, a game class) findable by name for as long as the checks run:
records replay through the registry, so a game being checked must be in it.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from gamehall.core import Game, GamePlugin, find_plugin, plugins, register_plugin, unregister_plugin

Kind = Literal["conformance", "playthrough", "research"]

GameLike = str | GamePlugin | type[Game] | Game
"""What the kit checks: a registered game's name (or alias), a plugin record, a game class, or a
game (its class; the options are the caller's business)."""


class ConformanceError(AssertionError):
    """A game breaks a promise of the protocol (the message says which, and where)."""


def expect(condition: object, message: str) -> None:
    """Fail with ``message`` unless ``condition`` holds (an ``assert`` that ``-O`` keeps)."""
    if not condition:
        raise ConformanceError(message)


def expect_error(
    kind: type[BaseException],
    call: Callable[[], object],
    what: str,
    *,
    match: str | None = None,
) -> BaseException:
    """``call()`` must raise ``kind`` (whose message matches the regular expression ``match``);
    ``what`` says what was tried, for the failure's message. Returns the error."""
    try:
        call()
    except kind as error:
        if match is not None and not re.search(match, str(error)):
            raise ConformanceError(
                f"{what}: {kind.__name__} {str(error)!r} does not say {match!r}"
            ) from error
        return error
    except Exception as error:
        raise ConformanceError(
            f"{what}: raised {type(error).__name__} ({error}), not {kind.__name__}"
        ) from error
    raise ConformanceError(f"{what}: accepted, but {kind.__name__} was expected")


@dataclass(frozen=True)
class CheckResult:
    """How one check went: passed, failed (with the reason) or skipped (with the reason)."""

    kind: Kind
    name: str
    error: str | None = None
    skipped: str | None = None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.error is None


class Skipped(Exception):
    """Raised by a check that does not apply here (the reason is the message)."""


@dataclass(frozen=True)
class Check:
    """One promise, checked on one game when run."""

    kind: Kind
    name: str
    run: Callable[[], None]

    def result(self) -> CheckResult:
        """Run the check; a failure, or any error the game raises, becomes the result's error."""
        start = time.perf_counter()
        try:
            self.run()
        except Skipped as reason:
            return CheckResult(self.kind, self.name, skipped=str(reason))
        except ConformanceError as error:
            message: str | None = str(error)
        except Exception as error:  # the game itself failed: that is the check's answer
            message = f"{type(error).__name__}: {error}"
        else:
            message = None
        return CheckResult(self.kind, self.name, message, seconds=time.perf_counter() - start)


def skipped(kind: Kind, name: str, reason: str) -> Check:
    """A check that is not run here, and why (``gamehall check-game`` shows it)."""

    def skip() -> None:
        raise Skipped(reason)

    return Check(kind, name, skip)


def run_checks(checks: Sequence[Check]) -> Iterator[CheckResult]:
    """Each check's result, as it is run."""
    for check in checks:
        yield check.result()


def _plugin_for(game: GameLike) -> GamePlugin:
    if isinstance(game, GamePlugin):
        return game
    if isinstance(game, str):
        return find_plugin(game)
    cls = type(game) if isinstance(game, Game) else game
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise TypeError(f"check a game by its name, its GamePlugin or its Game class, not {game!r}")
    known = plugins().get(cls.name)
    return known if known is not None and known.game is cls else GamePlugin(game=cls)


@contextlib.contextmanager
def registered(game: GameLike) -> Iterator[str]:
    """The game's registry name, with the game registered for the block (and the registry as it
    was afterwards) when it is not registered already."""
    plugin = _plugin_for(game)
    name = plugin.name
    before = plugins().get(name)
    if before is plugin:
        yield name
        return
    register_plugin(plugin)
    try:
        yield name
    finally:
        unregister_plugin(name)
        if before is not None and plugins().get(name) is not before:
            register_plugin(before)  # it had been added by someone else: put it back


__all__ = [
    "Check",
    "CheckResult",
    "ConformanceError",
    "GameLike",
    "Kind",
    "Skipped",
    "expect",
    "expect_error",
    "registered",
    "run_checks",
    "skipped",
]
