"""One request must not take the server down: big option values, games that do not load,
idle and unknown games, long histories, floods, and what one client may hold."""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

import pytest
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocketDisconnect

from gamehall.core import find_game
from gamehall.store import ActionRow, Store
from gamehall.web.base.settings import Settings
from gamehall.web.play import hub as hub_module
from tests.web.web_helpers import hello, play_random

_PAIRINGS = [c + s for c in "RBY" for s in "TSC"]
_DISCS = random.Random(7)
BIG_DISCS = ",".join(f"{_DISCS.choice(_PAIRINGS)}:{_DISCS.choice(_PAIRINGS)}" for _ in range(200))
"""200 random discs (the most a set holds), written out: 1,199 characters."""


def _within(seconds: float, function, *args):
    """``function(*args)``, failing the test (not hanging it) past ``seconds``."""
    pool = ThreadPoolExecutor(1)
    try:
        return pool.submit(function, *args).result(timeout=seconds)
    except FutureTimeout:
        pytest.fail(f"no answer within {seconds} s")
    finally:
        pool.shutdown(wait=False)


def _hotseat(client, game="acadmu", **options):
    answer = client.post("/api/games", json={"game": game, "mode": "hotseat", "options": options})
    assert answer.status_code == 200, answer.text
    return answer.json()


def _moves(server, client, game_id, moves, seed=1):
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        state = hello(server, ws)
        return play_random(
            server, state, seats={0: ws, 1: ws}, rng=random.Random(seed), moves=moves
        )


# --- the disc set of 200 discs -------------------------------------------------------------------


def test_a_game_of_200_discs_opens_at_once_after_a_restart(server_factory, db_url, monkeypatch):
    """Loading replays the stored pour by the trusted path: its exact probability (the old
    checked door, hours of counting on 200 discs) is never counted."""
    assert len(BIG_DISCS) == 1199
    with server_factory() as server:
        game = _hotseat(server.client, discs=BIG_DISCS)
        cookies = dict(server.client.cookies.items())
    # The stored pour: one whose exact probability (the old checked door) takes hours to count.
    pour_state = find_game("acadmu", discs=BIG_DISCS).parse_state("pour d 0-0")
    pour = pour_state.sample_chance(random.Random(0))
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(
            text("DELETE FROM actions WHERE game_id = :g AND number > 2"), {"g": game["id"]}
        )
        conn.execute(
            text("UPDATE actions SET text = :t WHERE game_id = :g AND number = 2"),
            {"t": str(pour), "g": game["id"]},
        )
        conn.execute(text("UPDATE games SET version = 2 WHERE id = :g"), {"g": game["id"]})
    engine.dispose()

    def counted(self, counts):
        raise AssertionError("a stored pour's ways were counted while loading")

    monkeypatch.setattr(type(pour_state.game.disc_set), "pour_ways", counted)
    with server_factory() as server:  # loading replays the stored pour
        browser = server.browser()
        browser.cookies.update(cookies)
        after = _within(30, browser.get, f"/api/games/{game['id']}")
        assert after.status_code == 200, after.text
        after = after.json()
        assert after["version"] == 2 and after["you"] == [0, 1]
        assert after["actions"][1] == str(pour)
        assert server.client.get("/api/meta").status_code == 200


def test_a_computer_move_on_200_discs_keeps_its_time(server_factory):
    """``perfect`` on 200 discs searched for minutes: a move is bounded by computer_seconds
    (here on threads; the worker processes' own bounds are tested in test_computers)."""
    settings = Settings(computer_seconds=2.0)
    with server_factory(settings=settings) as server:
        answer = server.client.post(
            "/api/games",
            json={
                "game": "acadmu",
                "mode": "computer",
                "seat": 1,
                "level": "perfect",
                "options": {"discs": BIG_DISCS},
            },
        ).json()
        with server.client.websocket_connect(f"/ws/games/{answer['id']}") as ws:
            # Unbounded, the move would come minutes later: the state's wait (20 s, beyond its
            # time and the grace) fails only such a run. How soon it comes is bench/'s to say.
            state = play_random(
                server, hello(server, ws), seats={1: ws}, rng=random.Random(1),
                until=lambda s: 0 in s["movers"],
            )  # fmt: skip
            assert 0 in state["movers"]
        assert server.client.get("/api/meta").status_code == 200


# --- games that cannot be loaded ----------------------------------------------------------------


def _corrupt(db_url: str, game_id: str, number: int, action: str) -> None:
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(
            text("UPDATE actions SET text = :t WHERE game_id = :g AND number = :n"),
            {"t": action, "g": game_id, "n": number},
        )
    engine.dispose()


def test_a_game_that_does_not_replay_is_quarantined_and_the_rest_served(server_factory, db_url):
    with server_factory() as server:
        broken = _hotseat(server.client, target=1)
        _moves(server, server.client, broken["id"], 2)
        fine = _hotseat(server.client, target=1)
        waiting = server.client.post(
            "/api/games",
            json={"game": "acadmu", "mode": "computer", "seat": 1, "level": "beginner"},
        ).json()
        cookies = dict(server.client.cookies.items())
    _corrupt(db_url, broken["id"], 3, "no such move")
    _corrupt(db_url, waiting["id"], 2, "pour 99,0,0,0,0,0,0,0,0/garbage")
    store = Store(db_url)
    store.set_pending(waiting["id"], True)  # the server is to move: loaded at start
    store.dispose()

    with server_factory() as server:
        browser = server.browser()
        browser.cookies.update(cookies)
        assert _within(10, server.client.get, "/api/meta").status_code == 200
        for game in (broken, waiting):
            answer = browser.get(f"/api/games/{game['id']}")
            assert answer.status_code == 409, answer.text
            error = answer.json()["error"]
            assert error["code"] == "quarantined" and "does not replay" in error["message"]
            with browser.websocket_connect(f"/ws/games/{game['id']}") as ws:
                assert server.receive(ws)["code"] == "quarantined"
                with pytest.raises(WebSocketDisconnect) as closed:
                    server.receive(ws)
                assert closed.value.code == 4409
        assert browser.get(f"/api/games/{fine['id']}").json()["you"] == [0, 1]
        assert {g["id"] for g in browser.get("/api/games").json()["games"]} >= {fine["id"]}
    store = Store(db_url)
    try:
        assert "does not replay" in (store.get_game(broken["id"]).problem or "")
        assert store.get_game(waiting["id"]).problem
        assert waiting["id"] not in store.pending_games()  # not tried again at the next start
    finally:
        store.dispose()


def test_a_game_that_loads_too_slowly_is_quarantined(server_factory, monkeypatch):
    """A replay that does not finish until the test lets it: the server stops waiting at its
    load_seconds and sets the game aside, while the replay still runs."""
    original = hub_module.replay_within
    replaying, release = threading.Event(), threading.Event()

    def stuck_replay(game, texts, deadline, setup=None):
        replaying.set()
        release.wait(timeout=60)
        return original(game, texts, deadline, setup)

    with server_factory(settings=Settings(load_seconds=0.5)) as server:
        try:
            game = _hotseat(server.client, target=1)
            server.client.portal.call(server.hub.sweep, time.monotonic() + 10**6)  # gone
            monkeypatch.setattr(hub_module, "replay_within", stuck_replay)
            answer = _within(30, server.client.get, f"/api/games/{game['id']}")
            assert replaying.is_set() and not release.is_set()  # answered with the replay stuck
            assert answer.status_code == 409 and "does not load in time" in answer.text
            assert "longer than 0.5 s (limit load_seconds)" in answer.text
            assert server.client.get("/api/meta").status_code == 200
        finally:
            release.set()  # the stopping server waits for its threads


def test_a_stored_game_is_replayed_by_the_trusted_path(server_factory, monkeypatch):
    """Loading never checks a stored action again (it was checked when written): a checked
    apply during loading fails this test."""
    with server_factory() as server:
        game = _hotseat(server.client, game="akros")
        _moves(server, server.client, game["id"], 8)
        before = server.client.get(f"/api/games/{game['id']}").json()
        server.client.portal.call(server.hub.sweep, time.monotonic() + 10**6)  # out of memory
        state_class = type(find_game("akros").new_initial_state())

        def checked(self, action):
            raise AssertionError("a stored action was checked again while loading")

        monkeypatch.setattr(state_class, "apply", checked)
        after = server.client.get(f"/api/games/{game['id']}")
        assert after.status_code == 200, after.text
        assert after.json()["actions"] == before["actions"]


def test_replaying_stops_at_its_deadline():
    game = find_game("akros")
    state, texts, rng = game.new_initial_state(), [], random.Random(0)
    while not state.is_terminal():
        action = state.sample_chance(rng) if state.is_chance_node() else state.legal_actions()[0]
        texts.append(str(action))
        state = state.apply_trusted(action)
    log = [ActionRow(n + 1, text, 0, "") for n, text in enumerate(texts)]
    assert hub_module.replay_within(game, log, time.monotonic() + 60).state == state
    with pytest.raises(hub_module.LoadTimeout):
        hub_module.replay_within(game, log, time.monotonic() - 1)


# --- memory -------------------------------------------------------------------------------------


def test_idle_games_leave_memory_and_come_back_on_demand(server_factory):
    with server_factory(settings=Settings(max_live_games=3)) as server:
        games = [_hotseat(server.client, game="akros") for _ in range(5)]
        hub = server.hub
        assert len(hub.games) <= 5
        gone = server.client.portal.call(hub.sweep, time.monotonic())
        assert len(hub.games) == 3 and len(gone) == 2  # past max_live_games, the oldest go
        gone = server.client.portal.call(hub.sweep, time.monotonic() + 10**6)  # idle for long
        assert hub.games == {}
        state = server.client.get(f"/api/games/{games[0]['id']}").json()
        assert state["you"] == [0, 1] and state["version"] >= 1
        assert list(hub.games) == [games[0]["id"]]
        # A game being watched stays, however long it is idle.
        with server.client.websocket_connect(f"/ws/games/{games[1]['id']}") as ws:
            hello(server, ws)
            server.client.portal.call(hub.sweep, time.monotonic() + 10**6)
            assert games[1]["id"] in hub.games


def test_unknown_and_malformed_ids_leave_nothing_behind(server):
    rng = random.Random(1)
    hub = server.hub
    before = dict(hub.games)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"
    for i in range(400):
        length = rng.choice([10, 12, 40, 2000])
        game_id = ("g_" if i % 2 else "") + "".join(rng.choice(alphabet) for _ in range(length))
        answer = server.client.get(f"/api/games/{game_id}")
        assert answer.status_code == 404 and len(answer.text) < 300
    with server.client.websocket_connect("/ws/games/g_" + "x" * 2000) as ws:
        assert server.receive(ws)["code"] == "unknown_game"
    assert hub.games == before and hub._loading == {}


# --- bounded messages ---------------------------------------------------------------------------


def test_state_messages_carry_only_what_changed(server_factory):
    with server_factory(
        settings=Settings(resyncs_per_minute=3, messages_per_second=1000)
    ) as server:
        game = _hotseat(server.client, target=999)
        with server.client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            state = hello(server, ws)
            deltas = []
            rng = random.Random(2)
            while state["version"] < 60 and not state["over"]:
                if state["pause"] is not None:  # a round's end: both seats are this socket's
                    ws.send_json({"type": "continue", "version": state["version"]})
                elif state["to_move"] is not None:
                    item = rng.choice(state["legal"])
                    move = {"type": "move", "version": state["version"], "action": item["text"]}
                    ws.send_json(move)
                state = server.receive_state(ws, state["version"] + 1)
                deltas.append(len(state["sent"]["actions"]))
            assert state["version"] >= 60 and set(deltas) == {1}  # one action a state
            # A client that says which version it has gets only what it lacks.
            ws.send_json({"type": "hello", "version": state["version"] - 2})
            again = server.receive_state(ws)
            assert again["sent"]["since"] == state["version"] - 2
            assert len(again["sent"]["actions"]) == 2 and again["actions"] == state["actions"]
            # Full states are limited per connection: 3 a minute here.
            for _ in range(3):
                ws.send_json({"type": "resync"})
                assert len(server.receive_state(ws)["sent"]["actions"]) == state["version"]
            ws.send_json({"type": "hello", "version": -1})
            error = server.receive_type(ws, "error")
            assert error["code"] == "over_limit" and "resyncs_per_minute" in error["message"]
            ws.send_json({"type": "ping"})
            assert server.receive_type(ws, "pong")


def test_a_flood_of_messages_is_cut_off(server_factory):
    with server_factory(settings=Settings(messages_per_second=5)) as server:
        game = _hotseat(server.client, game="akros")
        with server.client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            for _ in range(300):
                ws.send_json({"type": "ping"})
            pongs, errors = 0, []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    message = server.receive(ws, timeout=5)
                    if message["type"] == "pong":
                        pongs += 1
                    elif message["type"] == "error":
                        errors.append(message)
            assert closed.value.code == 1008
            # The burst (twice the rate) and what refilled meanwhile, however slowly the pings
            # came (the socket closes after 100 dropped, counted over its life).
            assert pongs < 200
            assert errors and {e["code"] for e in errors} == {"over_limit"}
            assert "messages_per_second" in errors[0]["message"]


def test_a_game_stops_at_the_most_actions_the_server_plays(server_factory):
    with server_factory(settings=Settings(max_actions=12)) as server:
        game = _hotseat(server.client, target=999)
        with server.client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            state = hello(server, ws)
            state = play_random(
                server, state, seats={0: ws, 1: ws}, rng=random.Random(3),
                until=lambda s: s["version"] >= 12,
            )  # fmt: skip
            assert state["version"] == 12
            item = state["legal"][0]
            ws.send_json({"type": "move", "version": 12, "action": item["text"]})
            error = server.receive_type(ws, "error")
            assert error["code"] == "game_too_long" and "max_actions" in error["message"]
        assert server.stored(game["id"])[0] == 12
    with server_factory(settings=Settings(max_actions=40)) as server:  # Akros takes 42 actions
        answer = server.client.post("/api/games", json={"game": "akros", "mode": "hotseat"})
        assert answer.status_code == 400 and "max_actions" in answer.json()["error"]["message"]


# --- what one client may hold -------------------------------------------------------------------


def test_games_per_minute_per_browser_and_per_address(server_factory):
    with server_factory(settings=Settings(games_per_minute=3, address_factor=2)) as server:
        body = {"game": "akros", "mode": "hotseat"}
        for _ in range(3):
            assert server.client.post("/api/games", json=body).status_code == 200
        refused = server.client.post("/api/games", json=body)
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "over_limit"
        assert "games_per_minute" in refused.json()["error"]["message"]
        other = server.browser()  # another browser on the same address: its own share...
        for _ in range(3):
            assert other.post("/api/games", json=body).status_code == 200
        # ... but a client that drops its cookie to start afresh meets the address's limit.
        refused = server.browser().post("/api/games", json=body)
        assert refused.status_code == 429 and "network address" in refused.text


def test_games_against_the_computer_per_browser(server_factory):
    with server_factory(settings=Settings(computer_games=2)) as server:
        body = {"game": "akros", "mode": "computer", "seat": 0, "level": "beginner"}
        for _ in range(2):
            assert server.client.post("/api/games", json=body).status_code == 200
        refused = server.client.post("/api/games", json=body)
        assert refused.status_code == 429 and "computer_games" in refused.json()["error"]["message"]
        assert server.browser().post("/api/games", json=body).status_code == 200
        hotseat = server.client.post("/api/games", json={"game": "akros", "mode": "hotseat"})
        assert hotseat.status_code == 200


def test_connections_are_bounded(server_factory):
    with server_factory(settings=Settings(max_connections=2)) as server:
        game = _hotseat(server.client, game="akros")
        path = f"/ws/games/{game['id']}"
        with (
            server.client.websocket_connect(path),
            server.client.websocket_connect(path),
            server.client.websocket_connect(path) as third,
        ):
            error = server.receive(third)
            assert error["code"] == "over_limit" and "max_connections" in error["message"]
        with server.client.websocket_connect(path) as ws:  # room again once they left
            assert hello(server, ws)["you"] == [0, 1]
