"""The attacks of issue 33 on the server's connections, for ``bench/abuse.py`` (which runs them
with the others, and whose docstring says how): a client rotating ``X-Forwarded-For`` against a
server that trusts no proxy, headers that dribble (slowloris) or never end, idle connections
hoarded, and many sockets from one address. Each is bounded and stays on loopback; the ones on
connections come from loopback addresses the bench's server does not trust (127.0.0.2 and on).
"""

from __future__ import annotations

import contextlib
import json
import socket
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from server_kit import Server, dumps


def _ws_url(base: str, game_id: str) -> str:
    return f"{base.replace('http', 'ws', 1)}/ws/games/{game_id}"


def _codes(answers: list[httpx.Response]) -> str:
    counts = Counter(
        f"{a.status_code} {a.json()['error']['code']}"
        if a.status_code >= 400
        else str(a.status_code)
        for a in answers
    )
    return ", ".join(f"{k} ×{v}" for k, v in counts.most_common())


def _raw(context: Any, source: str, timeout: float = 30.0) -> socket.socket:
    """A TCP connection to the server from the loopback address ``source``."""
    where = urlsplit(context.base)
    return socket.create_connection((where.hostname, where.port), timeout, (source, 0))


def _status(answer: bytes) -> str:
    """An HTTP answer's status code, or what happened instead."""
    if not answer:
        return "closed"
    return answer.split(b"\r\n", 1)[0].decode(errors="replace").removeprefix("HTTP/1.1 ")[:3]


def _other_address_meta(context: Any, source: str) -> str:
    """``/api/meta`` from another loopback address, meanwhile: its status and time."""
    started = time.monotonic()
    with httpx.Client(transport=httpx.HTTPTransport(local_address=source), timeout=30) as other:
        try:
            status = str(other.get(f"{context.base}/api/meta").status_code)
        except httpx.HTTPError as error:
            status = type(error).__name__
    return f"{status} in {(time.monotonic() - started) * 1000:.0f} ms"


def attack_forwarded_rotation(context: Any) -> str:
    """60 wrong passwords for one account, each with an ``X-Forwarded-For`` of its own and no
    cookie, to a server that trusts no proxy (started for this attack): the header is not
    believed, so the limit on one address's failed sign-ins holds."""
    if context.server is None:
        return "left out with --url (it starts a server of its own)"
    with tempfile.TemporaryDirectory(prefix="gamehall-abuse-plain-") as workdir:
        plain = Server(Path(workdir), {"trusted_proxies": ""})
        try:
            plain.start(timeout=300)
        except SystemExit as error:  # its own server, not the bench's: the row says so
            plain.stop()
            return f"the server that trusts no proxy did not start: {error}"
        context.window_start = time.monotonic()
        try:
            headers = {"origin": plain.base}
            owner = {"username": f"owner{context.rng.randrange(10**6)}", "password": "a" * 12}
            with httpx.Client(base_url=plain.base, headers=headers, timeout=60) as http:
                made = http.post("/api/account/signup", json=owner).status_code
            answers = []
            for n in range(60):
                guess = {"username": owner["username"], "password": f"guess number {n}"}
                forwarded = {**headers, "x-forwarded-for": f"10.{n}.{n}.1"}
                answers.append(
                    httpx.post(
                        f"{plain.base}/api/account/login", json=guess, headers=forwarded, timeout=60
                    )
                )
        finally:
            plain.stop()
    return f"sign-up {made}; 60 guesses, each with its own X-Forwarded-For: {_codes(answers)}"


def attack_slowloris(context: Any) -> str:
    """200 connections from one address (127.0.0.2), each sending one header line every 4 s,
    for 24 s at most: past ``connections_per_address`` they are refused at once, and the rest are
    cut off ``header_seconds`` after they began."""
    held: list[tuple[socket.socket, float]] = []
    outcomes: Counter[str] = Counter()
    for _ in range(200):
        try:
            raw = _raw(context, "127.0.0.2")
            raw.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        except OSError as error:
            outcomes[f"connect {type(error).__name__}"] += 1
            continue
        raw.setblocking(False)
        held.append((raw, time.monotonic()))
    meanwhile = _other_address_meta(context, "127.0.0.3")
    open_ = dict(held)
    longest = 0.0
    next_line = time.monotonic() + 4
    line = 0
    end = time.monotonic() + 24
    while open_ and time.monotonic() < end:
        for raw in list(open_):
            try:
                answer = raw.recv(4096)
            except BlockingIOError:
                continue
            except OSError:
                answer = b""
            outcomes[_status(answer)] += 1
            longest = max(longest, time.monotonic() - open_.pop(raw))
            raw.close()
        if time.monotonic() >= next_line:  # one more line each, as a slowloris does
            for raw in open_:
                with contextlib.suppress(OSError):
                    raw.send(b"X-Line-%d: 1\r\n" % line)
            line, next_line = line + 1, next_line + 4
        time.sleep(0.1)
    outcomes["still open after 24 s"] += len(open_)
    for raw in open_:
        raw.close()
    shown = ", ".join(f"{k} ×{v}" for k, v in outcomes.most_common())
    return (
        f"200 connections: {shown}; the longest held {longest:.1f} s; another address's "
        f"/api/meta meanwhile: {meanwhile}"
    )


def attack_huge_header(context: Any) -> str:
    """One header that never ends, streamed as fast as the server reads it (up to the issue's
    167 MB): refused with 431 past ``max_header_bytes``, and the server's memory unmoved."""
    before = context.server.rss_mb() if context.server else float("nan")
    total, sent = 167 * 2**20, 0
    answer, closed = b"", False
    chunk = b"a" * 65536
    with _raw(context, "127.0.0.5") as raw:
        raw.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
        raw.setblocking(False)
        deadline = time.monotonic() + 60
        while sent < total and not answer and not closed and time.monotonic() < deadline:
            try:
                sent += raw.send(chunk)
            except BlockingIOError:
                time.sleep(0.01)
            except OSError:
                closed = True
            try:
                answer = raw.recv(4096)
                closed = closed or not answer
            except BlockingIOError:
                pass
            except OSError:
                closed = True
    after = context.server.rss_mb() if context.server else float("nan")
    return (
        f"{_status(answer)} after {sent / 2**20:.2f} MB sent; the server's memory "
        f"{before:.0f} MB before, {after:.0f} MB after"
    )


def attack_idle_hoard(context: Any) -> str:
    """400 TCP connections from one address (127.0.0.4) that say nothing (the issue's 4,400,
    bounded): past ``connections_per_address`` they are refused at once, the rest closed
    ``header_seconds`` after they opened; another address is answered meanwhile."""
    held: list[socket.socket] = []
    outcomes: Counter[str] = Counter()
    started = time.monotonic()
    for _ in range(400):
        try:
            held.append(_raw(context, "127.0.0.4"))
        except OSError as error:
            outcomes[f"connect {type(error).__name__}"] += 1
    meanwhile = _other_address_meta(context, "127.0.0.3")
    for raw in held:
        raw.settimeout(max(0.1, started + 30 - time.monotonic()))
        try:
            outcomes[_status(raw.recv(4096))] += 1
        except TimeoutError:
            outcomes["still open after 30 s"] += 1
        except OSError:
            outcomes["reset"] += 1
        raw.close()
    shown = ", ".join(f"{k} ×{v}" for k, v in outcomes.most_common())
    return (
        f"400 idle connections: {shown}, all answered within {time.monotonic() - started:.1f} s; "
        f"another address's /api/meta meanwhile: {meanwhile}"
    )


def attack_many_sockets(context: Any) -> str:
    """150 spectator sockets from one address on the victims' online game (the issue's 4,096,
    bounded): past ``sockets_per_address`` each is told ``over_limit`` and closed, and the
    victims' own game socket opens all the same."""
    attacker = context.browser(f"10.66.{context.rng.randrange(256)}.1")
    game_id = context.victims.online["id"]
    outcomes: Counter[str] = Counter()
    with contextlib.ExitStack() as held:
        for _ in range(150):
            try:
                ws = held.enter_context(
                    connect(
                        _ws_url(context.base, game_id), additional_headers=attacker.ws_headers()
                    )
                )
                with contextlib.suppress(ConnectionClosed):  # a refused one may be closed
                    ws.send(dumps({"type": "hello", "version": -1}))
                first = json.loads(ws.recv(timeout=30))  # the state, or the refusal
            except ConnectionClosed as closed:
                outcomes[f"closed {closed.rcvd.code if closed.rcvd else 1006}"] += 1
                continue
            except (OSError, InvalidStatus, TimeoutError) as error:
                outcomes[type(error).__name__] += 1
                continue
            outcomes["open" if first["type"] != "error" else first["code"]] += 1
        creator = context.victims.creator
        with connect(
            _ws_url(context.base, game_id), additional_headers=creator.ws_headers()
        ) as own:
            own.send(dumps({"type": "hello", "version": -1}))
            mine = json.loads(own.recv(timeout=30))
            while mine["type"] not in ("state", "error"):
                mine = json.loads(own.recv(timeout=30))
    shown = ", ".join(f"{k} ×{v}" for k, v in outcomes.most_common())
    told = mine["type"] if mine["type"] != "error" else f"error {mine['code']}"
    return f"150 sockets from one address: {shown}; the victim's own socket got its {told}"


CONNECTION_ATTACKS: dict[str, Callable[[Any], str]] = {
    "forwarded-rotation": attack_forwarded_rotation,
    "slowloris": attack_slowloris,
    "huge-header": attack_huge_header,
    "idle-hoard": attack_idle_hoard,
    "many-sockets": attack_many_sockets,
}
"""The attacks by name, as ``abuse.py --only`` takes them."""
