"""Bot accounts: made by a person's account, marked wherever a name is shown, never rated
against their owner.

A **bot** is an account a program plays (``gamehall bot``, docs/bots.md). Only a person
signed in to their own account makes one (``POST /api/account/bots``): an account is a bot
from the start or never, so no account with a person's games can be turned into a bot. The bot
signs in like anyone, with its name and the secret token it was given when it was made (the
store keeps only the token's hash). Its owner is its **person**
(:func:`~gamehall.web.hall.players.person_of`): the one-person rule of rated games
(:func:`~gamehall.web.hall.pairing.one_browser`) then keeps a bot from a rated game against its
owner or another bot of the same owner. Bots are rated like everyone and shown tagged.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the store is built by the transport layer and injected
    from gamehall.store.hall import HallStore

MAX_BOTS_PER_OWNER = 5
"""The most bot accounts one person's account may make."""
MAX_KNOWN = 50_000
"""How many names a process remembers as not a bot's before it forgets them all."""
PEOPLE_FRESH = 60.0
"""Seconds a process trusts that a name is not a bot's (a bot made on another process of the
hall with a name this one saw free is marked here after at most this)."""


class BotNames:
    """Which player names are bots', asked of the store once a name (a bot stays a bot, and a
    bot's name is its username, which never changes); a name found not a bot's is asked again
    after :data:`PEOPLE_FRESH` seconds."""

    def __init__(
        self,
        db: Callable[..., Awaitable[Any]],
        store: HallStore,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.db = db
        self.store = store
        self.clock = clock
        self.bots: set[str] = set()
        self.people: set[str] = set()
        self._people_since = clock()

    async def among(self, names: Iterable[str | None]) -> set[str]:
        """Those of ``names`` that are bots' (None, nobody yet, is no one's)."""
        wanted = {n for n in names if n is not None}
        if len(self.people) > MAX_KNOWN or self.clock() - self._people_since > PEOPLE_FRESH:
            self.people.clear()
            self._people_since = self.clock()
        unknown = sorted(wanted - self.bots - self.people)
        if unknown:
            found = await self.db(self.store.bot_names, unknown)
            self.bots |= found
            self.people |= set(unknown) - found
        return wanted & self.bots

    def made(self, name: str) -> None:
        """A bot was just made with this name (a guest may have had it before)."""
        self.people.discard(name)
        self.bots.add(name)

    def known(self, name: str | None) -> bool:
        """Whether ``name`` is a bot's, as far as :meth:`among` has asked."""
        return name is not None and name in self.bots


__all__ = ["MAX_BOTS_PER_OWNER", "BotNames"]
