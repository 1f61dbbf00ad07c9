"""A game's log and what it comes to, as pure functions: the replay a restart relies on.

The store keeps one append-only log per game (:class:`gamehall.store.ActionRow`). Its entries
are numbered 1, 2, …; the game's *version* is the number of entries, so it only ever grows and
every entry is committed before anyone is told of it. The kinds:

=========== ============================================= ===============================
kind        what happened                                 ``mover``
=========== ============================================= ===============================
action      a game action (the rules engine's text)       the seat, or -1 for chance
offer       a takeback offered                            the seat that offers
decline     the offer declined                            the seat that declines
takeback    ``takeback N``: the last N game actions undone the seat whose move is taken back
resign      the game ends: the seat resigned              the seat that resigns
abort       the game ends with no result                  the seat that aborts
flag        the game ends: the seat's time ran out        the seat whose time ran out
claim       the game ends: the opponent left              the seat that claims the win
=========== ============================================= ===============================

An ``abort`` entry whose text is ``resign`` (:data:`RESIGNED`) was a resignation before every
side had moved: as on lichess, that ends the game with no result, and its outcome says so. One
whose text is ``no move`` (:data:`NO_MOVE`) was made by the server: its ``mover`` did not make
its first move in time (:func:`gamehall.web.play.conduct.first_move_due`).

A takeback never deletes an entry: the game's actions are the log's actions with the undone ones
taken off, so replaying the log gives the same game, takebacks included. A takeback offer lapses
when a game action is played; a declined offer is not made again before the next game action,
so offers and declines never outnumber the moves.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from gamehall.core import Game, State
from gamehall.core.words import Chapter, move_chapters, move_words, next_chapter
from gamehall.protocol import OutcomeInfo
from gamehall.store.rows import ActionRow
from gamehall.web.base.engine import outcome_info

ENDINGS = ("resign", "abort", "flag", "claim")
KINDS = ("action", "offer", "decline", "takeback", *ENDINGS)
RESIGNED = "resign"
"""The text of an ``abort`` entry that was a resignation before every side had moved."""
NO_MOVE = "no move"
"""The text of an ``abort`` entry the server made: its seat did not make its first move in
time."""


@dataclass(frozen=True)
class Ending:
    """How a game ended off the board: resigned, aborted, lost on time, or claimed
    (``resigned``: an abort that was asked for as a resignation)."""

    kind: str
    seat: int
    resigned: bool = False
    idle: bool = False
    """An abort because ``seat`` did not make its first move in time."""

    @classmethod
    def of(cls, kind: str, seat: int, text: str) -> Ending:
        """The ending an entry of the log stands for."""
        aborted = kind == "abort"
        return cls(kind, seat, aborted and text == RESIGNED, aborted and text == NO_MOVE)

    def outcome(self, game: Game) -> OutcomeInfo:
        names = [name.capitalize() for name in game.player_names]
        players = len(names)
        me = names[self.seat]
        if self.kind == "abort":
            sides = "both sides" if players == 2 else "every side"
            if self.idle:
                reason = f"Game aborted: {me} did not move"
            elif self.resigned:
                reason = f"Game aborted: {me} resigned before {sides} had moved"
            else:
                reason = f"aborted by {me} before {sides} had moved: no result"
            return OutcomeInfo(
                winner=None, winner_name=None, reason=reason, scores=[0.0] * players, result="*"
            )
        if self.kind == "claim":
            winner = self.seat
            others = ", ".join(n for i, n in enumerate(names) if i != self.seat)
            reason = f"{others} left the game, and {me} claimed the win"
        else:
            # Resigned or out of time: with two players the other one wins.
            winner = 1 - self.seat if players == 2 else None
            what = "resigned" if self.kind == "resign" else "ran out of time"
            reason = f"{me} {what}"
            if winner is not None:
                reason += f": {names[winner]} wins" + (" on time" if self.kind == "flag" else "")
        scores = [1.0 if i == winner else 0.0 for i in range(players)]
        result = "1/2-1/2" if winner is None else ("1-0" if winner == 0 else "0-1")
        return OutcomeInfo(
            winner=winner,
            winner_name=game.player_names[winner] if winner is not None else None,
            reason=reason,
            scores=scores,
            result=result,  # type: ignore[arg-type]
        )


@dataclass
class Played:
    """What a log comes to: the game's state and actions, and what stands around them."""

    game: Game
    states: list[State]
    """The state after each number of game actions (``states[k]``: after k of them)."""
    actions: list[str] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    """Each action told in words (:func:`gamehall.core.words.move_words`)."""
    chapters: list[str] = field(default_factory=list)
    """The round or turn each action belongs to (:func:`gamehall.core.words.move_chapters`)."""
    ends: list[str] = field(default_factory=list)
    """After each action, the result of the round it ended ("Round 1: Dark +2, match 2–0"),
    or ""."""
    last_chapter: Chapter | None = None
    """The last action's chapter (the next one follows from it)."""
    version: int = 0
    ended: Ending | None = None
    offer: int | None = None
    """The seat that offered a takeback, while the offer stands."""
    declined: set[int] = field(default_factory=set)
    """The seats whose takeback offer was declined since the last game action."""
    clock: tuple[int | None, ...] | None = None
    """Each seat's remaining time after the last entry (None: no clock)."""
    lengths: list[int] = field(default_factory=lambda: [0])
    """The number of game actions after each number of entries (``lengths[v]``: at version v)."""

    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def over(self) -> bool:
        return self.ended is not None or self.state.is_terminal()

    def outcome(self) -> OutcomeInfo | None:
        if self.ended is not None:
            return self.ended.outcome(self.game)
        outcome = self.state.outcome()
        return outcome_info(self.game, outcome) if outcome is not None else None

    def kept(self, version: int) -> int:
        """How many game actions a reader who had the game at ``version`` still has right: those
        no takeback since has undone (the state messages' ``since``)."""
        version = min(max(version, 0), self.version)
        return min(self.lengths[version:])

    # --- entries ---

    def play(self, state: State, text: str, mover: int) -> None:
        """A game action (already checked, and ``state`` the state after it)."""
        before = self.states[-1]
        self.states.append(state)
        self.actions.append(text)
        self.movers.append(mover)
        self.words.append(move_words(before, before.game.parse_action(text)))
        chapter = next_chapter(before, state, self.last_chapter)
        self.last_chapter = chapter
        self.chapters.append(chapter.heading)
        self.ends.append(chapter.end)
        self.offer = None
        self.declined.clear()

    def take_back(self, count: int) -> None:
        """Undo the last ``count`` game actions."""
        if not 0 < count <= len(self.actions):
            raise ValueError(f"cannot take back {count} of {len(self.actions)} actions")
        del self.states[-count:]
        del self.actions[-count:]
        del self.movers[-count:]
        del self.words[-count:]
        del self.chapters[-count:]
        del self.ends[-count:]
        # The chapter before the kept actions' end: worked out again (a takeback is rare).
        kept = len(self.actions)
        self.last_chapter = move_chapters(self.states)[-1] if kept else None
        self.offer = None
        self.declined.clear()

    def apply(self, entry: ActionRow, *, checked: bool = True, state: State | None = None) -> None:
        """Take one entry into account: game actions through the rules' checked door (unless
        not ``checked``), or, when the caller has it, with ``state``, the state after it."""
        if entry.kind not in KINDS:
            raise ValueError(f"entry {entry.number} has an unknown kind {entry.kind!r}")
        if self.ended is not None:
            raise ValueError(f"entry {entry.number} ({entry.kind}) follows the end of the game")
        if entry.number != self.version + 1:
            raise ValueError(f"entry {entry.number} does not follow entry {self.version}")
        if entry.kind == "action":
            if state is None:
                now = self.state
                parse = now.parse_action if checked else self.game.parse_action
                state = now.apply_trusted(parse(entry.text))
            self.play(state, entry.text, entry.mover)
        elif entry.kind == "offer":
            self.offer = entry.mover
        elif entry.kind == "decline":
            if self.offer is not None:
                self.declined.add(self.offer)
            self.offer = None
        elif entry.kind == "takeback":
            self.take_back(takeback_count(entry.text))
        else:
            self.ended = Ending.of(entry.kind, entry.mover, entry.text)
        self.version = entry.number
        self.lengths.append(len(self.actions))
        if entry.clock is not None:
            self.clock = entry.clock


def takeback_text(count: int) -> str:
    return f"takeback {count}"


def takeback_count(text: str) -> int:
    word, _, number = text.partition(" ")
    if word != "takeback" or not number.isdigit():
        raise ValueError(f"a takeback entry reads 'takeback N', not {text[:40]!r}")
    return int(number)


def replay_log(
    game: Game,
    entries: Iterable[ActionRow],
    *,
    checked: bool = True,
    deadline: float | None = None,
    start: State | None = None,
) -> Played:
    """What the log ``entries`` (in order, numbered 1, 2, …) comes to from ``start`` (a game's
    setup position; default: the game's initial state); past ``deadline`` (a
    ``time.monotonic()`` value) TimeoutError."""
    played = Played(game, [game.new_initial_state() if start is None else start])
    for count, entry in enumerate(entries):
        if deadline is not None and count % 64 == 0 and time.monotonic() > deadline:
            raise ReplayTimeout(f"replaying took longer than the limit, at entry {count + 1}")
        played.apply(entry, checked=checked)
    return played


class ReplayTimeout(Exception):
    """Replaying a log took longer than its deadline."""


__all__ = [
    "ENDINGS",
    "KINDS",
    "NO_MOVE",
    "RESIGNED",
    "Ending",
    "Played",
    "ReplayTimeout",
    "replay_log",
    "takeback_count",
    "takeback_text",
]
