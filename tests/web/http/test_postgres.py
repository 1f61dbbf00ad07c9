"""The web server on a real PostgreSQL server (``--db postgresql+psycopg://...``), on the
session's throwaway cluster (pg_cluster.py). The ``db_url`` fixture of ``conftest.py`` is
overridden here, so ``server``/``server_factory`` run the app on a fresh database per test. The
store itself is tested on PostgreSQL and SQLite alike in test_store.py."""

from __future__ import annotations

import random
import threading

import pytest
from sqlalchemy import create_engine, inspect, select

from gamehall.core import Record
from gamehall.store import SCHEMA_VERSION, Store
from gamehall.store.tables import schema_version_table
from tests.pg_cluster import Cluster, fresh_database
from tests.web.web_helpers import hello, play_out, play_random

pytestmark = pytest.mark.postgres


@pytest.fixture
def db_url(postgres_cluster: Cluster) -> str:
    """A fresh, empty database per test (overrides conftest's SQLite ``db_url``)."""
    return fresh_database(postgres_cluster)


HALL_TABLES = {
    "players", "accounts", "sessions", "seeks", "hall_games", "ratings", "rating_history"
}  # fmt: skip
ASSIST_TABLES = {"reviews", "puzzle_attempts", "puzzle_ratings", "puzzle_player_ratings"}


def _tables(url: str) -> set[str]:
    """The tables in the database, looked at without migrating it."""
    engine = create_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_servers_starting_together_on_an_empty_database_all_start(db_url):
    """Several servers (or workers) may share a PostgreSQL database: creating the schema is
    serialized, so concurrent first starts neither fail nor write two version rows."""
    errors: list[BaseException] = []
    stores: list[Store] = []
    barrier = threading.Barrier(4)

    def start() -> None:
        try:
            barrier.wait(10)
            stores.append(Store(db_url))
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    for store in stores:
        store.dispose()
    assert errors == []
    store = Store(db_url)
    try:
        with store.engine.connect() as conn:
            assert conn.execute(select(schema_version_table.c.version)).scalars().all() == [
                SCHEMA_VERSION
            ]
    finally:
        store.dispose()


# --- the web server ---


def test_the_app_creates_the_schema_on_start(server_factory, db_url):
    assert _tables(db_url) == set()
    with server_factory() as server:
        assert server.hub.store.engine.dialect.name == "postgresql"
        assert server.client.get("/api/games").json() == {"games": []}
    tables = {
        "schema_version",
        "games",
        "actions",
        "chat",
        "holdings",
        *HALL_TABLES,
        *ASSIST_TABLES,
        "account_browsers",
        "challenges",
    }
    assert _tables(db_url) == tables
    with server_factory() as server:  # a second start on the existing schema
        assert server.client.get("/api/games").json() == {"games": []}


def test_online_game_with_a_spectator_survives_a_restart_exactly(server_factory):
    with server_factory() as server:
        creator, guest, watcher = server.client, server.browser(), server.browser()
        answer = creator.post(
            "/api/games", json={"game": "acadmu", "options": {"target": 2}, "mode": "online"}
        ).json()
        game_id = answer["id"]
        token = answer["invite"].split("?seat=")[1]
        assert guest.post(f"/api/games/{game_id}/join", json={"seat": token}).json() == {"you": [1]}
        with (
            creator.websocket_connect(f"/ws/games/{game_id}") as ws0,
            guest.websocket_connect(f"/ws/games/{game_id}") as ws1,
            watcher.websocket_connect(f"/ws/games/{game_id}") as spectator,
        ):
            first = [hello(server, ws) for ws in (ws0, ws1, spectator)]
            assert [s["you"] for s in first] == [[0], [1], []]
            # Every socket sees every version, chance included (play_random checks it).
            state = play_random(
                server,
                first[2],
                seats={0: ws0, 1: ws1},
                watchers=[spectator],
                rng=random.Random(5),
                moves=8,
            )
        assert server.stored(game_id) == (state["version"], state["actions"])
        before = creator.get(f"/api/games/{game_id}").json()
        creator_cookies = dict(creator.cookies.items())
        guest_cookies = dict(guest.cookies.items())
        listed = creator.get("/api/games").json()["games"]
        assert [g["id"] for g in listed] == [game_id]

    # A new app (a new engine and pool) on the same database: the game is exactly where it was.
    with server_factory() as server:
        creator, guest = server.browser(), server.browser()
        creator.cookies.update(creator_cookies)
        guest.cookies.update(guest_cookies)
        after = creator.get(f"/api/games/{game_id}").json()
        for key in ("version", "position", "actions", "view", "legal", "to_move", "you", "status"):
            assert after[key] == before[key], key
        assert server.stored(game_id) == (before["version"], before["actions"])
        assert [g["id"] for g in creator.get("/api/games").json()["games"]] == [game_id]
        assert guest.get(f"/api/games/{game_id}").json()["you"] == [1]
        if after["over"]:
            return
        mover = creator if after["to_move"] == 0 else guest
        with mover.websocket_connect(f"/ws/games/{game_id}") as ws:
            state = hello(server, ws, known=after)
            assert state["version"] == after["version"]
            action = state["legal"][0]["text"]
            ws.send_json({"type": "move", "version": state["version"], "action": action})
            state = server.receive_state(ws, state["version"] + 1)
            assert state["actions"][after["version"]] == action
        assert (
            server.stored(game_id)[1][: after["version"] + 1]
            == state["actions"][: after["version"] + 1]
        )


def test_record_download_replays(server):
    game = server.client.post(
        "/api/games", json={"game": "acadmu", "options": {"target": 1}, "mode": "hotseat"}
    ).json()
    with server.client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        state = play_random(
            server, hello(server, ws), seats={0: ws, 1: ws}, rng=random.Random(0), moves=8
        )
    answer = server.client.get(f"/api/games/{game['id']}/record")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
    record = Record.parse(answer.text)
    states = record.replay()
    assert record.tags["Game"] == "acadmu" and record.actions == state["actions"]
    assert str(states[-1]) == state["position"]
    assert server.stored(game["id"]) == (state["version"], state["actions"])


def test_a_computer_game_and_its_rematch_resume_after_a_restart(server_factory):
    """Computer seats, ``pending`` (a Boolean column) and the rematch link, across a restart."""
    with server_factory() as server:
        game = server.client.post(
            "/api/games",
            json={
                "game": "acadmu",
                "options": {"target": 1},
                "mode": "computer",
                "seat": 1,
                "level": "beginner",
            },
        ).json()
        play_out(server, [server.client], game["id"])
        again = server.client.post(f"/api/games/{game['id']}/rematch").json()
        assert again["you"] == [0]
        early = server.client.post(f"/api/games/{again['id']}/rematch")
        assert early.status_code == 409 and early.json()["error"]["code"] == "not_over"
        cookies = dict(server.client.cookies.items())
        before = server.client.get(f"/api/games/{again['id']}").json()
    with server_factory() as server:
        browser = server.browser()
        browser.cookies.update(cookies)
        old = browser.get(f"/api/games/{game['id']}").json()
        assert old["over"] and old["rematch"] == again["id"]
        after = browser.get(f"/api/games/{again['id']}").json()
        assert after["version"] >= before["version"] and after["you"] == [0]
        assert after["actions"][: before["version"]] == before["actions"]
        assert {g["id"] for g in browser.get("/api/games").json()["games"]} == {
            game["id"],
            again["id"],
        }
        # The computer's moves, resumed if need be, come round to the person (or the end).
        with browser.websocket_connect(f"/ws/games/{again['id']}") as ws:
            after = hello(server, ws)
            while after["to_move"] not in (0, None) and not after["over"]:
                after = server.receive_state(ws, after["version"] + 1)
        assert server.stored(again["id"]) == (after["version"], after["actions"])


def test_the_server_recovers_when_its_database_connections_are_dropped(
    server_factory, postgres_cluster, db_url
):
    """A PostgreSQL restart, failover or idle timeout closes the pooled connections under a
    running server; its next requests must still work (not fail once per dead connection)."""
    database = db_url.rsplit("/", 1)[1]
    with server_factory() as server:
        game = server.client.post(
            "/api/games", json={"game": "acadmu", "options": {"target": 1}, "mode": "hotseat"}
        ).json()
        assert server.client.get("/api/games").json()["games"][0]["id"] == game["id"]
        postgres_cluster.admin(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE datname = '{database}' AND pid <> pg_backend_pid()"
        )
        for _ in range(3):
            answer = server.client.get("/api/games")
            assert answer.status_code == 200, answer.text
            assert answer.json()["games"][0]["id"] == game["id"]
        state = server.client.get(f"/api/games/{game['id']}").json()
        with server.client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            state = play_random(
                server, hello(server, ws, known=state), seats={0: ws, 1: ws},
                rng=random.Random(1), moves=1,
            )  # fmt: skip
        assert server.stored(game["id"])[0] == state["version"]
