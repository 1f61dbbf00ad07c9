"""A game stored under other rules than the server plays is refused, naming both versions:
409 ``rules_changed`` on REST and on the WebSocket, never a 500."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, update
from starlette.websockets import WebSocketDisconnect

from gamehall.core import game_class
from gamehall.store.tables import games_table


def _store_under_rules(db_url: str, game_id: str, version: str) -> None:
    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                update(games_table).where(games_table.c.id == game_id).values(rules_version=version)
            )
    finally:
        engine.dispose()


@pytest.mark.parametrize("mode", ["hotseat", "computer"])
def test_a_game_stored_under_other_rules_is_refused_everywhere(server_factory, db_url, mode):
    with server_factory() as server:
        created = server.client.post(
            "/api/games",
            json={"game": "acadmu", "options": {"target": 1}, "mode": mode, "level": "beginner"},
        ).json()
        game_id = created["id"]
        state = server.client.get(f"/api/games/{game_id}").json()
        assert state["rules_version"] == game_class("acadmu").rules_version == "1"
        cookies = dict(server.client.cookies.items())
    _store_under_rules(db_url, game_id, "0")

    with server_factory() as server:  # a server whose engine plays rules version 1
        client = server.browser()
        client.cookies.update(cookies)
        for method, path, body in [
            ("GET", f"/api/games/{game_id}", None),
            ("GET", f"/api/games/{game_id}/record", None),
            ("GET", f"/api/games/{game_id}/replay", None),
            ("POST", f"/api/games/{game_id}/rematch", None),
            ("POST", f"/api/games/{game_id}/join", {"seat": "whatever"}),
        ]:
            answer = client.request(method, path, json=body)
            assert answer.status_code == 409, (path, answer.text)
            error = answer.json()["error"]
            assert error["code"] == "rules_changed"
            assert "'0'" in error["message"] and "'1'" in error["message"]

        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            error = server.receive(ws)
            assert error["type"] == "error" and error["code"] == "rules_changed"
            assert error["version"] is None
            assert "'0'" in error["message"] and "'1'" in error["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                server.receive(ws)
            assert closed.value.code == 4409

        # The game is still listed (with the rules it was stored under), and left as it was.
        listed = client.get("/api/games").json()["games"]
        assert [(g["id"], g["rules_version"]) for g in listed] == [(game_id, "0")]
        assert server.stored(game_id) == (state["version"], state["actions"])
        # Other games are not affected.
        other = client.post("/api/games", json={"game": "acadmu", "mode": "hotseat"})
        assert other.status_code == 200
        assert client.get(f"/api/games/{other.json()['id']}").json()["rules_version"] == "1"
