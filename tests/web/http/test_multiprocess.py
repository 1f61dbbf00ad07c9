"""Several server processes on one PostgreSQL database are one hall (issue 16).

Each test starts real ``gamehall serve`` processes on a fresh database of the session's throwaway
cluster, and plays through them over HTTP and WebSockets: an online game whose two seats and a
spectator are on three different processes, moves for one version raced through two processes
(exactly one accepted), a process killed with SIGKILL mid-game (nothing acknowledged lost, a
chat line included; the players go on through another), the game room across processes (chat in
both rooms, a takeback offered on one process and accepted on the other, a resignation, a flag
fall watched by both processes and stored once), ``--workers`` (refused on SQLite; on PostgreSQL, workers that
share a port and replace one that dies).
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from gamehall.store import Store
from gamehall.web.hall.stored import WAIT_LEASE
from tests.pg_cluster import fresh_database
from tests.web.server_processes import (
    GAMEHALL,
    TIMEOUT,
    Browser,
    Member,
    Process,
    Socket,
    hall,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager"),
]


@pytest.fixture
def hall_db(postgres_cluster: Any) -> str:
    return fresh_database(postgres_cluster)


def online_game(creator: Browser, guest: Browser, on: Process, join_on: Process) -> str:
    """An online Äcädmü game made on one process, its invite taken on another."""
    made = creator.post(
        on, "/api/games", {"game": "acadmu", "options": {"target": 1}, "mode": "online"}
    )
    token = made["invite"].split("?seat=")[1]
    assert guest.post(join_on, f"/api/games/{made['id']}/join", {"seat": token}) == {"you": [1]}
    return made["id"]


def stored(db: str, game_id: str) -> list[str]:
    store = Store(db)
    try:
        return [a.text for a in store.actions(game_id)]
    finally:
        store.dispose()


def play(
    seats: dict[int, Socket], watchers: list[Socket], rng: random.Random, most: int = 10_000
) -> dict[str, Any]:
    """Play random moves, each seat through its own socket, until the end (or ``most`` moves),
    going on from a round's pause through each seat's socket; every socket sees every version."""
    sockets = [*seats.values(), *watchers]
    state = seats[0].state
    for _ in range(most):
        version = max(s.state["version"] for s in sockets)
        state = next(s.state for s in sockets if s.state["version"] == version)
        for s in sockets:
            s.at_least(version)
        if state["over"]:
            return state
        if state.get("pause"):  # a round's end: each seat goes on through its own process
            for seat in state["pause"]["waiting"]:
                seats[seat].send({"type": "continue", "version": version})
            for s in sockets:
                s.at_least(version + 1)
            continue
        if state["to_move"] is None:  # chance: the server draws it
            for s in sockets:
                s.at_least(version + 1)
            continue
        mover = seats[state["to_move"]]
        action = rng.choice(mover.state["legal"])["text"]
        mover.send({"type": "move", "version": version, "action": action})
        for s in sockets:
            s.at_least(version + 1)
        assert all(s.actions[version] == action for s in sockets)
    return state


@pytest.mark.postgres
def test_an_online_game_with_its_seats_and_a_spectator_on_three_processes(hall_db):
    with hall(hall_db, 3) as (p0, p1, p2):
        creator, guest, watcher = Browser(), Browser(), Browser()
        game_id = online_game(creator, guest, p0, p1)
        s0, s1, spectator = (
            creator.socket(p0, game_id),
            guest.socket(p1, game_id),
            watcher.socket(p2, game_id),
        )
        states = [s.hello() for s in (s0, s1, spectator)]
        assert [s["you"] for s in states] == [[0], [1], []]
        # Presence crosses processes: the spectator's process shows both seats connected.
        if not all(seat["connected"] for seat in spectator.state["seats"]):
            spectator.until(
                lambda m: (
                    m["type"] in ("presence", "state")
                    and all(seat["connected"] for seat in m["seats"])
                )
            )
        final = play({0: s0, 1: s1}, [spectator], random.Random(3))
        assert final["over"] and final["status"] == "finished"
        assert s0.actions == s1.actions == spectator.actions == stored(hall_db, game_id)
        for s in (s0, s1, spectator):
            s.close()


def _race(go: threading.Barrier, s: Socket, version: int, action: str) -> None:
    go.wait()
    s.send({"type": "move", "version": version, "action": action})


@pytest.mark.postgres
def test_moves_for_one_version_raced_through_two_processes_one_is_accepted(hall_db):
    with hall(hall_db, 2) as (p0, p1):
        creator, guest = Browser(), Browser()
        game_id = online_game(creator, guest, p0, p0)
        # The creator holds seat 0 on both processes; the guest plays seat 1 on p1.
        a, b, other = (
            creator.socket(p0, game_id),
            creator.socket(p1, game_id),
            guest.socket(p1, game_id),
        )
        for s in (a, b, other):
            s.hello()
        rng = random.Random(7)
        races = 0
        while races < 12:
            version = max(s.state["version"] for s in (a, b, other))
            for s in (a, b, other):
                s.at_least(version)
            state = a.state
            if state["over"]:
                break
            if state.get("pause"):  # a round's end: both go on
                for s, seat in ((a, 0), (other, 1)):
                    if seat in state["pause"]["waiting"]:
                        s.send({"type": "continue", "version": version})
                for s in (a, b, other):
                    s.at_least(version + 1)
                continue
            if state["to_move"] == 1:
                other.send(
                    {
                        "type": "move",
                        "version": version,
                        "action": rng.choice(state["legal"])["text"],
                    }
                )
                for s in (a, b, other):
                    s.at_least(version + 1)
                continue
            legal = [item["text"] for item in state["legal"]]
            first, second = rng.choice(legal), rng.choice(legal)
            go = threading.Barrier(2)
            threads = [
                threading.Thread(target=_race, args=(go, a, version, first)),
                threading.Thread(target=_race, args=(go, b, version, second)),
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            races += 1
            for s in (a, b, other):
                s.at_least(version + 1)
            actions = stored(hall_db, game_id)
            # Exactly one of the two moves is stored as this version, and every socket agrees.
            assert actions[version] in (first, second)
            assert a.actions[version] == b.actions[version] == other.actions[version]
            assert a.actions[version] == actions[version]
            if first != second:
                loser = b if actions[version] == first else a
                refusal = loser.until(lambda m: m["type"] == "error")
                assert refusal["code"] == "stale_version"
        assert races >= 3, "the game ended before the moves could be raced"
        for s in (a, b, other):
            s.close()


@pytest.mark.postgres
def test_a_process_killed_mid_game_loses_nothing_acknowledged(hall_db):
    with hall(hall_db, 2) as (p0, p1):
        creator, guest = Browser(), Browser()
        game_id = online_game(creator, guest, p0, p1)
        s0, s1 = creator.socket(p0, game_id), guest.socket(p1, game_id)
        s0.hello()
        s1.hello()
        rng = random.Random(11)
        state = play({0: s0, 1: s1}, [], rng, most=6)
        acknowledged = list(s0.actions)
        assert len(acknowledged) >= 6 and not state["over"]
        # A room event acknowledged by the process about to die: a chat line, echoed to its writer.
        s0.send({"type": "chat", "text": "back in a moment"})
        chat_lines(s0, "back in a moment")
        chat_lines(s1, "back in a moment")
        p0.kill()  # SIGKILL, its whole process group (its computer workers too)
        with contextlib.suppress(Exception):
            s0.close()
        # The dead process says nothing; its silence (three heartbeats) ends its presence: the
        # other player sees the creator's seat offline (so a win could be claimed).
        deadline = time.monotonic() + 40
        while s1.state["seats"][0]["connected"]:
            assert time.monotonic() < deadline, "the dead process's presence was not forgotten"
            with contextlib.suppress(TimeoutError):
                message = s1.receive(timeout=1)
                if message["type"] == "presence":
                    s1.state = {**s1.state, "seats": message["seats"]}
        # The creator reconnects through the other process and resyncs from its version.
        again = creator.socket(p1, game_id)
        again.actions = list(acknowledged)
        resynced = again.hello()
        assert resynced["you"] == [0]
        history = again.until(lambda m: m["type"] == "chat")
        assert [line["text"] for line in history["lines"]] == ["back in a moment"]
        assert again.actions[: len(acknowledged)] == acknowledged
        assert stored(hall_db, game_id)[: len(acknowledged)] == acknowledged
        final = play({0: again, 1: s1}, [], rng)
        assert final["over"]
        assert stored(hall_db, game_id) == again.actions == s1.actions
        for s in (again, s1):
            s.close()


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    found.append(int(entry.name))
    return found


@pytest.mark.postgres
def test_workers_share_a_port_and_one_that_dies_is_replaced(hall_db):
    with hall(hall_db, 1, workers=2) as (server,):
        workers = _children(server.popen.pid)
        serving = [
            pid for pid in workers if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text()
        ]
        assert len(serving) >= 2, f"not two workers: {workers}"
        creator, guest = Browser(), Browser()
        game_id = online_game(creator, guest, server, server)
        s0, s1 = creator.socket(server, game_id), guest.socket(server, game_id)
        s0.hello()
        s1.hello()
        rng = random.Random(5)
        play({0: s0, 1: s1}, [], rng, most=4)
        os.kill(serving[0], signal.SIGKILL)
        server.wait_serving(3)  # the replacement says it serves (its workers warm up after)
        alive = [pid for pid in _children(server.popen.pid) if pid not in serving]
        assert alive, "the dead worker was not replaced"
        # Whatever socket died with the worker reconnects and the game goes on to its end.
        sockets = {}
        for seat, browser, old in ((0, creator, s0), (1, guest, s1)):
            with contextlib.suppress(Exception):
                old.close()
            fresh = browser.socket(server, game_id)
            fresh.actions = list(old.actions)
            fresh.hello()
            sockets[seat] = fresh
        final = play(sockets, [], rng)
        assert final["over"] and stored(hall_db, game_id) == sockets[0].actions


def test_workers_on_sqlite_are_refused(tmp_path):
    done = subprocess.run(
        [*GAMEHALL, "serve", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}", "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "--workers 2 needs a PostgreSQL store" in done.stderr
    assert not (tmp_path / "x.sqlite3").exists()


def _ratings(db: str, game_id: str) -> tuple[list[tuple[str, int]], int]:
    """(player id, rated games) of every rating, and how many history rows ``game_id`` has."""
    from sqlalchemy import func, select

    from gamehall.store.hall import rating_history_table, ratings_table

    store = Store(db)
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(select(ratings_table.c.player_id, ratings_table.c.games)).all()
            history = conn.execute(
                select(func.count())
                .select_from(rating_history_table)
                .where(rating_history_table.c.game_id == game_id)
            ).scalar_one()
        return sorted((r.player_id, r.games) for r in rows), int(history)
    finally:
        store.dispose()


@pytest.mark.postgres
def test_a_seek_made_on_one_process_is_accepted_on_another_and_rated_once(hall_db):
    with hall(hall_db, 2) as (a, b):
        ada, bob = Member(), Member()
        ada.call(a, "POST", "/api/account/signup", {"username": "Ada", "password": "a long pass"})
        bob.call(b, "POST", "/api/account/signup", {"username": "Bob", "password": "a long pass"})
        ada_lobby, bob_lobby = ada.socket(a, "/ws/lobby"), bob.socket(b, "/ws/lobby")
        for lobby in (ada_lobby, bob_lobby):
            lobby.send({"type": "hello"})
            lobby.until(lambda m: m["type"] == "lobby")
        body = {"game": "acadmu", "options": {"target": 1}, "clock": "5+3", "rated": True}
        made = ada.call(a, "POST", "/api/seeks", {**body, "side": 0})
        # Process B's lobby page hears of it, and B's REST lists it.
        seen = bob_lobby.until(lambda m: m["type"] == "lobby" and m["seeks"])
        assert [(s["id"], s["name"], s["mine"]) for s in seen["seeks"]] == [
            (made["id"], "Ada", False)
        ]
        assert [s["id"] for s in bob.call(b, "GET", "/api/seeks")["seeks"]] == [made["id"]]
        game = bob.call(b, "POST", f"/api/seeks/{made['id']}/accept")
        assert game["you"] == [1]
        assert [s["player"] for s in game["seats"]] == ["Ada", "Bob"]
        # Ada's lobby page, on process A, is told of the game made on B.
        paired = ada_lobby.until(lambda m: m["type"] == "paired")
        assert paired["id"] == game["id"] and paired["rated"] is True
        # The seek is gone everywhere: A's lobby shows none, and nobody else can take it.
        ada_lobby.until(lambda m: m["type"] == "lobby" and not m["seeks"])
        carl = Member()
        carl.call(a, "POST", "/api/account/signup", {"username": "Carl", "password": "a long pass"})
        late = httpx.post(
            f"{a.base}/api/seeks/{made['id']}/accept", headers=carl.headers(), timeout=TIMEOUT
        )
        assert late.status_code == 404, late.text
        for lobby in (ada_lobby, bob_lobby):
            lobby.close()
        # Ada plays on A, Bob on B, to the end; both processes hear that the game ended.
        s0 = ada.socket(a, f"/ws/games/{game['id']}")
        s1 = bob.socket(b, f"/ws/games/{game['id']}")
        assert [s.hello()["you"] for s in (s0, s1)] == [[0], [1]]
        final = play({0: s0, 1: s1}, [], random.Random(5))
        assert final["over"]
        for s in (s0, s1):
            s.close()
        # Both processes saw the game end and decided (Standings.rate logs it): one counted
        # it, the other found it counted already.
        decided = [p.wait_said(f"rated game {game['id']}: ")[0] for p in (a, b)]
        assert sorted(line.rpartition(": ")[2].strip() for line in decided) == [
            "counted",
            "counted already",
        ], decided
        ratings, history = _ratings(hall_db, game["id"])
        assert [games for _, games in ratings] == [1, 1] and history == 2
        profile = ada.call(b, "GET", "/api/players/Ada")
        assert [r["games"] for r in profile["ratings"]] == [1]


# --- the game room across processes -----------------------------------------------------------


def entries(db: str, game_id: str) -> list[tuple[str, str, int]]:
    """The game's stored log: (kind, text, mover) of each entry."""
    store = Store(db)
    try:
        return [(a.kind, a.text, a.mover) for a in store.actions(game_id)]
    finally:
        store.dispose()


def to_people(sockets: list[Socket]) -> dict[str, Any]:
    """Wait until a person is to move (the opening chance drawn), as every socket sees it."""
    state = sockets[0].state
    if state.get("to_move") is None:
        state = sockets[0].until(lambda m: m["type"] == "state" and m["to_move"] is not None)
    for s in sockets[1:]:
        s.at_least(state["version"])
    return state


def move(mover: Socket, state: dict[str, Any], others: list[Socket]) -> dict[str, Any]:
    """``mover`` plays its first legal move; every socket sees the next version."""
    mover.send({"type": "move", "version": state["version"], "action": state["legal"][0]["text"]})
    for s in [mover, *others]:
        s.at_least(state["version"] + 1)
    return mover.state


def chat_lines(s: Socket, text: str) -> dict[str, Any]:
    return s.until(lambda m: m["type"] == "chat" and any(ln["text"] == text for ln in m["lines"]))


@pytest.mark.postgres
def test_chat_a_takeback_and_a_resignation_cross_processes(hall_db):
    with hall(hall_db, 2) as (p0, p1):
        creator, guest, watcher_a, watcher_b = Browser(), Browser(), Browser(), Browser()
        game_id = online_game(creator, guest, p0, p1)
        s0, s1 = creator.socket(p0, game_id), guest.socket(p1, game_id)
        spectators = [watcher_a.socket(p0, game_id), watcher_b.socket(p1, game_id)]
        everyone = [s0, s1, *spectators]
        for s in everyone:
            s.hello()
        state = to_people(everyone)

        # Chat: the players' room crosses processes, the spectators' too, and neither sees the
        # other's (the spectator on the writer's process sees nothing of the players' line).
        s0.send({"type": "chat", "text": "good luck"})
        line = chat_lines(s1, "good luck")
        assert line["room"] == "players" and line["lines"][-1]["seat"] == 0
        chat_lines(s0, "good luck")
        spectators[1].send({"type": "chat", "text": "who wins?"})
        seen = chat_lines(spectators[0], "who wins?")
        assert seen["room"] == "spectators"
        store = Store(hall_db)
        try:
            rooms = [
                (row.room, row.text)
                for room in ("players", "spectators")
                for row in store.chat(game_id, room)
            ]
        finally:
            store.dispose()
        assert rooms == [("players", "good luck"), ("spectators", "who wins?")]

        # A takeback offered through one process, accepted through the other.
        seats = {0: s0, 1: s1}
        first = state["to_move"]
        mine, theirs = seats[first], seats[1 - first]
        before = list(mine.actions)
        state = move(mine, state, [theirs, *spectators])
        mine.send({"type": "takeback", "op": "offer"})
        offered = theirs.at_least(state["version"] + 1)
        assert offered["takeback"] == {"by": first}
        for s in [mine, *spectators]:
            s.at_least(offered["version"])
        theirs.send({"type": "takeback", "op": "accept"})
        for s in everyone:
            back = s.at_least(offered["version"] + 1)
            assert back["to_move"] == first and back["takeback"] is None
            assert s.actions == before
        assert [kind for kind, _, _ in entries(hall_db, game_id)][-3:] == [
            "action",
            "offer",
            "takeback",
        ]

        # Both sides move (a resignation before that is an abort, with no result), then the
        # player on the other process resigns: everyone sees the game over, stored once.
        for _ in range(2):
            state = to_people(everyone)
            mover = seats[state["to_move"]]
            move(mover, state, [s for s in everyone if s is not mover])
        version = to_people(everyone)["version"]
        s1.send({"type": "resign"})
        for s in everyone:
            over = s.at_least(version + 1)
            assert over["over"] and over["outcome"]["winner"] == 0
        log = entries(hall_db, game_id)
        assert log[-1] == ("resign", "resign", 1) and len(log) == version + 1
        for s in everyone:
            s.close()


@pytest.mark.postgres
def test_a_flag_falls_once_though_both_processes_watch_the_clock(hall_db):
    with hall(hall_db, 2) as (p0, p1):
        creator, guest = Browser(), Browser()
        made = creator.post(
            p0,
            "/api/games",
            {"game": "acadmu", "options": {"target": 1}, "mode": "online", "clock": "0.05+0"},
        )
        token = made["invite"].split("?seat=")[1]
        guest.post(p1, f"/api/games/{made['id']}/join", {"seat": token})
        game_id = made["id"]
        s0, s1 = creator.socket(p0, game_id), guest.socket(p1, game_id)
        for s in (s0, s1):
            s.hello()
        state = to_people([s0, s1])
        seats = {0: s0, 1: s1}
        for _ in range(2):  # each side's first move is free; then the clock runs
            mover = seats[state["to_move"]]
            state = move(mover, state, [s for s in seats.values() if s is not mover])
        late = state["clock"]["running"]
        assert late is not None and state["clock"]["remaining"][late] == 3_000
        # Nobody moves: 3 s and the lag allowance later, the flag falls; both processes' timers
        # try to store it, and the store keeps one.
        for s in (s0, s1):
            over = s.until(lambda m: m["type"] == "state" and m["over"])
            assert over["outcome"]["winner"] == 1 - late
            assert "ran out of time" in over["outcome"]["reason"]
        # Each process's timer says how it ended (Arbiter._timer logs it): the flag it stored,
        # or the one the other stored first, or the game over already when it woke.
        ends = [p.wait_said(f"the timer of {game_id}: ")[0] for p in (p0, p1)]
        assert sum("fell" in line for line in ends) == 1, ends
        log = entries(hall_db, game_id)
        assert [kind for kind, _, _ in log].count("flag") == 1
        assert log[-1][0] == "flag" and log[-1][2] == late
        for s in (s0, s1):
            s.close()


# --- the lobby across processes ---------------------------------------------------------------


@pytest.mark.postgres
def test_quick_pairing_pairs_two_players_waiting_on_different_processes_once(hall_db):
    with hall(hall_db, 2) as (a, b):
        ada, bob = Member(), Member()
        ada.call(a, "GET", "/api/me")
        bob.call(b, "GET", "/api/me")
        lobbies = [ada.socket(a, "/ws/lobby"), bob.socket(b, "/ws/lobby")]
        for lobby in lobbies:
            lobby.send({"type": "hello"})
            lobby.until(lambda m: m["type"] == "lobby")
        pool = {"game": "acadmu", "clock": "5+3", "rated": False}
        lobbies[0].send({"type": "pair", **pool})
        # B's lobby shows Ada waiting in the pool (the pools are the store's).
        lobbies[1].until(
            lambda m: m["type"] == "lobby" and m["pools"] and m["pools"][0]["waiting"] == 1
        )
        lobbies[1].send({"type": "pair", **pool})
        paired = [lobby.until(lambda m: m["type"] == "paired") for lobby in lobbies]
        assert paired[0]["id"] == paired[1]["id"]
        game_id = paired[0]["id"]
        # One game was made, with one seat each, though both processes ran pairing rounds.
        store = Store(hall_db)
        try:
            with store.engine.connect() as conn:
                from sqlalchemy import text

                games = conn.execute(text("SELECT id FROM games")).scalars().all()
                waits = conn.execute(text("SELECT count(*) FROM seeks")).scalar_one()
        finally:
            store.dispose()
        assert games == [game_id] and waits == 0
        seats = [m.call(p, "GET", f"/api/games/{game_id}")["you"] for m, p in ((ada, a), (bob, b))]
        assert sorted(seats) == [[0], [1]]
        # A third player's lobby on either process lists the game being played (the store's).
        carl = Member()
        carl.call(b, "GET", "/api/me")
        watch = carl.socket(b, "/ws/lobby")
        watch.send({"type": "hello"})
        listed = watch.until(
            lambda m: m["type"] == "lobby" and any(g["id"] == game_id for g in m["games"])
        )
        assert {g["id"] for g in listed["games"]} == {game_id}
        for s in (*lobbies, watch):
            s.close()


@pytest.mark.postgres
def test_a_wait_on_a_killed_process_lapses_and_is_never_paired(hall_db):
    with hall(hall_db, 2, log_level="debug") as (a, b):
        ada, bob = Member(), Member()
        ada.call(a, "GET", "/api/me")
        bob.call(b, "GET", "/api/me")
        ada_lobby = ada.socket(a, "/ws/lobby")
        ada_lobby.send({"type": "hello"})
        ada_lobby.until(lambda m: m["type"] == "lobby")
        pool = {"game": "acadmu", "clock": "3+2", "rated": False}
        ada_lobby.send({"type": "pair", **pool})
        ada_lobby.until(lambda m: m["type"] == "lobby" and m["waiting"])
        a.kill()
        bob_lobby = bob.socket(b, "/ws/lobby")
        bob_lobby.send({"type": "hello"})
        # Ada's wait, stored: B learns it from the bus, perhaps after Bob's first lobby message
        # (B tells the room when its waits change), so wait for the lobby that shows it.
        bob_lobby.until(lambda m: m["type"] == "lobby" and m["pools"])
        # Ada's wait is stored, but nobody renews it: within the lease it lapses on B, and B's
        # lobby page is told (Processes.reload_seeks tells the room when the waits change); the
        # timeout only fails a broken run.
        bob_lobby.until(lambda m: m["type"] == "lobby" and not m["pools"], timeout=WAIT_LEASE + 30)
        bob_lobby.send({"type": "pair", **pool})
        bob_lobby.until(lambda m: m["type"] == "lobby" and m["waiting"])
        # Two pairing rounds on B (Hall.tick logs each): Bob waits alone.
        rounds = len(b.lines("pairing round: "))
        after = b.wait_said("pairing round: ", rounds + 2)[rounds:]
        assert all("0 pairs" in line for line in after), after
        bob_lobby.send({"type": "hello"})
        assert bob_lobby.until(lambda m: m["type"] == "lobby")["waiting"] is not None
        bob_lobby.close()


@pytest.mark.postgres
def test_a_rounds_pause_waits_for_both_players_on_their_own_processes(hall_db):
    with hall(hall_db, 3) as (p0, p1, p2):
        creator, guest = Browser(), Browser()
        made = creator.post(p0, "/api/games", {"game": "acadmu", "options": {}, "mode": "online"})
        token = made["invite"].split("?seat=")[1]
        guest.post(p1, f"/api/games/{made['id']}/join", {"seat": token})
        game_id = made["id"]
        seats = {0: creator.socket(p0, game_id), 1: guest.socket(p1, game_id)}
        for s in seats.values():
            s.hello()
        rng = random.Random(2)
        state = seats[0].state
        while not state.get("pause"):  # play the first round (the match goes on after it)
            assert not state["over"], "the match ended without a pause"
            version = max(s.state["version"] for s in seats.values())
            for s in seats.values():
                s.at_least(version)
            state = seats[0].state
            if state.get("pause") or state["to_move"] is None:
                if state["to_move"] is None and not state.get("pause"):
                    for s in seats.values():
                        s.at_least(version + 1)
                    state = seats[0].state
                continue
            mover = seats[state["to_move"]]
            action = rng.choice(mover.state["legal"])["text"]
            mover.send({"type": "move", "version": version, "action": action})
            for s in seats.values():
                s.at_least(version + 1)
            state = seats[0].state
        version = state["version"]
        assert sorted(state["pause"]["waiting"]) == [0, 1]
        # The creator goes on through p0: the guest, on p1, sees the pause wait for them alone.
        seats[0].send({"type": "continue", "version": version})
        waiting = seats[1].until(
            lambda m: m["type"] == "state" and m["pause"] and m["pause"]["waiting"] == [1]
        )
        assert waiting["version"] == version
        # A spectator opens the game through p2, which loads it only now: its pause, too,
        # waits for the guest alone (p0 tells what the store does not keep).
        spectator = Browser().socket(p2, game_id)
        late = spectator.hello()
        if late["pause"]["waiting"] != [1]:  # p2's state before p0's answer came
            late = spectator.until(
                lambda m: m["type"] == "state" and m["pause"] and m["pause"]["waiting"] == [1]
            )
        assert late["version"] == version
        # The guest goes on through p1: the next round's chance is drawn, once.
        seats[1].send({"type": "continue", "version": version})
        for s in seats.values():
            after = s.at_least(version + 1)
            assert after["pause"] is None
        # p0 and p2 heard p1's continue and decided (Arbiter.went_on logs it): gone on already,
        # or released too and their draw refused as stale. No other draw can come after.
        for p in (p0, p2):
            p.wait_said(f"going on in {game_id} at {version}: ")
        log = entries(hall_db, game_id)
        assert len(log) >= version + 1 and log[version][2] == -1  # chance, after the pause
        assert seats[0].actions == seats[1].actions == [t for k, t, _ in log if k == "action"]
        assert spectator.at_least(version + 1)["pause"] is None
        for s in [*seats.values(), spectator]:
            s.close()


@pytest.mark.postgres
def test_signing_out_everywhere_closes_the_accounts_socket_on_another_process(hall_db):
    """Issue 33, point 7: the sign-out is told on the bus, and the other process closes the
    sockets of the sessions it ended (they can no longer chat, resign or pair)."""
    from websockets.exceptions import ConnectionClosed

    from gamehall.web.play.connection import SESSION_ENDED

    with hall(hall_db, 2) as (p0, p1):
        body = {"username": "Ada", "password": "correct horse battery"}
        signed = httpx.post(f"{p0.base}/api/account/signup", json=body, timeout=TIMEOUT)
        assert signed.status_code == 200, signed.text
        cookies = dict(signed.cookies)
        game = httpx.post(
            f"{p0.base}/api/games",
            json={"game": "acadmu", "mode": "online"},
            cookies=cookies,
            timeout=TIMEOUT,
        ).json()
        header = "; ".join(f"{name}={value}" for name, value in cookies.items())
        socket = Socket(
            connect(
                f"ws://127.0.0.1:{p1.port}/ws/games/{game['id']}",
                additional_headers={"cookie": header},
                open_timeout=TIMEOUT,
            )
        )
        assert socket.hello()["you"] == [0]
        out = httpx.post(
            f"{p0.base}/api/account/logout",
            json={"everywhere": True},
            cookies=cookies,
            timeout=TIMEOUT,
        )
        assert out.status_code == 200, out.text
        with pytest.raises(ConnectionClosed) as closed:
            socket.until(lambda message: False)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == SESSION_ENDED
