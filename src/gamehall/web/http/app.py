"""The web app (FastAPI): the REST API, the game WebSocket and the single-page front end.

See docs/web-protocol.md for the contract. :func:`create_app` builds an app on a store URL and
its :class:`~gamehall.web.base.settings.Settings`; tests give it a temporary SQLite file and, if they
like, their own computer players. Every request first passes the edge
(:mod:`gamehall.web.http.security`: headers, origin, body size); a browser is one identity cookie
(:mod:`gamehall.web.http.identity`) and the seats it holds are the server's to say.
"""

from __future__ import annotations

import asyncio
import contextlib
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

from gamehall.ai import LEVEL_RATING_NOTE, LEVEL_WORDS, LEVELS
from gamehall.core import GamehallError, GamePlugin, find_plugin, game_class, plugins
from gamehall.protocol import (
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
    HowToAnswer,
    HowToDiagram,
    HowToText,
    InviteAnswer,
    Join,
    JoinAnswer,
    MetaAnswer,
    OptionInfo,
    OutcomeInfo,
    PlayedAction,
    ProtocolError,
    ReadyAnswer,
    ReplayAnswer,
    StateMessage,
)
from gamehall.store import HallStore, Store
from gamehall.store.db import default_url
from gamehall.store.postgres_bus import bus_for
from gamehall.web.base.clock import Clock
from gamehall.web.base.engine import diagram_info, game_of, played_items
from gamehall.web.base.settings import Settings
from gamehall.web.compute.analysis import position_start
from gamehall.web.compute.computers import AgentFactory
from gamehall.web.hall.accounts import Passwords, token_hash
from gamehall.web.hall.hall import LEADERBOARD_MAX_DEVIATION, LEADERBOARD_MIN_GAMES, TICK, Hall
from gamehall.web.http import assist as assistance
from gamehall.web.http.challenge_routes import add_challenge_routes
from gamehall.web.http.hall_routes import add_hall_routes, browser_identity, current
from gamehall.web.http.identity import Identity, ensure_identity, session_token
from gamehall.web.http.me_routes import add_me_routes
from gamehall.web.http.security import Edge
from gamehall.web.http.signing import signer_for
from gamehall.web.play.hub import Hub
from gamehall.web.play.live import Connection, LiveGame, seat_infos

STATIC_DIR = Path(__file__).parent.parent / "static"
_PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>gamehall</title>
<p>The gamehall front end is not installed (no <code>static/index.html</code>).
The API is at <a href="/api/meta">/api/meta</a>.</p>
"""
_API_PREFIXES = ("/api/", "/ws/", "/games/")
"""Paths whose errors are JSON; every other unknown path shows the app's not-found page."""


def _meta() -> MetaAnswer:
    games = []
    for name, plugin in plugins().items():
        cls = plugin.game
        games.append(
            GameInfo(
                name=cls.name,
                title=cls.title,
                summary=plugin.summary,
                duration=plugin.duration,
                sample=diagram_info(game_of(name, {}), plugin.sample) if plugin.sample else None,
                how_to_play=plugin.how_to_play is not None,
                rules_version=cls.rules_version,
                seats=list(cls.player_names),
                options=[OptionInfo(**spec.describe()) for spec in cls.option_specs],
                board_module=f"/games/{name}/board.js" if plugin.board_module else None,
                board_style=f"/games/{name}/board.css" if plugin.board_style else None,
                editor_module=f"/games/{name}/editor.js" if plugin.editor_module else None,
                rules=plugin.rules_text is not None,
                puzzles=plugin.solver is not None and plugin.judgement is not None,
                level_ratings=plugin.level_ratings_table(),
                level_intervals=plugin.level_intervals_table(),
                level_words={**LEVEL_WORDS, **plugin.load_level_words()},
                level_note=" ".join(
                    note for note in (LEVEL_RATING_NOTE, plugin.load_level_note()) if note
                ),
            )
        )
    return MetaAnswer(protocol=PROTOCOL_VERSION, games=games, levels=list(LEVELS))


def _error(code: ErrorCode, message: str, status: int) -> JSONResponse:
    body = ErrorAnswer(error=ErrorBody(code=code, message=message))
    return JSONResponse(body.model_dump(mode="json"), status_code=status)


def loop_time() -> float:
    """The event loop's clock."""
    return asyncio.get_running_loop().time()


async def _warmed(hub: Hub, helper: Any, on_warm: Callable[[float], None] | None) -> None:
    """Wait for the workers' warm-up, then tell ``on_warm`` how long it took."""
    seconds = await hub.warm()
    await helper.ready()
    if on_warm is not None:
        on_warm(seconds)


GETTING_READY = "The computer is getting ready…"
"""What a player is shown while the workers warm up (``GET /api/ready``)."""
READY_WAIT = 20.0
"""The longest ``GET /api/ready?wait=true`` waits before it answers "not ready" (the page asks
again)."""


def create_app(
    db: str | None = None,
    *,
    settings: Settings | None = None,
    static_dir: Path | str | None = None,
    agent_factory: AgentFactory | None = None,
    processes: bool = False,
    agent_workers: int | None = None,
    puzzles_dir: Path | None = None,
    hint_seconds: float | None = None,
    review_budget: dict[str, float] | None = None,
    on_ready: Callable[[float], None] | None = None,
    on_warm: Callable[[float], None] | None = None,
    on_stop: Callable[[], None] | None = None,
    clock: Clock | None = None,
    leaderboard: tuple[int, float] = (LEADERBOARD_MIN_GAMES, LEADERBOARD_MAX_DEVIATION),
    passwords: Passwords | None = None,
    lobby_tick: float | None = TICK,
) -> FastAPI:
    """The gamehall web app on the store at ``db`` (a SQLAlchemy URL; default: SQLite in the
    user's data directory) with ``settings`` (default: :class:`Settings`). ``processes`` runs
    computer players, hints and reviews in worker processes (for CPU-bound search), warmed
    in the background while the app serves (what needs one waits for it) and bounded like
    computer moves; an ``agent_factory`` (tests) runs
    on threads. ``puzzles_dir`` holds the puzzles offered beside each game's starter set
    (default: the user's data directory); ``hint_seconds`` and ``review_budget`` bound hints
    and reviews (defaults in :mod:`gamehall.web.compute.hints` and :mod:`gamehall.web.compute.review`);
    ``on_ready(seconds)`` is told when the app serves (within a second or two: its workers warm
    up in the background, and a computer move or hint asked for meanwhile waits for them) and
    how long its start took, ``on_warm(seconds)`` once the workers are warm and how long their
    warm-up took, and ``on_stop()`` when it stops serving; ``clock`` (tests) is the time the server
    measures clocks and pauses with (default: the wall clock)."""
    static = Path(static_dir) if static_dir is not None else STATIC_DIR
    config = settings or Settings()
    holder: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store = Store(db)
        hub = Hub(
            store,
            settings=config,
            agent_factory=agent_factory,
            processes=processes,
            agent_workers=agent_workers,
            bus=bus_for(store.url, store.is_postgresql),
            clock=clock,
        )
        hall = Hall(
            hub,
            store=HallStore(store),
            passwords=passwords,
            leaderboard=leaderboard,
            tick=lobby_tick,
        )
        helper = assistance.Assist(
            hub,
            puzzles_dir=puzzles_dir,
            review_budget=review_budget,
            **({} if hint_seconds is None else {"hint_seconds": hint_seconds}),
        )
        started = loop_time()
        await hub.start()
        await hall.start()
        await helper.start()
        holder["hub"], holder["hall"], holder["assist"] = hub, hall, helper
        app.state.hub, app.state.hall, app.state.assist = hub, hall, helper
        # The workers (computer moves, hints, reviews) warm up in the background: the pages are
        # served at once, and what needs a worker waits for it ("The computer is getting ready…",
        # GET /api/ready).
        warming = asyncio.get_running_loop().create_task(_warmed(hub, helper, on_warm))
        if on_ready is not None:
            on_ready(loop_time() - started)
        try:
            yield
        finally:
            if on_stop is not None:
                on_stop()
            warming.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await warming
            await helper.stop()
            await hall.stop()
            await hub.stop()

    app = FastAPI(title="gamehall", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.settings = config
    app.state.signer = signer_for(db or default_url())
    app.add_middleware(Edge, settings=config)

    def hub() -> Hub:
        return holder["hub"]  # type: ignore[no-any-return]

    def hall() -> Hall:
        return holder["hall"]  # type: ignore[no-any-return]

    # --- errors as {"error": {code, message}} ---

    @app.exception_handler(ProtocolError)
    async def _protocol_error(_request: Request, error: ProtocolError) -> JSONResponse:
        return _error(error.code, error.message, error.status)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, error: RequestValidationError) -> JSONResponse:
        errors = error.errors()
        for problem in errors:
            if problem.get("type") == "bad_text":
                return _error(ErrorCode.BAD_TEXT, str(problem["msg"]), 400)
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in errors)
        return _error(ErrorCode.BAD_REQUEST, problems, 400)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code == 404 and not request.url.path.startswith(_API_PREFIXES):
            return index(request, status_code=404)  # the app's own not-found page
        code = {404: ErrorCode.NOT_FOUND, 405: ErrorCode.METHOD_NOT_ALLOWED}.get(
            error.status_code, ErrorCode.HTTP_ERROR
        )
        return _error(code, str(error.detail), error.status_code)

    # --- who is asking ---

    async def holder_key(request: Request, response: Response, keep: bool = False) -> str:
        """Whom the seats of this request are held by: the signed-in account's player, or the
        browser's identity (its key; a browser without one is given one). ``keep``: the
        request takes a seat, so a guest is stored as a player."""
        return (await current(hall(), request, response, keep=keep)).id

    def address(request: Request) -> str:
        return request.client.host if request.client is not None else ""

    def base_url(request: Request) -> str:
        return str(request.base_url).rstrip("/")

    def invite_url(request: Request, live: LiveGame, player_id: str | None) -> str | None:
        seat = hub().invite_seat(live, player_id)
        if seat is None:
            return None
        return f"{base_url(request)}/game/{live.id}?seat={live.row.seats[seat].token}"

    def created_answer(
        request: Request, live: LiveGame, you: frozenset[int], player_id: str
    ) -> CreatedAnswer:
        return CreatedAnswer(
            id=live.id,
            url=f"{base_url(request)}/game/{live.id}",
            seats=live.seat_infos(),
            you=sorted(you),
            invite=invite_url(request, live, player_id),
        )

    def created_for(
        request: Request, response: Response, live: LiveGame, you: frozenset[int], key: str
    ) -> CreatedAnswer:
        return created_answer(request, live, you, key)

    add_hall_routes(app, hall, created_for)
    add_me_routes(app, hub, hall)
    add_challenge_routes(app, hall, created_for)

    # --- REST ---

    @app.get("/api/meta")
    async def meta() -> MetaAnswer:
        return _meta()

    @app.get("/api/ready")
    async def ready(wait: bool = False) -> ReadyAnswer:
        computers = hub().computers
        if wait and not computers.ready:
            with contextlib.suppress(Exception):  # a timeout: not ready yet
                await asyncio.wait_for(asyncio.shield(computers.warm()), READY_WAIT)
        if computers.ready:
            return ReadyAnswer(ready=True, message="")
        return ReadyAnswer(ready=False, message=GETTING_READY)

    @app.post("/api/games")
    async def create_game(body: CreateGame, request: Request, response: Response) -> CreatedAnswer:
        me = await holder_key(request, response, keep=True)
        start = None
        if body.start is not None:  # a position of a stored game, found by the server
            source = await hub().get(body.start.game_id)
            source.check_start(body.game, dict(body.options))
            start = (source.game, str(source.playable_position(body.start.step)))
            if body.position is not None:
                raise ProtocolError(
                    ErrorCode.BAD_START, "start from a stored game or a position text, not both"
                )
        elif body.position is not None:  # a position of the analysis board, checked as such
            start = position_start(body.game, dict(body.options), body.position, config)
        live, you = await hub().create(
            game_name=body.game,
            options=dict(body.options),
            mode=body.mode,
            seat=body.seat,
            level=body.level,
            player_id=me,
            start=start,
            address=address(request),
            clock=body.clock,
        )
        return created_answer(request, live, you, me)

    @app.get("/api/games")
    async def list_games(request: Request, response: Response) -> GameList:
        me = await holder_key(request, response)
        rows = await hub().db(hub().store.games_of, me)
        games = []
        for row in rows:
            try:
                cls = game_class(row.game)
            except GamehallError:
                continue
            live = hub().games.get(row.id)
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
                    seats=seat_infos(
                        cls, row, live.players if live else None, live.bots if live else frozenset()
                    ),
                    clock=row.clock,
                )
            )
        return GameList(games=games)

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str, request: Request, response: Response) -> StateMessage:
        live = await hub().get(game_id)
        you = live.seats_for(await holder_key(request, response))
        return live.state_message(you, hub().clock.now())

    @app.get("/api/games/{game_id}/invite")
    async def get_invite(game_id: str, request: Request, response: Response) -> InviteAnswer:
        live = await hub().get(game_id)
        return InviteAnswer(invite=invite_url(request, live, await holder_key(request, response)))

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
        texts = list(live.actions)

        def replay() -> tuple[list[dict[str, object]], list[PlayedAction]]:  # off the event loop
            states = live.states()
            return [state.view() for state in states], played_items(states, texts)

        views, items = await asyncio.to_thread(replay)
        return ReplayAnswer(
            id=live.id, game=game.name, seats=list(game.player_names), actions=items, states=views
        )

    @app.post("/api/games/{game_id}/rematch")
    async def rematch(game_id: str, request: Request, response: Response) -> CreatedAnswer:
        live = await hub().get(game_id)
        me = await holder_key(request, response, keep=True)
        new, you = await hub().rematch(live, live.seats_for(me), me, address(request))
        return created_answer(request, new, you, me)

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, body: Join, request: Request, response: Response) -> JoinAnswer:
        live = await hub().get(game_id)
        you = await hub().claim(live, await holder_key(request, response, keep=True), body.seat)
        await hall().seats_changed(live)  # the seat shows its player's name
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

    @app.get("/api/howto/{game}")
    async def how_to_play(game: str) -> HowToAnswer:
        plugin = plugin_of(game)
        page = plugin.how_to_play_page()
        if page is None:
            raise ProtocolError(ErrorCode.NO_RULES, f"no How to play page for {plugin.name}")
        played = game_of(plugin.name, {})
        parts = [
            HowToText(markdown=part)
            if isinstance(part, str)
            else HowToDiagram(diagram=diagram_info(played, part))
            for part in page
        ]
        return HowToAnswer(
            game=plugin.name,
            title=plugin.game.title,
            summary=plugin.summary,
            duration=plugin.duration,
            parts=parts,
            rules=plugin.rules_text is not None,
        )

    @app.get("/games/{game}/board.js", include_in_schema=False)
    async def board_module(game: str) -> Response:
        """A game's own board module, served from the game's package."""
        source = plugin_of(game).board_source()
        if source is None:
            raise ProtocolError(ErrorCode.NO_BOARD, f"{game} has no board module")
        return Response(source, media_type="text/javascript; charset=utf-8")

    @app.get("/games/{game}/editor.js", include_in_schema=False)
    async def editor_module(game: str) -> Response:
        """A game's position editor for the analysis board, served from the game's package."""
        source = plugin_of(game).editor_source()
        if source is None:
            raise ProtocolError(ErrorCode.NO_BOARD, f"{game} has no position editor")
        return Response(source, media_type="text/javascript; charset=utf-8")

    @app.get("/games/{game}/board.css", include_in_schema=False)
    async def board_style(game: str) -> Response:
        """A game's board stylesheet, served from the game's package."""
        source = plugin_of(game).board_css()
        if source is None:
            raise ProtocolError(ErrorCode.NO_BOARD, f"{game} has no board stylesheet")
        return Response(source, media_type="text/css; charset=utf-8")

    async def held_seats(request: Request, response: Response, live: LiveGame) -> frozenset[int]:
        """The seats of ``live`` held by whoever asks (kept on the server)."""
        return live.seats_for(await holder_key(request, response))

    async def signed_in(request: Request, response: Response) -> bool:
        return (await current(hall(), request, response)).signed_in

    assistance.register(
        app,
        hub=hub,
        assist=lambda: holder["assist"],
        player_id=holder_key,
        held_seats=held_seats,
        signed_in=signed_in,
        address=address,
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
        found = Identity.of(websocket)
        key = found.key if found is not None else None
        token, session = session_token(websocket), None
        if token is not None:  # signed in: the seats are the account's
            acting = await hall().me(key, token)
            if acting.signed_in:
                key, session = acting.id, token_hash(token)  # it closes when the session ends
        host = websocket.client.host if websocket.client is not None else ""
        connection = Connection(
            websocket, live.seats_for(key), identity=key, address=host, session=session
        )
        try:
            hub().attach(live, connection)
        except ProtocolError as error:
            refusal = ErrorMessage(code=error.code, message=error.message, version=None)
            await websocket.send_text(refusal.model_dump_json())
            await websocket.close(code=1013)
            return
        largest = config.max_message_bytes
        try:
            while True:
                event = await websocket.receive()
                if event["type"] == "websocket.disconnect":
                    break
                text = event.get("text")
                if text is None:
                    text = event.get("bytes") or b""
                if len(text) > largest:  # uvicorn refuses these first (ws_max_size)
                    await websocket.close(code=1009)
                    break
                await hub().receive(live, connection, text)
                # Frames already buffered are received without giving way: a flood would hold
                # the loop for all of them. One turn each, as every other client gets.
                await asyncio.sleep(0)
        except WebSocketDisconnect:
            pass
        finally:
            await hub().detach(live, connection)

    # --- the front end (a single-page app with client routing) ---

    def index(request: Request, status_code: int = 200) -> Response:
        """The app's page. A browser seen for the first time gets its identity cookie here,
        before any of the page's scripts asks the API: requests sent at once from a page
        without one would each be given a different identity, and seats held by one of them
        would be lost when another's cookie replaced it."""
        page = static / "index.html"
        response: Response
        if page.is_file():
            response = FileResponse(page, media_type="text/html", status_code=status_code)
        else:
            response = HTMLResponse(_PLACEHOLDER, status_code=status_code)
        if Identity.unsigned(request) is None:  # an older server's cookie: page() decides
            ensure_identity(request, response, config)
        return response

    async def page(request: Request) -> Response:
        response = index(request)
        if Identity.unsigned(request) is not None:  # signed if the store knows it, else new
            await browser_identity(hall(), request, response)
        return response

    for path in (
        "/",
        "/game/{game_id}",
        "/replay/{game_id}",
        "/rules/{game}",
        "/howto/{game}",
        "/lobby",
        "/player/{name}",
        "/leaderboard",
        "/leaderboard/{game}",
        "/signin",
        "/signup",
        "/your-move",
        "/review/{game_id}",
        "/puzzles/{game}",
        "/analysis/{game}",
    ):  # the client routes: every one is the app's page, which routes itself
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")
    return app


__all__ = ["create_app"]
