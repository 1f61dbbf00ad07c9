"""The group committer: each entry of a game's log stored under its version check, many at once.

Every entry of a game's log (a move, a takeback, a resignation, a flag fall) is stored by
:meth:`Committer.commit` before anyone is told of it. It is stored under a version check in the
store's transaction, so of two processes of a hall writing for the same version exactly one is
accepted; the other answers ``stale_version`` after catching up. The same transaction notifies
the other processes (the bus event carries the entry). Concurrent entries of different games are
committed together, in one transaction of at most :data:`GROUP_COMMIT` entries, on the commit
threads of :mod:`gamehall.web.play.pools`; each entry's caller goes on once its own transaction is
committed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from gamehall.protocol import ErrorCode, ProtocolError
from gamehall.store.bus import Bus
from gamehall.store.rows import ActionRow, Append, VersionConflict, now_text
from gamehall.web.base.settings import Settings
from gamehall.web.play.history import ENDINGS
from gamehall.web.play.live import LiveGame
from gamehall.web.play.pools import Run, Spawn

if TYPE_CHECKING:  # the store is built by the transport layer and injected
    from gamehall.store.db import Store

log = logging.getLogger("gamehall.web")

BUS_ACTION_CHARS = 1000
"""An action's text rides its bus event up to this length (a chance outcome may be longer than
any move a client may send); a longer one is loaded from the store by the other processes."""
GROUP_COMMIT = 64
"""The most entries committed in one transaction."""


class StoreStopped(Exception):
    """The server stopped before an entry could be stored."""


class Committer:
    """Stores the entries of every game's log, grouped into as few transactions as it can."""

    def __init__(
        self,
        store: Store,
        bus: Bus,
        settings: Settings,
        *,
        commit_db: Run,
        committers: int,
        background: Spawn,
        catch_up: Callable[[LiveGame], Awaitable[None]],
    ) -> None:
        self.store = store
        self.bus = bus
        self.settings = settings
        self._commit_db = commit_db
        self._committers = committers
        self._background = background
        self._catch_up = catch_up
        self._appends: list[tuple[Append, asyncio.Future[None]]] = []
        self._flushers = 0
        self.commits = 0
        """Transactions that stored entries (fewer than the entries: group commit)."""

    async def commit(
        self,
        live: LiveGame,
        kind: str,
        text: str,
        mover: int,
        *,
        now: int,
        clocks: list[int | None] | None,
        over: bool,
        result: dict[str, Any] | None,
        pending: bool,
    ) -> ActionRow:
        """Store entry ``kind`` of the game's log under the version check (another process
        may have stored this version first: then STALE_VERSION, after catching up), with the
        bus event that tells the other processes (sent in the same transaction)."""
        number = live.version + 1
        if number > self.settings.max_actions and kind not in ENDINGS:
            raise ProtocolError(
                ErrorCode.GAME_TOO_LONG,
                f"the game has {live.version} entries, the most this server plays "
                "(limit max_actions)",
            )
        event = None
        if self.bus.shared:  # a hall of one process has no one else to tell
            event = self.bus.event(
                "action", live.id, version=number, mover=mover, entry=kind, clock=clocks, at=now
            )
            if len(text) <= BUS_ACTION_CHARS:  # else the other processes load it from the store
                event["action"] = text
        append = Append(
            live.id,
            number,
            text,
            mover,
            status="finished" if over else "ongoing",
            result=result,
            pending=pending,
            notify=self.bus.in_transaction(event) if event is not None else None,
            kind=kind,
            clock=clocks,
        )
        try:
            await self.append(append)
        except VersionConflict:
            # Another process stored this version first: take in what it did, and refuse.
            await self._catch_up(live)
            raise ProtocolError(
                ErrorCode.STALE_VERSION,
                f"another {kind} was stored first; the game is at version {live.version}",
            ) from None
        except Exception as error:
            log.exception("cannot store entry %d (%s) of %s", number, kind, live.id)
            raise ProtocolError(
                ErrorCode.STORE_ERROR, f"the {kind} could not be stored: {error}"
            ) from None
        if event is not None:
            self.bus.committed(event)
        return ActionRow(number, text, mover, now_text(), kind, clocks and tuple(clocks))

    async def append(self, append: Append) -> None:
        """Store one entry, with whatever other entries are waiting to be stored meanwhile
        (group commit); returns once its transaction is committed."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._appends.append((append, done))
        if self._flushers < self._committers:
            self._flushers += 1
            self._background(self._flush())
        await done

    async def _flush(self) -> None:
        try:
            while self._appends:
                batch = self._appends[:GROUP_COMMIT]
                del self._appends[:GROUP_COMMIT]
                try:
                    stored = await self._commit_db(self.store.append_actions, [a for a, _ in batch])
                except BaseException as error:
                    for _, done in batch:
                        if not done.done():
                            done.set_exception(
                                error if isinstance(error, Exception) else StoreStopped()
                            )
                    if not isinstance(error, Exception):
                        raise
                    continue
                self.commits += 1
                for (append, done), ok in zip(batch, stored, strict=True):
                    if done.done():
                        continue
                    if ok:
                        done.set_result(None)
                    else:
                        done.set_exception(
                            VersionConflict(f"{append.game_id}: not at {append.number - 1}")
                        )
        finally:
            self._flushers -= 1


__all__ = ["BUS_ACTION_CHARS", "GROUP_COMMIT", "Committer", "StoreStopped"]
