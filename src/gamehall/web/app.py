"""The web app (FastAPI): the REST API, the game WebSocket and the single-page front end.

See docs/web-protocol.md for the contract. :func:`create_app` builds an app on a store URL;
tests give it a temporary SQLite file and, if they like, their own computer players.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from gamehall.ai import LEVELS
from gamehall.core import GamehallError, GamePlugin, find_plugin, game_class, plugins
from gamehall.store import Store
from gamehall.web import assist as assistance
from gamehall.web.computers import AgentFactory
from gamehall.web.engine import played_items
from gamehall.web.hub import Hub
from gamehall.web.live import Connection, LiveGame, seat_infos
from gamehall.web.protocol import (
    PROTOCOL_VERSION,
    CreatedAnswer,
    CreateGame,
    ErrorAnswer,
    ErrorBody,
    ErrorCode,
    ErrorMessage,
    GameInfo,
    GameList,
    GameSummary,
    Join,
    JoinAnswer,
    MetaAnswer,
    OptionInfo,
    OutcomeInfo,
    ProtocolError,
    ReplayAnswer,
    StateMessage,
)

STATIC_DIR = Path(__file__).parent / "static"
PLAYER_COOKIE = "gh_player"
COOKIE_AGE = 400 * 24 * 3600
_PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>gamehall</title>
<p>The gamehall front end is not installed (no <code>static/index.html</code>).
The API is at <a href="/api/meta">/api/meta</a>.</p>
"""


def seat_cookie_name(game_id: str) -> str:
    return f"gh_{game_id}"


def cookie_tokens(value: str | None) -> list[str]:
    """The tokens in a seat cookie: ``index:token`` pairs joined by ``.``."""
    if not value:
        return []
    tokens = []
    for pair in value.split("."):
        _, sep, token = pair.partition(":")
        if sep and token:
            tokens.append(token)
    return tokens


def _cookie_value(live: LiveGame, seats: frozenset[int]) -> str:
    return ".".join(f"{i}:{live.row.seats[i].token}" for i in sorted(seats))


def _request_tokens(cookies: dict[str, str], live: LiveGame, query_token: str | None) -> list[str]:
    tokens = cookie_tokens(cookies.get(seat_cookie_name(live.id)))
    if live.row.rematch_of:  # a rematch keeps each person's token (on the swapped seat)
        tokens += cookie_tokens(cookies.get(seat_cookie_name(live.row.rematch_of)))
    if query_token:
        tokens.append(query_token)
    return tokens


def _meta() -> MetaAnswer:
    games = []
    for name, plugin in plugins().items():
        cls = plugin.game
        games.append(
            GameInfo(
                name=cls.name,
                title=cls.title,
                summary=plugin.summary,
                rules_version=cls.rules_version,
                seats=list(cls.player_names),
                options=[OptionInfo(**spec.describe()) for spec in cls.option_specs],
                board_module=f"/games/{name}/board.js" if plugin.board_module else None,
                board_style=f"/games/{name}/board.css" if plugin.board_style else None,
                rules=plugin.rules_text is not None,
                puzzles=plugin.solver is not None and plugin.judgement is not None,
            )
        )
    return MetaAnswer(protocol=PROTOCOL_VERSION, games=games, levels=list(LEVELS))


def _error(code: ErrorCode, message: str, status: int) -> JSONResponse:
    body = ErrorAnswer(error=ErrorBody(code=code, message=message))
    return JSONResponse(body.model_dump(mode="json"), status_code=status)


def create_app(
    db: str | None = None,
    *,
    static_dir: Path | str | None = None,
    agent_factory: AgentFactory | None = None,
    processes: bool = False,
    agent_workers: int | None = None,
    puzzles_dir: Path | None = None,
    hint_seconds: float | None = None,
    review_budget: dict[str, float] | None = None,
    on_ready: Callable[[float], None] | None = None,
) -> FastAPI:
    """The gamehall web app on the store at ``db`` (a SQLAlchemy URL; default: SQLite in the
    user's data directory). ``processes`` runs computer players, hints and reviews in worker
    processes (for CPU-bound search), warmed before the app serves; an ``agent_factory`` (tests)
    runs on threads. ``puzzles_dir`` holds the puzzles offered beside each game's starter set
    (default: the user's data directory); ``hint_seconds`` and ``review_budget`` bound hints
    and reviews (defaults in :mod:`gamehall.web.hints` and :mod:`gamehall.web.review`);
    ``on_ready(seconds)`` is told when the app serves and how long the warm-up of its workers
    (computers first, then hints and reviews) took."""
    static = Path(static_dir) if static_dir is not None else STATIC_DIR
    holder: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store = Store(db)
        hub = Hub(
            store,
            agent_factory=agent_factory,
            processes=processes,
            agent_workers=agent_workers,
        )
        helper = assistance.Assist(
            hub,
            processes=processes,
            puzzles_dir=puzzles_dir,
            review_budget=review_budget,
            **({} if hint_seconds is None else {"hint_seconds": hint_seconds}),
        )
        helper.launch()
        await hub.start()
        await helper.start()
        # The hint and review workers warm up before the app serves too: warming while the first
        # games are played would slow their computer moves (the cores are shared) and make the
        # first hint wait for its worker.
        await helper.ready()
        holder["hub"], holder["assist"] = hub, helper
        app.state.hub, app.state.assist = hub, helper
        if on_ready is not None:
            on_ready(hub.warmed_in + helper.warmed_in)
        try:
            yield
        finally:
            await helper.stop()
            await hub.stop()

    app = FastAPI(title="gamehall", lifespan=lifespan, docs_url=None, redoc_url=None)

    def hub() -> Hub:
        return holder["hub"]  # type: ignore[no-any-return]

    # --- errors as {"error": {code, message}} ---

    @app.exception_handler(ProtocolError)
    async def _protocol_error(_request: Request, error: ProtocolError) -> JSONResponse:
        return _error(error.code, error.message, error.status)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors()
        )
        return _error(ErrorCode.BAD_REQUEST, problems, 400)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = {404: ErrorCode.NOT_FOUND, 405: ErrorCode.METHOD_NOT_ALLOWED}.get(
            error.status_code, ErrorCode.HTTP_ERROR
        )
        return _error(code, str(error.detail), error.status_code)

    # --- cookies ---

    def player_id(request: Request, response: Response) -> str:
        current = request.cookies.get(PLAYER_COOKIE)
        if (
            current
            and 8 <= len(current) <= 64
            and current.replace("-", "").replace("_", "").isalnum()
        ):
            return current
        new = secrets.token_urlsafe(12)
        response.set_cookie(
            PLAYER_COOKIE, new, max_age=COOKIE_AGE, httponly=True, samesite="lax", path="/"
        )
        return new

    def set_seat_cookie(response: Response, live: LiveGame, seats: frozenset[int]) -> None:
        response.set_cookie(
            seat_cookie_name(live.id),
            _cookie_value(live, seats),
            max_age=COOKIE_AGE,
            httponly=True,
            samesite="lax",
            path="/",
        )

    async def held_seats(
        request: Request, response: Response, live: LiveGame, query_token: str | None = None
    ) -> frozenset[int]:
        """The seats this browser holds; a seat known only from ``?seat=`` or a rematch's old
        cookie is written into this game's cookie."""
        seats = live.seats_of(_request_tokens(request.cookies, live, query_token))
        from_cookie = live.seats_of(cookie_tokens(request.cookies.get(seat_cookie_name(live.id))))
        if seats != from_cookie:
            set_seat_cookie(response, live, seats)
            me = player_id(request, response)
            for seat in seats - from_cookie:
                await hub().db(hub().store.add_holding, me, live.id, seat)
        return seats

    def base_url(request: Request) -> str:
        return str(request.base_url).rstrip("/")

    def created_answer(request: Request, live: LiveGame, you: frozenset[int]) -> CreatedAnswer:
        url = f"{base_url(request)}/game/{live.id}"
        invite = None
        if live.row.mode == "online":
            others = [i for i, s in enumerate(live.row.seats) if s.kind == "human" and i not in you]
            if others:
                invite = f"{url}?seat={live.row.seats[others[0]].token}"
        return CreatedAnswer(
            id=live.id, url=url, seats=live.seat_infos(), you=sorted(you), invite=invite
        )

    # --- REST ---

    @app.get("/api/meta")
    async def meta() -> MetaAnswer:
        return _meta()

    @app.post("/api/games")
    async def create_game(body: CreateGame, request: Request, response: Response) -> CreatedAnswer:
        me = player_id(request, response)
        start = None
        if body.start is not None:  # a position of a stored game, found by the server
            source = await hub().get(body.start.game_id)
            source.check_start(body.game, dict(body.options))
            start = (source.game, str(source.playable_position(body.start.step)))
        live, you = await hub().create(
            game_name=body.game,
            options=dict(body.options),
            mode=body.mode,
            seat=body.seat,
            level=body.level,
            player_id=me,
            start=start,
        )
        set_seat_cookie(response, live, you)
        return created_answer(request, live, you)

    @app.get("/api/games")
    async def list_games(request: Request, response: Response) -> GameList:
        me = player_id(request, response)
        rows = await hub().db(hub().store.games_of, me)
        games = []
        for row in rows:
            try:
                cls = game_class(row.game)
            except GamehallError:
                continue
            games.append(
                GameSummary(
                    id=row.id,
                    game=row.game,
                    rules_version=row.rules_version,
                    mode=row.mode,  # type: ignore[arg-type]
                    status=row.status,  # type: ignore[arg-type]
                    result=OutcomeInfo(**row.result) if row.result is not None else None,
                    created=row.created,
                    updated=row.updated,
                    version=row.version,
                    seats=seat_infos(cls, row),
                )
            )
        return GameList(games=games)

    @app.get("/api/games/{game_id}")
    async def get_game(
        game_id: str, request: Request, response: Response, seat: str | None = None
    ) -> StateMessage:
        live = await hub().get(game_id)
        you = await held_seats(request, response, live, seat)
        return live.state_message(you)

    @app.get("/api/games/{game_id}/record")
    async def get_record(game_id: str) -> PlainTextResponse:
        live = await hub().get(game_id)
        record = live.record()
        filename = f"{live.game.name}-{live.id}.txt"
        return PlainTextResponse(
            str(record),
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @app.get("/api/games/{game_id}/replay")
    async def get_replay(game_id: str) -> ReplayAnswer:
        live = await hub().get(game_id)
        game = live.game
        states = [state.view() for state in live.states()]
        return ReplayAnswer(
            id=live.id,
            game=game.name,
            seats=list(game.player_names),
            actions=played_items(game, live.actions, live.movers),
            states=states,
        )

    @app.post("/api/games/{game_id}/rematch")
    async def rematch(game_id: str, request: Request, response: Response) -> CreatedAnswer:
        live = await hub().get(game_id)
        held = await held_seats(request, response, live)
        new, you = await hub().rematch(live, held)
        set_seat_cookie(response, new, you)
        return created_answer(request, new, you)

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, body: Join, request: Request, response: Response) -> JoinAnswer:
        live = await hub().get(game_id)
        joined = live.seats_of([body.seat])
        if not joined:
            raise ProtocolError(
                ErrorCode.BAD_SEAT_TOKEN, "that seat token is not one of this game's"
            )
        you = await held_seats(request, response, live, body.seat)
        return JoinAnswer(you=sorted(you))

    def plugin_of(game: str) -> GamePlugin:
        try:
            return find_plugin(game)
        except GamehallError as error:
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, str(error)) from None

    @app.get("/api/rules/{game}")
    async def rules(game: str) -> PlainTextResponse:
        plugin = plugin_of(game)
        text = plugin.rules()
        if text is None:
            raise ProtocolError(ErrorCode.NO_RULES, f"no rules text for {plugin.name}")
        return PlainTextResponse(text, media_type="text/markdown; charset=utf-8")

    @app.get("/games/{game}/board.js", include_in_schema=False)
    async def board_module(game: str) -> Response:
        """A game's own board module, served from the game's package."""
        source = plugin_of(game).board_source()
        if source is None:
            raise ProtocolError(ErrorCode.NO_BOARD, f"{game} has no board module")
        return Response(source, media_type="text/javascript; charset=utf-8")

    @app.get("/games/{game}/board.css", include_in_schema=False)
    async def board_style(game: str) -> Response:
        """A game's board stylesheet, served from the game's package."""
        source = plugin_of(game).board_css()
        if source is None:
            raise ProtocolError(ErrorCode.NO_BOARD, f"{game} has no board stylesheet")
        return Response(source, media_type="text/css; charset=utf-8")

    assistance.register(
        app,
        hub=hub,
        assist=lambda: holder["assist"],
        player_id=player_id,
        held_seats=held_seats,
    )

    # --- the WebSocket ---

    @app.websocket("/ws/games/{game_id}")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        try:
            live = await hub().get(game_id)
        except ProtocolError as error:
            refusal = ErrorMessage(code=error.code, message=error.message, version=None)
            await websocket.send_text(refusal.model_dump_json())
            await websocket.close(code=4000 + error.status)  # 4404 no such game, 4409 rules
            return
        tokens = _request_tokens(websocket.cookies, live, websocket.query_params.get("seat"))
        connection = Connection(websocket, live.seats_of(tokens))
        hub().attach(live, connection)
        try:
            while True:
                event = await websocket.receive()
                if event["type"] == "websocket.disconnect":
                    break
                text = event.get("text")
                if text is None:
                    text = event.get("bytes") or b""
                await hub().receive(live, connection, text)
        except WebSocketDisconnect:
            pass
        finally:
            await hub().detach(live, connection)

    # --- the front end (a single-page app with client routing) ---

    def index() -> Response:
        page = static / "index.html"
        if page.is_file():
            return FileResponse(page, media_type="text/html")
        return HTMLResponse(_PLACEHOLDER)

    @app.get("/", include_in_schema=False)
    async def home() -> Response:
        return index()

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> Response:
        return index()

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> Response:
        return index()

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules_page(game: str) -> Response:
        return index()

    @app.get("/review/{game_id}", include_in_schema=False)
    async def review_page(game_id: str) -> Response:
        return index()

    @app.get("/puzzles/{game}", include_in_schema=False)
    async def puzzles_page(game: str) -> Response:
        return index()

    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")
    return app


__all__ = ["create_app"]
