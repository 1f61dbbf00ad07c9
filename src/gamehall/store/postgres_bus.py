"""The bus of a hall that is several processes on one PostgreSQL database: ``LISTEN``/``NOTIFY``
(see :mod:`gamehall.store.bus`), and :func:`bus_for`, which picks a hall's bus from its store.

Apart from :mod:`gamehall.store.bus` so that the web layers that only publish and subscribe import
no database driver: the server's transport layer builds the bus and injects it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from gamehall.store.bus import CHANNEL, Bus, Event, LocalBus, encode, log


class PostgresBus(Bus):
    """``LISTEN``/``NOTIFY`` on the store's PostgreSQL database (``url``: a SQLAlchemy URL).

    One connection listens (reconnecting with a growing pause if it is lost, after which the
    subscribers resync from the store) and one publishes the events no transaction carries."""

    shared = True

    def __init__(self, url: str) -> None:
        super().__init__()
        from sqlalchemy.engine import make_url

        parsed = make_url(url).set(drivername="postgresql")
        self.conninfo = parsed.render_as_string(hide_password=False)
        self._publisher: Any = None
        self._publish_lock = asyncio.Lock()
        self._listening = asyncio.Event()

    async def start(self) -> None:
        task = asyncio.get_running_loop().create_task(self._listen())
        self._tasks.add(task)
        await asyncio.wait_for(self._listening.wait(), 30)

    async def stop(self) -> None:
        await super().stop()
        if self._publisher is not None:
            with contextlib.suppress(Exception):
                await self._publisher.close()

    async def _listen(self) -> None:
        import psycopg

        pause = 0.1
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    pause = 0.1
                    if not first:  # events may have gone by while we were away
                        for handler in self._reconnected:
                            self._spawn(handler)
                    first = False
                    async for notice in conn.notifies():
                        try:
                            event = json.loads(notice.payload)
                        except ValueError:
                            log.error("bad bus payload %.80r", notice.payload)
                            continue
                        self._deliver(event)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("bus listener lost (%s); reconnecting in %.1f s", error, pause)
                await asyncio.sleep(pause)
                pause = min(5.0, pause * 2)

    async def publish(self, event: Event) -> None:
        import psycopg

        payload = encode(event)
        async with self._publish_lock:
            for attempt in range(2):
                try:
                    if self._publisher is None or self._publisher.closed:
                        self._publisher = await psycopg.AsyncConnection.connect(
                            self.conninfo, autocommit=True
                        )
                    await self._publisher.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
                    return
                except psycopg.OperationalError:
                    self._publisher = None
                    if attempt:
                        raise

    def in_transaction(self, event: Event) -> str | None:
        return encode(event)

    def committed(self, event: Event) -> None:
        """Delivered by the database after the commit: nothing to do here."""


def bus_for(url: str, is_postgresql: bool) -> Bus:
    """The bus of a hall on the store ``url``."""
    return PostgresBus(url) if is_postgresql else LocalBus()


__all__ = ["PostgresBus", "bus_for"]
