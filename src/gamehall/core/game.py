"""The core game protocol: a :class:`Game` makes immutable :class:`State` values.

In the OpenSpiel spirit, but Pythonic:

* a state says whose turn it is: a player index ``0..n-1``, :data:`CHANCE`, or :data:`TERMINAL`;
* at a chance node it gives outcomes with exact probabilities (:class:`fractions.Fraction`), and
  applying an outcome is an ordinary action, so chance is recorded and replayable. Where outcomes
  are too many to list, :meth:`State.chance_outcomes` raises :class:`TooManyOutcomesError` and the
  node still samples an outcome and gives the exact probability of any given one;
* every action and every state has a text form, and ``parse(str(x)) == x``;
* :meth:`State.apply` is the checked door from outside (people, records, the network); search and
  self-play may use :meth:`State.apply_trusted`, which skips the legality check.
"""

from __future__ import annotations

import random
import shlex
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any, ClassVar, Final, Literal

from gamehall.core.errors import (
    IllegalActionError,
    InvalidOptionError,
    NotationError,
    TooManyOutcomesError,
)

CHANCE: Final = -1
"""The player id of a chance node."""
TERMINAL: Final = -4
"""The player id of a finished game (OpenSpiel's kTerminalPlayerId)."""

Action = Hashable
"""An action is a small frozen, hashable value whose ``str`` is its notation."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended, as data: who won (or None for a draw), why, and each side's score."""

    winner: int | None
    reason: str
    scores: tuple[float, ...]

    def result_tag(self) -> str:
        """PGN-style result from the first player's point of view: 1-0, 0-1 or 1/2-1/2."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == 0 else "0-1"


# --- options -------------------------------------------------------------------------------------

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


OptionKind = Literal["bool", "int", "str", "choice", "data", "path"]
"""What an option's value is:

* ``bool``, ``int``, ``str``: a plain value (``int`` within ``minimum``..``maximum``);
* ``choice``: one of the listed ``choices`` (e.g. the boards a game ships);
* ``data``: a document given inline (TOML, JSON or the game's own one-line form), at most
  ``max_length`` characters;
* ``path``: a file to read. Only the trusted doors (the command line, record files) take paths:
  the web refuses every option of this kind, by its kind, never by looking at the value.
"""

OPTION_KINDS: Final = ("bool", "int", "str", "choice", "data", "path")


@dataclass(frozen=True)
class Option:
    """A named game option (a variant): its kind, default, limits and an optional value check."""

    name: str
    default: Any
    help: str
    kind: OptionKind = "str"
    check: Callable[[Any], str | None] | None = None
    choices: tuple[str, ...] | Callable[[], tuple[str, ...]] = ()
    """The allowed values of a ``choice`` option (or a function listing them)."""
    minimum: int | None = None
    maximum: int | None = None
    max_length: int | None = None
    """The longest text a ``str``, ``data`` or ``path`` value may be."""

    def __post_init__(self) -> None:
        if self.kind not in OPTION_KINDS:
            raise ValueError(f"option {self.name}: kind {self.kind!r} is not one of {OPTION_KINDS}")

    def allowed_choices(self) -> tuple[str, ...]:
        choices = self.choices
        return tuple(choices() if callable(choices) else choices)

    def convert(self, value: Any) -> Any:
        """Turn ``value`` (a Python value or command-line text) into this option's type."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise InvalidOptionError(f"option {self.name} takes true or false, not {_short(value)}")
        if self.kind == "int":
            converted = self._integer(value)
        else:
            if isinstance(value, bool | int | float) and self.kind != "str":
                raise InvalidOptionError(f"option {self.name} takes text, not {_short(value)}")
            converted = str(value)
            if self.max_length is not None and len(converted) > self.max_length:
                raise InvalidOptionError(
                    f"option {self.name} is at most {self.max_length} characters, "
                    f"not {len(converted)}"
                )
            if self.kind == "choice":
                allowed = self.allowed_choices()
                if converted not in allowed:
                    raise InvalidOptionError(
                        f"option {self.name} is one of {', '.join(allowed)}, not {_short(value)}"
                    )
        if self.check is not None:
            problem = self.check(converted)
            if problem:
                raise InvalidOptionError(f"option {self.name}={_short(value)}: {problem}")
        return converted

    def _integer(self, value: Any) -> int:
        if isinstance(value, bool) or (isinstance(value, str) and len(value) > 40):
            raise InvalidOptionError(f"option {self.name} takes an integer, not {_short(value)}")
        try:
            converted = int(value)
        except (TypeError, ValueError, OverflowError):
            raise InvalidOptionError(
                f"option {self.name} takes an integer, not {_short(value)}"
            ) from None
        if isinstance(value, float) and value != converted:
            raise InvalidOptionError(f"option {self.name} takes an integer, not {_short(value)}")
        low, high = self.minimum, self.maximum
        if (low is not None and converted < low) or (high is not None and converted > high):
            span = f"from {low}" if high is None else f"from {low} to {high}"
            if low is None:
                span = f"at most {high}"
            raise InvalidOptionError(f"option {self.name} is {span}, not {_short(value)}")
        return converted

    def describe(self) -> dict[str, Any]:
        """The option as JSON-ready data: everything a form needs to offer it."""
        data: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "help": self.help,
        }
        if self.kind == "choice":
            data["choices"] = list(self.allowed_choices())
        for key in ("minimum", "maximum", "max_length"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        return data


def _short(value: Any, limit: int = 40) -> str:
    """A value for an error message: its repr, cut to a short prefix."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def parse_option_assignments(items: Sequence[str]) -> dict[str, str]:
    """Read ``NAME=VALUE`` strings (as given on the command line) into a dict."""
    result: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise InvalidOptionError(f"variant {item!r} is not NAME=VALUE")
        result[name.strip()] = value.strip()
    return result


# --- the protocol --------------------------------------------------------------------------------


class Game(ABC):
    """A game: its facts, its validated options, and the states it makes.

    Subclasses declare ``name``, ``title``, ``player_names``, ``option_specs`` and
    ``rules_version`` and implement
    the abstract methods. Options are validated on construction; unknown names are an error.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    player_names: ClassVar[tuple[str, ...]]
    option_specs: ClassVar[tuple[Option, ...]] = ()
    rules_version: ClassVar[str] = "1"
    """Changes whenever the game's behaviour changes (a rule, the notation, the chance law), so
    a stored game or record made under other rules is refused rather than misread."""

    def __init__(self, **options: Any) -> None:
        specs = {spec.name: spec for spec in self.option_specs}
        unknown = sorted(set(options) - set(specs))
        if unknown:
            allowed = ", ".join(specs) or "none"
            raise InvalidOptionError(
                f"unknown option {unknown[0]!r} for {self.name}; options are: {allowed}"
            )
        self.options: Mapping[str, Any] = {
            spec.name: spec.convert(options[spec.name]) if spec.name in options else spec.default
            for spec in self.option_specs
        }

    @property
    def num_players(self) -> int:
        return len(self.player_names)

    @property
    def max_game_length(self) -> int | None:
        """The most actions (chance included) one game with these options can take, when the
        rules bound it (OpenSpiel's ``MaxGameLength``); None when they do not (rounds that may
        score nothing, draws that may tie again). A front end that must bound every game (the
        web server) refuses options whose bound exceeds its own and caps the others."""
        return None

    def variant_text(self) -> str:
        """The options that differ from their defaults, as ``name=value ...`` (shell-quoted)."""
        parts = []
        for spec in self.option_specs:
            value = self.options[spec.name]
            if value != spec.default:
                shown = str(value).lower() if isinstance(value, bool) else str(value)
                parts.append(shlex.quote(f"{spec.name}={shown}"))
        return " ".join(parts)

    @classmethod
    def from_variant_text(cls, text: str) -> Game:
        """Make the game from the text :meth:`variant_text` writes."""
        try:
            items = shlex.split(text)
        except ValueError as error:
            raise InvalidOptionError(f"variant text {text!r}: {error}") from None
        return cls(**parse_option_assignments(items))

    def record_tags(self) -> dict[str, str]:
        """Header tags that describe this game's variant in a record (default: ``Variant``)."""
        variant = self.variant_text()
        return {"Variant": variant} if variant else {}

    @classmethod
    def from_record_tags(cls, tags: Mapping[str, str]) -> Game:
        """Make the game a record describes (the inverse of :meth:`record_tags`)."""
        return cls.from_variant_text(tags.get("Variant", ""))

    def player_index(self, name: str) -> int:
        """The index of a player by name (``dark``, ``jinn``, …), or by its initial."""
        lowered = name.strip().lower()
        for index, player in enumerate(self.player_names):
            if lowered in (player, player[0]):
                return index
        raise NotationError("player", name, " or ".join(self.player_names))

    @abstractmethod
    def new_initial_state(self) -> State:
        """The state before anything has happened (usually a chance node)."""

    def deal(self, seed: int | None) -> State:
        """An initial state with its opening chance events drawn from ``seed``.

        Reproducible: the same seed gives the same state.
        """
        rng = random.Random(seed)
        state = self.new_initial_state()
        while state.is_chance_node():
            state = state.apply_trusted(state.sample_chance(rng))
        return state

    @abstractmethod
    def parse_state(self, text: str) -> State:
        """Read a state from its text form; raises NotationError or InvalidStateError."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Read an action's notation (syntax only; legality is the state's business)."""

    # Dense integer indices of the player actions (not chance outcomes), for masks and search.
    @property
    @abstractmethod
    def num_distinct_actions(self) -> int:
        """How many distinct player actions the game has."""

    @abstractmethod
    def action_index(self, action: Action) -> int:
        """The dense index of a player action, in ``range(num_distinct_actions)``."""

    @abstractmethod
    def index_action(self, index: int) -> Action:
        """The player action with this dense index."""

    def action_parts(self, action: Action) -> dict[str, Any]:
        """An action's parts, as JSON-ready data in the game's own words, for front ends that
        map clicks onto legal actions (e.g. ``{"kind": "place", "tile": "M", "region": 5}``),
        so that no front end parses move text. Chance outcomes may have parts too. The keys
        ``text``, ``index`` and ``mover`` are the protocol's own and may not be used.
        Default: no parts (a front end then offers the actions by their text)."""
        return {}

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.options == other.options  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        # States hash their game, so the hash is computed once (options never change).
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((type(self), tuple(sorted(self.options.items(), key=lambda kv: kv[0]))))
            self.__dict__["_hash"] = cached
        return cached

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({args})"

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self  # a game never changes once made (libraries that clone states deep-copy)


class State(ABC):
    """An immutable, hashable game state. Subclasses must be frozen value objects.

    ``current_player`` is read as an attribute everywhere (``state.current_player == TERMINAL``),
    so a subclass must define it as a property (or a ``functools.cached_property``): written as
    a plain method, the bound method would never equal a player id and a finished game would
    report that it is not over. A subclass that does otherwise is refused when it is defined.
    """

    game: Game

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The nearest definition in the class's MRO, the one attribute access would find.
        owner = next(klass for klass in cls.__mro__ if "current_player" in klass.__dict__)
        found = owner.__dict__["current_player"]
        if not isinstance(found, property | cached_property):
            where = (
                cls.__qualname__
                if owner is cls
                else f"{cls.__qualname__} (from {owner.__qualname__})"
            )
            raise TypeError(
                f"{where}.current_player must be a property (@property or @cached_property), "
                f"not a {type(found).__name__}: the protocol reads it as an attribute "
                "(state.current_player == TERMINAL)"
            )

    @property
    @abstractmethod
    def current_player(self) -> int:
        """A player index, :data:`CHANCE` or :data:`TERMINAL`."""

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    @abstractmethod
    def legal_actions(self) -> tuple[Action, ...]:
        """The current player's legal actions in a fixed order; empty at chance and terminal."""

    # --- chance ---

    def chance_outcomes(self) -> tuple[tuple[Action, Fraction], ...]:
        """Every outcome of this chance node with its exact probability (summing to 1)."""
        raise TooManyOutcomesError(f"{self.game.name}: this state is not a listable chance node")

    def sample_chance(self, rng: random.Random) -> Action:
        """Draw one outcome of this chance node with its exact probability."""
        outcomes = self.chance_outcomes()
        weights = [float(p) for _, p in outcomes]
        return rng.choices([a for a, _ in outcomes], weights=weights)[0]

    def chance_probability(self, action: Action) -> Fraction:
        """The exact probability of ``action`` at this chance node (0 if it cannot happen)."""
        for outcome, probability in self.chance_outcomes():
            if outcome == action:
                return probability
        return Fraction(0)

    # --- moving ---

    def apply(self, action: Action) -> State:
        """Apply ``action`` after checking it is legal here; raises IllegalActionError."""
        if self.is_terminal():
            raise IllegalActionError(str(action), str(self), "the game is over")
        if self.is_chance_node():
            if not self.is_chance_outcome(action):
                raise IllegalActionError(
                    str(action), str(self), "not a possible outcome of this chance node"
                )
        elif action not in self.legal_actions():
            raise IllegalActionError(
                str(action),
                str(self),
                self.explain_illegal(action),
                [str(a) for a in self.legal_actions()],
            )
        return self.apply_trusted(action)

    def is_chance_outcome(self, action: Action) -> bool:
        """Whether ``action`` can happen at this chance node."""
        return self.chance_probability(action) > 0

    def explain_illegal(self, action: Action) -> str:
        """Why a well-formed player action is not legal here (games may say more)."""
        return f"not a legal move for {self.game.player_names[self.current_player]}"

    @abstractmethod
    def apply_trusted(self, action: Action) -> State:
        """Apply an action known to be legal (fast path for search and self-play)."""

    def parse_action(self, text: str) -> Action:
        """Read an action's notation and check it is legal here (the checked door)."""
        action = self.game.parse_action(text)
        if self.is_terminal():
            raise IllegalActionError(text, str(self), "the game is over")
        if self.is_chance_node():
            if not self.is_chance_outcome(action):
                raise IllegalActionError(
                    text, str(self), "not a possible outcome of this chance node"
                )
        elif action not in self.legal_actions():
            raise IllegalActionError(
                text,
                str(self),
                self.explain_illegal(action),
                [str(a) for a in self.legal_actions()],
            )
        return action

    # --- the end ---

    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """Each player's return: final at a terminal state, zeros before."""

    def outcome(self) -> Outcome | None:
        """How the game ended, or None if it has not."""
        return None

    def scores(self) -> tuple[float, ...]:
        """Each player's score as the game counts it now (final at the end); default: returns."""
        return self.returns()

    def horizon_returns(self) -> tuple[float, ...] | None:
        """Estimated returns at a natural resting point where search may stop (e.g. between
        rounds of a match), in the range of :meth:`returns`; None elsewhere (search on)."""
        return None

    def pause(self) -> str | None:
        """Why people should stop here before chance goes on, in words (e.g. the end of a round
        of a match: its result), or None (the default): chance follows at once. Only chance
        nodes pause; a server holds the chance outcome until the players go on."""
        return None

    def evaluate(self, player: int) -> float:
        """A quick heuristic value for ``player`` (used by greedy play); games override it."""
        return self.returns()[player] if self.is_terminal() else 0.0

    def view(self) -> dict[str, Any]:
        """A JSON-ready public description of the state for front ends that draw it (the web
        app's board, for instance). Games override it; keys are the game's own words."""
        return {"position": str(self)}

    def legal_action_mask(self) -> list[bool]:
        """Which dense action indices are legal now."""
        mask = [False] * self.game.num_distinct_actions
        for action in self.legal_actions():
            mask[self.game.action_index(action)] = True
        return mask

    def player_name(self, player: int | None = None) -> str:
        """The name of ``player`` (default: the player to move)."""
        who = self.current_player if player is None else player
        if who == CHANCE:
            return "chance"
        if who == TERMINAL:
            return "nobody"
        return self.game.player_names[who]

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self  # a frozen value, like a tuple (libraries that clone states deep-copy)

    @abstractmethod
    def __str__(self) -> str:
        """The state's text form, which :meth:`Game.parse_state` reads back."""
