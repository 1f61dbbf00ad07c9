"""``gamehall serve``'s connections under attack (issue 33), on a real socket: uvicorn with the
options ``serve`` gives it (:func:`~gamehall.web.http.server.uvicorn_options`). Headers that
dribble or never end are cut off (408, 431), idle connections are closed, one address holds its
share of the connections, and ``X-Forwarded-For`` is believed from trusted proxies only."""

from __future__ import annotations

import contextlib
import select
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
from websockets.sync.client import connect

from gamehall.web.base.settings import Settings
from gamehall.web.http.app import create_app
from gamehall.web.http.server import uvicorn_options, with_bound_host
from tests.live_server import uvicorn_thread
from tests.web.conftest import TIMEOUT

OTHER = "127.0.0.2"
"""Another client's address (all of 127.0.0.0/8 is this machine's)."""


async def plain(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """An app that answers every request ``hello`` and echoes WebSocket messages."""
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        while (message := await receive())["type"] != "websocket.disconnect":
            await send({"type": "websocket.send", "text": message.get("text") or ""})
        return
    await send(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"5")]}
    )
    await send({"type": "http.response.body", "body": b"hello"})


@contextlib.contextmanager
def serving(settings: Settings, app: Any = plain) -> Iterator[int]:
    """``app`` served as ``gamehall serve`` serves (its uvicorn options); yields the port."""
    options = {k: v for k, v in uvicorn_options(settings).items() if k != "log_level"}
    if app is plain:
        options["lifespan"] = "off"
    with uvicorn_thread(app, **options) as port:
        yield port


def opened(port: int, source: str = "127.0.0.1") -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), TIMEOUT, (source, 0))


def answer(client: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    received = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := client.recv(65536):
            received += chunk
    return received


def ask(port: int, source: str = "127.0.0.1") -> bytes:
    with opened(port, source) as client:
        client.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        return answer(client)


def test_headers_that_dribble_are_cut_off_and_others_are_served():
    with serving(Settings(header_seconds=0.5)) as port, opened(port) as slow:
        slow.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
        deadline = time.monotonic() + TIMEOUT  # fails a broken run only
        lines = 0
        # one header line at a time, as a slowloris sends them, until the server answers
        while not select.select([slow], [], [], 0.05)[0]:
            assert time.monotonic() < deadline, "the server waits for the headers for ever"
            slow.sendall(b"X-Line-%d: 1\r\n" % lines)
            lines += 1
        cut = answer(slow)
        assert cut.startswith(b"HTTP/1.1 408"), cut
        assert b"header_seconds" in cut
        assert ask(port).endswith(b"hello")


def test_a_connection_that_says_nothing_is_closed():
    with serving(Settings(header_seconds=0.5)) as port, opened(port) as silent:
        assert answer(silent) == b""


def test_headers_past_the_limit_are_refused_with_431():
    with serving(Settings(max_header_bytes=4096)) as port:
        with opened(port) as huge:  # never finished
            huge.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"a" * 20_000)
            refused = answer(huge)
            assert refused.startswith(b"HTTP/1.1 431") and b"max_header_bytes" in refused
        with opened(port) as whole:  # finished, in one piece
            whole.sendall(
                b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"a" * 5000 + b"\r\n\r\n"
            )
            assert answer(whole).startswith(b"HTTP/1.1 431")
        with opened(port) as fine:
            fine.sendall(
                b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nX-Fine: "
                + b"a" * 3000
                + b"\r\n\r\n"
            )
            assert answer(fine).endswith(b"hello")


def test_a_body_is_not_counted_as_headers():
    body = b"x" * 40_000
    with serving(Settings(max_header_bytes=4096)) as port, opened(port) as client:
        client.sendall(
            b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: %d\r\n\r\n" % len(body)
            + body
            + b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        )
        both = answer(client)
        assert both.count(b"HTTP/1.1 200") == 2, both


def test_an_idle_connection_is_closed_between_requests():
    with serving(Settings(keep_alive_seconds=0.3)) as port, opened(port) as client:
        client.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert answer(client).endswith(b"hello")  # kept alive, then closed


def test_one_address_holds_its_share_of_the_connections():
    with serving(Settings(connections_per_address=2)) as port, opened(port), opened(port) as held:
        held.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert held.recv(65536).endswith(b"hello")  # both are the server's now
        refused = ask(port)
        assert refused.startswith(b"HTTP/1.1 429") and b"connections_per_address" in refused
        assert ask(port, OTHER).endswith(b"hello")  # another address is served


def test_a_trusted_proxy_holds_any_number_of_connections():
    settings = Settings(connections_per_address=1, trusted_proxies=("127.0.0.1",))
    with serving(settings) as port, opened(port), opened(port):
        assert ask(port).endswith(b"hello")


def test_a_websocket_leaves_the_connection_count_for_the_socket_count():
    with (
        serving(Settings(connections_per_address=1)) as port,
        connect(f"ws://127.0.0.1:{port}/") as ws,
    ):
        ws.send("ping")
        assert ws.recv(timeout=TIMEOUT) == "ping"  # upgraded: no longer an HTTP connection
        assert ask(port).endswith(b"hello")


# --- the address, through the whole server --------------------------------------------------------


def _made(port: int, forwarded: str) -> int:
    """A new browser, saying it is ``forwarded``, makes a hot-seat game: the status."""
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=TIMEOUT) as browser:
        body = {"game": "akros", "mode": "hotseat"}
        return browser.post(
            "/api/games", json=body, headers={"x-forwarded-for": forwarded}
        ).status_code


def test_x_forwarded_for_from_loopback_is_not_believed_by_default(db_url):
    # uvicorn believes the header from 127.0.0.1 unless told otherwise: a client rotating it
    # made as many games (guesses, sign-ups, seeks) as it liked
    settings = with_bound_host(Settings(games_per_minute=1, address_factor=2), "127.0.0.1")
    with serving(settings, create_app(db_url, settings=settings)) as port:
        assert [_made(port, f"10.9.0.{n}") for n in range(3)] == [200, 200, 429]


def test_x_forwarded_for_from_a_trusted_proxy_names_the_client(db_url):
    settings = Settings(games_per_minute=1, address_factor=2, trusted_proxies=("127.0.0.1",))
    with serving(settings, create_app(db_url, settings=settings)) as port:
        assert [_made(port, f"10.9.0.{n}") for n in range(3)] == [200] * 3


def test_the_whole_server_answers_head_and_only_its_host_names(db_url):
    settings = with_bound_host(Settings(), "127.0.0.1")
    with (
        serving(settings, create_app(db_url, settings=settings)) as port,
        httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=TIMEOUT) as http,
    ):
        for path in ("/", "/api/meta"):
            head = http.head(path)
            assert head.status_code == 200 and head.content == b"", path
            assert int(head.headers["content-length"]) == len(http.get(path).content)
        rebound = http.get("/api/meta", headers={"host": f"rebound.example:{port}"})
        assert rebound.status_code == 400 and "host_names" in rebound.text


def test_the_address_listened_on_is_a_host_name_answered():
    assert with_bound_host(Settings(), "192.168.1.20").host_names == ("192.168.1.20",)
    assert with_bound_host(Settings(), "::1").host_names == ("::1",)
    assert with_bound_host(Settings(), "0.0.0.0").host_names == ()  # a wildcard: no one's name
    named = Settings(host_names=("games.example.org",))
    assert with_bound_host(named, "10.0.0.5").host_names == ("games.example.org", "10.0.0.5")
