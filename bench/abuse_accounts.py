"""The attacks of issue 33 on identities and accounts, for ``abuse.py`` (which registers
:data:`ATTACKS` among its own and runs them against its server, watching ``/api/meta``).

Each is bounded (a few hundred requests at most) and talks to the loopback server only. Each
returns a line saying what the server answered and what it stored (players' rows are counted
in the SQLite store when ``abuse.py`` started the server, else "n/a")."""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from server_kit import Browser, dumps

PASSWORD = "correct horse battery"


def _players(context: Any) -> int | None:
    """Rows of the players' table (None: the store is not ours to read)."""
    if context.server is None:
        return None
    path: Path = context.server.db_path
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        return int(connection.execute("SELECT count(*) FROM players").fetchone()[0])
    finally:
        connection.close()


def _grew(before: int | None, context: Any) -> str:
    after = _players(context)
    return "n/a" if before is None or after is None else str(after - before)


def _codes(answers: list[httpx.Response]) -> str:
    counts = Counter(
        f"{a.status_code} {a.json()['error']['code']}"
        if a.status_code >= 400
        else str(a.status_code)
        for a in answers
    )
    return ", ".join(f"{k} ×{v}" for k, v in counts.most_common())


def _ws(base: str, path: str) -> str:
    return f"{base.replace('http', 'ws', 1)}{path}"


def _headers(browser: Browser) -> dict[str, str]:
    """A WebSocket's headers with every cookie of the browser (its session too)."""
    cookies = "; ".join(f"{k}={v}" for k, v in browser.http.cookies.items())
    return {"origin": browser.base, "x-forwarded-for": browser.address, "cookie": cookies}


def attack_cookieless_rows(context: Any) -> str:
    """1,000 cookieless reads of the lobby, the seeks and the player: a row each, before."""
    before = _players(context)
    browser = context.browser()
    answers = []
    for n in range(1000):
        browser.http.cookies.clear()
        answers.append(browser.http.get(("/api/seeks", "/api/me", "/lobby")[n % 3]))
    return f"{len(answers)} reads: {_codes(answers)}; players stored: {_grew(before, context)}"


def attack_made_up_cookies(context: Any) -> str:
    """1,000 made-up identity cookies, signed-looking and not, each reading and making a seat."""
    browser = context.browser()
    games = browser.created({"game": "acadmu", "mode": "hotseat"})
    before = _players(context)  # its creator's row counted already
    answers, given = [], set()
    for n in range(1000):
        browser.http.cookies.clear()
        made_up = secrets.token_urlsafe(32)
        if n % 2:
            made_up += "." + secrets.token_urlsafe(32)
        browser.http.cookies.set("gh_player", made_up)
        answer = browser.http.get(f"/api/games/{games['id']}")
        answers.append(answer)
        given.add(
            answer.cookies.get("gh_player", "").partition(".")[0] == made_up.partition(".")[0]
        )
    seated = sum(bool(a.json().get("you")) for a in answers if a.status_code == 200)
    return (
        f"{len(answers)} reads: {_codes(answers)}; a made-up identity kept: {True in given}; "
        f"seats held by them: {seated}; players stored: {_grew(before, context)}"
    )


def attack_name_squatting(context: Any) -> str:
    """300 fresh guests from one address each taking a name (champion0…), then someone signs
    up as one of the later ones."""
    before = _players(context)
    answers = []
    for n in range(300):
        squatter = context.browser("10.7.0.1")
        answers.append(squatter.http.put("/api/me/name", json={"name": f"champion{n}"}))
        squatter.close()
    person = context.browser()
    signup = person.http.post(
        "/api/account/signup", json={"username": "champion250", "password": PASSWORD}
    )
    return (
        f"{len(answers)} renames: {_codes(answers)}; signup champion250: {_codes([signup])}; "
        f"players stored: {_grew(before, context)}"
    )


def attack_look_alike_names(context: Any) -> str:
    """Names that read as taken ones: claniel, vvendy, aʟice, alicᴇ, rnary after daniel, wendy,
    alice, mary."""
    for name in ("daniel", "wendy", "alice", "mary"):
        context.browser().http.put("/api/me/name", json={"name": name})
    answers = [
        context.browser().http.put("/api/me/name", json={"name": name})
        for name in ("claniel", "vvendy", "a\u029fice", "alic\u1d07", "rnary")
    ]
    return f"{len(answers)} look-alikes: {_codes(answers)}"


def attack_sign_in_flood(context: Any) -> str:
    """200 sign-ins with the right password from one address (each an argon2 check), each from
    a browser of its own (a new session each)."""
    owner = context.browser()
    owner.http.post("/api/account/signup", json={"username": "Flooded", "password": PASSWORD})
    answers, sessions = [], None
    started = time.monotonic()
    for _ in range(200):
        browser = context.browser("10.7.0.2")
        answers.append(
            browser.http.post(
                "/api/account/login", json={"username": "Flooded", "password": PASSWORD}
            )
        )
        if answers[-1].status_code == 200:
            sessions = browser.http.get("/api/me").json().get("sessions")
        browser.close()
    first = owner.http.get("/api/me").json().get("account")
    return (
        f"{len(answers)} sign-ins in {time.monotonic() - started:.1f} s: {_codes(answers)}; "
        f"the account's sessions after the last: {sessions}; the first still signed in: {first}"
    )


def attack_rename_flood(context: Any) -> str:
    """200 renames of a player whose game 10 watchers follow: the state messages they get."""
    host = context.browser()
    game = host.created({"game": "acadmu", "mode": "online"})
    watchers = [
        connect(_ws(context.base, f"/ws/games/{game['id']}"), additional_headers=_headers(b))
        for b in (context.browser() for _ in range(10))
    ]
    try:
        for ws in watchers:
            ws.send(dumps({"type": "hello", "version": -1}))
            while json.loads(ws.recv(timeout=30))["type"] != "state":
                pass
        answers = [host.http.put("/api/me/name", json={"name": f"Renamer{n}"}) for n in range(200)]
        time.sleep(2.5)  # two lobby rounds: what the watchers were sent meanwhile
        states = 0
        for ws in watchers:
            while True:
                try:
                    message = json.loads(ws.recv(timeout=0.2))
                except TimeoutError:
                    break
                states += message["type"] == "state"
    finally:
        for ws in watchers:
            ws.close()
    return f"{len(answers)} renames: {_codes(answers)}; state messages to 10 watchers: {states}"


def attack_nul_password(context: Any) -> str:
    """NUL bytes and lone surrogates in passwords and usernames, signing up and in."""
    browser = context.browser()
    answers = []
    for bad in ("pass\\u0000word-long", "pass\\ud800word-long"):
        for path in ("/api/account/signup", "/api/account/login"):
            for body in (
                '{"username": "Nulled", "password": "BAD"}'.replace("BAD", bad),
                '{"username": "BAD", "password": "correct horse"}'.replace("BAD", bad),
            ):
                answers.append(
                    browser.http.post(
                        path, content=body, headers={"content-type": "application/json"}
                    )
                )
    return f"{len(answers)} requests: {_codes(answers)}"


def attack_sign_out_everywhere(context: Any) -> str:
    """An account's game, spectator and lobby sockets open on a laptop; signed out everywhere
    from a phone: are they closed, and can they still chat, resign or pair?"""
    laptop = context.browser()
    laptop.http.post("/api/account/signup", json={"username": "Leaver", "password": PASSWORD})
    game = laptop.created({"game": "acadmu", "mode": "online"})
    other = context.browser().created({"game": "acadmu", "mode": "online"})
    phone = context.browser()
    phone.http.post("/api/account/login", json={"username": "Leaver", "password": PASSWORD})
    paths = [f"/ws/games/{game['id']}", f"/ws/games/{other['id']}", "/ws/lobby"]
    names = dict(zip(paths, ("seat", "spectator", "lobby"), strict=True))
    sockets = [connect(_ws(context.base, p), additional_headers=_headers(laptop)) for p in paths]
    closed: dict[str, int | None] = {}
    try:
        for ws in sockets:
            ws.send(dumps({"type": "hello", "version": -1}))
            ws.recv(timeout=30)
        phone.http.post("/api/account/logout", json={"everywhere": True})
        for path, ws in zip(paths, sockets, strict=True):
            try:
                ws.send(dumps({"type": "chat", "text": "still here"}))
                ws.send(dumps({"type": "resign"}))
                ws.send(dumps({"type": "pair", "game": "acadmu", "clock": "3+2", "rated": True}))
                deadline = time.monotonic() + 10
                while time.monotonic() < deadline:
                    ws.recv(timeout=deadline - time.monotonic())
                closed[names[path]] = None
            except ConnectionClosed as error:
                closed.setdefault(names[path], error.rcvd.code if error.rcvd else -1)
            except TimeoutError:
                closed[names[path]] = None
    finally:
        for ws in sockets:
            ws.close()
    over = laptop.http.get(f"/api/games/{game['id']}").json().get("over")
    return f"sockets closed with codes {closed} (None: still open); the account's game over: {over}"


ATTACKS: dict[str, Callable[[Any], str]] = {
    "cookieless-rows": attack_cookieless_rows,
    "made-up-cookies": attack_made_up_cookies,
    "name-squatting": attack_name_squatting,
    "look-alike-names": attack_look_alike_names,
    "sign-in-flood": attack_sign_in_flood,
    "rename-flood": attack_rename_flood,
    "nul-password": attack_nul_password,
    "sign-out-everywhere": attack_sign_out_everywhere,
}
"""The attacks of issue 33's points 5, 7, 10, 11, 13 and 14, by name."""
