"""Fixtures for the web server's tests: a temporary SQLite store per test, browsers (TestClients
with their own cookies sharing one running app), and WebSocket reads that time out instead of
hanging. Every answer and message the server sends is validated against the protocol's models."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from gamehall.store import Store
from gamehall.web.base.settings import Settings
from gamehall.web.http.app import create_app
from tests.web.web_helpers import CheckedClient, History, check_server_message

TIMEOUT = 20.0
STARTUP = 300.0
"""The longest a server's workers may take to warm up (compiling the kernels, once)."""
TEST_SETTINGS = Settings(
    messages_per_second=1000.0,
    games_per_minute=1000,
    resyncs_per_minute=1000,
    takebacks_per_minute=1000,
)


@pytest.fixture
def static_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "static"
    folder.mkdir()
    (folder / "index.html").write_text("<!doctype html><title>gamehall test</title>")
    (folder / "app.js").write_text("export const ok = true;\n")
    return folder


class Server:
    """A running app (its lifespan entered), more browsers on it, and test helpers."""

    def __init__(self, client: CheckedClient, db_url: str) -> None:
        self.client = client
        self.app = client.app
        self.db_url = db_url
        self.histories: dict[int, History] = {}

    def browser(self, address: str | None = None) -> CheckedClient:
        """Another browser (its own cookie jar) on the same running app and event loop, from
        the network address ``address`` (default: the test client's)."""
        other = (
            CheckedClient(self.app)
            if address is None
            else CheckedClient(self.app, client=(address, 50000))
        )
        other.portal = self.client.portal
        return other

    @property
    def hub(self) -> Any:
        return self.app.state.hub

    def resumed(self) -> Any:
        """The hub, once the games waiting for the server at start are resumed (they are
        loaded in the background while the server serves everything else)."""

        async def wait() -> None:
            with anyio.fail_after(TIMEOUT):
                await self.hub.resumed.wait()

        self.client.portal.call(wait)
        return self.hub

    def receive(self, ws: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message on a test WebSocket (checked against the protocol), failing after
        ``timeout`` seconds."""

        async def next_message() -> Any:
            with anyio.fail_after(timeout):
                return await ws._send_rx.receive()

        message = ws.portal.call(next_message)
        ws._raise_on_close(message)
        history = self.histories.setdefault(id(ws), History())
        return history.take(check_server_message(message["text"]))

    def receive_type(self, ws: Any, kind: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Skip messages until one of type ``kind``."""
        while True:
            message = self.receive(ws, timeout)
            if message["type"] == kind:
                return message

    def receive_state(
        self, ws: Any, version: int | None = None, timeout: float = TIMEOUT
    ) -> dict[str, Any]:
        """The next state message (at least at ``version``, if given)."""
        while True:
            message = self.receive_type(ws, "state", timeout)
            if version is None or message["version"] >= version:
                return message

    def stored(self, game_id: str) -> tuple[int, list[str]]:
        """The game's stored version and actions, read straight from the database."""
        return stored(self.db_url, game_id)


def stored(db_url: str, game_id: str) -> tuple[int, list[str]]:
    store = Store(db_url)
    try:
        row = store.get_game(game_id)
        assert row is not None
        return row.version, [a.text for a in store.actions(game_id)]
    finally:
        store.dispose()


@contextlib.contextmanager
def running(db_url: str, *, warm: bool = True, **kwargs: Any) -> Iterator[Server]:
    """A server on ``db_url`` (``kwargs`` are create_app's). The app serves before its workers
    are warm (they warm up in the background); with ``warm`` the test starts once they are, as
    its computer moves and hints would otherwise wait for them."""
    app = create_app(db_url, **kwargs)
    with CheckedClient(app) as client:
        server = Server(client, db_url)
        if warm:

            async def warmed() -> None:
                with anyio.fail_after(STARTUP):
                    await server.hub.warm()

            client.portal.call(warmed)
        yield server


@pytest.fixture
def server_factory(db_url: str, static_dir: Path) -> Callable[..., Any]:
    """Servers on the test's store. Tests play far faster than people, so the per-client rates
    are raised unless a test gives settings of its own (the tests of each limit do)."""

    def make(**kwargs: Any) -> contextlib.AbstractContextManager[Server]:
        kwargs.setdefault("static_dir", static_dir)
        kwargs.setdefault("settings", TEST_SETTINGS)
        return running(db_url, **kwargs)

    return make


@pytest.fixture
def server(server_factory: Callable[..., Any]) -> Iterator[Server]:
    with server_factory() as running_server:
        yield running_server
