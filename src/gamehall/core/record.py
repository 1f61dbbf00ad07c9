"""Game records: header tags and every action, chance included, in notation (PGN-like).

::

    [Game "nim"]
    [RulesVersion "1"]
    [First "greedy"]
    [Second "random"]
    [Seed "7"]
    [Result "1-0"]
    [Termination "normal"]
    [Ending "the last heap was taken"]

    1. deal 3,4,5
    2. take 2 from 1
    3. take 4 from 2

One action per line, numbered from 1, so an action's text may contain spaces. An action may be
followed by a comment in braces (``12. RTxBS {value +1 → 0, cost 1, mistake, best RCxRT+BT}``, as
``gamehall review`` writes them); a comment has no braces inside and stays on its line. Lines
starting with ``#`` are ignored. Writing a record and replaying it reproduces the game exactly; a
record that contains an illegal action is rejected with the move number and the reason.

``Result`` and ``Termination`` say how the game ended, as in PGN: ``Termination`` is one word of
:data:`TERMINATIONS` (``normal`` on the board; ``resignation``, ``time forfeit``, ``claim`` or
``aborted`` off it) and ``Ending`` says the same in the game's words (``Light resigned: Dark
wins``). A game ended off the board stops on a position that is not over, so its decided
``Result`` is taken from the tags, not the moves; an aborted game has no result (``*``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from gamehall.core.errors import GamehallError, RecordError
from gamehall.core.game import Game, State
from gamehall.core.registry import game_class

_TAG = re.compile(r'^\[(?P<name>[A-Za-z][A-Za-z0-9_]*)\s+"(?P<value>(?:[^"\\]|\\.)*)"\]$')
_MOVE = re.compile(
    r"^(?P<number>[0-9]{1,7})\.\s+(?P<action>[^\s{}][^{}]*?)\s*(?:\{(?P<comment>[^{}]*)\}\s*)?$"
)

STANDARD_TAGS = (
    "Game",
    "RulesVersion",
    "Variant",
    "Date",
    "Seed",
    "SetUp",
    "Result",
    "Termination",
    "Ending",
)

RESULTS: Final = ("1-0", "0-1", "1/2-1/2", "*")
"""The Result tag's values: the first player won, the second won, a draw, no result."""

TERMINATIONS: Final[dict[str, str]] = {
    "normal": "the game ended on the board, by its rules",
    "resignation": "a player resigned",
    "time forfeit": "a player's time ran out",
    "claim": "a player left the game, and the other claimed the win",
    "aborted": "the game was called off before both sides had moved: no result",
}
"""The Termination tag's words, as PGN's (read in any case): why the game ended. All but
``normal`` end a game off the board, on a position that is not over."""

OFF_BOARD: Final = ("resignation", "time forfeit", "claim", "aborted")
"""The terminations that end a game off the board (``aborted`` with Result ``*``, the others
with a decided result)."""

ABANDONED: Final = "abandoned"
"""PGN's word for a game a player left or that never started (lichess writes it for aborted
games): read, with a decided result or none, and never written."""


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _comment_problem(text: str) -> str | None:
    if "{" in text or "}" in text or "\n" in text or "\r" in text:
        return "a comment cannot contain braces or line breaks"
    if text != text.strip():
        return "a comment cannot begin or end with spaces"
    return None


@dataclass(frozen=True)
class Termination:
    """How a game ended off the board, for its record: ``kind`` is one of :data:`OFF_BOARD`,
    ``result`` the Result tag (``*`` exactly when aborted) and ``text`` the same in the game's
    words, written as the ``Ending`` tag (``Light resigned: Dark wins``)."""

    kind: str
    result: str
    text: str = ""

    def __post_init__(self) -> None:
        if self.kind not in OFF_BOARD:
            raise ValueError(f"termination {self.kind!r} is not one of {', '.join(OFF_BOARD)}")
        if self.result not in RESULTS:
            raise ValueError(f"result {self.result!r} is not one of {', '.join(RESULTS)}")
        if (self.kind == "aborted") != (self.result == "*"):
            raise ValueError(
                f"a game ended by {self.kind} cannot have result {self.result!r}: "
                "an aborted game has result '*', every other a decided one"
            )


@dataclass
class Record:
    """A game record: ordered header tags, the actions' notation, and comments on actions
    (``comments[n]`` follows action number ``n``, counted from 1)."""

    tags: dict[str, str] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)
    comments: dict[int, str] = field(default_factory=dict)

    def __str__(self) -> str:
        lines = [f'[{name} "{_escape(value)}"]' for name, value in self.tags.items()]
        lines.append("")
        for number, action in enumerate(self.actions, 1):
            comment = self.comments.get(number)
            if comment is None:
                lines.append(f"{number}. {action}")
                continue
            problem = _comment_problem(comment)
            if problem:
                raise RecordError(f"move {number}: {problem}: {comment!r}")
            lines.append(f"{number}. {action} {{{comment}}}")
        return "\n".join(lines) + "\n"

    @classmethod
    def parse(cls, text: str) -> Record:
        """Read a record's text; raises RecordError naming the line that is wrong."""
        record = cls()
        in_header = True
        for line_number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("["):
                match = _TAG.match(line)
                if not in_header or match is None:
                    raise RecordError(
                        f'line {line_number}: {line!r} is not a header tag like [Name "value"]'
                    )
                record.tags[match["name"]] = _unescape(match["value"])
                continue
            in_header = False
            match = _MOVE.match(line)
            if match is None:
                raise RecordError(
                    f"line {line_number}: {line!r} is not a numbered action like '1. pass' "
                    "(optionally followed by one comment in braces, '1. pass {only move}')"
                )
            number = int(match["number"])
            if number != len(record.actions) + 1:
                raise RecordError(
                    f"line {line_number}: expected move number {len(record.actions) + 1}, "
                    f"found {number}"
                )
            record.actions.append(match["action"])
            if match["comment"] is not None and match["comment"].strip():
                record.comments[number] = match["comment"].strip()
        if "Game" not in record.tags:
            raise RecordError('the record has no [Game "..."] tag')
        return record

    @property
    def termination(self) -> str | None:
        """The Termination tag as one of :data:`TERMINATIONS` (or ``abandoned``), in lower case;
        None when there is none or it says something else (older records wrote a sentence)."""
        value = " ".join(self.tags.get("Termination", "").lower().split())
        return value if value in TERMINATIONS or value == ABANDONED else None

    def ending(self, final: State) -> str:
        """How the game ended, in a sentence for a person; ``final`` is the last state
        (``replay()[-1]``)."""
        result = self.tags.get("Result", "*")
        outcome = final.outcome()
        if outcome is not None:
            return f"The game ended on the board: {outcome.reason}; result {outcome.result_tag()}."
        termination = self.termination
        said = self.tags.get("Ending", "").strip()
        count = len(self.actions)
        moves = f"after {count} move" + ("" if count == 1 else "s")
        if termination is None or termination == "normal":
            return f"The game is not over {moves} (result {result}): the record stops there."
        if result == "*" and termination in ("aborted", ABANDONED):
            return f"The game was {termination} {moves}, with no result" + (
                f" ({said})." if said else "."
            )
        tags = f'(Termination "{termination}", result {result})'
        return (
            f"The game ended off the board {moves}"
            + (f": {said} " if said else " ")
            + tags
            + ". Its last position was not played out."
        )

    def game(self) -> Game:
        """The game (with its variant) this record is of."""
        cls = game_class(self.tags["Game"])
        version = self.tags.get("RulesVersion")
        if version is not None and version != cls.rules_version:
            raise RecordError(
                f"the record was made under {cls.name} rules version {version!r}, and this "
                f"gamehall plays rules version {cls.rules_version!r}: it cannot be replayed here"
            )
        try:
            return cls.from_record_tags(self.tags)
        except GamehallError as error:
            raise RecordError(f"header: {error}") from None

    def replay(self) -> list[State]:
        """Every state of the game, from the start to after the last action.

        Raises RecordError with the move number and the reason at the first illegal action, and if
        the Result tag disagrees with how the game ended: with the moves, or where they stop
        before the end, with the Termination tag (a decided result needs a resignation, a time
        forfeit or a claim; an aborted game has none).
        """
        game = self.game()
        if "SetUp" in self.tags:
            try:
                state = game.parse_state(self.tags["SetUp"])
            except GamehallError as error:
                raise RecordError(f"SetUp: {error}") from None
        else:
            state = game.new_initial_state()
        states = [state]
        for number, text in enumerate(self.actions, 1):
            try:
                action = state.parse_action(text)
            except GamehallError as error:
                raise RecordError(str(error), move_number=number) from None
            state = state.apply_trusted(action)
            states.append(state)
        self._check_result(state)
        return states

    def _check_result(self, final: State) -> None:
        """The Result tag agrees with the moves, or with a Termination off the board."""
        result = self.tags.get("Result", "*")
        if result not in RESULTS:
            raise RecordError(f"Result is {result!r}: it is one of {', '.join(RESULTS)}")
        if result == "*":
            return  # no result: unfinished, aborted, or not known
        outcome = final.outcome()
        if outcome is not None:
            if outcome.result_tag() != result:
                raise RecordError(
                    f"Result is {result!r} but the moves end in {outcome.result_tag()!r}"
                )
            return
        termination = self.termination
        if termination == "aborted":
            raise RecordError(f"Result is {result!r} but an aborted game has no result ('*')")
        if termination not in ("resignation", "time forfeit", "claim", ABANDONED):
            raise RecordError(
                f"Result is {result!r} but the game is not over, and no Termination tag says "
                'why it ended off the board ([Termination "resignation"], "time forfeit" or '
                '"claim")'
            )


def make_record(
    game: Game,
    actions: Iterable[object],
    *,
    players: Iterable[str] = (),
    seed: int | None = None,
    date: str | None = None,
    setup: State | None = None,
    final: State | None = None,
    extra: dict[str, str] | None = None,
    ended: Termination | None = None,
) -> Record:
    """Build a record of a game played from ``setup`` (default: the initial state) to
    ``final``; ``ended`` says how it ended off the board (resigned, on time, claimed,
    aborted), when it did."""
    tags: dict[str, str] = {"Game": game.name, "RulesVersion": game.rules_version}
    tags.update(game.record_tags())
    for name, player in zip(game.player_names, players, strict=False):
        tags[name.capitalize()] = player
    if date:
        tags["Date"] = date
    if seed is not None:
        tags["Seed"] = str(seed)
    if setup is not None:
        tags["SetUp"] = str(setup)
    if extra:
        tags.update(extra)
    outcome = final.outcome() if final is not None else None
    if outcome is not None:
        tags.update(Result=outcome.result_tag(), Termination="normal", Ending=outcome.reason)
    elif ended is not None:
        tags.update(Result=ended.result, Termination=ended.kind)
        if ended.text:
            tags["Ending"] = ended.text
    else:
        tags["Result"] = "*"
    return Record(tags=tags, actions=[str(a) for a in actions])
