"""Puzzles on the web: one position at a time, answered by clicking the board, checked here.

A game's puzzles are the ones ``gamehall puzzles generate`` stored (the user's data directory,
:class:`~gamehall.analysis.puzzles.PuzzleStore`) and the small starter set the game ships in its
package (its plugin's ``starter_puzzles``), so a fresh install has some. A puzzle is shown with
:meth:`~gamehall.analysis.puzzles.Puzzle.public` and the position's view and legal items (what
a board draws); the answer never leaves the server before the player has answered. The answer
is checked by :meth:`~gamehall.analysis.puzzles.Puzzle.check` (the game's checked door: a move
that does not parse or is not legal is refused and counts for nothing), and each player's first
answer to each puzzle is remembered in the store (``puzzle_attempts``): solved, or failed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from fractions import Fraction
from pathlib import Path
from typing import Any

from gamehall.analysis.puzzles import Puzzle, PuzzleStore, starter_puzzles
from gamehall.core import GamehallError, find_plugin, game_names
from gamehall.core.search import ValueKind
from gamehall.protocol import (
    ErrorCode,
    ProtocolError,
    PuzzleAnswer,
    PuzzleInfo,
    PuzzleVerdict,
)
from gamehall.web.base.engine import legal_items, played_item
from gamehall.web.base.position import StoreCall

log = logging.getLogger("gamehall.web")

KINDS_WAIT = 60.0
"""How long an answer waits for the workers to say how values read (while they warm up)."""


def how_to_make(game: str, directory: Path) -> str:
    return (
        f"Make some with `gamehall puzzles generate {game} --count 10` (they are kept in "
        f"{directory}), then open this page again."
    )


class PuzzleService:
    """Each game's puzzles, and what each player answered (see the module docstring)."""

    def __init__(self, *, db: StoreCall, attempts: Any, directory: Path | None = None) -> None:
        self.db = db
        """Runs a method of ``attempts`` (the store of the players' answers) off the event loop."""
        self.attempts = attempts
        self.store = PuzzleStore(directory)
        self.kinds: dict[str, ValueKind] = {}
        """Each game's value kind (how a puzzle's value reads), told by the analysis workers
        (the server itself never loads a solver) once they are warm: then ``ready`` is set."""
        self.ready = asyncio.Event()
        self._starters: dict[str, list[Puzzle]] = {}
        self._stored: dict[str, tuple[float, list[Puzzle]]] = {}

    def _game(self, game: str) -> str:
        try:
            return find_plugin(game).name
        except GamehallError as error:
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, str(error)) from None

    def _playable(self, game: str, puzzles: list[Puzzle], where: str) -> list[Puzzle]:
        """The puzzles made under the rules this server plays (the others are logged)."""
        kept = []
        for puzzle in puzzles:
            try:
                puzzle.game_instance()
            except GamehallError as error:
                log.warning("%s: puzzle skipped: %s", where, error)
                continue
            kept.append(puzzle)
        return kept

    def puzzles(self, game: str) -> list[Puzzle]:
        """The game's puzzles: the user's stored ones, then the game's starter set (each id
        once); reread when the store's file changes."""
        if game not in self._starters:
            try:
                self._starters[game] = self._playable(game, starter_puzzles(game), "starter set")
            except GamehallError as error:
                log.error("the %s starter puzzles do not load: %s", game, error)
                self._starters[game] = []
        path = self.store.path(game)
        try:
            stamp = path.stat().st_mtime
        except OSError:
            stamp = -1.0
        cached = self._stored.get(game)
        if cached is None or cached[0] != stamp:
            try:
                stored = self._playable(game, self.store.load(game), str(path))
            except GamehallError as error:
                log.error("the stored %s puzzles do not load: %s", game, error)
                stored = []
            cached = self._stored[game] = (stamp, stored)
        seen: set[str] = set()
        found = []
        for puzzle in [*cached[1], *self._starters[game]]:
            if puzzle.id not in seen:
                seen.add(puzzle.id)
                found.append(puzzle)
        return found

    def _find(self, game: str, puzzle_id: str) -> Puzzle:
        for puzzle in self.puzzles(game):
            if puzzle.id == puzzle_id:
                return puzzle
        raise ProtocolError(ErrorCode.UNKNOWN_PUZZLE, f"there is no {game} puzzle {puzzle_id!r}")

    async def _counts(self, game: str, player_id: str) -> tuple[list[Puzzle], dict[str, bool]]:
        puzzles = self.puzzles(game)
        attempts = await self.db(self.attempts.attempts, player_id, game)
        ids = {p.id for p in puzzles}
        return puzzles, {k: v for k, v in attempts.items() if k in ids}

    def _answer(
        self, game: str, puzzles: list[Puzzle], tried: dict[str, bool], puzzle: Puzzle | None
    ) -> PuzzleAnswer:
        solved = sum(1 for v in tried.values() if v)
        how = None
        if puzzle is None:
            title = find_plugin(game).game.title
            if not puzzles:
                how = f"No {title} puzzles are stored yet. " + how_to_make(
                    game, self.store.directory
                )
            else:
                how = f"You have tried all {len(puzzles)} {title} puzzles. " + how_to_make(
                    game, self.store.directory
                )
        return PuzzleAnswer(
            game=game,
            total=len(puzzles),
            solved=solved,
            failed=len(tried) - solved,
            puzzle=None if puzzle is None else self.info(puzzle, tried.get(puzzle.id)),
            how=how,
        )

    @staticmethod
    def info(puzzle: Puzzle, attempted: bool | None) -> PuzzleInfo:
        state = puzzle.state()
        public = puzzle.public()
        return PuzzleInfo(
            id=public["id"],
            game=public["game"],
            position=public["position"],
            to_move=state.current_player,
            to_move_name=public["to_move"],
            view=state.view(),
            legal=legal_items(state),
            attempted=attempted,
        )

    async def next(self, game: str, player_id: str, after: str | None = None) -> PuzzleAnswer:
        """The first puzzle of ``game`` this player has not tried (after the puzzle ``after``,
        one skipped, if given: the list goes round); None when there is none."""
        game = self._game(game)
        puzzles, tried = await self._counts(game, player_id)
        order = puzzles
        ids = [p.id for p in puzzles]
        if after in ids:
            cut = ids.index(after) + 1
            order = [*puzzles[cut:], *puzzles[:cut]]
        fresh = next((p for p in order if p.id not in tried), None)
        return self._answer(game, puzzles, tried, fresh)

    async def get(self, game: str, puzzle_id: str, player_id: str) -> PuzzleAnswer:
        """One puzzle (to try again, or to share)."""
        game = self._game(game)
        puzzle = self._find(game, puzzle_id)
        puzzles, tried = await self._counts(game, player_id)
        return self._answer(game, puzzles, tried, puzzle)

    async def answer(self, game: str, puzzle_id: str, player_id: str, move: str) -> PuzzleVerdict:
        """Check ``move`` against the puzzle; the first answer of a player counts."""
        game = self._game(game)
        puzzle = self._find(game, puzzle_id)
        try:
            correct = puzzle.check(move)
        except GamehallError as error:
            raise ProtocolError(ErrorCode.ILLEGAL_MOVE, str(error)) from None
        counted = await self.db(
            self.attempts.record_attempt, player_id, game, puzzle.id, correct, move
        )
        state = puzzle.state()
        items, views = [], []
        for text in puzzle.line:
            try:
                action = state.parse_action(text)  # the stored line, checked as it is read
            except GamehallError as error:
                log.error("puzzle %s: its line stops at %s: %s", puzzle.id, text, error)
                break
            items.append(played_item(state, action))
            state = state.apply_trusted(action)
            views.append(state.view())
        puzzles, tried = await self._counts(game, player_id)
        solved = sum(1 for v in tried.values() if v)
        with contextlib.suppress(TimeoutError):  # only while the server is starting
            await asyncio.wait_for(self.ready.wait(), KINDS_WAIT)
        return PuzzleVerdict(
            id=puzzle.id,
            correct=correct,
            move=move,
            answer=puzzle.answer,
            line=items,
            views=views,
            value=self._value_text(game, puzzle.value),
            margin=self._cost_text(game, puzzle.margin),
            counted=counted,
            total=len(puzzles),
            solved=solved,
            failed=len(tried) - solved,
        )

    def _value_text(self, game: str, value: Any) -> str:
        from gamehall.ai.evaluation import format_value

        kind = self.kinds.get(game)
        return str(value) if kind is None else format_value(kind, Fraction(str(value)), exact=True)

    def _cost_text(self, game: str, cost: Any) -> str:
        from gamehall.ai.evaluation import format_cost

        kind = self.kinds.get(game)
        return str(cost) if kind is None else format_cost(kind, Fraction(str(cost)), exact=True)


def value_kinds() -> dict[str, str]:
    """In an analysis worker (which has the solvers loaded): each game's value kind."""
    kinds = {}
    for name in game_names():
        solver = find_plugin(name).load_solver()
        if solver is not None:
            kinds[name] = solver.kind.value
    return kinds


__all__ = ["PuzzleService", "how_to_make", "value_kinds"]
