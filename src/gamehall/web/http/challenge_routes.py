"""The challenges' routes: send one to a named player, list one's own, accept, decline, cancel
(REST on FastAPI; the rules are :class:`~gamehall.web.hall.challenges.Challenges`'), and what the
home page shows of the hall (``GET /api/hall/now``: a few live games and open seeks)."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI, Request, Response

from gamehall.protocol import CreatedAnswer
from gamehall.protocol.challenges import ChallengeInfo, ChallengeList, CreateChallenge
from gamehall.protocol.hall import HallNow
from gamehall.web.hall.hall import Hall
from gamehall.web.hall.players import Me
from gamehall.web.http.hall_routes import CreatedFor, current

HOME_SHOWN = 6
"""Live games and open seeks the home page shows (each)."""


def add_challenge_routes(app: FastAPI, hall_of: Callable[[], Hall], created: CreatedFor) -> None:
    """Add the challenges' routes to ``app``; ``created`` answers the accepted challenge's new
    game as ``POST /api/games`` does."""
    router = app  # routes straight on the app: the answer models stay visible to its checks

    def address(request: Request) -> str:
        return request.client.host if request.client else "unknown"

    async def caller(request: Request, response: Response) -> tuple[Hall, Me]:
        """The hall and who sent the request: every route starts here."""
        hall = hall_of()
        return hall, await current(hall, request, response)

    @router.get("/api/hall/now")
    async def hall_now(request: Request, response: Response) -> HallNow:
        hall, me = await caller(request, response)
        seeks = list(hall.lobby.seeks.values())[:HOME_SHOWN]
        return HallNow(
            games=hall.live_games()[:HOME_SHOWN],
            seeks=[hall.seek_info(seek, me) for seek in seeks],
        )

    @router.post("/api/challenges", status_code=201)
    async def send_challenge(
        body: CreateChallenge, request: Request, response: Response
    ) -> ChallengeInfo:
        hall, me = await caller(request, response)
        return await hall.challenge(me, body, address(request))

    @router.get("/api/challenges")
    async def list_challenges(request: Request, response: Response) -> ChallengeList:
        hall, me = await caller(request, response)
        return await hall.challenge_list(me)

    @router.post("/api/challenges/{challenge_id}/accept")
    async def accept_challenge(
        challenge_id: str, request: Request, response: Response
    ) -> CreatedAnswer:
        hall, me = await caller(request, response)
        live, seat = await hall.accept_challenge(me, challenge_id[:64])
        return created(request, response, live, frozenset({seat}), me.id)

    @router.post("/api/challenges/{challenge_id}/decline")
    async def decline_challenge(
        challenge_id: str, request: Request, response: Response
    ) -> ChallengeInfo:
        hall, me = await caller(request, response)
        return await hall.decline_challenge(me, challenge_id[:64])

    @router.post("/api/challenges/{challenge_id}/cancel")
    async def cancel_challenge(
        challenge_id: str, request: Request, response: Response
    ) -> ChallengeInfo:
        hall, me = await caller(request, response)
        return await hall.cancel_challenge(me, challenge_id[:64])


__all__ = ["HOME_SHOWN", "add_challenge_routes"]
