"""The lobby of a hall of several processes, one process at a time: its copy of the store's seeks
and waits is reloaded whenever another process says the lobby changed, and a reload that runs
while this process writes must not undo the write (a seek made here vanishing from its own
lobby, a seek of the player's made through another process that cannot be cancelled here, a
wait made here that is neither renewed nor paired). Each test makes the reload happen at the
worst moment, and the pairing of waits is claimed in the store (both waits, or nothing)."""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Callable
from typing import Any

import pytest

from gamehall.protocol.hall import CreateSeek
from gamehall.store import HallStore, Store
from gamehall.store.bus import LocalBus
from gamehall.web.base.clock import SystemClock
from gamehall.web.base.settings import Settings
from gamehall.web.hall.hall import Hall, wait_id
from gamehall.web.hall.pairing import MAX_SEEKS_PER_ADDRESS, MAX_SEEKS_PER_PLAYER, Seek
from gamehall.web.hall.pairing import Waiting as WaitingEntry
from gamehall.web.hall.stored import stored_seek as _stored_seek
from gamehall.web.hall.stored import stored_wait as _stored_wait


class SharedBus(LocalBus):
    """A bus as though other processes shared the store (their events are never heard)."""

    shared = True


class Hub:
    """What the hall asks of its hub, with the store called directly."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.bus = SharedBus()
        self.listeners: list[Any] = []
        self.games: dict[str, Any] = {}
        self.clock = SystemClock()
        self.settings = Settings()
        self.before: dict[str, Callable[[], Any]] = {}
        """Work to do just before the store function of that name (the race)."""

    async def db(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        race = self.before.pop(getattr(function, "__name__", ""), None)
        if race is not None:
            await race()
        return function(*args, **kwargs)


def _run(store_url: str, body: Callable[[Hall, Hub], Any]) -> None:
    async def main() -> None:
        store = Store(store_url)
        hub = Hub(store)
        hall = Hall(hub, store=HallStore(hub.store), tick=None)
        await hall.start()
        try:
            await body(hall, hub)
        finally:
            await hall.stop()
            store.dispose()

    asyncio.run(main())


@pytest.fixture
def url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path / 'lobby.sqlite3'}"


def test_the_seek_limit_per_address_counts_the_seeks_of_every_process(url):
    async def body(one: Hall, two: Hall) -> None:
        made = []
        for n in range(MAX_SEEKS_PER_ADDRESS):  # four people behind one address, on process one
            me = await one.keep(await one.me(f"browser-{n // MAX_SEEKS_PER_PLAYER}", None))
            made.append(await one.create_seek(me, CreateSeek(game="acadmu"), "203.0.113.7"))
        late = await two.keep(await two.me("browser-late", None))
        with pytest.raises(Exception, match="network address") as refused:
            await two.create_seek(late, CreateSeek(game="acadmu"), "203.0.113.7")
        assert refused.value.code == "too_many_seeks"
        assert len(two.store.open_seeks()) == MAX_SEEKS_PER_ADDRESS
        assert "203.0.113.7" not in str(two.store.open_seeks())  # only a hash is stored
        await two.create_seek(late, CreateSeek(game="acadmu"), "198.51.100.1")  # another's

    _run_two(url, body)


def test_a_reload_while_a_seek_is_stored_does_not_lose_it(url):
    async def body(hall: Hall, hub: Hub) -> None:
        me = await hall.keep(await hall.me("browser-a", None))
        # Another process's lobby event arrives between the seek's check and its insert: the
        # reload reads a store without the seek yet.
        hub.before["add_seek"] = hall._reload_seeks
        seek = await hall.create_seek(me, CreateSeek(game="acadmu"))
        assert list(hall.lobby.seeks) == [seek.id]
        assert hall.store.stored_seeks() == [seek.id]

    _run(url, body)


def test_a_seek_made_through_another_process_is_cancelled_here(url):
    async def body(hall: Hall, hub: Hub) -> None:
        me = await hall.keep(await hall.me("browser-a", None))
        other = Seek("s_elsewhere1", me.id, me.player.name, None, "acadmu", {}, None, False,
                     "random", 0.0, 600.0)  # fmt: skip
        hall.store.add_seek(_stored_seek(other))  # this process has not heard of it yet
        assert hall.lobby.seeks == {}
        gone = await hall.cancel_seek(me, other.id)
        assert gone.id == other.id and hall.store.stored_seeks() == []
        # A reload that read the store before the delete does not bring it back.
        seek = await hall.create_seek(me, CreateSeek(game="acadmu"))
        stale, kept = hall.store.open_seeks(), dict(hall.lobby.seeks)

        async def late_reload() -> None:
            hall.lobby.seeks = {row["id"]: kept[row["id"]] for row in stale}

        hub.before["remove_seeks"] = late_reload
        await hall.cancel_seek(me, seek.id)
        assert hall.lobby.seeks == {} and hall.store.stored_seeks() == []

    _run(url, body)


def test_the_seek_limit_per_player_counts_the_seeks_of_every_process(url):
    async def body(hall: Hall, hub: Hub) -> None:
        me = await hall.keep(await hall.me("browser-a", None))
        for n in range(3):  # made through other processes
            seek = Seek(f"s_elsewhere{n}", me.id, "x", None, "acadmu", {}, None, False, "random",
                        0.0, 600.0)  # fmt: skip
            hall.store.add_seek(_stored_seek(seek))
        with pytest.raises(Exception, match="3 open seeks"):
            await hall.create_seek(me, CreateSeek(game="acadmu"))
        assert len(hall.store.stored_seeks()) == 3

    _run(url, body)


def test_a_wait_stored_while_a_reload_runs_stays_this_processs_and_is_renewed(url):
    async def body(hall: Hall, hub: Hub) -> None:
        from gamehall.protocol.hall import Pair

        me = await hall.keep(await hall.me("browser-a", None))
        hub.before["add_wait"] = hall._reload_seeks  # the store has no wait yet
        await hall.pair(me, Pair(type="pair", game="acadmu", clock="3+2"))
        assert me.id in hall.lobby.waiting and hall._waits_here == {me.id}
        store: HallStore = hall.store
        assert [row["id"] for row in store.open_seeks()] == [wait_id(me.id)]
        lease = datetime.datetime.fromisoformat(store.open_seeks()[0]["expires"])
        earlier = (lease - datetime.timedelta(seconds=10)).isoformat(timespec="milliseconds")
        store.renew([wait_id(me.id)], earlier)  # as if the lease had been taken 10 s ago
        await hall.tick()  # a round renews this process's waits (and pairs nobody)
        renewed = datetime.datetime.fromisoformat(store.open_seeks()[0]["expires"])
        assert renewed >= lease
        await hall.unpair(me)
        assert store.open_seeks() == [] and hall.lobby.waiting == {}

    _run(url, body)


def test_two_waits_are_paired_by_the_one_process_that_takes_both(url):
    async def body(hall: Hall, hub: Hub) -> None:
        store: HallStore = hall.store
        players = [await hall.keep(await hall.me(f"browser-{n}", None)) for n in range(3)]
        for me in players[:2]:  # waiting through other processes
            entry = WaitingEntry(me.id, me.player.name, 1500.0, "acadmu", "3+2", False, 0.0)
            store.add_wait(_stored_wait(entry, 0.0))
        a, b, c = (wait_id(me.id) for me in players)
        assert store.take_pair(a, c) is False  # c waits nowhere: nothing is taken
        assert len(store.open_seeks()) == 2
        made: list[Any] = []

        async def start_game(*args: Any) -> Any:
            made.append(args)
            raise asyncio.CancelledError  # stop the round here: the pairing is what counts

        hall.start_game = start_game  # type: ignore[method-assign]
        with pytest.raises(asyncio.CancelledError):
            await hall.tick()
        assert len(made) == 1 and sorted(made[0][4].values()) == sorted(p.id for p in players[:2])
        assert store.open_seeks() == []
        assert store.take_pair(a, b) is False  # another process's try at the same pair

    _run(url, body)


def _run_two(store_url: str, body: Callable[[Hall, Hall], Any]) -> None:
    """Two halls (two processes) on one store, hearing nothing of each other but the store."""

    async def main() -> None:
        store = Store(store_url)
        halls = [Hall(Hub(store), store=HallStore(store), tick=None) for _ in range(2)]
        for hall in halls:
            await hall.start()
        try:
            await body(*halls)
        finally:
            for hall in halls:
                await hall.stop()
            store.dispose()

    asyncio.run(main())


PASSWORD = "correct horse battery"


async def _accounts_sharing_a_laptop(one: Hall, two: Hall) -> tuple[Any, Any]:
    """Ada signed up on the laptop through process one; Bob signed up at home and then signed
    in on the same laptop through process two: only process two saw the laptop hold Bob's
    session, only process one saw Ada's. Returns Ada (on the laptop) and Bob (at home)."""
    ada, _ = await one.signup(await one.keep(await one.me("laptop", None)), "Ada", PASSWORD)
    _, bob_token = await two.signup(await two.keep(await two.me("bob-home", None)), "Bob", PASSWORD)
    await two.login(await two.keep(await two.me("laptop", None)), "Bob", PASSWORD, "10.0.0.1")
    return ada, await two.keep(await two.me("bob-home", bob_token))


def test_a_rated_seek_of_another_process_knows_its_creators_browsers(url):
    async def body(one: Hall, two: Hall) -> None:
        ada, bob = await _accounts_sharing_a_laptop(one, two)
        seek = await one.create_seek(ada, CreateSeek(game="acadmu", rated=True))
        await two._reload_seeks()  # process one's lobby event, as heard by two
        assert two.lobby.seeks[seek.id].browsers == {"laptop", "person:" + ada.id}
        with pytest.raises(Exception, match="needs two people") as refused:
            await two.accept_seek(bob, seek.id)
        assert refused.value.code == "self_pairing"
        assert [row["id"] for row in two.store.open_seeks()] == [seek.id]  # still open

    _run_two(url, body)


def test_quick_pairing_across_processes_never_rates_one_browsers_accounts(url):
    async def body(one: Hall, two: Hall) -> None:
        from gamehall.protocol.hall import Pair

        ada, bob = await _accounts_sharing_a_laptop(one, two)
        await one.pair(ada, Pair(type="pair", game="acadmu", clock="3+2", rated=True))
        await two._reload_seeks()
        with pytest.raises(Exception, match="needs two people"):
            await two.pair(bob, Pair(type="pair", game="acadmu", clock="3+2", rated=True))
        # Even if both waits got in at the same moment, neither process pairs them.
        entry = WaitingEntry(bob.id, "Bob", 1500.0, "acadmu", "3+2", True, 0.0,
                             await two.browsers_of(bob))  # fmt: skip
        two.store.add_wait(_stored_wait(entry, 0.0))
        for hall in (one, two):
            await hall._reload_seeks()
            assert hall.lobby.pair(1000.0) == []
        assert len(two.store.open_seeks()) == 2

    _run_two(url, body)
