"""The web server's bounds on what a client sends and how often: small units, each tested alone.

* :func:`check_text` refuses a NUL byte or a lone surrogate in a text from the network
  (``bad_text``; bodies and messages are checked whole at the edge, by the protocol's models);
  :func:`quote` is how an error message shows a bad value: a short prefix, never all of it.
* :func:`check_options` holds a new game's options to the web's hard limits by the option's kind
  (:class:`~gamehall.core.Option`: ``int`` within its ``minimum``/``maximum`` and the server's
  bound, text no longer than its ``max_length`` and the server's, ``path`` never), before the
  game sees them, so an option value is never tried as a file name.
* :class:`Rate` is a token bucket; :class:`RateTable` keeps one per client, bounded in size, so
  a flood of new clients cannot grow it without end.

The numbers come from :class:`~gamehall.web.base.settings.Settings`; each refusal names the setting.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any

from gamehall.core import Game
from gamehall.protocol import ErrorCode, ProtocolError, text_problem
from gamehall.web.base.settings import Settings

QUOTE_CHARS = 40
"""The most characters of a client's value an error message repeats."""


def quote(value: object, limit: int = QUOTE_CHARS) -> str:
    """``value`` for an error message: its repr, cut to a short prefix."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shorten_echoes(message: str, values: Iterable[object]) -> str:
    """``message`` (made by a game, which may repeat what it was given at any length) with every
    stretch longer than :data:`QUOTE_CHARS` that repeats one of the client's ``values`` cut to
    a short prefix."""
    texts: list[str] = []
    for value in values:
        if isinstance(value, str) and len(value) > QUOTE_CHARS:
            texts += [value, repr(value)[1:-1]]
    if not texts:
        return message
    message = message[: 8 * 800]
    out: list[str] = []
    i = 0
    while i < len(message):
        window = message[i : i + QUOTE_CHARS + 1]
        source = next((t for t in texts if len(window) > QUOTE_CHARS and window in t), None)
        if source is None:
            out.append(message[i])
            i += 1
            continue
        end = i + QUOTE_CHARS + 1
        while end < len(message) and message[i : end + 1] in source:
            end += 1
        out.append(message[i : i + QUOTE_CHARS - 1] + "…")
        i = end
    return "".join(out)


def check_text(value: str, where: str) -> str:
    """``value`` if it is clean text; else ProtocolError(bad_text) naming ``where``."""
    problem = text_problem(value)
    if problem is not None:
        raise ProtocolError(
            ErrorCode.BAD_TEXT,
            f"{where} holds {problem}; text must be valid Unicode without NUL bytes",
        )
    return value


# --- options -------------------------------------------------------------------------------------


def check_options(cls: type[Game], options: Mapping[str, Any], settings: Settings) -> None:
    """Hold a new game's options to the web's limits by kind (raises ProtocolError(bad_option),
    and the game is not made). Unknown names are left to the game, which lists its options."""
    specs = {spec.name: spec for spec in cls.option_specs}
    for name, value in options.items():
        spec = specs.get(name)
        if spec is None:
            continue
        if spec.kind == "path":
            raise ProtocolError(
                ErrorCode.BAD_OPTION,
                f"option {name} names a file, and files cannot be named over the web; "
                "give the data itself instead",
            )
        if spec.kind == "bool":
            if not isinstance(value, bool):
                raise ProtocolError(
                    ErrorCode.BAD_OPTION, f"option {name} takes true or false, not {quote(value)}"
                )
        elif spec.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ProtocolError(
                    ErrorCode.BAD_OPTION, f"option {name} takes an integer, not {quote(value)}"
                )
            bound = settings.max_int_option
            low = -bound if spec.minimum is None else max(spec.minimum, -bound)
            high = bound if spec.maximum is None else min(spec.maximum, bound)
            if not low <= value <= high:
                raise ProtocolError(
                    ErrorCode.BAD_OPTION,
                    f"option {name} is from {low} to {high} on this server, not {quote(value)}",
                )
        else:
            if not isinstance(value, str):
                raise ProtocolError(
                    ErrorCode.BAD_OPTION, f"option {name} takes text, not {quote(value)}"
                )
            cap = settings.max_data_option if spec.kind == "data" else settings.max_str_option
            longest = cap if spec.max_length is None else min(cap, spec.max_length)
            if len(value) > longest:
                setting = "max_data_option" if spec.kind == "data" else "max_str_option"
                limit = f"(limit {setting})" if longest == cap else "(the option's own limit)"
                raise ProtocolError(
                    ErrorCode.BAD_OPTION,
                    f"option {name} is at most {longest} characters {limit}, not {len(value)}",
                )


def check_length(game: Game, settings: Settings) -> None:
    """A game whose rules bound its length above ``max_actions`` is refused."""
    bound = game.max_game_length
    if bound is not None and bound > settings.max_actions:
        raise ProtocolError(
            ErrorCode.BAD_OPTION,
            f"with these options a game of {game.title} may take {bound} moves; this server "
            f"plays games of at most {settings.max_actions} (limit max_actions)",
        )


# --- rates ---------------------------------------------------------------------------------------


class Rate:
    """A token bucket: ``per_second`` tokens a second, at most ``burst`` saved up."""

    __slots__ = ("burst", "last", "per_second", "tokens")

    def __init__(self, per_second: float, burst: float, now: float) -> None:
        self.per_second = per_second
        self.burst = burst
        self.tokens = burst
        self.last = now

    def take(self, now: float, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens if there are enough (then True), else change nothing."""
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens < cost:
            return False
        self.tokens -= cost
        return True


class RateTable:
    """One :class:`Rate` per client key, the least recently used forgotten past ``size`` keys
    (a forgotten client starts again with a full bucket, which costs it nothing to wait for)."""

    def __init__(
        self,
        per_second: float,
        burst: float,
        *,
        size: int = 65_536,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_second = per_second
        self.burst = burst
        self.size = size
        self.clock = clock
        self._rates: OrderedDict[Hashable, Rate] = OrderedDict()

    def take(self, key: Hashable, cost: float = 1.0) -> bool:
        now = self.clock()
        rate = self._rates.pop(key, None)
        if rate is None:
            rate = Rate(self.per_second, self.burst, now)
        self._rates[key] = rate
        while len(self._rates) > self.size:
            self._rates.popitem(last=False)
        return rate.take(now, cost)

    def __len__(self) -> int:
        return len(self._rates)


def over_limit(setting: str, what: str) -> ProtocolError:
    """The refusal for a client over a limit, naming it."""
    return ProtocolError(ErrorCode.OVER_LIMIT, f"{what} (limit {setting}); try again later")


__all__ = [
    "Rate",
    "RateTable",
    "check_length",
    "check_options",
    "check_text",
    "over_limit",
    "quote",
    "shorten_echoes",
]
