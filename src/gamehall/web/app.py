"""The web app (FastAPI): the REST API, the game WebSocket and the single-page front end.

See docs/web-protocol.md for the contract. :func:`create_app` builds an app on a store URL;
tests give it a temporary SQLite file and, if they like, their own computer players.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import AsyncIterator
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
from gamehall.core import GamehallError, GamePlugin, find_plugin, game_class, make_record, plugins
from gamehall.store import Store
from gamehall.web.hub import AgentFactory, Connection, Hub, LiveGame, replay
from gamehall.web.protocol import (
    PROTOCOL_VERSION,
    CreateGame,
    Hello,
    Join,
    Ping,
    ProtocolError,
    Resync,
    error_message,
    parse_client_message,
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


def _meta() -> dict[str, Any]:
    games = []
    for name, plugin in plugins().items():
        cls = plugin.game
        entry: dict[str, Any] = {
            "name": cls.name,
            "title": cls.title,
            "summary": plugin.summary,
            "rules_version": cls.rules_version,
            "seats": list(cls.player_names),
            "options": [spec.describe() for spec in cls.option_specs],
            "board_module": f"/games/{name}/board.js" if plugin.board_module else None,
            "board_style": f"/games/{name}/board.css" if plugin.board_style else None,
            "rules": plugin.rules_text is not None,
        }
        games.append(entry)
    return {"protocol": PROTOCOL_VERSION, "games": games, "levels": list(LEVELS)}


def create_app(
    db: str | None = None,
    *,
    static_dir: Path | str | None = None,
    agent_factory: AgentFactory | None = None,
    processes: bool = False,
    agent_workers: int | None = None,
) -> FastAPI:
    """The gamehall web app on the store at ``db`` (a SQLAlchemy URL; default: SQLite in the
    user's data directory). ``processes`` runs computer players in a process pool (for CPU-bound
    search); an ``agent_factory`` (tests) runs on threads."""
    static = Path(static_dir) if static_dir is not None else STATIC_DIR
    holder: dict[str, Hub] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store = Store(db)
        hub = Hub(
            store,
            agent_factory=agent_factory,
            processes=processes,
            agent_workers=agent_workers,
        )
        await hub.start()
        holder["hub"] = hub
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(title="gamehall", lifespan=lifespan, docs_url=None, redoc_url=None)

    def hub() -> Hub:
        return holder["hub"]

    # --- errors as {"error": {code, message}} ---

    @app.exception_handler(ProtocolError)
    async def _protocol_error(_request: Request, error: ProtocolError) -> JSONResponse:
        return JSONResponse(
            {"error": {"code": error.code, "message": error.message}}, status_code=error.status
        )

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors()
        )
        return JSONResponse(
            {"error": {"code": "bad_request", "message": problems}}, status_code=400
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        return JSONResponse(
            {"error": {"code": code, "message": str(error.detail)}}, status_code=error.status_code
        )

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

    def created_answer(request: Request, live: LiveGame, you: frozenset[int]) -> dict[str, Any]:
        url = f"{base_url(request)}/game/{live.id}"
        answer: dict[str, Any] = {
            "id": live.id,
            "url": url,
            "seats": live.seats_json(presence=False),
            "you": sorted(you),
        }
        if live.row.mode == "online":
            others = [i for i, s in enumerate(live.row.seats) if s.kind == "human" and i not in you]
            if others:
                answer["invite"] = f"{url}?seat={live.row.seats[others[0]].token}"
        return answer

    # --- REST ---

    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        return _meta()

    @app.post("/api/games")
    async def create_game(body: CreateGame, request: Request, response: Response) -> dict[str, Any]:
        me = player_id(request, response)
        live, you = await hub().create(
            game_name=body.game,
            options=dict(body.options),
            mode=body.mode,
            seat=body.seat,
            level=body.level,
            player_id=me,
        )
        set_seat_cookie(response, live, you)
        return created_answer(request, live, you)

    @app.get("/api/games")
    async def list_games(request: Request, response: Response) -> dict[str, Any]:
        me = player_id(request, response)
        rows = await hub().db(hub().store.games_of, me)
        games = []
        for row in rows:
            try:
                cls = game_class(row.game)
                names = cls.player_names
            except GamehallError:
                continue
            summary: dict[str, Any] = {
                "id": row.id,
                "game": row.game,
                "mode": row.mode,
                "status": row.status,
                "created": row.created,
                "updated": row.updated,
                "version": row.version,
                "seats": [
                    {"index": i, "name": names[i], "kind": s.kind}
                    | ({"level": s.level} if s.level else {})
                    for i, s in enumerate(row.seats)
                ],
            }
            if row.result is not None:
                summary["result"] = row.result
            games.append(summary)
        return {"games": games}

    @app.get("/api/games/{game_id}")
    async def get_game(
        game_id: str, request: Request, response: Response, seat: str | None = None
    ) -> dict[str, Any]:
        live = await hub().get(game_id)
        you = await held_seats(request, response, live, seat)
        return live.state_message(you)

    @app.get("/api/games/{game_id}/record")
    async def get_record(game_id: str) -> PlainTextResponse:
        live = await hub().get(game_id)
        players = [
            f"computer ({s.level})" if s.kind == "computer" else "human" for s in live.row.seats
        ]
        date = live.row.created[:10].replace("-", ".")
        record = make_record(
            live.game,
            live.actions,
            players=players,
            date=date,
            final=live.state,
            extra={"Site": "gamehall web", "GameId": live.id},
        )
        filename = f"{live.game.name}-{live.id}.txt"
        return PlainTextResponse(
            str(record),
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @app.get("/api/games/{game_id}/replay")
    async def get_replay(game_id: str) -> dict[str, Any]:
        live = await hub().get(game_id)
        state = live.game.new_initial_state()
        states = [state.view()]
        movers = []
        for text in live.actions:
            movers.append(state.player_name())
            state = state.apply_trusted(live.game.parse_action(text))
            states.append(state.view())
        return {
            "id": live.id,
            "game": live.game.name,
            "seats": list(live.game.player_names),
            "actions": list(live.actions),
            "states": states,
            "movers": movers,
        }

    @app.post("/api/games/{game_id}/rematch")
    async def rematch(game_id: str, request: Request, response: Response) -> dict[str, Any]:
        live = await hub().get(game_id)
        held = await held_seats(request, response, live)
        new, you = await hub().rematch(live, held)
        set_seat_cookie(response, new, you)
        return created_answer(request, new, you)

    @app.post("/api/games/{game_id}/join")
    async def join(
        game_id: str, body: Join, request: Request, response: Response
    ) -> dict[str, Any]:
        live = await hub().get(game_id)
        joined = live.seats_of([body.seat])
        if not joined:
            raise ProtocolError("bad_seat_token", "that seat token is not one of this game's", 403)
        you = await held_seats(request, response, live, body.seat)
        return {"you": sorted(you)}

    def plugin_of(game: str) -> GamePlugin:
        try:
            return find_plugin(game)
        except GamehallError as error:
            raise ProtocolError("unknown_game", str(error), 404) from None

    @app.get("/api/rules/{game}")
    async def rules(game: str) -> PlainTextResponse:
        plugin = plugin_of(game)
        text = plugin.rules()
        if text is None:
            raise ProtocolError("no_rules", f"no rules text for {plugin.name}", 404)
        return PlainTextResponse(text, media_type="text/markdown; charset=utf-8")

    @app.get("/games/{game}/board.js", include_in_schema=False)
    async def board_module(game: str) -> Response:
        """A game's own board module, served from the game's package."""
        source = plugin_of(game).board_source()
        if source is None:
            raise ProtocolError("no_board", f"{game} has no board module", 404)
        return Response(source, media_type="text/javascript; charset=utf-8")

    @app.get("/games/{game}/board.css", include_in_schema=False)
    async def board_style(game: str) -> Response:
        """A game's board stylesheet, served from the game's package."""
        source = plugin_of(game).board_css()
        if source is None:
            raise ProtocolError("no_board", f"{game} has no board stylesheet", 404)
        return Response(source, media_type="text/css; charset=utf-8")

    # --- the WebSocket ---

    @app.websocket("/ws/games/{game_id}")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        try:
            live = await hub().get(game_id)
        except ProtocolError as error:
            await websocket.send_text(json.dumps(error_message(error.code, error.message, None)))
            await websocket.close(code=4404 if error.code == "unknown_game" else 1011)
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
                await _handle(live, connection, text)
        except WebSocketDisconnect:
            pass
        finally:
            await hub().detach(live, connection)

    async def _handle(live: LiveGame, connection: Connection, text: str | bytes) -> None:
        try:
            message = parse_client_message(text)
            if isinstance(message, Hello | Resync):
                connection.send(live.state_message(connection.seats))
            elif isinstance(message, Ping):
                connection.send({"type": "pong"})
            else:
                await hub().move(live, connection.seats, message)
        except ProtocolError as error:
            connection.send(error_message(error.code, error.message, live.version))
            if error.code == "stale_version":
                connection.send(live.state_message(connection.seats))

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

    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")
    return app


__all__ = ["create_app", "replay"]
