"""What the header asks of the server: the games where it is the caller's move
(``GET /api/me/turns``) and the rules of a username and a password (``GET /api/account/rules``,
for the sign-up and sign-in pages)."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI, Request, Response

from gamehall.core import GamehallError, game_class
from gamehall.protocol.hall import AccountRules, TurnGame, TurnsAnswer
from gamehall.web.hall.hall import Hall
from gamehall.web.hall.signin import account_rules
from gamehall.web.http.hall_routes import current
from gamehall.web.play.hub import Hub
from gamehall.web.play.turns import Turns

TURNS_LOOKED = 50
"""The most recently moved ongoing games ``GET /api/me/turns`` looks at."""


def add_me_routes(app: FastAPI, hub_of: Callable[[], Hub], hall_of: Callable[[], Hall]) -> None:
    """Add ``GET /api/me/turns`` and ``GET /api/account/rules`` to ``app``."""
    turns: dict[int, Turns] = {}  # per hub (a test may start the app more than once)

    def turns_of(hub: Hub) -> Turns:
        if id(hub) not in turns:
            turns.clear()
            turns[id(hub)] = Turns(hub)
        return turns[id(hub)]

    @app.get("/api/me/turns")
    async def my_turns(request: Request, response: Response) -> TurnsAnswer:
        hub, hall = hub_of(), hall_of()
        me = await current(hall, request, response)
        held = await hub.db(hub.store.ongoing_held, me.id, TURNS_LOOKED)
        games: list[TurnGame] = []
        for row, seats in held:
            try:
                names = game_class(row.game).player_names
            except GamehallError:
                continue
            seat = await turns_of(hub).to_move(row)
            if seat is None or seat not in seats:
                continue
            players = await hall.db(hall.store.seat_players, row.id)
            opponents = [
                f"computer ({other.level})"
                if other.kind == "computer"
                else players.get(index, ("", "nobody yet"))[1]
                for index, other in enumerate(row.seats)
                if index not in seats
            ]
            games.append(
                TurnGame(
                    id=row.id,
                    game=row.game,
                    mode=row.mode,
                    seat=seat,
                    seat_name=names[seat],
                    opponents=opponents,
                    clock=row.clock,
                    version=row.version,
                    updated=row.updated,
                    url=f"/game/{row.id}",
                )
            )
        return TurnsAnswer(count=len(games), games=games, looked=len(held))

    @app.get("/api/account/rules")
    async def rules() -> AccountRules:
        return account_rules()


__all__ = ["TURNS_LOOKED", "add_me_routes"]
