"""The hall's test kit over REST and the lobby WebSocket: a cheap password hasher, accounts,
seeks, lobby rounds when told, and refusals checked by status and code (the hall tests in
tests/web/http share it; the ``hall_server`` fixture is tests/web/http/conftest.py's)."""

from __future__ import annotations

import json
from typing import Any

import anyio
from argon2 import PasswordHasher

from gamehall.protocol.hall import LOBBY_SERVER_MESSAGE
from gamehall.web.hall.accounts import Passwords

PASSWORD = "correct horse battery"
CHEAP = Passwords(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))


def tick(server: Any, now: float | None = None) -> None:
    server.client.portal.call(server.app.state.hall.tick, now)


def lobby_receive(ws: Any, kind: str, timeout: float = 20) -> dict[str, Any]:
    """The next lobby message of type ``kind``, each checked against the protocol."""

    async def next_message() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    while True:
        message = ws.portal.call(next_message)
        ws._raise_on_close(message)
        LOBBY_SERVER_MESSAGE.validate_json(message["text"], strict=True)
        data = json.loads(message["text"])
        if data["type"] == kind:
            return data


def lobby_until(ws: Any, check: Any) -> dict[str, Any]:
    while True:
        message = lobby_receive(ws, "lobby")
        if check(message):
            return message


def refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code, error
    return error


def signed_up(server: Any, name: str) -> Any:
    browser = server.browser()
    answer = browser.post("/api/account/signup", json={"username": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"name": name, "account": True, "sessions": 1, "bot": False}
    return browser


def seek(browser: Any, **body: Any) -> Any:
    return browser.post("/api/seeks", json={"game": "nim", "clock": "5+3", **body})


def wait_for(server: Any, check: Any) -> None:
    """Until ``check()`` holds, giving the server's loop turns of 20 ms (at most 5 s): for what
    the hall does in the background with no message to wait on."""
    for _ in range(250):
        if check():
            return
        server.client.portal.call(anyio.sleep, 0.02)
    raise AssertionError("it did not happen")


def counted(server: Any, game_id: str) -> bool:
    """Whether the hall has looked at the ended game (rated it, or set it aside)."""
    hall = server.app.state.hall
    return bool(server.client.portal.call(hall.db, hall.store.hall_game, game_id)[2])


def take_one(server: Any, sockets: dict[int, Any], state: dict[str, Any]) -> dict[str, Any]:
    """The seat to move takes one object (a Nim game goes on as long as it can); the next state,
    as every socket hears it (the first socket's)."""
    mover = state["to_move"]
    item = next(item for item in state["legal"] if item["text"].startswith("take 1 "))
    sockets[mover].send_json({"type": "move", "version": state["version"], "action": item["text"]})
    news = [server.receive_state(ws, state["version"] + 1) for ws in sockets.values()]
    return news[0]
