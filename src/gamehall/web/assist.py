"""Exact analysis for players on the web: hints, reviews and puzzles, beside the game hub.

:class:`Assist` holds their lanes (:class:`~gamehall.web.workers.Lane`: a warmed worker process
each under ``gamehall serve``, so a review holds up no hint, and neither holds up a computer
move) and their services (:mod:`~gamehall.web.hints`, :mod:`~gamehall.web.review`,
:mod:`~gamehall.web.puzzles`); :func:`register` adds their routes to the app::

    POST /api/games/{id}/hint                 HintAnswer: the best moves for the player to move
    POST /api/games/{id}/review               ReviewAnswer: start the review (once) or its status
    GET  /api/games/{id}/review               ReviewAnswer: status, progress, the review once done
    GET  /api/games/{id}/review/record        the annotated record (text)
    GET  /api/puzzles/{game}[?after=ID]       PuzzleAnswer: the next puzzle this player has not tried
    GET  /api/puzzles/{game}/{puzzle}         PuzzleAnswer: that puzzle
    POST /api/puzzles/{game}/{puzzle}/answer  PuzzleVerdict: right or not, and the solution line

Who is asking is the app's business: the routes take the app's own ``player_id`` and
``held_seats`` functions, so identity is decided in one place.
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
from gamehall.web.hints import HINT_SECONDS, HintService
from gamehall.web.live import LiveGame
from gamehall.web.protocol import (
    HintAnswer,
    HintRequest,
    PuzzleAnswer,
    PuzzleTry,
    PuzzleVerdict,
    ReviewAnswer,
)
from gamehall.web.puzzles import PuzzleService, value_kinds
from gamehall.web.review import ReviewService
from gamehall.web.workers import Lane

log = logging.getLogger("gamehall.web")

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
        processes: bool = False,
        puzzles_dir: Path | None = None,
        hint_seconds: float = HINT_SECONDS,
        review_budget: dict[str, float] | None = None,
    ) -> None:
        self.hint_lane = Lane("hint", processes=processes, limit=HINTS_QUEUED)
        self.review_lane = Lane("review", processes=processes, limit=REVIEWS_QUEUED)
        self.hints = HintService(self.hint_lane, seconds=hint_seconds)
        self.reviews = ReviewService(hub, self.review_lane, review_budget)
        self.puzzles = PuzzleService(hub, puzzles_dir)
        self.warmed_in = 0.0
        """How long the hint and review workers took to warm up (once they have)."""
        self._warming: asyncio.Task[None] | None = None

    def launch(self) -> None:
        """Make the lanes (their workers start, and warm up, in :meth:`start`)."""
        self.hint_lane.start()
        self.review_lane.start()

    async def start(self) -> None:
        """Start the workers warming up (the app waits for them, :meth:`ready`, before it
        serves; a hint or review asked for before they are warm would wait for them). Then the
        unfinished reviews are carried on."""
        self._warming = asyncio.get_running_loop().create_task(self._warm())

    async def _warm(self) -> None:
        started = time.perf_counter()
        try:
            await asyncio.gather(self.hint_lane.warm(), self.review_lane.warm())
            self.warmed_in = time.perf_counter() - started
            kinds = await self.hint_lane.run(value_kinds)
            self.puzzles.kinds = {name: ValueKind(kind) for name, kind in kinds.items()}
        except Exception:
            log.exception("the hint and review workers did not warm up")
        finally:
            self.puzzles.ready.set()
        await self.reviews.start()

    async def ready(self) -> None:
        """Wait until the workers are warm and the unfinished reviews carried on."""
        if self._warming is not None:
            await asyncio.shield(self._warming)

    async def stop(self) -> None:
        if self._warming is not None and not self._warming.done():
            self._warming.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._warming
        await self.reviews.stop()
        self.hint_lane.stop()
        self.review_lane.stop()


PlayerOf = Callable[[Request, Response], str]
SeatsOf = Callable[[Request, Response, LiveGame], Awaitable[frozenset[int]]]


def register(
    app: FastAPI,
    *,
    hub: Callable[[], Any],
    assist: Callable[[], Assist],
    player_id: PlayerOf,
    held_seats: SeatsOf,
) -> None:
    """Add the routes of hints, reviews and puzzles to ``app``."""

    @app.post("/api/games/{game_id}/hint")
    async def hint(
        game_id: str, body: HintRequest, request: Request, response: Response
    ) -> HintAnswer:
        live = await hub().get(game_id)
        seats = await held_seats(request, response, live)
        return await assist().hints.hint(live, seats, player_id(request, response), body.version)

    @app.post("/api/games/{game_id}/review")
    async def ask_review(game_id: str, request: Request, response: Response) -> ReviewAnswer:
        live = await hub().get(game_id)
        return await assist().reviews.request(live, player_id(request, response))

    @app.get("/api/games/{game_id}/review")
    async def get_review(game_id: str) -> ReviewAnswer:
        return await assist().reviews.status(await hub().get(game_id))

    @app.get("/api/games/{game_id}/review/record")
    async def review_record(game_id: str) -> PlainTextResponse:
        live = await hub().get(game_id)
        text = await assist().reviews.annotated(live)
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
        return await assist().puzzles.next(game, player_id(request, response), after)

    @app.get("/api/puzzles/{game}/{puzzle_id}")
    async def get_puzzle(
        game: str, puzzle_id: str, request: Request, response: Response
    ) -> PuzzleAnswer:
        return await assist().puzzles.get(game, puzzle_id, player_id(request, response))

    @app.post("/api/puzzles/{game}/{puzzle_id}/answer")
    async def answer_puzzle(
        game: str, puzzle_id: str, body: PuzzleTry, request: Request, response: Response
    ) -> PuzzleVerdict:
        me = player_id(request, response)
        return await assist().puzzles.answer(game, puzzle_id, me, body.move)


__all__ = ["Assist", "register"]
