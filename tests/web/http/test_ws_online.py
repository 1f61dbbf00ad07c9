"""Online play over the WebSocket: two seats, a spectator, every kind of bad message."""

from __future__ import annotations

import itertools
import random

import pytest

from gamehall.core import Record
from tests.web.web_helpers import hello, play_random


def _online_game(server, **options):
    """Create an online Äcädmü game: (game id, creator browser, invited browser, spectator)."""
    creator, guest, watcher = server.client, server.browser(), server.browser()
    answer = creator.post(
        "/api/games",
        json={"game": "acadmu", "options": {"target": 1, **options}, "mode": "online"},
    ).json()
    assert answer["you"] == [0]
    token = answer["invite"].split("?seat=")[1]
    assert guest.post(f"/api/games/{answer['id']}/join", json={"seat": token}).json() == {
        "you": [1]
    }
    return answer["id"], creator, guest, watcher


def test_two_clients_play_a_whole_game_and_a_spectator_sees_every_state(server):
    game_id, creator, guest, watcher = _online_game(server)
    with (
        creator.websocket_connect(f"/ws/games/{game_id}") as ws0,
        guest.websocket_connect(f"/ws/games/{game_id}") as ws1,
        watcher.websocket_connect(f"/ws/games/{game_id}") as spectator,
    ):
        first = [hello(server, ws) for ws in (ws0, ws1, spectator)]
        assert [s["you"] for s in first] == [[0], [1], []]
        state = first[2]
        # The opening chance (the first-player draw and the pour) is the server's.
        assert state["version"] >= 2 and state["to_move"] in (0, 1)
        assert state["movers"][:2] == [-1, -1]
        assert all(s["legal"] == state["legal"] for s in first)
        # Every socket sees every version one by one, chance included, and they all agree.
        state = play_random(
            server, state, seats={0: ws0, 1: ws1}, watchers=[spectator], rng=random.Random(5)
        )
        assert state["over"] and state["status"] == "finished"
        assert state["outcome"]["result"] in ("1-0", "0-1", "1/2-1/2")
        assert state["legal"] == [] and state["to_move"] is None
        assert set(state["movers"]) == {-1, 0, 1}

        version, actions = server.stored(game_id)
        assert version == state["version"] and actions == state["actions"]

        # No move after the end.
        ws0.send_json({"type": "move", "version": state["version"], "action": "pass"})
        error = server.receive_type(ws0, "error")
        assert error["code"] == "game_over" and error["version"] == state["version"]
        assert server.stored(game_id) == (version, actions)

    record = server.client.get(f"/api/games/{game_id}/record")
    assert record.status_code == 200
    assert "attachment" in record.headers["content-disposition"]
    states = Record.parse(record.text).replay()
    assert str(states[-1]) == state["position"]
    assert len(states) == state["version"] + 1


def _bad_move(legal):
    texts = {item["text"] for item in legal}
    pairings = [c + s for c in "RBY" for s in "TSC"]
    for own, taken in itertools.product(pairings, pairings):
        candidate = f"{own}x{taken}"
        if candidate not in texts:
            return candidate
    raise AssertionError("every capture is legal?")


def test_every_bad_message_gets_an_error_and_changes_nothing(server):
    game_id, creator, guest, watcher = _online_game(server)
    with (
        creator.websocket_connect(f"/ws/games/{game_id}") as ws0,
        guest.websocket_connect(f"/ws/games/{game_id}") as ws1,
        watcher.websocket_connect(f"/ws/games/{game_id}") as spectator,
    ):
        state = hello(server, spectator)
        hello(server, ws0)
        hello(server, ws1)
        seats = {0: ws0, 1: ws1}
        mover, other = seats[state["to_move"]], seats[1 - state["to_move"]]
        version = state["version"]
        before = server.stored(game_id)
        assert before[0] == version

        def expect(ws, payload, code, *, raw=False):
            if raw:
                ws.send_text(payload)
            else:
                ws.send_json(payload)
            error = server.receive_type(ws, "error")
            assert error["code"] == code, error
            assert error["message"] and error["version"] == version
            assert server.stored(game_id) == before
            assert server.hub.games[game_id].version == version
            return error

        expect(mover, "{this is not json", "bad_json", raw=True)
        expect(mover, "[1, 2, 3]", "bad_json", raw=True)
        expect(mover, "[" * 15_000, "bad_json", raw=True)  # nested too deeply to parse
        expect(mover, "", "bad_json", raw=True)
        expect(mover, {"type": "dance"}, "bad_message")
        expect(mover, {"no": "type"}, "bad_message")
        expect(mover, {"type": "move", "action": state["legal"][0]["text"]}, "bad_message")
        expect(mover, {"type": "move", "version": version}, "bad_message")
        expect(mover, {"type": "move", "version": "7", "action": 3}, "bad_message")
        expect(
            spectator,
            {"type": "move", "version": version, "action": state["legal"][0]["text"]},
            "not_your_seat",
        )
        expect(other, {"type": "move", "version": version, "action": "pass"}, "not_your_turn")
        expect(
            mover,
            {"type": "move", "version": version - 1, "action": state["legal"][0]["text"]},
            "stale_version",
        )
        # A stale version is followed by the full state, to resync from.
        assert server.receive_state(mover)["version"] == version
        expect(
            mover,
            {"type": "move", "version": version + 5, "action": state["legal"][0]["text"]},
            "stale_version",
        )
        assert server.receive_state(mover)["version"] == version
        illegal = _bad_move(state["legal"])
        error = expect(
            mover, {"type": "move", "version": version, "action": illegal}, "illegal_move"
        )
        assert illegal in error["message"] and state["legal"][0]["text"] in error["message"]
        error = expect(
            mover, {"type": "move", "version": version, "action": "fly to the moon"}, "illegal_move"
        )
        assert (
            "fly to the moon" in error["message"] and state["legal"][0]["text"] in error["message"]
        )

        # Still alive after all that: keep-alive, resync, and a good move goes through.
        mover.send_json({"type": "ping"})
        assert server.receive_type(mover, "pong") == {"type": "pong"}
        mover.send_json({"type": "resync"})
        assert server.receive_state(mover)["version"] == version
        mover.send_json({"type": "move", "version": version, "action": state["legal"][0]["text"]})
        assert server.receive_state(spectator)["version"] == version + 1
        assert server.stored(game_id)[1][version] == state["legal"][0]["text"]


def test_unknown_game_on_the_socket(server):
    from starlette.websockets import WebSocketDisconnect

    with server.client.websocket_connect("/ws/games/g_nosuchgame") as ws:
        error = server.receive(ws)
        assert error["type"] == "error" and error["code"] == "unknown_game"
        with pytest.raises(WebSocketDisconnect):
            server.receive(ws)


def test_presence_is_broadcast_to_everyone(server):
    game_id, creator, guest, watcher = _online_game(server)
    with watcher.websocket_connect(f"/ws/games/{game_id}") as spectator:
        state = hello(server, spectator)
        assert [s["connected"] for s in state["seats"]] == [False, False]
        with creator.websocket_connect(f"/ws/games/{game_id}"):
            presence = server.receive_type(spectator, "presence")
            assert [s["connected"] for s in presence["seats"]] == [True, False]
            with guest.websocket_connect(f"/ws/games/{game_id}"):
                presence = server.receive_type(spectator, "presence")
                assert [s["connected"] for s in presence["seats"]] == [True, True]
            presence = server.receive_type(spectator, "presence")
            assert [s["connected"] for s in presence["seats"]] == [True, False]
        presence = server.receive_type(spectator, "presence")
        assert [s["connected"] for s in presence["seats"]] == [False, False]


def test_a_seat_token_in_the_socket_url_holds_no_seat(server):
    """Seats come from the browser's identity alone: an invite secret in the socket's URL (as
    older front ends sent it) makes no one a player."""
    game_id, _creator, _guest, _watcher = _online_game(server)
    invite_token = server.hub.games[game_id].row.seats[1].token
    stranger = server.browser()
    with stranger.websocket_connect(f"/ws/games/{game_id}?seat={invite_token}") as ws:
        assert hello(server, ws)["you"] == []


def test_hotseat_one_browser_holds_both_seats(server):
    answer = server.client.post(
        "/api/games", json={"game": "acadmu", "options": {"target": 1}, "mode": "hotseat"}
    ).json()
    assert answer["you"] == [0, 1] and answer["invite"] is None
    with server.client.websocket_connect(f"/ws/games/{answer['id']}") as ws:
        state = hello(server, ws)
        assert state["you"] == [0, 1]
        state = play_random(server, state, seats={0: ws, 1: ws}, rng=random.Random(1), moves=6)
    assert server.stored(answer["id"])[0] == state["version"]
    assert {m for m in state["movers"] if m >= 0} <= {0, 1}
