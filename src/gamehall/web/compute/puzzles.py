"""Puzzles on the web: one position at a time, answered by clicking the board, checked here.

A game's puzzles are the ones ``gamehall puzzles generate`` stored (the user's data directory,
:class:`~gamehall.analysis.puzzles.PuzzleStore`) and the set the game ships in its package (its
plugin's ``starter_puzzles``): :func:`~gamehall.analysis.puzzles.all_puzzles`, the same set
``gamehall puzzles list`` shows. A puzzle is shown with
:meth:`~gamehall.analysis.puzzles.Puzzle.public`, the position's view and legal items (what a
board draws), where the game stands (the plugin's ``situation``), its themes and its rating; the
answer never leaves the server before the player has solved it or asked for the solution.

An answer is checked by :meth:`~gamehall.analysis.puzzles.Puzzle.check` (the game's checked
door: a move that does not parse or is not legal is refused and counts for nothing). A wrong
answer is told with its exact cost and its refutation (the stored perfect play after it, in
words, to step through on the board), not with the answer: the player tries again. As on
lichess, only a player's first answer to a puzzle counts: it is one rated game between the
player and the puzzle (Glicko-2, :mod:`gamehall.store.puzzles`), so a retry after a wrong answer
is a failure for the record, and so is asking for the solution first. The next puzzle offered
is one not tried yet, rated near the player
(:func:`~gamehall.analysis.puzzles.choose_near`).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gamehall.analysis.puzzles import (
    Puzzle,
    PuzzleStore,
    choose_near,
    cost_words,
    difficulty,
    puzzle_situation,
    puzzle_themes,
    starter_puzzles,
    starting_ratings,
    value_words,
)
from gamehall.core import CHANCE, GamehallError, State, find_plugin, game_names
from gamehall.core.search import ValueKind
from gamehall.core.words import move_words, mover_name
from gamehall.protocol import (
    ErrorCode,
    PlayedAction,
    ProtocolError,
    PuzzleAnswer,
    PuzzleInfo,
    PuzzleVerdict,
)
from gamehall.web.base.engine import legal_items, played_item
from gamehall.web.base.position import StoreCall

if TYPE_CHECKING:
    from gamehall.store.puzzles import Rate, Triple

log = logging.getLogger("gamehall.web")

NEWCOMER: tuple[float, float, float] = (1500.0, 350.0, 0.06)
"""A player's puzzle rating before any puzzle (the hall's Glicko-2 newcomer)."""
PUZZLE_DEVIATION = 250.0
"""A puzzle never answered starts at its estimated rating with this deviation: less sure than
a newcomer's 350, since the estimate reads the position, but free to move."""
PROVISIONAL_DEVIATION = 110.0
"""A rating whose deviation is above this is shown as provisional ("?"), as lichess does."""
SHOWN = "(asked for the solution)"
"""The move stored for a first attempt that was asking for the solution."""


def how_to_make(game: str, directory: Path) -> str:
    return (
        f"Make some with `gamehall puzzles generate {game} --count 10` (they are kept in "
        f"{directory}), then open this page again."
    )


class PuzzleService:
    """Each game's puzzles, what each player answered and the ratings (see the module
    docstring). ``rate(player, puzzle, score)`` computes both new Glicko-2 triples."""

    def __init__(
        self,
        *,
        db: StoreCall,
        attempts: Any,
        directory: Path | None = None,
        rate: Rate | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.db = db
        """Runs a method of ``attempts`` (the store of answers and ratings) off the event loop."""
        self.attempts = attempts
        self.store = PuzzleStore(directory)
        self.rate = rate
        self.rng = rng or random.Random()
        self.kinds: dict[str, ValueKind] = {}
        """Each game's value kind, told by the analysis workers once warm (``ready``)."""
        self.ready = asyncio.Event()
        self._starters: dict[str, list[Puzzle]] = {}
        self._stored: dict[str, tuple[float, list[Puzzle]]] = {}
        self._starts: dict[str, tuple[int, dict[str, float]]] = {}

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
        """The game's puzzles: the user's stored ones, then the game's shipped set (each id
        once, as :func:`~gamehall.analysis.puzzles.all_puzzles`); reread when the store's file
        changes."""
        if game not in self._starters:
            try:
                self._starters[game] = self._playable(game, starter_puzzles(game), "shipped set")
            except GamehallError as error:
                log.error("the %s shipped puzzles do not load: %s", game, error)
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

    async def _player_rating(self, game: str, player_id: str) -> Triple:
        found = await self.db(self.attempts.puzzle_player_rating, player_id, game)
        return NEWCOMER if found is None else found[0]

    def starts(self, game: str) -> dict[str, float]:
        """Each puzzle's starting rating, over the game's whole set
        (:func:`~gamehall.analysis.puzzles.starting_ratings`; recomputed when the set changes)."""
        puzzles = self.puzzles(game)
        key = hash(tuple(p.id for p in puzzles))
        cached = self._starts.get(game)
        if cached is None or cached[0] != key:
            cached = self._starts[game] = (key, starting_ratings(puzzles))
        return cached[1]

    async def _puzzle_ratings(self, game: str) -> dict[str, float]:
        """Each puzzle's rating: stored once answered, else its starting rating."""
        stored = await self.db(self.attempts.puzzle_ratings, game)
        return {**self.starts(game), **{key: triple[0] for key, triple in stored.items()}}

    async def _answer(
        self,
        game: str,
        player_id: str,
        puzzles: list[Puzzle],
        tried: dict[str, bool],
        puzzle: Puzzle | None,
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
        mine = await self._player_rating(game, player_id)
        info = None
        if puzzle is not None:
            ratings = await self._puzzle_ratings(game)
            info = self.info(
                puzzle, tried.get(puzzle.id), ratings[puzzle.id], self.starts(game)[puzzle.id]
            )
        return PuzzleAnswer(
            game=game,
            total=len(puzzles),
            solved=solved,
            failed=len(tried) - solved,
            puzzle=info,
            how=how,
            rating=round(mine[0]),
            provisional=mine[1] > PROVISIONAL_DEVIATION,
        )

    @staticmethod
    def info(puzzle: Puzzle, attempted: bool | None, rating: float, start: float) -> PuzzleInfo:
        """What a player is shown; ``rating`` is the puzzle's now, ``start`` its starting one
        (which says its difficulty)."""
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
            situation=puzzle_situation(puzzle),
            themes=list(puzzle_themes(puzzle)),
            rating=round(rating),
            difficulty=difficulty(start),
        )

    async def next(self, game: str, player_id: str, after: str | None = None) -> PuzzleAnswer:
        """A puzzle of ``game`` this player has not tried, rated near the player's puzzle
        rating (not ``after``, one just skipped, unless it is the only one left)."""
        game = self._game(game)
        puzzles, tried = await self._counts(game, player_id)
        mine = await self._player_rating(game, player_id)
        ratings = await self._puzzle_ratings(game)
        skip = {*tried, after} if after else set(tried)
        chosen = choose_near(puzzles, ratings, mine[0], skip, self.rng)
        if chosen is None and after:
            chosen = choose_near(puzzles, ratings, mine[0], tried, self.rng)
        return await self._answer(game, player_id, puzzles, tried, chosen)

    async def get(self, game: str, puzzle_id: str, player_id: str) -> PuzzleAnswer:
        """One puzzle (to try again, or to share)."""
        game = self._game(game)
        puzzle = self._find(game, puzzle_id)
        puzzles, tried = await self._counts(game, player_id)
        return await self._answer(game, player_id, puzzles, tried, puzzle)

    async def _record(
        self, game: str, puzzle: Puzzle, player_id: str, solved: bool, move: str
    ) -> tuple[bool, Triple, int | None]:
        """Store the attempt (rated when first): whether it counted, the player's rating now
        and how much it moved."""
        unit_start = (self.starts(game)[puzzle.id], PUZZLE_DEVIATION, NEWCOMER[2])
        if self.rate is None:
            counted = await self.db(
                self.attempts.record_attempt, player_id, game, puzzle.id, solved, move
            )
            return counted, await self._player_rating(game, player_id), None
        before = await self.db(
            lambda: self.attempts.rate_puzzle_attempt(
                player_id,
                game,
                puzzle.id,
                solved,
                move,
                newcomer=NEWCOMER,
                puzzle_start=unit_start,
                rate=self.rate,
            )
        )
        now = await self._player_rating(game, player_id)
        if before is None:
            return False, now, None
        return True, now, round(now[0]) - round(before[0][0])

    async def answer(self, game: str, puzzle_id: str, player_id: str, move: str) -> PuzzleVerdict:
        """Check ``move`` against the puzzle; the first answer of a player counts. Right: the
        solution line. Wrong: what it costs and how it is punished, and no answer."""
        game = self._game(game)
        puzzle = self._find(game, puzzle_id)
        try:
            correct = puzzle.check(move)
        except GamehallError as error:
            raise ProtocolError(ErrorCode.ILLEGAL_MOVE, str(error)) from None
        counted, mine, change = await self._record(game, puzzle, player_id, correct, move)
        state = puzzle.state()
        played = state.parse_action(move)
        unit = self._unit(game)
        cost = refutation = refutation_views = None
        refuted_at_draw = False
        if not correct:
            other = puzzle.alternatives.get(str(played))
            if other is not None:
                lost = Fraction(str(puzzle.value)) - Fraction(str(other))
                cost = (
                    f"{move_words(state, played)}: that costs {cost_words(unit, lost)}; with "
                    f"best play {mover_name(state)} then {value_words(unit, other)}."
                )
            moves = [str(played), *puzzle.refutations.get(str(played), [])]
            refutation, refutation_views, refuted_at_draw = self._items(puzzle, state, moves)
        line, views, line_at_draw = ([], [], False)
        if correct:
            line, views, line_at_draw = self._items(puzzle, state, puzzle.line)
        return await self._verdict(
            game,
            puzzle,
            player_id,
            correct=correct,
            move=move,
            move_words=move_words(state, played),
            show_answer=correct,
            line=(line, views, line_at_draw),
            cost=cost,
            refutation=(refutation or [], refutation_views or [], refuted_at_draw),
            counted=counted,
            rating=mine,
            change=change,
        )

    async def solution(self, game: str, puzzle_id: str, player_id: str) -> PuzzleVerdict:
        """The answer and its line; a first attempt that asks for it is a failure."""
        game = self._game(game)
        puzzle = self._find(game, puzzle_id)
        counted, mine, change = await self._record(game, puzzle, player_id, False, SHOWN)
        state = puzzle.state()
        return await self._verdict(
            game,
            puzzle,
            player_id,
            correct=False,
            move="",
            move_words="",
            show_answer=True,
            line=self._items(puzzle, state, puzzle.line),
            cost=None,
            refutation=([], [], False),
            counted=counted,
            rating=mine,
            change=change,
        )

    async def _verdict(
        self,
        game: str,
        puzzle: Puzzle,
        player_id: str,
        *,
        correct: bool,
        move: str,
        move_words: str,
        show_answer: bool,
        line: tuple[list[PlayedAction], list[dict[str, Any]], bool],
        cost: str | None,
        refutation: tuple[list[PlayedAction], list[dict[str, Any]], bool],
        counted: bool,
        rating: Triple,
        change: int | None,
    ) -> PuzzleVerdict:
        puzzles, tried = await self._counts(game, player_id)
        solved = sum(1 for v in tried.values() if v)
        ratings = await self._puzzle_ratings(game)
        unit = self._unit(game)
        state = puzzle.state()
        answer = state.parse_action(puzzle.answer)
        who = mover_name(state)
        return PuzzleVerdict(
            id=puzzle.id,
            correct=correct,
            move=move,
            move_words=move_words,
            answer=puzzle.answer if show_answer else None,
            answer_words=_words(state, answer) if show_answer else None,
            line=line[0],
            views=line[1],
            line_ends_at_draw=line[2],
            value=f"{who} {value_words(unit, puzzle.value)}",
            margin=cost_words(unit, puzzle.margin),
            cost=cost,
            refutation=refutation[0],
            refutation_views=refutation[1],
            refutation_ends_at_draw=refutation[2],
            counted=counted,
            total=len(puzzles),
            solved=solved,
            failed=len(tried) - solved,
            rating=round(rating[0]),
            rating_change=change,
            puzzle_rating=round(ratings[puzzle.id]),
        )

    @staticmethod
    def _items(
        puzzle: Puzzle, state: State, moves: Sequence[str]
    ) -> tuple[list[PlayedAction], list[dict[str, Any]], bool]:
        """A stored line as played items with the view after each, never past a chance draw
        (a line stored before lines stopped there is cut); and whether it stops at one."""
        items, views = [], []
        for text in moves:
            if state.current_player == CHANCE:
                break
            try:
                action = state.parse_action(text)  # the stored line, checked as it is read
            except GamehallError as error:
                log.error("puzzle %s: its line stops at %s: %s", puzzle.id, text, error)
                break
            items.append(played_item(state, action))
            state = state.apply_trusted(action)
            views.append(state.view())
        return items, views, state.current_player == CHANCE

    @staticmethod
    def _unit(game: str) -> str:
        judgement = find_plugin(game).judgement
        return judgement.unit if judgement is not None else "points"


def _words(state: State, action: Any) -> str:
    return move_words(state, action)


def value_kinds() -> dict[str, str]:
    """In an analysis worker (which has the solvers loaded): each game's value kind."""
    kinds = {}
    for name in game_names():
        solver = find_plugin(name).load_solver()
        if solver is not None:
            kinds[name] = solver.kind.value
    return kinds


__all__ = ["PuzzleService", "how_to_make", "value_kinds"]
