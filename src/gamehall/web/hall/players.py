"""Who is asking, and names: the player behind a browser and a session, and renaming.

A browser seen for the first time is a guest with a random name (the same one each time it
asks, drawn from its key), stored as a player only when it first does something that needs
one (:meth:`Players.keep`: making a game or a seek, joining, renaming, quick pairing), so
reading the lobby or a page stores nothing. A signed-in browser is its account's player while
its session lasts (:data:`~gamehall.web.hall.accounts.SESSION_IDLE` unused ends it). The browsers a player is known by (its identity cookie, and those seen by
any process holding its sessions) make one person of two accounts as far as rated games go.
"""

from __future__ import annotations

import datetime
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from gamehall.protocol import ErrorCode, ProtocolError
from gamehall.protocol.hall import MeAnswer
from gamehall.store.rows import NameTaken, PlayerRow, now_text
from gamehall.web.hall import names as naming
from gamehall.web.hall.accounts import SESSION_IDLE, SESSION_TOUCH, AttemptLimiter, token_hash

if TYPE_CHECKING:  # the store is built by the transport layer and injected
    from gamehall.store.hall import HallStore

log = logging.getLogger("gamehall.web.hall")

MAX_RENAMES = 5
"""Renames one player may make within :data:`RENAME_WINDOW` seconds (each is shown to every
game the player sits in and to the lobby)."""
RENAME_WINDOW = 600.0
MAX_ADDRESS_RENAMES = 20
"""Renames from one network address within the window (fresh guests each taking a name: name
squatting)."""
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
    stored: bool = True
    """Whether the player is in the store (a guest is not until it needs to be)."""

    @property
    def id(self) -> str:
        return self.player.id

    @property
    def signed_in(self) -> bool:
        return self.session is not None


def person_of(player: PlayerRow) -> str:
    """The person behind an account, as :meth:`Players.browsers_of` names it: a bot's owner's
    account, or the account itself."""
    return "person:" + (player.bot_owner or player.id)


class Players:
    """The players behind requests, their browsers and their names, in the store."""

    def __init__(
        self,
        db: Callable[..., Awaitable[Any]],
        store: HallStore,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.db = db
        self.store = store
        self.clock = clock
        self.renames = AttemptLimiter(MAX_RENAMES, RENAME_WINDOW)
        """Each player's recent renames (keyed by player id)."""
        self.address_renames = AttemptLimiter(MAX_ADDRESS_RENAMES, RENAME_WINDOW)
        self._noted: set[tuple[str, str]] = set()
        """(account, browser) pairs this process has stored in ``account_browsers``."""
        self.wall: Callable[[], datetime.datetime] = _utc_now
        """The time sessions are stamped with (tests move it by hand)."""

    def session_times(self) -> dict[str, str]:
        """Now, and the cut-offs of sessions' expiry and of writing their last use, as the
        store compares them (ISO-8601 UTC text)."""
        now = self.wall()
        return {
            "now": _text(now),
            "idle_since": _text(now - datetime.timedelta(seconds=SESSION_IDLE)),
            "touch_before": _text(now - datetime.timedelta(seconds=SESSION_TOUCH)),
        }

    async def rekey_names(self) -> None:
        """Key every stored name by today's :func:`~gamehall.web.hall.names.name_key`."""
        for name in await self.db(self.store.rekey_names, naming.name_key):
            log.warning("the name %r looks like another's; it keeps its old key", name)

    async def me(self, browser: str | None, session: str | None) -> Me:
        """The player behind a browser identity and session cookie (a stale or expired session
        is ignored); a browser not stored yet is a guest with the name it would be given
        (nothing is stored: see :meth:`keep`)."""
        if session is not None:
            times = self.session_times()
            account = await self.db(self.store.session_player, token_hash(session), **times)
            if account is not None:
                player = await self.db(self.store.player, account)
                if player is not None:
                    await self.seen(player.id, browser)
                    return Me(player, browser, session)
        if browser is None:  # a socket without cookies: a guest for this connection only
            guest = "guest-" + secrets.token_urlsafe(12)
            return Me(PlayerRow(guest, "guest", now_text(), False), None, None)
        player = await self.db(self.store.player, browser)
        if player is None:
            guest = PlayerRow(browser, naming.random_name(seed=browser), now_text(), False)
            return Me(guest, browser, None, stored=False)
        return Me(player, browser, None)

    async def keep(self, me: Me) -> Me:
        """The same player, stored (a guest's first act that needs a player: a game, a seek,
        a seat, a name). A clashing name is drawn again, with more digits each few times."""
        if me.stored or me.browser is None:
            return me
        row = await self.db(self.store.ensure_player, me.browser, _drawer(me.browser))
        return replace(me, player=row, stored=True)

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
        moved to its account; and an account's person, ``person:ID`` (a bot account's is its
        owner's, a person's account its own: docs/bots.md). Two players sharing one are one
        person, as far as rated games go: a bot is never rated against its owner, nor two bots
        of one owner against each other."""
        found = {b for b in (me.browser, me.marker) if b is not None}
        if me.player.account:
            found |= set(await self.db(self.store.browsers_of, me.id))
            found.add(person_of(me.player))
        return frozenset(found)

    async def browsers_of_account(self, player: PlayerRow) -> frozenset[str]:
        """Another player's browsers and person, as :meth:`browsers_of` tells a requester's."""
        found = set(await self.db(self.store.browsers_of, player.id))
        if player.account:
            found.add(person_of(player))
        return frozenset(found)

    async def me_answer(self, me: Me) -> MeAnswer:
        sessions = await self.db(self.store.sessions_of, me.id) if me.signed_in else None
        return MeAnswer(
            name=me.player.name,
            account=me.signed_in,
            sessions=sessions,
            bot=me.signed_in and me.player.bot,
        )

    async def rename(self, me: Me, name: str, address: str | None = None) -> None:
        """Store an anonymous player's new name (an account's name is its username), within
        :data:`MAX_RENAMES` a player and :data:`MAX_ADDRESS_RENAMES` an address."""
        if me.player.account:
            raise ProtocolError(
                ErrorCode.SIGNED_IN, "an account's name is its username; it cannot be changed"
            )
        checked = checked_name(name)
        now = self.clock()
        _refuse_rename(self.renames.retry_after([me.id], now), f"{MAX_RENAMES} renames")
        addresses = [address] if address is not None else []
        _refuse_rename(
            self.address_renames.retry_after(addresses, now),
            f"{MAX_ADDRESS_RENAMES} renames from your network address",
        )
        me = await self.keep(me)
        try:
            await self.db(self.store.rename, me.id, checked, naming.name_key(checked))
        except NameTaken:
            raise ProtocolError(ErrorCode.NAME_TAKEN, f"the name {checked!r} is taken") from None
        self.renames.failed([me.id], now)  # a rename made counts (a refused one changed nothing)
        self.address_renames.failed(addresses, now)

    async def again(self, me: Me) -> Me:
        """The same request's player as stored now (its name may have changed)."""
        return Me(await self.db(self.store.player, me.id), me.browser, me.session, me.marker)


def _refuse_rename(wait: float, limit: str) -> None:
    """An ``over_limit`` refusal naming the rename limit reached and when to try again."""
    if wait > 0:
        raise ProtocolError(
            ErrorCode.OVER_LIMIT,
            f"{limit} within {RENAME_WINDOW / 60:g} minutes, the most allowed; "
            f"try again in {int(wait) + 1} seconds",
        )


def checked_name(name: str) -> str:
    """A name as the hall keeps it, or a ``bad_name`` refusal saying what is wrong."""
    try:
        return naming.check_name(name)
    except naming.BadName as error:
        raise ProtocolError(ErrorCode.BAD_NAME, str(error)) from None


def _drawer(seed: str) -> Callable[[], tuple[str, str]]:
    """Draws a new player's name and its key: first the one its browser was shown, then
    random ones, wider after each few clashes (:func:`~gamehall.web.hall.names.random_name`)."""
    attempts = iter(range(1_000_000))

    def draw() -> tuple[str, str]:
        attempt = next(attempts)
        name = naming.random_name(attempt, seed if attempt == 0 else None)
        return name, naming.name_key(name)

    return draw


def _utc_now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _text(moment: datetime.datetime) -> str:
    return moment.isoformat(timespec="milliseconds")


__all__ = [
    "MAX_ADDRESS_RENAMES",
    "MAX_NOTED",
    "MAX_RENAMES",
    "RENAME_WINDOW",
    "Me",
    "Players",
    "checked_name",
]
