"""The game room over the WebSocket: resign, abort, takebacks, claims after a player left, the
pause at a round's end, and chat. Each is stored like a move, so a restart shows the same game;
each wrong use gets a clear error and changes nothing (not the store, not the state)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gamehall.web.play.chat import CHAT_BURST, CHAT_LENGTH, CHAT_WINDOW_MS
from gamehall.web.play.conduct import LEAVE_GRACE_UNTIMED_MS
from gamehall.web.play.hub import PAUSE_VS_COMPUTER_MS
from tests.web.web_helpers import FakeClock, hello, play_random

# --- helpers ---------------------------------------------------------------------------------


def _online(server, game="acadmu", options=None, clock=None):
    """An online game: its id and the browsers of seat 0, seat 1 and a spectator."""
    creator, guest, watcher = server.client, server.browser(), server.browser()
    body = {"game": game, "options": options or {}, "mode": "online"}
    if clock:
        body["clock"] = clock
    answer = creator.post("/api/games", json=body).json()
    token = answer["invite"].split("?seat=")[1]
    assert guest.post(f"/api/games/{answer['id']}/join", json={"seat": token}).status_code == 200
    return answer["id"], creator, guest, watcher


def _snapshot(server, game_id) -> tuple[Any, ...]:
    """What a wrong request must not change: the stored log and row, and the game's state."""
    store = server.hub.store
    row = store.get_game(game_id)
    state = server.client.get(f"/api/games/{game_id}").json()
    for moving in ("clock", "absent", "seats", "you"):  # presence and time move on
        state.pop(moving)
    if state["pause"] is not None:
        state["pause"].pop("left_ms")
    return (row.version, row.status, row.result, store.actions(game_id), state)


def _refused(server, ws, game_id, message, code) -> dict[str, Any]:
    before = _snapshot(server, game_id)
    ws.send_json(message)
    error = server.receive_type(ws, "error")
    assert error["code"] == code, error
    assert error["message"]
    assert _snapshot(server, game_id) == before
    return error


def _move(server, ws, state, others=()):
    ws.send_json({"type": "move", "version": state["version"], "action": state["legal"][0]["text"]})
    state = server.receive_state(ws, state["version"] + 1)
    for other in others:
        server.receive_state(other, state["version"])
    return state


def _log(server, game_id) -> list[tuple[str, str, int]]:
    return [(e.kind, e.text, e.mover) for e in server.hub.store.actions(game_id)]


# --- resign and abort ------------------------------------------------------------------------


def test_a_player_resigns_and_the_others_cannot(server_factory):
    with server_factory() as server:
        game_id, creator, guest, watcher = _online(server)
        with (
            creator.websocket_connect(f"/ws/games/{game_id}") as ws0,
            guest.websocket_connect(f"/ws/games/{game_id}") as ws1,
            watcher.websocket_connect(f"/ws/games/{game_id}") as spectator,
        ):
            for ws in (ws0, ws1, spectator):
                state = hello(server, ws)
            sockets = {0: ws0, 1: ws1}
            for _ in range(2):  # both sides move (a resignation before that is an abort)
                mover = state["to_move"]
                state = _move(server, sockets[mover], state, [sockets[1 - mover], spectator])
            _refused(server, spectator, game_id, {"type": "resign"}, "not_your_seat")
            ws1.send_json({"type": "resign"})
            over = server.receive_state(ws0, state["version"] + 1)
            assert over["over"] and over["status"] == "finished" and over["legal"] == []
            assert over["outcome"] == {
                "winner": 0,
                "winner_name": "dark",
                "reason": "Light resigned: Dark wins",
                "scores": [1.0, 0.0],
                "result": "1-0",
            }
            assert _log(server, game_id)[-1] == ("resign", "resign", 1)
            _refused(server, ws0, game_id, {"type": "resign"}, "game_over")
            _refused(server, ws0, game_id, {"type": "takeback", "op": "offer"}, "game_over")
            _refused(
                server,
                ws0,
                game_id,
                {"type": "move", "version": over["version"], "action": "pass"},
                "game_over",
            )
            record = server.client.get(f"/api/games/{game_id}/record").text
            assert '[Result "1-0"]' in record and "Light resigned" in record
    with server_factory() as again:  # a restart shows the same ending
        state = again.client.get(f"/api/games/{game_id}").json()
        assert state["over"] and state["outcome"]["reason"] == "Light resigned: Dark wins"
        assert game_id not in [g for g in again.hub.store.pending_games()]


def test_abort_before_both_have_moved_and_not_after(server):
    game_id, creator, guest, _watcher = _online(server)
    with (
        creator.websocket_connect(f"/ws/games/{game_id}") as ws0,
        guest.websocket_connect(f"/ws/games/{game_id}") as ws1,
    ):
        state = hello(server, ws0)
        hello(server, ws1)
        assert state["abortable"] is True
        sockets = {0: ws0, 1: ws1}
        state = _move(server, sockets[state["to_move"]], state, [sockets[1 - state["to_move"]]])
        assert state["abortable"] is True  # one side has moved
        mover = state["to_move"]
        state = _move(server, sockets[mover], state, [sockets[1 - mover]])
        assert state["abortable"] is False
        error = _refused(server, ws0, game_id, {"type": "abort"}, "cannot_abort")
        assert "resign" in error["message"]

    other, creator, guest, _ = _online(server)
    with creator.websocket_connect(f"/ws/games/{other}") as ws0:
        state = hello(server, ws0)
        ws0.send_json({"type": "abort"})
        over = server.receive_state(ws0, state["version"] + 1)
        assert over["over"] and over["outcome"]["result"] == "*"
        assert over["outcome"]["winner"] is None and "aborted" in over["outcome"]["reason"]
        listed = {g["id"]: g for g in server.client.get("/api/games").json()["games"]}
        assert listed[other]["status"] == "finished" and listed[other]["result"]["result"] == "*"


# --- takebacks --------------------------------------------------------------------------------


def test_a_takeback_against_the_computer_is_granted_at_once_back_to_your_move(server_factory):
    with server_factory() as server:
        answer = server.client.post(
            "/api/games", json={"game": "akros", "mode": "computer", "seat": 0, "level": "beginner"}
        ).json()
        game_id = answer["id"]
        with server.client.websocket_connect(f"/ws/games/{game_id}") as ws:
            state = hello(server, ws)
            assert state["to_move"] == 0 and state["view"]["step"] == "jinn-keep"
            before = state
            keep = state["legal"][-1]["text"]
            ws.send_json({"type": "move", "version": state["version"], "action": keep})
            # The Ifrit (the computer) keeps and places; then it is the Jinn's turn again.
            state = server.receive_state(ws, state["version"] + 1)
            while state["to_move"] != 0:
                state = server.receive_state(ws, state["version"] + 1)
            assert state["actions"][: len(before["actions"]) + 1] == [*before["actions"], keep]
            ws.send_json({"type": "takeback", "op": "offer"})
            back = server.receive_state(ws, state["version"] + 1)
            assert back["actions"] == before["actions"] and back["position"] == before["position"]
            assert back["version"] == state["version"] + 1  # versions only grow
            assert back["to_move"] == 0 and back["takeback"] is None
            # The delta of a takeback carries no action: it keeps fewer of the client's.
            assert back["sent"] == {"since": len(before["actions"]), "actions": [], "movers": []}
            # A client that had a version with the undone moves keeps only what still stands.
            ws.send_json({"type": "hello", "version": before["version"] + 1})
            again = server.receive_state(ws)
            assert again["sent"]["since"] == len(before["actions"]) and not again["sent"]["actions"]
            assert again["actions"] == before["actions"]
            undone = len(state["actions"]) - len(before["actions"])
            assert _log(server, game_id)[-1] == ("takeback", f"takeback {undone}", 0)
            # Play on: after the Jinn places, chance draws: that cannot be taken back.
            state = play_random(
                server,
                back,
                seats={0: ws},
                rng=random.Random(3),
                until=lambda s: s["view"]["turn"] == 2 and s["to_move"] == 0,
            )
            error = _refused(
                server, ws, game_id, {"type": "takeback", "op": "offer"}, "no_takeback"
            )
            assert "chance" in error["message"]
        expected = server.client.get(f"/api/games/{game_id}").json()
    with server_factory() as again:  # a restart replays the takeback exactly
        state = again.client.get(f"/api/games/{game_id}").json()
        assert state["actions"] == expected["actions"] and state["version"] == expected["version"]
        replay = again.client.get(f"/api/games/{game_id}/replay").json()
        assert [a["text"] for a in replay["actions"]] == expected["actions"]


def test_an_online_takeback_is_offered_then_declined_or_accepted(server):
    game_id, creator, guest, watcher = _online(server)
    with (
        creator.websocket_connect(f"/ws/games/{game_id}") as ws0,
        guest.websocket_connect(f"/ws/games/{game_id}") as ws1,
        watcher.websocket_connect(f"/ws/games/{game_id}") as spectator,
    ):
        sockets = {0: ws0, 1: ws1}
        for ws in (ws0, ws1, spectator):
            state = hello(server, ws)
        first = state["to_move"]
        mine, theirs = sockets[first], sockets[1 - first]
        _refused(server, mine, game_id, {"type": "takeback", "op": "offer"}, "no_takeback")
        state = _move(server, mine, state, [theirs, spectator])
        _refused(server, spectator, game_id, {"type": "takeback", "op": "offer"}, "not_your_seat")
        _refused(server, theirs, game_id, {"type": "takeback", "op": "accept"}, "no_takeback")

        mine.send_json({"type": "takeback", "op": "offer"})
        offered = server.receive_state(theirs, state["version"] + 1)
        assert offered["takeback"] == {"by": first} and offered["actions"] == state["actions"]
        server.receive_state(mine, offered["version"])
        _refused(server, mine, game_id, {"type": "takeback", "op": "accept"}, "no_takeback")
        _refused(server, mine, game_id, {"type": "takeback", "op": "offer"}, "no_takeback")
        theirs.send_json({"type": "takeback", "op": "decline"})
        declined = server.receive_state(mine, offered["version"] + 1)
        assert declined["takeback"] is None and declined["actions"] == state["actions"]
        server.receive_state(theirs, declined["version"])

        # Declined, the offer is not made again before the next move; then it undoes that too.
        error = _refused(server, mine, game_id, {"type": "takeback", "op": "offer"}, "no_takeback")
        assert "after the next move" in error["message"]
        replied = _move(server, theirs, declined, [mine])
        mine.send_json({"type": "takeback", "op": "offer"})
        offered = server.receive_state(theirs, replied["version"] + 1)
        server.receive_state(mine, offered["version"])
        theirs.send_json({"type": "takeback", "op": "accept"})
        back = server.receive_state(mine, offered["version"] + 1)
        assert back["actions"] == state["actions"][:-1] and back["to_move"] == first
        kinds = [kind for kind, _, _ in _log(server, game_id)]
        assert kinds[-6:] == ["action", "offer", "decline", "action", "offer", "takeback"]

        # An offer lapses when a move is played.
        state = _move(server, mine, back, [theirs])
        mine.send_json({"type": "takeback", "op": "offer"})
        offered = server.receive_state(theirs, state["version"] + 1)
        server.receive_state(mine, offered["version"])
        state = _move(server, theirs, offered, [mine])
        assert state["takeback"] is None


# --- leaving and claiming ----------------------------------------------------------------------


def test_after_the_grace_period_the_player_who_stayed_may_claim_the_win(server_factory):
    clock = FakeClock()
    with server_factory(clock=clock) as server:
        game_id, creator, guest, _ = _online(server)
        with creator.websocket_connect(f"/ws/games/{game_id}") as ws0:
            with guest.websocket_connect(f"/ws/games/{game_id}") as ws1:
                sockets = {0: ws0, 1: ws1}
                state = hello(server, ws0)
                hello(server, ws1)
                _refused(server, ws0, game_id, {"type": "claim"}, "cannot_claim")  # present
                for _ in range(2):
                    mover = state["to_move"]
                    state = _move(server, sockets[mover], state, [sockets[1 - mover]])
            presence = server.receive_type(ws0, "presence")  # the guest left
            assert presence["seats"][1]["connected"] is False
            assert presence["absent"] == [
                {"seat": 1, "away_ms": 0, "claim_in_ms": LEAVE_GRACE_UNTIMED_MS}
            ]
            clock.advance(LEAVE_GRACE_UNTIMED_MS - 1_000)
            error = _refused(server, ws0, game_id, {"type": "claim"}, "cannot_claim")
            assert "after 180 s" in error["message"]
            clock.advance(1_000)
            ws0.send_json({"type": "resync"})
            assert server.receive_state(ws0)["absent"][0]["claim_in_ms"] == 0
            ws0.send_json({"type": "claim"})
            over = server.receive_state(ws0, state["version"] + 1)
            assert over["over"] and over["outcome"]["winner"] == 0
            assert over["outcome"]["reason"] == "Light left the game, and Dark claimed the win"


def test_no_claim_in_a_hot_seat_game_nor_against_someone_who_never_moved(server):
    answer = server.client.post("/api/games", json={"game": "acadmu", "mode": "hotseat"}).json()
    with server.client.websocket_connect(f"/ws/games/{answer['id']}") as ws:
        hello(server, ws)
        _refused(server, ws, answer["id"], {"type": "claim"}, "cannot_claim")


# --- the pause at a round's end ----------------------------------------------------------------


def _to_a_pause(server, ws, state, seats):
    return play_random(
        server, state, seats=seats, rng=random.Random(4), until=lambda s: s["pause"] is not None
    )


def test_a_rounds_end_waits_for_every_player_to_go_on(server):
    game_id, creator, guest, watcher = _online(server)
    with (
        creator.websocket_connect(f"/ws/games/{game_id}") as ws0,
        guest.websocket_connect(f"/ws/games/{game_id}") as ws1,
        watcher.websocket_connect(f"/ws/games/{game_id}") as spectator,
    ):
        for ws in (ws0, ws1, spectator):
            state = hello(server, ws)
        state = _to_a_pause(server, ws0, state, {0: ws0, 1: ws1})
        server.receive_state(spectator, state["version"])
        pause = state["pause"]
        assert pause["reason"].startswith("Round over: ") and pause["waiting"] == [0, 1]
        assert pause["left_ms"] is not None and state["to_move"] is None
        assert state["view"]["round_end"] is not None  # the round's final position is shown
        version = state["version"]
        _refused(
            server, ws0, game_id, {"type": "move", "version": version, "action": "pass"}, "paused"
        )
        _refused(
            server, spectator, game_id, {"type": "continue", "version": version}, "not_your_seat"
        )
        _refused(
            server, ws0, game_id, {"type": "continue", "version": version - 1}, "stale_version"
        )
        ws0.send_json({"type": "continue", "version": version})
        waiting = server.receive_state(ws1, version)
        while waiting["pause"]["waiting"] != [1]:
            waiting = server.receive_state(ws1, version)
        assert waiting["version"] == version  # nothing was drawn yet
        _refused(server, ws0, game_id, {"type": "continue", "version": version}, "not_paused")
        ws1.send_json({"type": "continue", "version": version})
        poured = server.receive_state(ws0, version + 1)
        assert poured["pause"] is None and poured["last"]["kind"] == "pour"
        assert poured["to_move"] in (0, 1)
        _refused(
            server, ws0, game_id, {"type": "continue", "version": poured["version"]}, "not_paused"
        )


def test_a_pause_waits_again_after_a_restart(server_factory):
    with server_factory() as server:
        answer = server.client.post("/api/games", json={"game": "acadmu", "mode": "hotseat"})
        game_id = answer.json()["id"]
        with server.client.websocket_connect(f"/ws/games/{game_id}") as ws:
            state = _to_a_pause(server, ws, hello(server, ws), {0: ws, 1: ws})
    with server_factory() as again:
        again.client.cookies.update(server.client.cookies)  # the same browser
        live = again.resumed().games[game_id]  # a game whose next action is chance is resumed
        assert live.pause is not None and live.pause.waiting == {0, 1}
        resumed = again.client.get(f"/api/games/{game_id}").json()
        assert resumed["version"] == state["version"] and resumed["pause"]["waiting"] == [0, 1]
        with again.client.websocket_connect(f"/ws/games/{game_id}") as ws:
            hello(again, ws)
            ws.send_json({"type": "continue", "version": state["version"]})
            assert again.receive_state(ws, state["version"] + 1)["last"]["kind"] == "pour"


def test_against_the_computer_the_next_round_follows_after_a_few_seconds_or_a_click(server_factory):
    clock = FakeClock()
    with server_factory(clock=clock) as server:
        answer = server.client.post(
            "/api/games", json={"game": "acadmu", "mode": "computer", "level": "beginner"}
        ).json()
        with server.client.websocket_connect(f"/ws/games/{answer['id']}") as ws:
            state = _to_a_pause(server, ws, hello(server, ws), {0: ws})
            assert state["pause"]["waiting"] == [0]
            assert state["pause"]["left_ms"] == PAUSE_VS_COMPUTER_MS
            clock.advance(PAUSE_VS_COMPUTER_MS - 1)
            assert clock.asleep() == [clock.ms + 1]  # the game's timer looked, and waits on
            assert server.hub.games[answer["id"]].pause is not None  # still shown
            clock.advance(1)
            poured = server.receive_state(ws, state["version"] + 1)
            assert poured["pause"] is None and poured["last"]["kind"] == "pour"


# --- chat -------------------------------------------------------------------------------------


def _chat(server, ws):
    return server.receive_type(ws, "chat")


def test_players_and_spectators_each_have_a_chat_stored_with_the_game(server_factory):
    with server_factory() as server:
        game_id, creator, guest, watcher = _online(server)
        with (
            creator.websocket_connect(f"/ws/games/{game_id}") as ws0,
            guest.websocket_connect(f"/ws/games/{game_id}") as ws1,
            watcher.websocket_connect(f"/ws/games/{game_id}") as spectator,
        ):
            for ws in (ws0, ws1, spectator):
                hello(server, ws)
                assert _chat(server, ws)["lines"] == []  # the history comes after hello
            ws0.send_json({"type": "chat", "text": "  good luck <b>&amp;</b>  "})
            for ws in (ws0, ws1):
                message = _chat(server, ws)
                assert message["room"] == "players"
                (line,) = message["lines"]
                assert (line["seat"], line["name"]) == (0, "dark")
                assert line["text"] == "good luck <b>&amp;</b>"  # stored as text, as written
            spectator.send_json({"type": "chat", "text": "nice game"})
            message = _chat(server, spectator)
            assert message["room"] == "spectators" and message["lines"][0]["seat"] is None
            # The players never see the spectators' chat (and the other way round).
            ws1.send_json({"type": "ping"})
            assert server.receive(ws1) == {"type": "pong"}
        with watcher.websocket_connect(f"/ws/games/{game_id}") as again:
            hello(server, again)
            assert [line["text"] for line in _chat(server, again)["lines"]] == ["nice game"]
    with server_factory() as restarted:  # a restart keeps both rooms
        rows = restarted.hub.store.chat(game_id, "players")
        assert [(r.seat, r.text) for r in rows] == [(0, "good luck <b>&amp;</b>")]
        with restarted.browser().websocket_connect(f"/ws/games/{game_id}") as again:
            hello(restarted, again)
            assert [line["text"] for line in _chat(restarted, again)["lines"]] == ["nice game"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "cannot be empty"),
        ("   ", "cannot be empty"),
        ("x" * (CHAT_LENGTH + 1), f"at most {CHAT_LENGTH} characters"),
        ("bell \x07", "control character U+0007"),
    ],
)
def test_a_bad_chat_message_is_refused_and_nothing_is_stored(server, text, problem):
    game_id, creator, _, _ = _online(server)
    with creator.websocket_connect(f"/ws/games/{game_id}") as ws:
        hello(server, ws)
        _chat(server, ws)
        error = _refused(server, ws, game_id, {"type": "chat", "text": text}, "bad_chat")
        assert problem in error["message"]
        assert server.hub.store.chat(game_id, "players") == []


def test_chat_is_rate_limited(server_factory):
    clock = FakeClock()
    with server_factory(clock=clock) as server:
        game_id, creator, _, _ = _online(server)
        with creator.websocket_connect(f"/ws/games/{game_id}") as ws:
            hello(server, ws)
            _chat(server, ws)
            for n in range(CHAT_BURST):
                ws.send_json({"type": "chat", "text": f"message {n}"})
                _chat(server, ws)
            error = _refused(
                server, ws, game_id, {"type": "chat", "text": "one more"}, "chat_too_fast"
            )
            assert "wait" in error["message"]
            assert len(server.hub.store.chat(game_id, "players")) == CHAT_BURST
            clock.advance(CHAT_WINDOW_MS)
            ws.send_json({"type": "chat", "text": "later"})
            assert _chat(server, ws)["lines"][0]["text"] == "later"


def test_each_chat_room_holds_a_bounded_number_of_messages(server, monkeypatch):
    monkeypatch.setattr("gamehall.web.play.hub.CHAT_STORED", 3)
    game_id, creator, _, watcher = _online(server)
    with (
        creator.websocket_connect(f"/ws/games/{game_id}") as ws,
        watcher.websocket_connect(f"/ws/games/{game_id}") as spectator,
    ):
        for socket in (ws, spectator):
            hello(server, socket)
            _chat(server, socket)
        for n in range(4):  # the spectators' room: its oldest lines give way
            spectator.send_json({"type": "chat", "text": f"from the stands {n}"})
            _chat(server, spectator)
        stands = [row.text for row in server.hub.store.chat(game_id, "spectators")]
        assert stands == [f"from the stands {n}" for n in (1, 2, 3)]
        for n in range(3):  # ... and the players' room is the players' own
            ws.send_json({"type": "chat", "text": f"message {n}"})
            _chat(server, ws)
        error = _refused(server, ws, game_id, {"type": "chat", "text": "more"}, "bad_chat")
        assert "players' chat holds its 3 messages" in error["message"]
        assert len(server.hub.store.chat(game_id, "players")) == 3


def test_a_takeback_offer_at_a_rounds_end_keeps_the_pause(server):
    game_id, creator, guest, _ = _online(server)
    with (
        creator.websocket_connect(f"/ws/games/{game_id}") as ws0,
        guest.websocket_connect(f"/ws/games/{game_id}") as ws1,
    ):
        for ws in (ws0, ws1):
            state = hello(server, ws)
        state = _to_a_pause(server, ws0, state, {0: ws0, 1: ws1})
        version = state["version"]
        ws0.send_json({"type": "continue", "version": version})
        waiting = server.receive_state(ws1, version)
        while waiting["pause"]["waiting"] != [1]:
            waiting = server.receive_state(ws1, version)
        # An offer and its decline are entries, but the round's end still waits, for the same seat.
        ws0.send_json({"type": "takeback", "op": "offer"})
        offered = server.receive_state(ws1, version + 1)
        assert offered["takeback"] == {"by": 0}
        assert offered["pause"] is not None and offered["pause"]["waiting"] == [1]
        ws1.send_json({"type": "takeback", "op": "decline"})
        declined = server.receive_state(ws0, version + 2)
        assert declined["pause"] is not None and declined["pause"]["waiting"] == [1]
        assert declined["actions"] == state["actions"]
        ws1.send_json({"type": "continue", "version": version + 2})
        poured = server.receive_state(ws0, version + 3)
        assert poured["pause"] is None and poured["last"]["kind"] == "pour"
