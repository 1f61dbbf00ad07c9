"""What the processes of one hall tell each other on the bus, between two halls on one store:
signing out on one closes the ended sessions' sockets on every other (issue 33, point 7), and a
seek made with no lobby page of its creator lapses unless a page is open on some process
(issue 33, point 1).
"""

from __future__ import annotations

import asyncio
from typing import Any

from argon2 import PasswordHasher

from gamehall.protocol.hall import CreateSeek
from gamehall.store import HallStore, Store
from gamehall.store.bus import Event, LocalBus
from gamehall.web.hall.accounts import Passwords, token_hash
from gamehall.web.hall.hall import Hall
from gamehall.web.hall.pairing import UNWATCHED_GRACE
from gamehall.web.play.connection import SESSION_ENDED, Connection
from tests.web.hall.test_lobby_shared import Hub

CHEAP = Passwords(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
PASSWORD = "correct horse battery"


class LinkedBus(LocalBus):
    """A bus whose events reach every bus of its group (processes sharing PostgreSQL)."""

    shared = True

    def __init__(self, group: list[LinkedBus]) -> None:
        super().__init__()
        self.group = group
        group.append(self)

    async def publish(self, event: Event) -> None:
        for bus in self.group:
            bus._deliver(event)

    async def delivered(self) -> None:
        """Wait until every event delivered so far was handled."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks))


def linked_hubs(store: Store) -> tuple[list[Hub], list[LinkedBus]]:
    """Two processes' hubs on one store, their buses linked; the hubs and the buses."""
    group: list[LinkedBus] = []
    hubs = [Hub(store), Hub(store)]
    for hub in hubs:
        hub.bus = LinkedBus(group)
    return hubs, group


class Socket:
    """A WebSocket as a connection sees it: what was sent, and how it was closed."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: int | None = None

    async def send_text(self, data: str) -> None:
        self.sent.append(data)

    async def close(self, code: int = 1000) -> None:
        self.closed = code


class Game:
    """A live game as the hall's sign-out sees it: its connections."""

    def __init__(self) -> None:
        self.connections: set[Connection] = set()


def test_signing_out_everywhere_on_one_process_closes_sockets_on_another(tmp_path: Any) -> None:
    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'hall.sqlite3'}")
        hubs, group = linked_hubs(store)
        one, two = (Hall(hub, store=HallStore(store), passwords=CHEAP, tick=None) for hub in hubs)
        for hall in (one, two):
            await hall.start()
        try:
            laptop, _ = await one.signup(await one.me("laptop", None), "Ada", PASSWORD)
            phone, token = await two.login(await two.me("phone", None), "Ada", PASSWORD, "a")
            lobby_socket, game_socket, other_socket = Socket(), Socket(), Socket()
            lobby = Connection(lobby_socket, frozenset(), session=token_hash(token))
            await two.attach(phone, lobby)
            game = Game()
            seat = Connection(game_socket, frozenset({0}), session=token_hash(token))
            guest = Connection(other_socket, frozenset({1}))  # not signed in: stays
            for connection in (seat, guest):
                game.connections.add(connection)
                connection.start()
            hubs[1].games["g1"] = game
            assert await one.logout(laptop, everywhere=True) == 2
            for bus in group:
                await bus.delivered()
            for connection in (lobby, seat):
                assert connection.closed
                assert connection.task is not None
                await connection.task  # it sends the close, then stops
            assert lobby_socket.closed == game_socket.closed == SESSION_ENDED
            assert not guest.closed and other_socket.closed is None
            await two.receive(phone, lobby, '{"type": "pair", "game": "acadmu"}')
            assert two.lobby.waiting == {}  # a closed socket acts no more
            await guest.stop()
        finally:
            for hall in (one, two):
                await hall.stop()
            store.dispose()

    asyncio.run(main())


def test_a_seek_with_no_lobby_page_on_any_process_lapses_and_one_with_a_page_elsewhere_stays(
    tmp_path: Any,
) -> None:
    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'hall.sqlite3'}")
        hubs, group = linked_hubs(store)
        now = [1000.0]
        one, two = (
            Hall(hub, store=HallStore(store), tick=None, clock=lambda: now[0]) for hub in hubs
        )
        for hall in (one, two):
            await hall.start()

        async def settled() -> None:
            for bus in group:
                await bus.delivered()

        try:
            ada, bob, cy = [await one.me(f"browser-{n}", None) for n in ("ada", "bob", "cy")]
            page = Connection(Socket(), frozenset())
            await two.attach(await two.me("browser-ada", None), page)  # Ada's page: on two
            watched = await one.create_seek(ada, CreateSeek(game="acadmu"))  # REST, on one
            alone = await one.create_seek(bob, CreateSeek(game="acadmu"))  # no page anywhere
            later = await one.create_seek(cy, CreateSeek(game="acadmu"))
            await settled()
            await two.attach(await two.me("browser-cy", None), Connection(Socket(), frozenset()))
            await settled()  # Cy's page opened on two after the seek
            now[0] += UNWATCHED_GRACE + 1
            await one.tick()
            assert set(one.lobby.seeks) == {watched.id, later.id}
            assert sorted(one.store.stored_seeks()) == sorted([watched.id, later.id])
            assert alone.id not in one.lobby.seeks
        finally:
            for hall in (one, two):
                await hall.stop()
            store.dispose()

    asyncio.run(main())
