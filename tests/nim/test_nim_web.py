"""Nim over the web: the API describes it, and a hot-seat game plays to the end over the
WebSocket, with the generic board's data (the position text and the legal actions, items with
only their text and index, since Nim names no parts of its moves)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gamehall.core import Record
from gamehall.protocol import SERVER_MESSAGE
from gamehall.web.http.app import create_app
from tests.nim.game import NimGame


@pytest.fixture
def client(nim, tmp_path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'nim.sqlite3'}")
    with TestClient(app, base_url="http://localhost") as running:
        yield running


def legal_texts(state: dict[str, Any]) -> list[str]:
    """The legal actions' notation (a game without action parts: items of text, index and
    words, here the fallback "Mover: notation")."""
    assert all(set(item) == {"text", "index", "words"} for item in state["legal"])
    assert all(item["words"].endswith(": " + item["text"]) for item in state["legal"])
    return [item["text"] for item in state["legal"]]


def next_state(ws: Any) -> dict[str, Any]:
    """The next state message (presence messages come and go in between), checked against
    the protocol's models."""
    while True:
        text = ws.receive_text()
        SERVER_MESSAGE.validate_json(text, strict=True)
        message = json.loads(text)
        assert message["type"] != "error", message
        if message["type"] == "state":
            return message


def test_the_api_describes_nim_from_its_plugin_alone(client):
    (meta,) = [g for g in client.get("/api/meta").json()["games"] if g["name"] == "nim"]
    assert meta["seats"] == ["first", "second"]
    assert [o["name"] for o in meta["options"]] == ["heaps", "max_heap", "misere"]
    assert meta["board_module"] is None and meta["board_style"] is None  # the generic board
    assert client.get("/api/rules/nim").text.startswith("# Nim")
    missing = client.get("/games/nim/board.js")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_board"
    bad = client.post("/api/games", json={"game": "nim", "options": {"heaps": 9}})
    assert bad.status_code == 400 and "heaps" in bad.json()["error"]["message"]


def test_a_hot_seat_game_plays_to_the_end_over_the_websocket(client):
    options = {"heaps": 2, "max_heap": 3, "misere": True}
    created = client.post("/api/games", json={"game": "nim", "options": options, "mode": "hotseat"})
    assert created.status_code == 200, created.text
    game_id, game = created.json()["id"], NimGame(**options)
    assert created.json()["you"] == [0, 1]
    rng = random.Random(2)
    with client.websocket_connect(f"ws://localhost/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "version": -1})
        state = next_state(ws)
        assert state["actions"][:2] == [a for a in state["actions"] if a.startswith("deal")]
        while not state["over"]:
            position = game.parse_state(state["position"])
            legal = legal_texts(state)
            assert legal == [str(a) for a in position.legal_actions()]
            assert state["view"]["position"] == state["position"]  # what the generic board shows
            action = rng.choice(legal)
            ws.send_json({"type": "move", "version": state["version"], "action": action})
            new = next_state(ws)
            assert new["version"] == state["version"] + 1
            mover = state["to_move"]
            told = f"{('First', 'Second')[mover]}: {action}"  # nim has no words of its own
            assert new["last"] == {
                "text": action,
                "mover": mover,
                "words": told,
                "chapter": "",
                "end": "",
            }
            assert new["movers"][-1] == state["to_move"]
            state = new
    assert state["outcome"]["result"] in ("1-0", "0-1") and "misère" in state["outcome"]["reason"]
    assert legal_texts(state) == [] and state["to_move"] is None
    record = Record.parse(client.get(f"/api/games/{game_id}/record").text)
    assert record.tags["Variant"] == "heaps=2 max_heap=3 misere=true"
    assert str(record.replay()[-1]) == state["position"]
    replay = client.get(f"/api/games/{game_id}/replay").json()
    assert [s["position"] for s in replay["states"]][-1] == state["position"]
    assert len(replay["states"]) == state["version"] + 1
