"""The store and the web server on a real PostgreSQL server (``--db postgresql+psycopg://...``).

A throwaway cluster is started for the test session with the PostgreSQL binaries found under
``/usr/lib/postgresql/*/bin`` (Debian's ``postgresql`` package) or on PATH; no system service is
used. PostgreSQL refuses to run as root, so as root the cluster runs as the ``postgres`` OS user
(``runuser``). It listens on 127.0.0.1 on a free port (its unix socket in its temporary
directory), with trust authentication and no fsync. Each test gets a fresh database, and the
``db_url`` fixture of ``conftest.py`` is overridden here, so ``server``/``server_factory`` run
the app on it.

PostgreSQL and psycopg are hard dependencies of the test suite (``make test`` installs Debian's
``postgresql``; the ``test`` extra brings psycopg): without them these tests fail, saying what is
missing, and are never skipped.
"""

from __future__ import annotations

import glob
import itertools
import os
import random
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest
from sqlalchemy import create_engine, inspect, select, update
from sqlalchemy.exc import IntegrityError

from gamehall.core import Record
from gamehall.store import (
    SCHEMA_VERSION,
    GameRow,
    Seat,
    Store,
    StoreError,
    VersionConflict,
    now_text,
)
from gamehall.store.db import schema_version_table


def _unavailable(reason: str) -> NoReturn:
    """A missing piece is a broken install: fail, saying what to install."""
    pytest.fail(f"the PostgreSQL tests cannot run: {reason}", pytrace=False)


# --- the throwaway cluster ---


def _find_bin_dir() -> Path | None:
    """The newest ``/usr/lib/postgresql/N/bin`` with initdb and pg_ctl, else PATH's."""

    def major(path: str) -> int:
        try:
            return int(Path(path).parent.name)
        except ValueError:
            return -1

    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=major, reverse=True):
        if all(os.access(Path(candidate) / b, os.X_OK) for b in ("initdb", "pg_ctl", "postgres")):
            return Path(candidate)
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if initdb and pg_ctl and Path(initdb).parent == Path(pg_ctl).parent:
        return Path(initdb).parent
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Cluster:
    bin_dir: Path
    base: Path  # the temporary directory: data/, the socket and the log
    port: int
    as_user: list[str]  # the command prefix that runs as the cluster's owner

    @property
    def data(self) -> Path:
        return self.base / "data"

    @property
    def log(self) -> Path:
        return self.base / "postgres.log"

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.as_user, *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=self.base,  # readable by the cluster's owner (root's cwd may not be)
            check=False,
        )

    def start(self) -> bool:
        options = " ".join(
            [
                "-c listen_addresses=127.0.0.1",
                f"-p {self.port}",
                f"-k {self.base}",  # unix socket here, not /var/run/postgresql
                "-c fsync=off",
                "-c synchronous_commit=off",
                "-c full_page_writes=off",
                "-c shared_buffers=32MB",
                "-c max_connections=50",
            ]
        )
        done = self.run(
            str(self.bin_dir / "pg_ctl"),
            "start",
            "-w",
            "-t",
            "30",
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            options,
        )
        return done.returncode == 0

    def stop(self) -> None:
        self.run(str(self.bin_dir / "pg_ctl"), "stop", "-w", "-m", "fast", "-D", str(self.data))

    def admin(self, sql: str) -> None:
        """Run ``sql`` on the ``postgres`` database, outside a transaction."""
        import psycopg

        with psycopg.connect(
            host="127.0.0.1", port=self.port, user="postgres", dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(sql)


def _log_tail(cluster: Cluster) -> str:
    try:
        return cluster.log.read_text(errors="replace")[-2000:]
    except OSError:
        return "(no log)"


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """A PostgreSQL cluster of its own for the test session, stopped and removed afterwards."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _unavailable("psycopg is not installed (pip install 'psycopg[binary]>=3.1')")
    bin_dir = _find_bin_dir()
    if bin_dir is None:
        _unavailable(
            "no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin "
            "or on PATH (apt-get install postgresql)"
        )
    as_user: list[str] = []
    owner: tuple[int, int] | None = None
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: run it as `postgres`
        import pwd

        runuser = shutil.which("runuser")
        try:
            entry = pwd.getpwnam("postgres")
        except KeyError:
            entry = None
        if runuser is None or entry is None:
            _unavailable("running as root, but there is no `postgres` OS user or no runuser")
        as_user = [runuser, "-u", "postgres", "--"]
        owner = (entry.pw_uid, entry.pw_gid)

    base = Path(tempfile.mkdtemp(prefix="gamehall-pg-"))
    try:
        if owner is not None:
            os.chown(base, *owner)
        cluster = Cluster(bin_dir, base, 0, as_user)
        done = cluster.run(
            str(bin_dir / "initdb"),
            "-D",
            str(cluster.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
            timeout=120,
        )
        if done.returncode != 0:
            pytest.fail(f"initdb failed:\n{done.stdout}\n{done.stderr}", pytrace=False)
        for _ in range(5):  # a free port may be taken before the server binds it: try again
            cluster.port = _free_port()
            if cluster.start():
                break
        else:
            pytest.fail(f"pg_ctl start failed; log:\n{_log_tail(cluster)}", pytrace=False)
        try:
            cluster.admin("CREATE DATABASE gamehall_test")
            yield cluster
        finally:
            cluster.stop()
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_url(postgres_cluster: Cluster) -> str:
    """``postgresql+psycopg://postgres@127.0.0.1:PORT/gamehall_test`` (shared by the session)."""
    return postgres_cluster.url("gamehall_test")


_numbers = itertools.count(1)


@pytest.fixture
def db_url(postgres_cluster: Cluster) -> str:
    """A fresh, empty database per test (overrides conftest's SQLite ``db_url``)."""
    name = f"gamehall_t{next(_numbers)}"
    postgres_cluster.admin(f"CREATE DATABASE {name}")
    return postgres_cluster.url(name)


# --- helpers ---


def _tables(url: str) -> set[str]:
    """The tables in the database, looked at without migrating it."""
    engine = create_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def _row(game_id: str = "g_0123456789") -> GameRow:
    now = now_text()
    return GameRow(
        id=game_id,
        game="acadmu",
        options={"target": 1},
        mode="online",
        seed="abc",
        seats=[Seat("human", "t0"), Seat("computer", "", "easy")],
        created=now,
        updated=now,
    )


def _settle(server, ws, state):
    while state["to_move"] is None and not state["over"]:
        state = server.receive_state(ws, state["version"] + 1)
    return state


# --- the store ---


def test_the_session_database_is_postgresql(postgres_url):
    store = Store(postgres_url)
    try:
        assert not store.is_sqlite and store.engine.dialect.name == "postgresql"
        assert store.engine.dialect.driver == "psycopg"
        assert store.schema_version() == SCHEMA_VERSION
    finally:
        store.dispose()


def test_schema_is_created_then_opened_again_and_migrated(db_url):
    assert _tables(db_url) == set()
    store = Store(db_url)
    assert _tables(db_url) == {"schema_version", "games", "actions", "holdings"}
    assert store.schema_version() == SCHEMA_VERSION
    store.dispose()

    again = Store(db_url)  # a second start on an existing schema
    assert again.schema_version() == SCHEMA_VERSION
    # An older schema is brought up to date on start, a newer one refused.
    with again.engine.begin() as conn:
        conn.execute(update(schema_version_table).values(version=SCHEMA_VERSION - 1))
    again.dispose()
    migrated = Store(db_url)
    assert migrated.schema_version() == SCHEMA_VERSION
    with migrated.engine.begin() as conn:
        conn.execute(update(schema_version_table).values(version=SCHEMA_VERSION + 1))
    migrated.dispose()
    with pytest.raises(StoreError, match="newer"):
        Store(db_url)


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


def test_appends_are_guarded_by_version(db_url):
    store = Store(db_url)
    try:
        store.create_game(_row(), holders=[("me", 0)])
        store.append_action(
            "g_0123456789", 1, "draw RT:BS/YC:RT", -1, status="ongoing", result=None, pending=True
        )
        for number in (1, 3):
            with pytest.raises(VersionConflict):
                store.append_action(
                    "g_0123456789", number, "x", -1, status="ongoing", result=None, pending=True
                )
        row = store.get_game("g_0123456789")
        assert row.version == 1 and row.pending is True and row.seats[1].level == "easy"
        assert [a.text for a in store.actions("g_0123456789")] == ["draw RT:BS/YC:RT"]
        assert store.pending_games() == ["g_0123456789"]
        store.set_pending("g_0123456789", False)
        assert store.pending_games() == []
        assert [g.id for g in store.games_of("me")] == ["g_0123456789"]
        assert store.games_of("someone else") == []
    finally:
        store.dispose()


def test_concurrent_writers_one_wins_and_holdings_are_idempotent(db_url):
    """The web server uses several store threads on PostgreSQL (one on SQLite): two appends of
    the same action number, or two adds of the same holding, race for real here."""
    store = Store(db_url)
    try:
        store.create_game(_row(), holders=[("me", 0)])
        for number in (1, 2, 3):
            barrier = threading.Barrier(4)
            outcomes: list[str] = []

            def append(i, number=number, barrier=barrier, outcomes=outcomes):
                barrier.wait(10)
                try:
                    store.append_action(
                        "g_0123456789",
                        number,
                        f"a{number}.{i}",
                        0,
                        status="ongoing",
                        result=None,
                        pending=False,
                    )
                    outcomes.append("ok")
                except VersionConflict:
                    outcomes.append("conflict")
                except Exception as error:
                    outcomes.append(repr(error))

            threads = [threading.Thread(target=append, args=(i,)) for i in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(30)
            assert sorted(outcomes) == ["conflict"] * 3 + ["ok"], outcomes
        assert store.get_game("g_0123456789").version == 3
        assert [a.number for a in store.actions("g_0123456789")] == [1, 2, 3]

        barrier = threading.Barrier(4)
        errors: list[BaseException] = []

        def hold() -> None:
            barrier.wait(10)
            try:
                for _ in range(10):
                    store.add_holding("guest", "g_0123456789", 1)
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=hold) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert errors == []
        assert sorted(store.holders("g_0123456789")) == [("guest", 1), ("me", 0)]
        with pytest.raises(IntegrityError):  # holding a game that does not exist: still an error
            store.add_holding("guest", "g_missing0000", 0)
    finally:
        store.dispose()


def test_long_values_the_web_server_may_store_fit(db_url):
    """PostgreSQL enforces String(n) lengths (SQLite does not): the longest ids, player cookies
    and times the server accepts or writes must fit."""
    store = Store(db_url)
    try:
        row = _row("g_" + "x" * 30)  # Hub.get accepts ids up to 32 characters
        row.seed = "f" * 64
        row.created = row.updated = "2024-12-31T23:59:59.999+00:00"
        store.create_game(row, holders=[("p" * 64, 0)])  # the player cookie: up to 64
        store.append_action(row.id, 1, "t" * 5000, -1, status="ongoing", result=None, pending=False)
        assert store.get_game(row.id).seed == "f" * 64
        assert [g.id for g in store.games_of("p" * 64)] == [row.id]
    finally:
        store.dispose()


# --- the web server ---


def test_the_app_creates_the_schema_on_start(server_factory, db_url):
    assert _tables(db_url) == set()
    with server_factory() as server:
        assert server.hub.store.engine.dialect.name == "postgresql"
        assert server.client.get("/api/games").json() == {"games": []}
    assert _tables(db_url) == {"schema_version", "games", "actions", "holdings"}
    with server_factory() as server:  # a second start on the existing schema
        assert server.client.get("/api/games").json() == {"games": []}


def test_online_game_with_a_spectator_survives_a_restart_exactly(server_factory):
    rng = random.Random(5)
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
            players = [ws0, ws1]
            first = []
            for ws in (ws0, ws1, spectator):
                ws.send_json({"type": "hello", "version": -1})
                first.append(server.receive_state(ws))
            assert [s["you"] for s in first] == [[0], [1], []]
            state = first[2]
            seen = [state["version"]]
            for _ in range(8):
                if state["over"]:
                    break
                action = rng.choice(state["legal"])
                players[state["to_move"]].send_json(
                    {"type": "move", "version": state["version"], "action": action}
                )
                while True:  # the spectator sees every version, chance included
                    new = server.receive_state(spectator)
                    assert new["version"] == seen[-1] + 1
                    seen.append(new["version"])
                    if new["to_move"] is not None or new["over"]:
                        break
                assert new["actions"][state["version"]] == action
                for ws in players:
                    assert server.receive_state(ws, new["version"])["position"] == new["position"]
                state = new
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
            ws.send_json({"type": "hello", "version": after["version"]})
            state = server.receive_state(ws)
            assert state["version"] == after["version"]
            ws.send_json({"type": "move", "version": state["version"], "action": state["legal"][0]})
            state = server.receive_state(ws, state["version"] + 1)
            assert state["actions"][after["version"]] == after["legal"][0]
        assert (
            server.stored(game_id)[1][: after["version"] + 1]
            == state["actions"][: after["version"] + 1]
        )


def test_record_download_replays(server):
    game = server.client.post(
        "/api/games", json={"game": "acadmu", "options": {"target": 1}, "mode": "hotseat"}
    ).json()
    rng = random.Random(0)
    with server.client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        ws.send_json({"type": "hello", "version": -1})
        state = server.receive_state(ws)
        for _ in range(8):
            if state["over"]:
                break
            ws.send_json(
                {"type": "move", "version": state["version"], "action": rng.choice(state["legal"])}
            )
            state = _settle(server, ws, server.receive_state(ws, state["version"] + 1))
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
        again = server.client.post(f"/api/games/{game['id']}/rematch").json()
        assert again["you"] == [0]
        cookies = dict(server.client.cookies.items())
        before = server.client.get(f"/api/games/{game['id']}").json()
    with server_factory() as server:
        browser = server.browser()
        browser.cookies.update(cookies)
        after = browser.get(f"/api/games/{game['id']}").json()
        assert after["version"] >= before["version"] and after["rematch"] == again["id"]
        assert after["actions"][: before["version"]] == before["actions"]
        assert {g["id"] for g in browser.get("/api/games").json()["games"]} == {
            game["id"],
            again["id"],
        }
        # The computer's moves, resumed if need be, come round to the person (or the end).
        deadline = time.monotonic() + 15
        while after["to_move"] not in (1, None) and not after["over"]:
            assert time.monotonic() < deadline, "the computer did not move"
            time.sleep(0.05)
            after = browser.get(f"/api/games/{game['id']}").json()
        assert server.stored(game["id"]) == (after["version"], after["actions"])


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
            ws.send_json({"type": "hello", "version": state["version"]})
            state = server.receive_state(ws)
            ws.send_json({"type": "move", "version": state["version"], "action": state["legal"][0]})
            state = server.receive_state(ws, state["version"] + 1)
        assert server.stored(game["id"])[0] >= state["version"]
