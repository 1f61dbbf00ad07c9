"""Signing up, in and out: accounts and their sessions, with their limits.

The pure parts (password hashing, session tokens, the attempt limiters) are
:mod:`~gamehall.web.hall.accounts`; this module applies them to requests and the store. A browser
that signs up or in brings its anonymous player's games to the account (the games it sits in are
seated again, by the ``reseat`` the hall gives). Hashes run off the event loop, at most
:data:`~gamehall.web.hall.accounts.HASHING_AT_ONCE` at once.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from gamehall.protocol import ErrorCode, ProtocolError
from gamehall.protocol.hall import AccountRules
from gamehall.store.rows import NameTaken
from gamehall.web.hall import names as naming
from gamehall.web.hall.accounts import (
    FAILURE_WINDOW,
    HASHING_AT_ONCE,
    MAX_ADDRESS_FAILURES,
    MAX_ADDRESS_SIGN_INS,
    MAX_ADDRESS_SIGNUPS,
    MAX_FAILURES,
    MAX_PASSWORD,
    MAX_SESSIONS,
    MIN_PASSWORD,
    SIGNUP_WINDOW,
    AttemptLimiter,
    Passwords,
    check_password,
    new_session_token,
    token_hash,
)
from gamehall.web.hall.bots import MAX_BOTS_PER_OWNER
from gamehall.web.hall.players import Me, Players, checked_name

if TYPE_CHECKING:  # the store is built by the transport layer and injected
    from gamehall.store.hall import HallStore


class SignIn:
    """Accounts: sign-up, sign-in and sign-out. ``changed`` is called when a browser's player
    changes (the lobby shows its name); ``reseat`` when a browser's anonymous player moved to
    an account (the games it sits in show the account); ``ended`` with the token hashes of
    sessions that ended (signed out, dropped past :data:`MAX_SESSIONS`, expired), whose
    sockets close on every process."""

    def __init__(
        self,
        db: Callable[..., Awaitable[Any]],
        store: HallStore,
        players: Players,
        *,
        changed: Callable[[], None],
        reseat: Callable[[str], Awaitable[None]],
        ended: Callable[[list[str]], Awaitable[None]] | None = None,
        passwords: Passwords | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.db = db
        self.store = store
        self.players = players
        self.changed = changed
        self.reseat = reseat
        self.ended = ended
        self.passwords = passwords or Passwords()
        self.clock = clock
        self.sign_ins = AttemptLimiter(MAX_FAILURES)  # by address and username
        self.addresses = AttemptLimiter(MAX_ADDRESS_FAILURES)
        self.attempts = AttemptLimiter(MAX_ADDRESS_SIGN_INS)  # every sign-in, good or bad
        self.signups = AttemptLimiter(MAX_ADDRESS_SIGNUPS, SIGNUP_WINDOW)
        self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)

    async def hashing_work(self, work: Callable[..., Any], *args: Any) -> Any:
        """Run a password hash or check off the event loop, a bounded number at once."""
        async with self._hashing:
            return await asyncio.to_thread(work, *args)

    async def signup(
        self, me: Me, username: str, password: str, address: str = "unknown"
    ) -> tuple[Me, str]:
        """Make an account with this browser's games; returns who the browser now is and the
        new session's token."""
        if me.signed_in:
            raise ProtocolError(ErrorCode.SIGNED_IN, "you are signed in; sign out first")
        name = checked_name(username)
        try:
            check_password(password)
        except ValueError as error:
            raise ProtocolError(ErrorCode.BAD_PASSWORD, str(error)) from None
        taken = await self.db(self.store.player_by_name, naming.name_key(name))
        if taken is not None and taken.id != me.id:
            raise ProtocolError(ErrorCode.NAME_TAKEN, f"the name {name!r} is taken")
        self._count_account_made(address)
        password_hash = await self.hashing_work(self.passwords.hash, password)
        account = await self._create_account(name, password_hash, browser=me.id)
        return await self._signed_in(me, account)

    def _count_account_made(self, address: str) -> None:
        """Every account made (or tried) from ``address`` counts: past
        :data:`MAX_ADDRESS_SIGNUPS` within the hour, one more is refused."""
        now = self.clock()
        wait = self.signups.retry_after([address], now)
        if wait > 0:
            raise ProtocolError(
                ErrorCode.TOO_MANY_ATTEMPTS,
                f"{MAX_ADDRESS_SIGNUPS} accounts were made from your network address within "
                f"the hour; try again in {int(wait) + 1} seconds",
            )
        self.signups.failed([address], now)

    async def _create_account(
        self, name: str, password_hash: str, *, browser: str | None, bot_owner: str | None = None
    ) -> str:
        """Store a new account (a person's, or a bot's of ``bot_owner``) and return its id;
        ``browser`` None: the account is its own browser (a bot's)."""
        account = "a_" + secrets.token_urlsafe(12)
        try:
            await self.db(
                self.store.create_account, account, name, naming.name_key(name), password_hash,
                browser=browser or account, bot_owner=bot_owner,
            )  # fmt: skip
        except NameTaken:
            raise ProtocolError(ErrorCode.NAME_TAKEN, f"the name {name!r} is taken") from None
        return account

    async def make_bot(self, me: Me, name: str, address: str = "unknown") -> tuple[str, str]:
        """A bot account of the signed-in person ``me`` (docs/bots.md): its name and its secret
        token (its password, never stored). Only a person's account makes bots, at most
        :data:`~gamehall.web.hall.bots.MAX_BOTS_PER_OWNER`, each counting as an account made
        from the address."""
        if not me.signed_in or not me.player.account:
            raise ProtocolError(ErrorCode.ACCOUNT_NEEDED, "sign in to your account to make a bot")
        if me.player.bot:
            raise ProtocolError(ErrorCode.BOT_ACCOUNT, "a bot account cannot make bots")
        name = checked_name(name)
        if len(await self.db(self.store.bots_of, me.id)) >= MAX_BOTS_PER_OWNER:
            raise ProtocolError(
                ErrorCode.TOO_MANY_BOTS,
                f"you have made {MAX_BOTS_PER_OWNER} bot accounts, the most one may",
            )
        if await self.db(self.store.player_by_name, naming.name_key(name)) is not None:
            raise ProtocolError(ErrorCode.NAME_TAKEN, f"the name {name!r} is taken")
        self._count_account_made(address)
        token = secrets.token_urlsafe(24)
        password_hash = await self.hashing_work(self.passwords.hash, token)
        await self._create_account(name, password_hash, browser=None, bot_owner=me.id)
        return name, token

    async def _signed_in(self, me: Me, account: str) -> tuple[Me, str]:
        """The browser's anonymous games move to the account; a new session begins."""
        if me.browser is not None and await self.db(self.store.merge, me.browser, account):
            await self.reseat(me.browser)
        token = new_session_token()
        times = self.players.session_times()
        ended = await self.db(
            self.store.add_session, token_hash(token), account, now=times["now"],
            keep=MAX_SESSIONS, idle_since=times["idle_since"],
        )  # fmt: skip
        await self._ended(ended)
        await self.players.seen(account, me.browser)
        await self.players.seen(account, me.marker)  # the browser's marker outlives sign-out
        player = await self.db(self.store.player, account)
        self.changed()
        return Me(player, me.browser, token, me.marker), token

    async def login(self, me: Me, username: str, password: str, address: str) -> tuple[Me, str]:
        """Sign in; returns who this browser now is and the session token. The anonymous
        player's games move to the account."""
        key = naming.name_key(username)
        pair = f"{address}\n{key}"  # a name key has no line break
        now = self.clock()
        _refuse_sign_in(
            self.sign_ins.retry_after([pair], now),
            f"{MAX_FAILURES} failed sign-ins as this username from your network address",
        )
        _refuse_sign_in(
            self.addresses.retry_after([address], now),
            f"{MAX_ADDRESS_FAILURES} failed sign-ins from your network address",
        )
        _refuse_sign_in(
            self.attempts.retry_after([address], now),
            f"{MAX_ADDRESS_SIGN_INS} sign-ins from your network address",
        )
        self.attempts.failed([address], now)  # every sign-in counts, good or bad
        found = await self.db(self.store.account, key)
        password_hash = found[1] if found is not None else None
        good = await self.hashing_work(self.passwords.verify, password_hash, password)
        if found is None or not good:
            self.sign_ins.failed([pair], now)
            self.addresses.failed([address], now)
            raise ProtocolError(ErrorCode.WRONG_PASSWORD, "wrong username or password")
        self.sign_ins.succeeded([pair])
        player_id = found[0]
        if self.passwords.needs_rehash(found[1]):
            new_hash = await self.hashing_work(self.passwords.hash, password)
            await self.db(self.store.set_password_hash, player_id, new_hash)
        if me.signed_in and me.session is not None:
            await self.db(self.store.end_session, token_hash(me.session))
            await self._ended([token_hash(me.session)])
        return await self._signed_in(me, player_id)

    async def logout(self, me: Me, everywhere: bool) -> int:
        """End this session (or every session of the account); returns how many ended."""
        if not me.signed_in or me.session is None:
            raise ProtocolError(ErrorCode.ACCOUNT_NEEDED, "you are not signed in")
        if everywhere:
            ended: list[str] = await self.db(self.store.end_sessions, me.id)
        else:
            ended = [token_hash(me.session)]
            await self.db(self.store.end_session, ended[0])
        await self._ended(ended)
        return len(ended)

    async def _ended(self, hashes: list[str]) -> None:
        """Sessions ended: their sockets close (on every process)."""
        if hashes and self.ended is not None:
            await self.ended(hashes)


def account_rules() -> AccountRules:
    """What a username and a password must be, from the checks sign-up makes
    (:func:`~gamehall.web.hall.names.check_name`, :func:`check_password`)."""
    return AccountRules(
        name_min=naming.MIN_LENGTH,
        name_max=naming.MAX_LENGTH,
        password_min=MIN_PASSWORD,
        password_max=MAX_PASSWORD,
        name_rules=[
            f"{naming.MIN_LENGTH} to {naming.MAX_LENGTH} characters: letters, digits, _ and -.",
            "It starts with a letter or a digit.",
            "It is written in one script (no Cyrillic letters among Latin ones).",
            "It differs from every other player's name by more than case, accents or "
            "look-alike letters; a few names (computer, admin…) are kept for the server.",
            "Your username is your name in the hall; the games you played here come along.",
        ],
        password_rules=[f"{MIN_PASSWORD} to {MAX_PASSWORD} characters, any you like."],
    )


def _refuse_sign_in(wait: float, limit: str) -> None:
    """A 429 naming the sign-in limit reached (``limit``) and when to try again."""
    if wait > 0:
        raise ProtocolError(
            ErrorCode.TOO_MANY_ATTEMPTS,
            f"{limit} within {FAILURE_WINDOW / 60:g} minutes, the most allowed; "
            f"try again in {int(wait) + 1} seconds",
        )


__all__ = ["SignIn", "account_rules"]
