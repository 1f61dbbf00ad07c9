"""Exact analysis for players on the web: hints, reviews and puzzles, beside the game hub.

:class:`Assist` holds their lanes (:class:`~gamehall.web.compute.workers.Lane`: lanes of the hub's one
scheduler of workers, :class:`~gamehall.web.compute.computers.Computers`, with a warmed worker process
each under ``gamehall serve``, so a review holds up no hint, and neither holds up a computer
move; each job bounded in time and memory like a computer move) and their services (:mod:`~gamehall.web.compute.hints`, :mod:`~gamehall.web.compute.review`,
:mod:`~gamehall.web.compute.puzzles`); :func:`register` adds their routes to the app::

    POST /api/games/{id}/hint                 HintAnswer: the best moves for the player to move
    POST /api/games/{id}/review               ReviewAnswer: start the review (once) or its status
    GET  /api/games/{id}/review               ReviewAnswer: status, progress, the review once done
    GET  /api/games/{id}/review/record        the annotated record (text)
    GET  /api/puzzles/{game}[?after=ID]       PuzzleAnswer: a puzzle not tried, near the player's rating
    GET  /api/puzzles/{game}/{puzzle}         PuzzleAnswer: that puzzle
    POST /api/puzzles/{game}/{puzzle}/answer  PuzzleVerdict: right (the line) or wrong (why)
    POST /api/puzzles/{game}/{puzzle}/solution  PuzzleVerdict: the answer and its line
    POST /api/analysis/{game}                 AnalysisAnswer: every legal move of a position, valued

Who is asking is the app's business: the routes take the app's own ``player_id`` (whom
seats are held by: the signed-in account's player, or the browser's identity) and ``held_seats``
(the seats kept on the server for them) functions,
so identity is decided in one place; the edge (Origin, body size, clean text) comes first.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, Response
from fastapi.responses import PlainTextResponse

from gamehall.core.search import ValueKind
from gamehall.protocol import (
    AnalysisAnswer,
    AnalysisRequest,
    ErrorCode,
    HintAnswer,
    HintRequest,
    ProtocolError,
    PuzzleAnswer,
    PuzzleTry,
    PuzzleVerdict,
    ReviewAnswer,
)
from gamehall.web.base.position import Position
from gamehall.web.compute.analysis import QUEUED as ANALYSES_QUEUED
from gamehall.web.compute.analysis import AnalysisService
from gamehall.web.compute.hints import HINT_SECONDS, HintService
from gamehall.web.compute.puzzles import PuzzleService, value_kinds
from gamehall.web.compute.review import BUDGET as REVIEW_BUDGET
from gamehall.web.compute.review import ReviewService
from gamehall.web.compute.workers import Lane
from gamehall.web.hall.ratings import rate_triples
from gamehall.web.play.live import LiveGame

log = logging.getLogger("gamehall.web")

JOB_MARGIN = 30.0
"""Seconds past its own budget a hint or review may run before its worker stops it."""
HINTS_QUEUED = 4
"""Hints waiting or being worked out at once, server-wide (beyond: ``busy``)."""
REVIEWS_QUEUED = 16
"""Reviews waiting or running at once, server-wide (beyond: ``busy``)."""


class Assist:
    """Hints, reviews and puzzles of one server (see the module docstring)."""

    def __init__(
        self,
        hub: Any,
        *,
        puzzles_dir: Path | None = None,
        hint_seconds: float = HINT_SECONDS,
        review_budget: dict[str, float] | None = None,
    ) -> None:
        budget = dict(review_budget or REVIEW_BUDGET)
        self.hint_lane = Lane(
            "hint", hub.computers, limit=HINTS_QUEUED, seconds=2 * hint_seconds + JOB_MARGIN
        )
        review_seconds = budget.get("total_seconds", REVIEW_BUDGET["total_seconds"])
        self.review_lane = Lane(
            "review", hub.computers, limit=REVIEWS_QUEUED, seconds=review_seconds + JOB_MARGIN
        )
        self.hints = HintService(self.hint_lane, seconds=hint_seconds)
        # The analysis board shares the hint lane's worker (its clients served in turn with
        # the hints'), with a bound of its own on jobs waiting.
        self.analysis_lane = Lane(
            "hint",
            hub.computers,
            limit=ANALYSES_QUEUED,
            seconds=2 * hint_seconds + JOB_MARGIN,
            what="position evaluation",
        )
        self.analysis = AnalysisService(self.analysis_lane, hub.settings, seconds=hint_seconds)
        self.reviews = ReviewService(
            self.review_lane, budget, db=hub.db, store=hub.store, load=self._reviewed
        )
        self.puzzles = PuzzleService(
            db=hub.db, attempts=hub.store, directory=puzzles_dir, rate=rate_triples
        )
        self.hub = hub
        self.warmed_in = 0.0
        """How long its first job (the games' value kinds) waited for a warm worker."""
        self._warming: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Carry on the unfinished reviews (their jobs wait for the warm-up like any other),
        and learn the games' value kinds from a warm worker in the background: the app serves
        meanwhile (:meth:`ready` waits for it)."""
        self._warming = asyncio.get_running_loop().create_task(self._warm())
        await self.reviews.start()

    async def _warm(self) -> None:
        started = time.perf_counter()
        try:
            kinds = await self.hint_lane.run(value_kinds)
            self.puzzles.kinds = {name: ValueKind(kind) for name, kind in kinds.items()}
            self.warmed_in = time.perf_counter() - started
        except Exception:
            log.exception("the hint and review workers did not warm up")
        finally:
            self.puzzles.ready.set()

    async def _reviewed(self, game_id: str) -> Position:
        """A game's position with its record, for its review."""
        return (await self.hub.get(game_id)).position(record=True)

    async def ready(self) -> None:
        """Wait until the hint and review workers are warm."""
        if self._warming is not None:
            await asyncio.shield(self._warming)

    async def stop(self) -> None:
        if self._warming is not None and not self._warming.done():
            self._warming.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._warming
        await self.reviews.stop()


PlayerOf = Callable[[Request, Response], Awaitable[str]]
SeatsOf = Callable[[Request, Response, LiveGame], Awaitable[frozenset[int]]]
SignedIn = Callable[[Request, Response], Awaitable[bool]]
AddressOf = Callable[[Request], str]


def register(
    app: FastAPI,
    *,
    hub: Callable[[], Any],
    assist: Callable[[], Assist],
    player_id: PlayerOf,
    held_seats: SeatsOf,
    signed_in: SignedIn,
    address: AddressOf,
) -> None:
    """Add the routes of hints, reviews and puzzles to ``app`` (``signed_in``: whether the
    asker is signed in; ``address``: the asker's network address, which the lanes count)."""

    @app.post("/api/games/{game_id}/hint")
    async def hint(
        game_id: str, body: HintRequest, request: Request, response: Response
    ) -> HintAnswer:
        live = await hub().get(game_id)
        seats = await held_seats(request, response, live)
        return await assist().hints.hint(
            live.position(),
            seats,
            await player_id(request, response),
            body.version,
            address=address(request),
        )

    @app.post("/api/games/{game_id}/review")
    async def ask_review(game_id: str, request: Request, response: Response) -> ReviewAnswer:
        live = await hub().get(game_id)
        me = await player_id(request, response)
        seats = await held_seats(request, response, live)
        return await assist().reviews.request(
            live.position(record=True),
            me,
            player=bool(seats),
            signed_in=await signed_in(request, response),
            address=address(request),
        )

    @app.get("/api/games/{game_id}/review")
    async def get_review(game_id: str) -> ReviewAnswer:
        return await assist().reviews.status((await hub().get(game_id)).position())

    @app.get("/api/games/{game_id}/review/record")
    async def review_record(game_id: str) -> PlainTextResponse:
        live = await hub().get(game_id)
        text = await assist().reviews.annotated(live.position())
        filename = f"{live.game.name}-{live.id}-review.txt"
        return PlainTextResponse(
            text, headers={"Content-Disposition": f'attachment; filename="{filename}"'}
        )

    @app.get("/api/puzzles/{game}")
    async def next_puzzle(
        game: str,
        request: Request,
        response: Response,
        after: Annotated[str | None, Query(max_length=64)] = None,
    ) -> PuzzleAnswer:
        return await assist().puzzles.next(game, await player_id(request, response), after)

    @app.get("/api/puzzles/{game}/{puzzle_id}")
    async def get_puzzle(
        game: str, puzzle_id: str, request: Request, response: Response
    ) -> PuzzleAnswer:
        return await assist().puzzles.get(game, puzzle_id, await player_id(request, response))

    @app.post("/api/puzzles/{game}/{puzzle_id}/answer")
    async def answer_puzzle(
        game: str, puzzle_id: str, body: PuzzleTry, request: Request, response: Response
    ) -> PuzzleVerdict:
        me = await player_id(request, response)
        return await assist().puzzles.answer(game, puzzle_id, me, body.move)

    @app.post("/api/puzzles/{game}/{puzzle_id}/solution")
    async def puzzle_solution(
        game: str, puzzle_id: str, request: Request, response: Response
    ) -> PuzzleVerdict:
        me = await player_id(request, response)
        return await assist().puzzles.solution(game, puzzle_id, me)

    @app.post("/api/analysis/{game}")
    async def analyse(
        game: str, body: AnalysisRequest, request: Request, response: Response
    ) -> AnalysisAnswer:
        position, options = body.position, dict(body.options)
        if body.start is not None:
            if position is not None or options:
                raise ProtocolError(
                    ErrorCode.BAD_START,
                    "give a stored game's position (start), or a position text with options: "
                    "not both",
                )
            live = await hub().get(body.start.game_id)
            position, options, played = analysed_position(live, game, body.start.step)
        else:
            played = []
        return await assist().analysis.analyse(
            game,
            options,
            position,
            played + list(body.line),
            draw=body.draw,
            player_id=await player_id(request, response),
            address=address(request),
        )


def analysed_position(
    live: LiveGame, game: str, step: int
) -> tuple[str, dict[str, Any], list[str]]:
    """``live``'s start position (its text), its options and its first ``step`` actions, for
    the analysis board to open at the position after them with the game's line before it: any
    position of a finished game, or of a game against the computer or hot-seat (never of an
    online game in play: that would be help from an engine against a person)."""
    live.check_start(game, {})
    if live.row.mode == "online" and not live.over:
        raise ProtocolError(
            ErrorCode.NO_HINTS,
            f"game {live.id} is an online game in play: its positions can be analysed once it "
            "is over",
        )
    if not 0 <= step <= live.version:
        raise ProtocolError(
            ErrorCode.BAD_START,
            f"game {live.id} has positions after 0 to {live.version} actions, not {step}",
        )
    start = live.states()[0]
    played = start.game
    options = {
        spec.name: played.options[spec.name]
        for spec in played.option_specs
        if played.options[spec.name] != spec.default
    }
    return str(start), options, list(live.actions[:step])


__all__ = ["Assist", "register"]
