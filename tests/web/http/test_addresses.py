"""Whom a request comes from (issue 33): the connection's address unless the operator names a
trusted proxy, IPv6 counted per /64; the host names the server answers for; HEAD wherever GET;
and each address's share of the WebSockets."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from gamehall.web.base.settings import Settings, SettingsError
from gamehall.web.http.addresses import TrustedProxies, counted_address
from gamehall.web.http.security import allowed_hosts, host_name
from tests.web.conftest import TEST_SETTINGS
from tests.web.web_helpers import hello

HOTSEAT = {"game": "akros", "mode": "hotseat"}
PER_ADDRESS = Settings(games_per_minute=1, address_factor=2)
"""One game a minute per browser, two per network address."""


# --- the address as counted ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "counted"),
    [
        ("192.0.2.7", "192.0.2.7"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:DB8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("[2001:db8:1:3::9]", "2001:db8:1:3::/64"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("::1", "::/64"),
        ("testclient", "testclient"),
    ],
)
def test_an_address_is_counted_as_one_client_holds_it(given, counted):
    assert counted_address(given) == counted


def test_x_forwarded_for_is_read_from_trusted_proxies_only():
    nobody = TrustedProxies(())
    assert nobody.client("192.0.2.7", ["10.0.0.1"]) == "192.0.2.7"
    proxies = TrustedProxies(("127.0.0.1", "10.1.0.0/16"))
    assert proxies.client("192.0.2.7", ["10.0.0.1"]) == "192.0.2.7"  # not a proxy
    assert proxies.client("127.0.0.1", ["198.51.100.4"]) == "198.51.100.4"
    assert proxies.client("127.0.0.1", []) == "127.0.0.1"  # the proxy's own request
    # a client's made-up hops come first; the last one not a proxy is the client
    assert proxies.client("127.0.0.1", ["6.6.6.6, 198.51.100.4, 10.1.2.3"]) == "198.51.100.4"
    assert proxies.client("127.0.0.1", ["6.6.6.6", "198.51.100.4"]) == "198.51.100.4"
    assert proxies.client("127.0.0.1", ["junk, 10.1.2.3"]) == "10.1.2.3"
    assert proxies.client("::ffff:127.0.0.1", ["2001:db8::5"]) == "2001:db8::5"


def test_a_trusted_proxy_must_be_an_address_or_a_network():
    assert Settings(trusted_proxies=("127.0.0.1", "10.0.0.0/8", "::1")).trusted_proxies
    with pytest.raises(SettingsError, match="trusted proxy 'localhost'"):
        Settings(trusted_proxies=("localhost",))
    with pytest.raises(SettingsError, match="no scheme, port"):
        Settings(host_names=("games.example.org:443",))


def _made(server, peer: str, forwarded: str | None = None) -> int:
    """A new browser (cookie) from ``peer`` makes a hot-seat game; the answer's status."""
    headers = {"x-forwarded-for": forwarded} if forwarded else {}
    return int(server.browser(peer).post("/api/games", json=HOTSEAT, headers=headers).status_code)


def test_a_made_up_x_forwarded_for_changes_no_address(server_factory):
    # Before issue 33 uvicorn believed the header from loopback; the edge believes it from no one
    # by default: three new browsers of one address, each with a header of its own, share its
    # two games a minute.
    with server_factory(settings=PER_ADDRESS) as server:
        answers = [_made(server, "127.0.0.1", f"10.9.0.{n}") for n in range(3)]
        assert answers == [200, 200, 429]


def test_a_trusted_proxy_tells_its_clients_apart(server_factory):
    settings = Settings(games_per_minute=1, address_factor=2, trusted_proxies=("127.0.0.1",))
    with server_factory(settings=settings) as server:
        assert [_made(server, "127.0.0.1", f"10.9.0.{n}") for n in range(3)] == [200] * 3
        assert [_made(server, "127.0.0.1", "10.9.1.1") for _ in range(3)] == [200, 200, 429]
        # another address's own header is not believed: it is one client
        assert [_made(server, "192.0.2.7", f"10.9.2.{n}") for n in range(3)] == [200, 200, 429]


def test_ipv6_clients_are_counted_per_64(server_factory):
    with server_factory(settings=PER_ADDRESS) as server:
        one_network = ["2001:db8:1:2::a", "2001:db8:1:2:ffff::b"]
        assert _made(server, one_network[0]) == 200
        assert _made(server, one_network[1]) == 200
        assert _made(server, "2001:db8:1:2:1234::c") == 429  # the same /64
        assert _made(server, "2001:db8:1:3::a") == 200  # the next /64
        assert _made(server, "192.0.2.7") == 200
        assert _made(server, "::ffff:192.0.2.7") == 200  # the same IPv4 address: its second
        assert _made(server, "192.0.2.7") == 429


# --- host names -----------------------------------------------------------------------------------


def test_host_names_are_compared_without_their_port():
    assert host_name("LocalHost:8000") == "localhost"
    assert host_name("[::1]:8000") == "[::1]"
    assert host_name("games.example.org.") == "games.example.org"
    assert host_name("2001:db8::7") == "[2001:db8::7]"
    assert allowed_hosts(Settings()) == {"localhost", "127.0.0.1", "[::1]"}
    assert "[2001:db8::7]" in allowed_hosts(Settings(host_names=("2001:db8::7",)))


def test_only_the_configured_host_names_are_answered(server):
    for host in ("localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000"):
        assert server.client.get("/api/meta", headers={"host": host}).status_code == 200
    wrong = server.client.get("/", headers={"host": "rebound.example:8000"})
    assert wrong.status_code == 400
    assert wrong.headers["content-type"].startswith("text/plain")
    assert "rebound.example" in wrong.text and "host_names" in wrong.text
    # an Origin equal to the made-up Host passes nothing either (a DNS-rebinding page)
    rebound = {"host": "rebound.example:8000", "origin": "http://rebound.example:8000"}
    assert server.client.post("/api/games", json=HOTSEAT, headers=rebound).status_code == 400
    assert server.client.get("/api/games").json()["games"] == []
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        server.client.websocket_connect("/ws/lobby", headers={"host": "rebound.example"}) as ws,
    ):
        ws.receive_text()
    assert closed.value.code == 4403


def test_a_public_name_is_answered_once_configured(server_factory):
    named = Settings(host_names=("games.example.org",))
    with server_factory(settings=named) as server:
        public = {"host": "games.example.org", "origin": "http://games.example.org"}
        assert server.client.post("/api/games", json=HOTSEAT, headers=public).status_code == 200
        # its own Origin on another port of that name is still another origin
        other_port = {**public, "origin": "http://games.example.org:9999"}
        refused = server.client.post("/api/games", json=HOTSEAT, headers=other_port)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "bad_origin"
        assert server.client.get("/", headers={"host": "other.example.org"}).status_code == 400


# --- HEAD ---------------------------------------------------------------------------------------


def test_head_is_answered_wherever_get_is(server):
    for path in ("/", "/lobby", "/api/meta", "/static/app.js"):
        got = server.client.get(path)
        head = server.client.head(path)
        assert head.status_code == got.status_code == 200, path
        assert head.content == b""
        assert head.headers["content-type"] == got.headers["content-type"]
    assert server.client.head("/api/nope").status_code == 404


# --- sockets per address ---------------------------------------------------------------------


def test_one_address_holds_its_share_of_the_sockets(server_factory):
    settings = Settings(**{**TEST_SETTINGS.describe(), "sockets_per_address": 2})
    with server_factory(settings=settings) as server:
        game = server.client.post("/api/games", json=HOTSEAT).json()
        path = f"/ws/games/{game['id']}"
        watcher = server.browser("192.0.2.7")
        with (
            watcher.websocket_connect("/ws/lobby"),  # the lobby counts
            watcher.websocket_connect(path),
            watcher.websocket_connect(path) as third,
        ):
            error = server.receive(third)
            assert error["code"] == "over_limit" and "sockets_per_address" in error["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                third.receive_text()
            assert closed.value.code == 1013
            # another address is served meanwhile
            with server.client.websocket_connect(path) as mine:
                assert hello(server, mine)["you"] == [0, 1]
        with watcher.websocket_connect(path) as again:  # room again once they left
            assert hello(server, again)["you"] == []
