"""The lobby of one process, without a server: seeks lapse when nobody is there to hear of
them, a lobby page's ``hello`` is answered from the lobby it was last sent, and a lobby socket
keeps the game socket's message rate. Time is the hall's injected clock (and the connection's)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from gamehall.protocol.hall import CreateSeek
from gamehall.store import HallStore, Store
from gamehall.store.bus import LocalBus
from gamehall.web.base.clock import SystemClock
from gamehall.web.base.settings import Settings
from gamehall.web.hall.hall import Hall
from gamehall.web.hall.lobby import HELLO_FRESH
from gamehall.web.hall.pairing import UNWATCHED_GRACE
from gamehall.web.play.connection import DROPPED_SECONDS, Connection


class Hub:
    """What the hall asks of its hub, with the store called directly (one process)."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.bus = LocalBus()
        self.listeners: list[Any] = []
        self.games: dict[str, Any] = {}
        self.clock = SystemClock()
        self.settings = settings

    async def db(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return function(*args, **kwargs)


class Page:
    """A lobby page's socket: what it was sent, and how it was closed."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closed: int | None = None
        self.arrived = asyncio.Event()

    async def send_text(self, data: str) -> None:
        self.sent.append(json.loads(data))
        self.arrived.set()

    async def close(self, code: int = 1000) -> None:
        self.closed = code
        self.arrived.set()

    async def until(self, done: Callable[[], bool]) -> None:
        while not done():
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), 20)  # fails a broken run only


def _run(url: str, body: Callable[[Hall, list[float]], Any], **settings: Any) -> None:
    async def main() -> None:
        store = Store(url)
        now = [1000.0]
        hall = Hall(
            Hub(store, Settings(**settings)), store=HallStore(store), tick=None,
            clock=lambda: now[0],
        )  # fmt: skip
        await hall.start()
        try:
            await body(hall, now)
        finally:
            await hall.stop()
            store.dispose()

    asyncio.run(main())


@pytest.fixture
def url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path / 'lobby.sqlite3'}"


def test_a_seek_made_with_no_lobby_page_lapses_unless_one_opens(url):
    async def body(hall: Hall, now: list[float]) -> None:
        alone = await hall.me("browser-alone", None)
        watched = await hall.me("browser-watched", None)
        lapsing = await hall.create_seek(alone, CreateSeek(game="acadmu"))  # REST, no page
        staying = await hall.create_seek(watched, CreateSeek(game="acadmu"))
        await hall.attach(watched, Connection(Page(), frozenset()))  # its page opens after
        now[0] += UNWATCHED_GRACE - 1
        await hall.tick()
        assert set(hall.lobby.seeks) == {lapsing.id, staying.id}
        now[0] += 2
        await hall.tick()
        assert set(hall.lobby.seeks) == {staying.id}
        assert hall.store.stored_seeks() == [staying.id]

    _run(url, body)


def test_a_repeated_hello_is_answered_from_the_lobby_last_sent(url):
    async def body(hall: Hall, now: list[float]) -> None:
        me = await hall.me("browser-a", None)
        page = Page()
        connection = Connection(page, frozenset())
        await hall.attach(me, connection)
        for _ in range(5):
            await hall.receive(me, connection, '{"type": "hello"}')
        lobbies = lambda: [m for m in page.sent if m["type"] == "lobby"]  # noqa: E731
        await page.until(lambda: len(lobbies()) == 5)
        assert hall.room.builds == 1 and all(m == lobbies()[0] for m in lobbies())
        # The page's challenges come once, with its first hello.
        assert [m["type"] for m in page.sent].count("challenges") == 1
        # A change of the lobby, or time for the live games' clocks, builds it again.
        await hall.create_seek(me, CreateSeek(game="acadmu"))
        await hall.receive(me, connection, '{"type": "hello"}')
        await page.until(lambda: any(m["type"] == "lobby" and m["seeks"] for m in page.sent))
        built = hall.room.builds
        now[0] += HELLO_FRESH
        await hall.receive(me, connection, '{"type": "hello"}')
        assert hall.room.builds == built + 1

    _run(url, body)


def test_a_lobby_socket_flooding_hello_is_dropped_then_closed(url):
    async def body(hall: Hall, now: list[float]) -> None:
        me = await hall.me("browser-a", None)
        page = Page()
        connection = Connection(page, frozenset())
        connection.seconds = lambda: 0.0  # no time passes: the burst is all it has
        await hall.attach(me, connection)
        burst = 2 * 5
        for _ in range(burst + DROPPED_SECONDS * 5 + 1):
            await hall.receive(me, connection, '{"type": "hello"}')
        await page.until(lambda: page.closed is not None)
        assert page.closed == 1008
        errors = [m for m in page.sent if m["type"] == "error"]
        assert [e["code"] for e in errors] == ["over_limit"]
        assert "messages_per_second" in errors[0]["message"]
        assert sum(m["type"] == "lobby" for m in page.sent) == burst
        assert hall.room.builds == 1

    _run(url, body, messages_per_second=5.0)
