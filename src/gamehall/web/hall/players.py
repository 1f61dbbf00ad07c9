"""Who is asking, and names: the player behind a browser and a session, and renaming.

A browser seen for the first time becomes a player with a random name; a signed-in browser is
its account's player. The browsers a player is known by (its identity cookie, and those seen by
any process holding its sessions) make one person of two accounts as far as rated games go.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from gamehall.protocol import ErrorCode, ProtocolError
from gamehall.protocol.hall import MeAnswer
from gamehall.store.rows import NameTaken, PlayerRow, now_text
from gamehall.web.hall import names as naming
from gamehall.web.hall.accounts import token_hash

if TYPE_CHECKING:  # the store is built by the transport layer and injected
    from gamehall.store.hall import HallStore

log = logging.getLogger("gamehall.web.hall")

MAX_NOTED = 100_000
"""How many (account, browser) pairs a process remembers having stored already (so a request
of a signed-in browser writes nothing once its pair is stored)."""


@dataclass(frozen=True)
class Me:
    """Who a request is from: the player (the account's when signed in), the browser's own
    anonymous player, and the session token if signed in."""

    player: PlayerRow
    browser: str | None
    session: str | None
    marker: str | None = None
    """The key of the browser's marker cookie, which signing out does not clear."""

    @property
    def id(self) -> str:
        return self.player.id

    @property
    def signed_in(self) -> bool:
        return self.session is not None


class Players:
    """The players behind requests, their browsers and their names, in the store."""

    def __init__(self, db: Callable[..., Awaitable[Any]], store: HallStore) -> None:
        self.db = db
        self.store = store
        self._noted: set[tuple[str, str]] = set()
        """(account, browser) pairs this process has stored in ``account_browsers``."""

    async def rekey_names(self) -> None:
        """Key every stored name by today's :func:`~gamehall.web.hall.names.name_key`."""
        for name in await self.db(self.store.rekey_names, naming.name_key):
            log.warning("the name %r looks like another's; it keeps its old key", name)

    async def me(self, browser: str | None, session: str | None) -> Me:
        """The player behind a browser identity and session cookie (a stale session is
        ignored); a browser seen for the first time becomes a player with a random name."""
        if session is not None:
            account = await self.db(self.store.session_player, token_hash(session))
            if account is not None:
                player = await self.db(self.store.player, account)
                if player is not None:
                    await self.seen(player.id, browser)
                    return Me(player, browser, session)
        if browser is None:  # a socket without cookies: a guest for this connection only
            guest = "guest-" + secrets.token_urlsafe(12)
            return Me(PlayerRow(guest, "guest", now_text(), False), None, None)
        player = await self.db(self.store.ensure_player, browser, _draw_name)
        return Me(player, browser, None)

    async def seen(self, account: str, browser: str | None) -> None:
        """A browser holds a session of ``account``: stored once, for every process to see."""
        if browser is None or (account, browser) in self._noted:
            return
        await self.db(self.store.note_browser, account, browser)
        if len(self._noted) >= MAX_NOTED:
            self._noted.clear()
        self._noted.add((account, browser))

    async def marked(self, me: Me, marker: str | None) -> Me:
        """``me`` with the browser's marker; a signed-in browser's is stored with its account's
        browsers, so it outlives the identity cookie that signing out clears."""
        if marker is None:
            return me
        if me.signed_in:
            await self.seen(me.id, marker)
        return replace(me, marker=marker)

    async def browsers_of(self, me: Me) -> frozenset[str]:
        """The browsers this player is known by: this request's identity cookie and marker,
        those seen (by any process) holding its sessions, and those whose anonymous player
        moved to its account. Two players sharing one are one person, as far as rated games
        go."""
        found = {b for b in (me.browser, me.marker) if b is not None}
        if me.player.account:
            found |= set(await self.db(self.store.browsers_of, me.id))
        return frozenset(found)

    async def me_answer(self, me: Me) -> MeAnswer:
        sessions = await self.db(self.store.sessions_of, me.id) if me.signed_in else None
        return MeAnswer(name=me.player.name, account=me.signed_in, sessions=sessions)

    async def rename(self, me: Me, name: str) -> None:
        """Store an anonymous player's new name (an account's name is its username)."""
        if me.player.account:
            raise ProtocolError(
                ErrorCode.SIGNED_IN, "an account's name is its username; it cannot be changed"
            )
        checked = checked_name(name)
        try:
            await self.db(self.store.rename, me.id, checked, naming.name_key(checked))
        except NameTaken:
            raise ProtocolError(ErrorCode.NAME_TAKEN, f"the name {checked!r} is taken") from None

    async def again(self, me: Me) -> Me:
        """The same request's player as stored now (its name may have changed)."""
        return Me(await self.db(self.store.player, me.id), me.browser, me.session, me.marker)


def checked_name(name: str) -> str:
    """A name as the hall keeps it, or a ``bad_name`` refusal saying what is wrong."""
    try:
        return naming.check_name(name)
    except naming.BadName as error:
        raise ProtocolError(ErrorCode.BAD_NAME, str(error)) from None


def _draw_name() -> tuple[str, str]:
    name = naming.random_name()
    return name, naming.name_key(name)


__all__ = ["MAX_NOTED", "Me", "Players", "checked_name"]
