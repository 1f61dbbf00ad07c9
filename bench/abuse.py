"""Replay the attacks of issues 10 and 33 against a server (not a test), and print, per attack,
whether the server stayed responsive and whether anything stored changed.

By default it starts ``gamehall serve`` of its own (default settings, a temporary SQLite store);
``--url http://HOST:PORT`` targets a running server instead (then "stored" is judged through the
REST answers alone, and the attacks that restart the server, or start one of their own, are left
out). The bench plays the TLS proxy in front: it starts its server with loopback named a trusted
proxy (``--set trusted_proxies=127.0.0.1``, see ``server_kit``), and tells its clients apart the
way that proxy would, by ``X-Forwarded-For``, so the victims and each attack are clients of their
own. A server started with ``--url`` must trust 127.0.0.1 the same way. The attacks on the
connections themselves (slow or huge headers, hoarded connections) come from other loopback
addresses (127.0.0.2 and on), which the server does not trust, as clients reaching it directly;
``forwarded-rotation`` starts a second server that trusts no proxy at all.

Before the attacks, victims make games of their own (an online game between two browsers, a few
moves in; a game against the computer; a hot-seat game). Throughout, a separate process asks for
``/api/meta`` every 20 ms; each attack's row gives the p99 and the slowest of those answers while
it ran (responsive: p99 under 100 ms), whether any stored row of the victims' games changed (or,
with ``--url``, any of their states), and what the server answered::

    .venv/bin/python bench/abuse.py
    .venv/bin/python bench/abuse.py --only hello-flood,stolen-seats --log abuse.log
    .venv/bin/python bench/abuse.py --only forwarded-rotation,slowloris,huge-header,idle-hoard,many-sockets

The rating attacks of issue 33 (``rating-farm``, ``rating-farm-one-browser``,
``concurrent-losses``, ``self-pairing-signout``) are in ``bench/abuse_ratings.py``.

The server's log (its stderr) outlives the run: it is copied to ``--log`` (default: a new file
in the system's temporary directory), whose path is printed at the end with the count of the
tracebacks in it and the first lines of each.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import multiprocessing
import os
import random
import secrets
import shutil
import socket
import string
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from abuse_accounts import ATTACKS as ACCOUNT_ATTACKS
from abuse_connections import CONNECTION_ATTACKS
from abuse_lobby import LOBBY_ATTACKS
from abuse_ratings import (
    attack_concurrent_losses,
    attack_rating_farm,
    attack_rating_farm_one_browser,
    attack_self_pairing_after_signout,
)
from server_kit import (
    PACE,
    Browser,
    Server,
    answer_codes,
    changed_rows,
    cpu_seconds,
    dumps,
    online_pair,
    play,
    settled,
    store_rows,
    ws_url,
)

_PAIRINGS = [c + s for c in "RBY" for s in "TSC"]
_RNG = random.Random(7)
BIG_DISCS = ",".join(f"{_RNG.choice(_PAIRINGS)}:{_RNG.choice(_PAIRINGS)}" for _ in range(200))
"""200 random discs, written out (the disc set of the issue's first point)."""


# --- the prober: /api/meta, every 20 ms, in a process of its own ----------------------------------


def probe(base: str, path: str, stop: Any) -> None:
    with httpx.Client(base_url=base, timeout=10) as http, open(path, "a") as out:
        while not stop.is_set():
            started = time.monotonic()
            try:
                ok = http.get("/api/meta").status_code == 200
            except httpx.HTTPError:
                ok = False
            took = time.monotonic() - started if ok else -1.0
            out.write(f"{started:.4f} {took:.4f}\n")
            out.flush()
            time.sleep(max(0.0, 0.02 - took))


def probes(path: Path, start: float, end: float) -> list[float]:
    """The probe latencies (s) begun in [start, end]; a failed probe counts as 10 s."""
    found = []
    for line in path.read_text().splitlines():
        at, took = map(float, line.split())
        if start <= at <= end:
            found.append(10.0 if took < 0 else took)
    return found


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else float("nan")


# --- the victims --------------------------------------------------------------------------------


@dataclass
class Victims:
    online: dict[str, Any]
    creator: Browser
    friend: Browser
    computer: dict[str, Any]
    hotseat: dict[str, Any]
    owner: Browser

    @property
    def ids(self) -> list[str]:
        return [self.online["id"], self.computer["id"], self.hotseat["id"]]


def make_victims(base: str, rng: random.Random) -> Victims:
    online, creator, friend = online_pair(
        base, {"game": "acadmu", "options": {"target": 6}}, ("10.0.0.1", "10.0.0.2")
    )
    for _ in range(2):
        for who in (creator, friend):
            play(base, who, online["id"], 1, rng)
    owner = Browser(base, "10.0.0.3")
    computer = owner.created({"game": "akros", "mode": "computer", "level": "easy"})
    play(base, owner, computer["id"], 2, rng)
    hotseat = owner.created({"game": "acadmu", "mode": "hotseat"})
    play(base, owner, hotseat["id"], 6, rng)
    return Victims(online, creator, friend, computer, hotseat, owner)


def public_view(base: str, game_ids: list[str]) -> list[Any]:
    """What anyone can see of the games (their states, less who is connected)."""
    views = []
    for game_id in game_ids:
        state = httpx.get(f"{base}/api/games/{game_id}", timeout=30).json()
        state.pop("seats", None)
        views.append(state)
    return views


# --- the attacks ----------------------------------------------------------------------------------


class Context:
    def __init__(self, base: str, server: Server | None, victims: Victims, seed: int) -> None:
        self.base = base
        self.server = server
        self.victims = victims
        self.rng = random.Random(seed)
        self.window_start: float | None = None  # an attack may start its window later

    def browser(self, address: str | None = None) -> Browser:
        return Browser(
            self.base, address or f"10.9.{self.rng.randrange(256)}.{self.rng.randrange(1, 255)}"
        )


def until_the_computer_thinks(ws: Any, rng: random.Random, deadline: float) -> dict | None:
    """On a joined WebSocket of a game against the computer (the computer seat 0, the person 1),
    play the person's random moves until the computer is to move; that state (None past the
    deadline, a ``time.monotonic()`` value, or if the game ends first). Who goes first is drawn
    (Äcädmü: the opening discs), so about half of such games wait for the person first."""
    expected = 0
    while (left := deadline - time.monotonic()) > 0:
        try:
            state = json.loads(ws.recv(timeout=max(0.1, left)))
        except TimeoutError:
            return None
        if state["type"] != "state" or state["version"] < expected:
            continue
        if state["over"]:
            return None
        if state["to_move"] == 0:
            return dict(state)
        if settled(state) and state["to_move"] in state["you"]:
            action = rng.choice(state["legal"])["text"]
            time.sleep(PACE)  # within the server's messages_per_second, as a player is
            ws.send(dumps({"type": "move", "version": state["version"], "action": action}))
            expected = state["version"] + 1
    return None


def computer_first(
    context: Context, body: dict[str, Any], seconds: float
) -> tuple[Browser, dict, float]:
    """A game against the computer, played until the computer is to move; the seconds from then
    until its move (or inf past ``seconds``)."""
    browser = context.browser()
    game = browser.created({**body, "mode": "computer", "seat": 1})
    deadline = time.monotonic() + seconds
    with connect(ws_url(context.base, game["id"]), additional_headers=browser.ws_headers()) as ws:
        ws.send(dumps({"type": "hello", "version": -1}))
        if until_the_computer_thinks(ws, context.rng, deadline) is None:
            return browser, game, float("inf")
        started = time.monotonic()
        while (left := deadline - time.monotonic()) > 0:
            try:
                state = json.loads(ws.recv(timeout=max(0.1, left)))
            except TimeoutError:
                break
            if state["type"] == "state" and 0 in state["movers"]:
                return browser, game, time.monotonic() - started
    return browser, game, float("inf")


def baseline(context: Context) -> str:
    """No attack: what /api/meta takes on this machine as it is (other load included)."""
    time.sleep(10)
    return f"10 s of nothing; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"


def attack_discs(context: Context) -> str:
    """A disc set of 200 discs inline: opening the game, and `perfect` thinking on it."""
    browser = context.browser()
    started = time.monotonic()
    game = browser.created({"game": "acadmu", "mode": "hotseat", "options": {"discs": BIG_DISCS}})
    state = play(context.base, browser, game["id"], 4, context.rng)
    opened = time.monotonic() - started
    _, _, thought = computer_first(
        context, {"game": "acadmu", "level": "perfect", "options": {"discs": BIG_DISCS}}, 90
    )
    return (
        f"created and 4 moves played in {opened:.1f} s (version {state['version']}); "
        f"perfect's first move on it in {thought:.1f} s"
    )


def attack_discs_restart(context: Context) -> str:
    """The server SIGKILLed while `perfect` thinks on 200 discs, and started again."""
    assert context.server is not None
    browser = context.browser()
    game = browser.created(
        {
            "game": "acadmu",
            "mode": "computer",
            "level": "perfect",
            "seat": 1,
            "options": {"discs": BIG_DISCS},
        }
    )
    # Who goes first is drawn: the person's moves first if need be, so `perfect` is thinking
    # when the server is killed (waiting for a computer move that is not due hangs any bench).
    with connect(ws_url(context.base, game["id"]), additional_headers=browser.ws_headers()) as ws:
        ws.send(dumps({"type": "hello", "version": -1}))
        thinking = until_the_computer_thinks(ws, context.rng, time.monotonic() + 60)
    if thinking is None:
        return "the game never came to the computer's move"
    time.sleep(1.0)
    context.server.kill()
    up = context.server.start()
    context.window_start = time.monotonic()
    started = time.monotonic()
    answer = browser.http.get(f"/api/games/{game['id']}")
    opened = time.monotonic() - started
    while time.monotonic() - started < 90:  # the server resumes the computer's move
        if browser.state(game["id"])["version"] > thinking["version"]:
            break
        time.sleep(0.5)
    else:
        return f"up again in {up:.1f} s; the resumed computer had not moved 90 s after it"
    return (
        f"up again in {up:.1f} s; the game answered {answer.status_code} in {opened:.2f} s; "
        f"the resumed computer moved {time.monotonic() - started:.1f} s after the restart"
    )


def attack_huge_body(context: Context) -> str:
    """A 50 MB body (and one whose Content-Length says 50 MB, then stops)."""
    results = []
    for lying in (False, True):
        total = 50 * 2**20
        sent = 0
        started = time.monotonic()
        host, port = context.base.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=30) as raw:
            raw.sendall(
                f"POST /api/games HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: "
                f"application/json\r\nContent-Length: {total}\r\n\r\n".encode()
            )
            chunk = b"[" + b"1," * (2**19)
            raw.setblocking(False)
            answer = b""
            while sent < total and not answer:
                try:
                    sent += raw.send(chunk[: total - sent])
                except BlockingIOError:
                    time.sleep(0.01)
                except OSError:
                    break
                with contextlib.suppress(BlockingIOError):
                    answer = raw.recv(4096)
                if lying and sent > 2**20:
                    break
            raw.setblocking(True)
            raw.settimeout(30)
            while not answer:
                try:
                    answer = raw.recv(4096)
                except OSError:
                    break
                if not answer:
                    break
        status = answer.split(b"\r\n", 1)[0].decode(errors="replace") or "closed"
        kind = "stopped after 1 MB" if lying else "50 MB"
        results.append(
            f"{kind}: {status.removeprefix('HTTP/1.1 ')} after {sent / 2**20:.1f} MB sent, "
            f"{time.monotonic() - started:.1f} s"
        )
    return "; ".join(results)


def attack_bad_text(context: Context) -> str:
    """NUL bytes and lone surrogates in every field, over REST and the WebSocket."""
    browser = context.browser()
    victim = context.victims.online["id"]
    bodies = []
    for bad in ("\\u0000", "\\ud800", "\\udfff", "a\\u0000b"):
        for template in (
            '{"game": "%s", "mode": "hotseat"}',
            '{"game": "acadmu", "mode": "%s"}',
            '{"game": "acadmu", "mode": "computer", "level": "%s"}',
            '{"game": "acadmu", "mode": "hotseat", "options": {"discs": "%s"}}',
            '{"game": "akros", "mode": "hotseat", "options": {"board": "%s"}}',
            '{"game": "akros", "mode": "hotseat", "options": {"%s": 1}}',
        ):
            bodies.append(("/api/games", template.replace("%s", bad)))
        bodies.append((f"/api/games/{victim}/join", '{"seat": "%s"}'.replace("%s", bad)))
    answers = [
        browser.http.post(path, content=body, headers={"content-type": "application/json"})
        for path, body in bodies
    ]
    answers += [
        browser.http.get(path) for path in ("/api/games/g_%00", "/api/meta?x=%00", "/api/rules/%00")
    ]
    ws_codes: Counter[str] = Counter()
    for text in (
        '{"type":"move","version":0,"action":"\\u0000"}',
        '{"type":"move","version":0,"action":"\\ud800"}',
    ):
        with connect(ws_url(context.base, victim), additional_headers=browser.ws_headers()) as ws:
            ws.send(text)
            answer = json.loads(ws.recv(timeout=30))
            ws_codes[answer.get("code", answer["type"])] += 1
    fives = sum(a.status_code >= 500 for a in answers)
    return f"{len(answers)} requests: {answer_codes(answers)}; 5xx: {fives}; WebSocket: {dict(ws_codes)}"


def attack_long_values(context: Context) -> str:
    """Long option values, an Äcädmü target of 10^30, and option values naming files."""
    browser = context.browser()
    answers = []
    for body in (
        {"game": "akros", "mode": "hotseat", "options": {"board": "x" * 60_000}},
        {"game": "acadmu", "mode": "hotseat", "options": {"discs": "RT:BT," * 10_000}},
        {"game": "acadmu", "mode": "hotseat", "options": {"target": 10**30}},
        {"game": "acadmu", "mode": "hotseat", "options": {"target": -(10**30)}},
        {"game": "x" * 50_000, "mode": "hotseat"},
    ):
        answers.append(browser.create(body))
    longest = max(len(a.text) for a in answers)
    alike = []
    for name in ("pyproject.toml", "/etc/passwd", "README.md"):
        pair = [
            browser.create({"game": "acadmu", "mode": "hotseat", "options": {"discs": value}})
            for value in (name, name + "-missing")
        ]
        values = (name, name + "-missing")
        texts = [a.text.replace(v, "VALUE") for a, v in zip(pair, values, strict=True)]
        alike.append(texts[0] == texts[1] and pair[0].status_code == 400)
        paths = [
            browser.create({"game": game, "mode": "hotseat", "options": {option: name}})
            for game, option in (("acadmu", "discs_file"), ("akros", "board_file"))
        ]
        answers += pair + paths
    return (
        f"{answer_codes(answers)}; longest answer {longest} bytes; a file's name answered as a "
        f"missing one's: {'yes' if all(alike) else 'NO'}"
    )


def attack_ids_flood(context: Context, count: int) -> str:
    """Random 2 KB game ids, over REST and the WebSocket: fast 404s that leave nothing behind.

    The GETs go out on 8 kept-alive ``http.client`` connections (threads): an asyncio httpx
    client spends about 5 ms of CPU per request on the same 2 cores as the server (which spends
    under 1 ms on an unknown id, as on ``/api/meta``), so it measured the client, not the server.
    """
    before = context.server.rss_mb() if context.server else None
    cpu_before = cpu_seconds(context.server.pid) if context.server else 0.0
    parts = urlsplit(context.base)
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def flood(share: int) -> None:
        rng = random.Random(context.rng.random())
        conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=60)
        try:
            for _ in range(share):
                game_id = "g_" + "".join(rng.choices(string.ascii_letters, k=2048))
                conn.request("GET", f"/api/games/{game_id}")
                answer = conn.getresponse()
                answer.read()
                with lock:
                    statuses[answer.status] += 1
        finally:
            conn.close()

    started = time.monotonic()
    threads = [
        threading.Thread(target=flood, args=(count // 8 + (i < count % 8),)) for i in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = time.monotonic() - started
    cpu = ""
    if context.server is not None:
        used = cpu_seconds(context.server.pid) - cpu_before
        cpu = f" in {took:.0f} s, server CPU {used * 1000 / max(1, count):.2f} ms per GET"
    closes: Counter[int] = Counter()
    for _ in range(200):
        game_id = "g_" + secrets.token_urlsafe(8)
        try:
            with connect(ws_url(context.base, game_id)) as ws:
                ws.recv(timeout=30)
                ws.recv(timeout=30)
        except ConnectionClosed as closed:
            closes[closed.rcvd.code if closed.rcvd else 1006] += 1
    grown = ""
    if before is not None and context.server is not None:
        grown = f"; server memory {before:.0f} → {context.server.rss_mb():.0f} MB"
    return f"{count:,} GETs{cpu}: {dict(statuses)}; 200 WebSockets closed {dict(closes)}{grown}"


def attack_hello_flood(context: Context, moves: int) -> str:
    """96 KB of `hello` from nothing on a long game, then resyncs."""
    browser = context.browser()
    game = browser.created({"game": "acadmu", "mode": "hotseat", "options": {"target": 999}})
    state = play(context.base, browser, game["id"], moves, context.rng)
    hello = dumps({"type": "hello", "version": -1})
    count = 96 * 1024 // len(hello)
    spectator = context.browser()
    received, states, code = 0, 0, None
    started = time.monotonic()
    try:
        with connect(
            ws_url(context.base, game["id"]),
            additional_headers=spectator.ws_headers(),
            max_size=None,
        ) as ws:
            for _ in range(count):
                ws.send(hello)
            while True:
                raw = ws.recv(timeout=10)
                received += len(raw)
                states += json.loads(raw)["type"] == "state"
    except ConnectionClosed as closed:
        code = closed.rcvd.code if closed.rcvd else 1006
    except TimeoutError:
        code = "open"
    return (
        f"{count:,} hellos ({count * len(hello) / 1024:.0f} KB) on a game of {state['version']} "
        f"actions: {received / 1024:.0f} KB back, {states} full states, socket closed {code} "
        f"after {time.monotonic() - started:.1f} s"
    )


def attack_stolen_seats(context: Context) -> str:
    """Every way the issue found to move for a seat one does not hold."""
    victims = context.victims
    game_id = victims.online["id"]
    thief = context.browser()
    tries: list[str] = []
    # a spent invite, opened again by someone else, and by the creator
    again = thief.join(victims.online["invite"])
    creator_join = victims.creator.join(victims.online["invite"])
    tries.append(f"spent invite {again.status_code}/{creator_join.status_code}")
    # the creator's page no longer shows the invite; no one else gets it
    invites = [
        b.http.get(f"/api/games/{game_id}/invite").json().get("invite")
        for b in (victims.creator, thief)
    ]
    tries.append(f"invite shown: {sum(i is not None for i in invites)}")
    # a rematch before the end
    early = victims.friend.http.post(f"/api/games/{game_id}/rematch")
    tries.append(f"early rematch {early.status_code}")
    # moving for the seat to move by whoever does not hold it: the thief (with the spent invite's
    # secret in the WebSocket address, as old links had it, and without), and the player of the
    # other seat, the creator or the friend (with the secret too)
    moved = 0
    to_move = victims.creator.state(game_id)["to_move"]
    other = victims.creator if to_move == 1 else victims.friend
    secret = victims.online["invite"].split("?seat=", 1)[1]
    for who, query in ((thief, ""), (thief, f"?seat={secret}"), (other, f"?seat={secret}")):
        url = ws_url(context.base, game_id, query)
        with connect(url, additional_headers=who.ws_headers()) as ws:
            ws.send(dumps({"type": "hello", "version": -1}))
            seen = json.loads(ws.recv(timeout=30))
            while seen["type"] != "state":
                seen = json.loads(ws.recv(timeout=30))
            for item in seen["legal"][:3]:
                ws.send(dumps({"type": "move", "version": seen["version"], "action": item["text"]}))
                answer = json.loads(ws.recv(timeout=30))
                while answer["type"] == "presence":
                    answer = json.loads(ws.recv(timeout=30))
                moved += answer["type"] == "state" and answer["version"] > seen["version"]
    tries.append(f"moves played for a seat not held: {moved} of 9")
    # a finished online game's rematch: no token of anyone's in the answer
    done, creator, friend = online_pair(
        context.base, {"game": "acadmu", "options": {"target": 1}}, ("10.8.0.1", "10.8.0.2")
    )
    for _ in range(200):
        if creator.state(done["id"])["over"]:
            break
        for who in (creator, friend):
            play(context.base, who, done["id"], 1, context.rng)
    answer = friend.http.post(f"/api/games/{done['id']}/rematch")
    tokens = [s["token"] for s in store_seats(context, done["id"])]
    leaked = any(token and token in answer.text for token in tokens) or "seat=" in answer.text
    tries.append(
        f"rematch answer {answer.status_code}, a seat token in it: {'YES' if leaked else 'no'}"
    )
    return "; ".join(tries)


def store_seats(context: Context, game_id: str) -> list[dict[str, Any]]:
    if context.server is None:
        return []
    rows = store_rows(context.server.db_path, [game_id])["games"]
    columns = ["id", "game", "rules_version", "options", "mode", "seed", "seats"]
    return json.loads(rows[0][1 + columns.index("seats")])


def attack_cross_origin(context: Context) -> str:
    """A page of another port of the same host, in the victim's browser (it has the cookie)."""
    victims = context.victims
    evil = context.base.rsplit(":", 1)[0] + ":1"
    headers = {**victims.creator.ws_headers(), "origin": evil}
    game_id = victims.online["id"]
    answers = [
        victims.creator.http.post(path, json=body, headers={"origin": evil})
        for path, body in (
            ("/api/games", {"game": "akros", "mode": "hotseat"}),
            (f"/api/games/{game_id}/rematch", None),
            (f"/api/games/{game_id}/join", {"seat": "x" * 20}),
        )
    ]
    closes: Counter[Any] = Counter()
    for _ in range(3):
        try:
            with connect(ws_url(context.base, game_id), additional_headers=headers) as ws:
                ws.send(dumps({"type": "hello", "version": -1}))
                ws.recv(timeout=10)
                closes["open"] += 1
        except ConnectionClosed as closed:
            closes[closed.rcvd.code if closed.rcvd else 1006] += 1
        except InvalidStatus as refused:  # the handshake refused
            closes[f"handshake refused {refused.response.status_code}"] += 1
    return f"REST {answer_codes(answers)}; WebSocket {dict(closes)}"


def attack_unknown_urls(context: Context) -> str:
    """Unknown addresses: the app's not-found page, not raw JSON."""
    browser = context.browser()
    answers = [
        browser.http.get(path)
        for path in ("/nowhere", "/game/g_x/extra", "/static/nope.js", "/api/nope")
    ]
    kinds = Counter(
        f"{a.status_code} {a.headers.get('content-type', '').split(';')[0]}" for a in answers
    )
    return ", ".join(f"{k} ×{v}" for k, v in kinds.items())


def attack_hard_games(context: Context) -> str:
    """30 games against `hard` from one browser, then from 30 browsers of one address, while
    another browser plays `easy`."""
    one = context.browser()
    answers = [
        one.create({"game": "akros", "mode": "computer", "level": "hard", "seat": 1})
        for _ in range(30)
    ]
    refused = Counter(
        a.json()["error"]["message"].split("(")[0][:60] for a in answers if a.status_code != 200
    )
    address = f"10.7.{context.rng.randrange(256)}.1"
    sybils = [
        Browser(context.base, address).create(
            {"game": "akros", "mode": "computer", "level": "hard", "seat": 1}
        )
        for _ in range(30)
    ]
    address_refused = sum(a.status_code == 429 for a in sybils)
    many = [
        Browser(context.base, f"10.6.{i}.1").create(
            {"game": "akros", "mode": "computer", "level": "hard", "seat": 1}
        )
        for i in range(30)
    ]
    going = sum(a.status_code == 200 for a in many)
    _, _, easy = computer_first(context, {"game": "akros", "level": "easy"}, 120)
    return (
        f"one browser: {sum(a.status_code == 200 for a in answers)} accepted, "
        f"{len(answers) - sum(a.status_code == 200 for a in answers)} refused ({'; '.join(refused)}); "
        f"30 browsers of one address: {address_refused} refused; 30 addresses: {going} hard "
        f"searches going; another browser's easy move in {easy:.2f} s"
    )


# --- the table ------------------------------------------------------------------------------------


def keep_log(log: Path, wanted: Path | None) -> Path:
    """Copy the server's log out of the run's temporary directory (to ``wanted``, else to a new
    temporary file); where it went."""
    if wanted is None:
        handle, name = tempfile.mkstemp(prefix="gamehall-abuse-", suffix=".log")
        os.close(handle)
        wanted = Path(name)
    if log.exists():
        shutil.copyfile(log, wanted)
    return wanted.resolve()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--only", help="attacks to run, by name, comma-separated")
    parser.add_argument("--ids", type=int, default=40_000, help="random ids in the ids flood")
    parser.add_argument("--moves", type=int, default=400, help="moves of the hello-flood game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--log", type=Path, help="where to keep the server's log (default: a new temporary file)"
    )
    args = parser.parse_args()

    attacks: dict[str, Callable[[Context], str]] = {
        "baseline": baseline,
        "discs-200": attack_discs,
        "discs-200-restart": attack_discs_restart,
        "huge-body": attack_huge_body,
        "nul-surrogates": attack_bad_text,
        "long-values": attack_long_values,
        "ids-flood": lambda context: attack_ids_flood(context, args.ids),
        "hello-flood": lambda context: attack_hello_flood(context, args.moves),
        "stolen-seats": attack_stolen_seats,
        "cross-origin": attack_cross_origin,
        "unknown-urls": attack_unknown_urls,
        "30-hard-games": attack_hard_games,
        **LOBBY_ATTACKS,
        **CONNECTION_ATTACKS,
        "rating-farm": attack_rating_farm,
        "rating-farm-one-browser": attack_rating_farm_one_browser,
        "concurrent-losses": attack_concurrent_losses,
        "self-pairing-signout": attack_self_pairing_after_signout,
        **ACCOUNT_ATTACKS,  # issue 33: identities and accounts (bench/abuse_accounts.py)
    }
    chosen = list(attacks) if not args.only else args.only.split(",")
    if args.url:
        chosen = [n for n in chosen if n not in ("discs-200-restart", "forwarded-rotation")]
    with tempfile.TemporaryDirectory(prefix="gamehall-abuse-") as workdir:
        server = None if args.url else Server(Path(workdir))
        if server is not None:
            server.start()
        base = args.url.rstrip("/") if args.url else server.base  # type: ignore[union-attr]
        stop = multiprocessing.Event()
        probe_file = Path(workdir) / "probe.txt"
        prober = multiprocessing.Process(target=probe, args=(base, str(probe_file), stop))
        rows = []
        try:
            victims = make_victims(base, random.Random(args.seed))
            prober.start()
            context = Context(base, server, victims, args.seed)
            for name in chosen:
                stored = store_rows(server.db_path, victims.ids) if server else None
                seen = public_view(base, victims.ids)
                context.window_start = None
                started = time.monotonic()
                try:
                    detail = attacks[name](context)
                except Exception as error:
                    detail = f"the attack failed: {type(error).__name__}: {str(error)[:120]}"
                ended = time.monotonic()
                # an attack over in under a second is watched for a second all the same, so
                # its row always has probes (and a p99) to show
                time.sleep(max(0.0, started + 1.0 - ended))
                watched = max(ended, started + 1.0) - 0.1
                latencies = probes(probe_file, context.window_start or started, watched)
                if server is not None:
                    changed = changed_rows(stored or {}, store_rows(server.db_path, victims.ids))
                else:
                    changed = int(public_view(base, victims.ids) != seen)
                row = (
                    name,
                    ended - started,
                    p99(latencies),
                    max(latencies, default=float("nan")),
                    len(latencies),
                    changed,
                    detail,
                )
                rows.append(row)
                print(
                    f"{name}: {row[1]:.0f} s, /api/meta p99 {row[2] * 1000:.0f} ms (max "
                    f"{row[3] * 1000:.0f} ms, {row[4]} probes), victims' stored rows changed: "
                    f"{changed}\n    {detail}",
                    flush=True,
                )
        finally:
            stop.set()
            if prober.is_alive() or prober.pid is not None:
                prober.join(15)
            if server is not None:
                server.stop()
                heads = server.traceback_heads()
                kept = keep_log(server.log_path, args.log)
    print()
    print(
        "| attack | took | `/api/meta` p99 (max) | responsive (p99 < 100 ms) | victims' stored rows changed | what the server did |"
    )
    print("|---|---|---|---|---|---|")
    for name, took, p, worst, _, changed, detail in rows:
        print(
            f"| {name} | {took:.0f} s | {p * 1000:.0f} ms ({worst * 1000:.0f} ms) | "
            f"{'yes' if p < 0.1 else 'NO'} | {changed} | {detail} |"
        )
    if server is not None:
        print(f"\nserver tracebacks logged: {len(heads)} (the server's log: {kept})")
        for number, head in enumerate(heads, 1):
            print(f"\n--- traceback {number} ---\n{head}")


if __name__ == "__main__":
    main()
