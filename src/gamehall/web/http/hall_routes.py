"""The hall's routes: players and names, accounts, seeks, the lobby WebSocket, profiles and
leaderboards (REST on FastAPI; the rules are :class:`~gamehall.web.hall.hall.Hall`'s)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from fastapi import FastAPI, Request, Response, WebSocket
from starlette.requests import HTTPConnection
from starlette.routing import Route
from starlette.websockets import WebSocketDisconnect

from gamehall.core import GamehallError, game_class
from gamehall.protocol import CreatedAnswer, ErrorCode, OutcomeInfo, ProtocolError
from gamehall.protocol.hall import (
    BotCreated,
    BotSignup,
    CreateSeek,
    Credentials,
    GamePlayer,
    LeaderboardAnswer,
    Logout,
    MeAnswer,
    NameChange,
    ProfileAnswer,
    ProfileGame,
    SeekInfo,
    SeekList,
)
from gamehall.web.hall.accounts import token_hash
from gamehall.web.hall.hall import Hall, Me
from gamehall.web.hall.names import name_key
from gamehall.web.http.identity import (
    Identity,
    browser_marker,
    clear_cookies,
    ensure_identity,
    ensure_marker,
    session_token,
    set_identity_cookie,
    set_session_cookie,
    signer_of,
)
from gamehall.web.play.live import Connection, LiveGame

PROFILE_GAMES = 30
CreatedFor = Callable[[Request, Response, LiveGame, frozenset[int], str], CreatedAnswer]


async def browser_identity(hall: Hall, request: Request, response: Response) -> Identity:
    """The browser's identity, given one (its cookie set on ``response``) if it has none. An
    unsigned cookie of a server from before signing is signed if the store knows its player
    (its games stay its own); otherwise it is replaced, like a made-up one."""
    settings = request.app.state.settings
    browser = Identity.of(request)
    older = Identity.unsigned(request) if browser is None else None
    if older is not None and await hall.known(older.key):
        set_identity_cookie(response, older, settings, signer_of(request))
        browser = older
    if browser is None:
        return ensure_identity(request, response, settings)  # the marker comes with it
    ensure_marker(request, response, settings)
    return browser


async def current(hall: Hall, request: Request, response: Response, *, keep: bool = False) -> Me:
    """Who sent the request (a browser seen for the first time gets its identity cookie): the
    signed-in account's player, or the browser's own, known by its identity's key. Only with
    ``keep`` (the request does something that needs a player) is a guest stored."""
    browser = await browser_identity(hall, request, response)
    me = await hall.me(browser.key, session_token(request), browser_marker(request))
    return await hall.keep(me) if keep else me


def identity_key(connection: HTTPConnection) -> str | None:
    """The key of the identity the request carries (None: it carries none)."""
    found = Identity.of(connection)
    return found.key if found is not None else None


def add_hall_routes(app: FastAPI, hall_of: Callable[[], Hall], created: CreatedFor) -> None:
    """Add the hall's routes to ``app``; ``created`` answers a new game as ``POST /api/games``
    does (and sets the seat cookie)."""
    router = app  # routes straight on the app: the answer models stay visible to its checks

    def address(request: Request) -> str:
        return request.client.host if request.client else "unknown"

    # --- the player ---

    @router.get("/api/me")
    async def get_me(request: Request, response: Response) -> MeAnswer:
        return await hall_of().me_answer(await current(hall_of(), request, response))

    @router.put("/api/me/name")
    async def rename(body: NameChange, request: Request, response: Response) -> MeAnswer:
        hall = hall_of()
        me = await hall.rename(await current(hall, request, response), body.name, address(request))
        return await hall.me_answer(me)

    # --- accounts ---

    @router.post("/api/account/signup")
    async def signup(body: Credentials, request: Request, response: Response) -> MeAnswer:
        hall = hall_of()
        me, token = await hall.signup(
            await current(hall, request, response), body.username, body.password, address(request)
        )
        set_session_cookie(response, token, request.app.state.settings)
        return await hall.me_answer(me)

    @router.post("/api/account/login")
    async def login(body: Credentials, request: Request, response: Response) -> MeAnswer:
        hall = hall_of()
        me, token = await hall.login(
            await current(hall, request, response), body.username, body.password, address(request)
        )
        set_session_cookie(response, token, request.app.state.settings)
        return await hall.me_answer(me)

    @router.post("/api/account/bots", status_code=201)
    async def make_bot(body: BotSignup, request: Request, response: Response) -> BotCreated:
        """A signed-in person makes a bot account (docs/bots.md); its token is shown once."""
        hall = hall_of()
        me = await current(hall, request, response)
        name, token = await hall.make_bot(me, body.name, address(request))
        return BotCreated(name=name, owner=me.player.name, token=token)

    @router.post("/api/account/logout")
    async def logout(request: Request, response: Response, body: Logout | None = None) -> MeAnswer:
        """Sign out; ``{"everywhere": true}`` ends every session of the account. The browser
        starts again as a new anonymous player (its old games went to the account)."""
        hall = hall_of()
        me = await hall.me(identity_key(request), session_token(request), browser_marker(request))
        await hall.logout(me, (body or Logout()).everywhere)
        clear_cookies(response, request.app.state.settings)
        fresh = await hall.me(None, None)
        return MeAnswer(name=fresh.player.name, account=False, sessions=None)

    # --- seeks ---

    @router.get("/api/seeks")
    async def list_seeks(request: Request, response: Response) -> SeekList:
        hall = hall_of()
        me = await current(hall, request, response)
        return SeekList(seeks=[hall.seek_info(s, me) for s in hall.lobby.seeks.values()])

    @router.post("/api/seeks", status_code=201)
    async def create_seek(body: CreateSeek, request: Request, response: Response) -> SeekInfo:
        hall = hall_of()
        me = await current(hall, request, response)
        return hall.seek_info(await hall.create_seek(me, body, address(request)), me)

    @router.delete("/api/seeks/{seek_id}")
    async def cancel_seek(seek_id: str, request: Request, response: Response) -> SeekInfo:
        hall = hall_of()
        me = await current(hall, request, response)
        return hall.seek_info(await hall.cancel_seek(me, seek_id[:64]), me)

    @router.post("/api/seeks/{seek_id}/accept")
    async def accept_seek(seek_id: str, request: Request, response: Response) -> CreatedAnswer:
        hall = hall_of()
        me = await current(hall, request, response)
        live, seat = await hall.accept_seek(me, seek_id[:64])
        return created(request, response, live, frozenset({seat}), me.id)

    # --- profiles and leaderboards ---

    @router.get("/api/players/{name}")
    async def profile(name: str, request: Request) -> ProfileAnswer:
        hall = hall_of()
        player = await hall.db(hall.store.player_by_name, name_key(name[:64]))
        if player is None or player.merged_into is not None:
            raise ProtocolError(ErrorCode.UNKNOWN_PLAYER, f"there is no player {name!r}")
        rows = await hall.db(hall.hub.store.games_of, player.id, PROFILE_GAMES)
        games = []
        for row in rows:
            try:
                seat_names = game_class(row.game).player_names
            except GamehallError:
                continue
            seated = await hall.db(hall.store.seat_players, row.id)
            bots = await hall.bots.among(name for _, name in seated.values())
            info = await hall.db(hall.store.hall_game, row.id)
            games.append(
                ProfileGame(
                    id=row.id,
                    game=row.game,
                    status=row.status,  # type: ignore[arg-type]
                    rated=bool(info and info[0]),
                    clock=info[1] if info else None,
                    result=OutcomeInfo(**row.result) if row.result else None,
                    seats=[
                        GamePlayer(
                            seat=index,
                            name=seat_names[index],
                            player=f"computer ({seat.level})"
                            if seat.kind == "computer"
                            else seated.get(index, (None, None))[1],
                            bot=seated.get(index, (None, ""))[1] in bots,
                        )
                        for index, seat in enumerate(row.seats)
                    ],
                    updated=row.updated,
                    replay=f"/replay/{row.id}",
                    review=review_url(request, row.id),
                )
            )
        return ProfileAnswer(
            name=player.name,
            account=player.account,
            bot=player.bot,
            created=player.created,
            ratings=await hall.ratings(player.id),
            games=games,
        )

    def review_url(request: Request, game_id: str) -> str | None:
        # A review page, where this server has one (it comes with the review front end).
        paths = {route.path for route in request.app.routes if isinstance(route, Route)}
        return f"/review/{game_id}" if "/review/{game_id}" in paths else None

    @router.get("/api/leaderboard/{game}")
    async def leaderboard(game: str) -> LeaderboardAnswer:
        return await hall_of().leaderboard(game[:64])

    # --- the lobby's WebSocket ---

    @router.websocket("/ws/lobby")
    async def lobby_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        hall = hall_of()
        me = await hall.me(
            identity_key(websocket), session_token(websocket), browser_marker(websocket)
        )
        session = token_hash(me.session) if me.session is not None else None
        connection = Connection(websocket, frozenset(), session=session)
        await hall.attach(me, connection)
        try:
            while True:
                event = await websocket.receive()
                if event["type"] == "websocket.disconnect":
                    break
                text = event.get("text")
                if text is None:
                    text = event.get("bytes") or b""
                await hall.receive(me, connection, text)
                # Frames already buffered are received without giving way: a flood would hold
                # the loop for all of them. One turn each, as every other client gets.
                await asyncio.sleep(0)
        except WebSocketDisconnect:
            pass
        finally:
            await hall.detach(me, connection)


__all__ = ["add_hall_routes", "browser_identity", "current"]
