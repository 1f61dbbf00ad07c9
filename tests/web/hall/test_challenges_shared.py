"""Challenges between two processes of one hall (two halls on one store, their buses linked):
a challenge sent on one process reaches the challenged player's lobby page on the other at once,
and of a decline and a cancel made at once on two processes exactly one happens."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from gamehall.protocol import ProtocolError
from gamehall.protocol.challenges import CreateChallenge
from gamehall.store import HallStore, Store
from gamehall.web.hall.hall import Hall
from gamehall.web.play.connection import Connection
from tests.web.hall.test_hall_bus import Socket, linked_hubs


def _challenges(socket: Socket) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, socket.sent) if m["type"] == "challenges"]


def test_a_challenge_sent_on_one_process_reaches_a_page_on_another_and_is_answered_once(
    tmp_path: Any,
) -> None:
    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'hall.sqlite3'}")
        hubs, group = linked_hubs(store)
        one, two = (Hall(hub, store=HallStore(store), tick=None) for hub in hubs)
        for hall in (one, two):
            await hall.start()

        async def until(check: Any) -> None:
            """Until ``check()`` holds: the bus's events handled, and the pages' senders given
            turns (a bounded number: a broken run fails)."""
            for _ in range(1000):
                for bus in group:
                    await bus.delivered()
                if check():
                    return
                await asyncio.sleep(0)  # a turn for the connections' send tasks
            raise AssertionError("it did not happen")

        try:
            ada = await one.keep(await one.me("browser-ada", None))
            bob = await two.keep(await two.me("browser-bob", None))
            bob_socket, ada_socket = Socket(), Socket()
            pages = [Connection(bob_socket, frozenset()), Connection(ada_socket, frozenset())]
            await two.attach(bob, pages[0])  # Bob's lobby page: on two
            await one.attach(ada, pages[1])  # Ada's: on one
            body = CreateChallenge(name=bob.player.name, game="acadmu", clock="3+2")
            sent = await one.challenge(ada, body)
            await until(lambda: _challenges(bob_socket))
            (heard,) = _challenges(bob_socket)
            assert [c["id"] for c in heard["incoming"]] == [sent.id]
            # Bob declines on two while Ada cancels on one: the store takes one of them.
            results = await asyncio.gather(
                two.decline_challenge(bob, sent.id),
                one.cancel_challenge(ada, sent.id),
                return_exceptions=True,
            )
            refusals = [r for r in results if isinstance(r, ProtocolError)]
            assert len(refusals) == 1 and refusals[0].code == "unknown_challenge"
            await until(lambda: len(_challenges(bob_socket)) == 2)
            await until(lambda: len(_challenges(ada_socket)) == 2)
            assert _challenges(ada_socket)[-1]["outgoing"] == []
            assert _challenges(bob_socket)[-1]["incoming"] == []
            assert (await one.challenge_list(ada)).outgoing == []
        finally:
            for page in pages:
                await page.stop()
            for hall in (one, two):
                await hall.stop()
            store.dispose()

    asyncio.run(main())
