"""Nim, as OpenSpiel writes a game: the facts first, then a small immutable state.

A few heaps of objects; the players take turns, each taking any number of objects (at least one)
from one heap. Under normal play whoever takes the last object wins; under the misère option
whoever takes the last object loses. The heap sizes are dealt by chance, one heap at a time, each
from 1 to ``max_heap`` with equal probability, so the game exercises chance nodes too.

Notation::

    position   ?,?,? f        heaps left to right (``?``: not dealt yet), then who moves: f or s
               3,4,1 s        the second player to move; ``0,0,0 f``: over, second took the last
    actions    deal 4         chance: the next heap gets 4 objects
               take 2 from 3  take 2 objects from heap 3 (heaps count from 1)

Dense action index: ``(heap - 1) * max_heap + (count - 1)``; legal actions come in that order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from gamehall.core import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    InvalidStateError,
    NotationError,
    Option,
    Outcome,
    State,
    TooManyOutcomesError,
)

FIRST, SECOND = 0, 1
PLAYER_LETTERS = "fs"
UNDEALT = None


@dataclass(frozen=True, slots=True)
class Take:
    """Take ``count`` objects from heap ``heap`` (numbered from 1)."""

    heap: int
    count: int

    def __str__(self) -> str:
        return f"take {self.count} from {self.heap}"

    def __repr__(self) -> str:
        return f"Take.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Take:
        match = _TAKE.match(text.strip())
        if match is None:
            raise NotationError("Nim move", text, "'take N from H', e.g. 'take 2 from 3'")
        return Take(int(match["heap"]), int(match["count"]))


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the next heap gets ``size`` objects."""

    size: int

    def __str__(self) -> str:
        return f"deal {self.size}"

    def __repr__(self) -> str:
        return f"Deal.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Deal:
        match = _DEAL.match(text.strip())
        if match is None:
            raise NotationError("Nim deal", text, "'deal N', e.g. 'deal 4'")
        return Deal(int(match["size"]))


_TAKE = re.compile(r"^take\s+(?P<count>\d{1,3})\s+from\s+(?P<heap>\d{1,3})$", re.IGNORECASE)
_DEAL = re.compile(r"^deal\s+(?P<size>\d{1,3})$", re.IGNORECASE)


class NimGame(Game):
    """Nim with ``heaps`` heaps of 1 to ``max_heap`` objects dealt by chance."""

    name: ClassVar[str] = "nim"
    title: ClassVar[str] = "Nim"
    player_names: ClassVar[tuple[str, ...]] = ("first", "second")
    rules_version: ClassVar[str] = "1"
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("heaps", 3, "How many heaps.", kind="int", minimum=1, maximum=6),
        Option(
            "max_heap", 5, "The most objects a heap is dealt.", kind="int", minimum=1, maximum=9
        ),
        Option("misere", False, "Misère: whoever takes the last object loses.", kind="bool"),
    )

    @property
    def heaps(self) -> int:
        return self.options["heaps"]

    @property
    def max_heap(self) -> int:
        return self.options["max_heap"]

    @property
    def misere(self) -> bool:
        return self.options["misere"]

    def new_initial_state(self) -> NimState:
        return NimState(self, (UNDEALT,) * self.heaps, FIRST)

    def parse_state(self, text: str) -> NimState:
        parts = text.split()
        if len(parts) != 2 or parts[1] not in PLAYER_LETTERS:
            raise NotationError(
                "Nim position", text, "heaps and who moves, e.g. '3,4,5 f' or '2,?,? f'"
            )
        fields = parts[0].split(",")
        if len(fields) != self.heaps:
            raise InvalidStateError(
                f"Nim position {text!r} has {len(fields)} heaps; this game has {self.heaps}"
            )
        heaps: list[int | None] = []
        for field in fields:
            if field == "?":
                heaps.append(UNDEALT)
            elif field.isdigit() and int(field) <= self.max_heap:
                heaps.append(int(field))
            else:
                raise NotationError(
                    "Nim heap", field, f"a number of objects from 0 to {self.max_heap}, or ?"
                )
        state = NimState(self, tuple(heaps), PLAYER_LETTERS.index(parts[1]))
        state.validate()
        return state

    def parse_action(self, text: str) -> Action:
        if text.strip().lower().startswith("deal"):
            return Deal.parse(text)
        return Take.parse(text)

    @property
    def num_distinct_actions(self) -> int:
        return self.heaps * self.max_heap

    def action_index(self, action: Action) -> int:
        if not isinstance(action, Take) or not (
            1 <= action.heap <= self.heaps and 1 <= action.count <= self.max_heap
        ):
            raise ValueError(f"{action!r} is not a move of {self!r}")
        return (action.heap - 1) * self.max_heap + action.count - 1

    def index_action(self, index: int) -> Take:
        if not 0 <= index < self.num_distinct_actions:
            raise ValueError(f"action index {index} is outside 0..{self.num_distinct_actions - 1}")
        heap, count = divmod(index, self.max_heap)
        return Take(heap + 1, count + 1)


@dataclass(frozen=True, slots=True)
class NimState(State):
    """The heaps (None: not dealt yet) and the player to move next."""

    game: NimGame
    heaps: tuple[int | None, ...]
    to_move: int

    def validate(self) -> None:
        """A position the rules can reach: heaps dealt left to right, nobody moves before."""
        dealt = next((i for i, h in enumerate(self.heaps) if h is UNDEALT), len(self.heaps))
        if any(h is not UNDEALT for h in self.heaps[dealt:]):
            raise InvalidStateError(f"Nim position {self}: heaps are dealt left to right")
        if dealt < len(self.heaps) and (0 in self.heaps[:dealt] or self.to_move != FIRST):
            raise InvalidStateError(f"Nim position {self}: nobody moves before every heap is dealt")

    @property
    def current_player(self) -> int:
        if UNDEALT in self.heaps:
            return CHANCE
        if not any(self.heaps):
            return TERMINAL
        return self.to_move

    def legal_actions(self) -> tuple[Action, ...]:
        """Any number of objects, at least one, from any one heap (in dense-index order)."""
        if self.current_player < 0:
            return ()
        return tuple(
            Take(heap, count)
            for heap, size in enumerate(self.heaps, 1)
            for count in range(1, (size or 0) + 1)
        )

    def chance_outcomes(self) -> tuple[tuple[Action, Fraction], ...]:
        """The deal: the next heap gets 1 to ``max_heap`` objects, each equally likely."""
        if not self.is_chance_node():
            raise TooManyOutcomesError(f"Nim position {self} is not a chance node")
        size = self.game.max_heap
        return tuple((Deal(n), Fraction(1, size)) for n in range(1, size + 1))

    def apply_trusted(self, action: Action) -> NimState:
        heaps = list(self.heaps)
        if isinstance(action, Deal):
            heaps[heaps.index(UNDEALT)] = action.size
            return NimState(self.game, tuple(heaps), self.to_move)
        if isinstance(action, Take):
            heaps[action.heap - 1] -= action.count  # type: ignore[operator]
            return NimState(self.game, tuple(heaps), 1 - self.to_move)
        raise TypeError(f"not a Nim action: {action!r}")

    def explain_illegal(self, action: Action) -> str:
        if isinstance(action, Take) and 1 <= action.heap <= len(self.heaps):
            return f"heap {action.heap} has {self.heaps[action.heap - 1]} objects"
        return super().explain_illegal(action)

    def _winner(self) -> int:
        """Normal play: whoever took the last object (not the player to move) wins; misère:
        whoever took it loses."""
        took_last = 1 - self.to_move
        return 1 - took_last if self.game.misere else took_last

    def returns(self) -> tuple[float, ...]:
        if not self.is_terminal():
            return (0.0, 0.0)
        winner = self._winner()
        return tuple(1.0 if player == winner else -1.0 for player in (FIRST, SECOND))

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        took_last = self.game.player_names[1 - self.to_move]
        how = "and loses (misère)" if self.game.misere else "and wins"
        return Outcome(self._winner(), f"{took_last} took the last object {how}", self.returns())

    def __str__(self) -> str:
        heaps = ",".join("?" if h is UNDEALT else str(h) for h in self.heaps)
        return f"{heaps} {PLAYER_LETTERS[self.to_move]}"


class FixedNim(NimGame):
    """Nim without chance: heap ``i`` starts with ``i`` objects (at most ``max_heap``), so
    ``1,2,3 f`` with the default options. A deterministic game, as OpenSpiel's alpha-beta
    wants one; with an even nim-sum (1 ^ 2 ^ 3 = 0) the first player loses."""

    name: ClassVar[str] = "fixed_nim"
    title: ClassVar[str] = "Fixed Nim"

    @property
    def start(self) -> tuple[int, ...]:
        return tuple(min(heap, self.max_heap) for heap in range(1, self.heaps + 1))

    def new_initial_state(self) -> NimState:
        return NimState(self, self.start, FIRST)
