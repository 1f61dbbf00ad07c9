"""The hall: players and names, accounts, the lobby (seeks, quick pairing), rated games.

One :class:`Hall` per app, beside the :class:`~gamehall.web.play.hub.Hub`: it asks the hub to make
games, listens to it (a game loaded: name its seats; a game over: rate it) and keeps the lobby's
clients. Its rules are pure units (:mod:`~gamehall.web.hall.pairing`, :mod:`~gamehall.web.hall.ratings`,
:mod:`~gamehall.web.hall.names`, :mod:`~gamehall.web.hall.accounts`); this module wires them to the store
and to connections. A refused request raises :class:`ProtocolError` and changes nothing.

Several processes on one database are one hall (:mod:`~gamehall.store.bus`). The seeks live in the
store; each process's :class:`~gamehall.web.hall.pairing.Lobby` is a copy of them, reloaded when any
process says on the bus that the lobby changed (a ``lobby`` event). Accepting a seek deletes its
row: the one accept whose delete removed it makes the game, on whichever process. A pairing made
on one process tells the players connected to any other (a ``paired`` event). A rated game is
rated once however many processes hear that it ended: the rating update claims the game's
``counted`` flag in its own transaction. Quick pairing's waits are rows of the seeks' table too
(ids ``w_…``), renewed by their process while its player waits (so a dead process's waits lapse
within :data:`WAIT_LEASE`): every process pairs over the whole hall's pools, and a pair is made by
the one process whose delete removed both waits. The live games list is the store's (every
process's games), read every :data:`LIVE_EVERY` seconds. The limits on seeks per player and in
the whole hall count the store's seeks, and so does the limit per network address (each seek's
row keeps a hash of its creator's address, :func:`address_key`).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gamehall.core import GamehallError, UnknownGameError, game_class
from gamehall.protocol import ErrorCode, ProtocolError
from gamehall.protocol.hall import (
    CreateSeek,
    HistoryPoint,
    LeaderboardAnswer,
    LeaderRow,
    LiveInfo,
    LobbyError,
    LobbyHello,
    LobbyMessage,
    LobbyPing,
    LobbyPong,
    MeAnswer,
    Pair,
    PairedMessage,
    PoolInfo,
    RatingInfo,
    SeatScore,
    SeekInfo,
    Unpair,
    Waiting,
    parse_lobby_message,
)
from gamehall.store.bus import Bus, Event
from gamehall.store.rows import NameTaken, PlayerRow, RatedResult, now_text
from gamehall.web.base.limits import check_length, check_options, shorten_echoes
from gamehall.web.hall import names as naming
from gamehall.web.hall.accounts import (
    FAILURE_WINDOW,
    HASHING_AT_ONCE,
    MAX_ADDRESS_FAILURES,
    MAX_ADDRESS_SIGNUPS,
    MAX_FAILURES,
    SIGNUP_WINDOW,
    AttemptLimiter,
    Passwords,
    check_password,
    new_session_token,
    token_hash,
)
from gamehall.web.hall.pairing import (
    LEAVE_GRACE,
    QUICK_CONTROLS,
    SEEK_LIFETIME,
    Lobby,
    Seek,
    check_clock,
    seat_of_creator,
)
from gamehall.web.hall.pairing import LobbyError as RuleError
from gamehall.web.hall.pairing import Waiting as WaitingEntry
from gamehall.web.hall.ratings import Rating, rate_game
from gamehall.web.play.live import Connection, LiveGame

if TYPE_CHECKING:  # the store is built by the transport layer and injected
    from gamehall.store.hall import HallStore

log = logging.getLogger("gamehall.web.hall")

PROVISIONAL_DEVIATION = 110.0
"""A rating whose deviation is above this is shown as provisional (with a "?")."""
LEADERBOARD_MIN_GAMES = 10
LEADERBOARD_MAX_DEVIATION = 150.0
LIVE_GAMES_SHOWN = 50
MAX_NOTED = 100_000
"""How many (account, browser) pairs a process remembers having stored already (so a request
of a signed-in browser writes nothing once its pair is stored)."""
TICK = 1.0
"""Seconds between the lobby's rounds of lapsing seeks and pairing."""
WAIT_LEASE = 30.0
"""A stored quick-pairing wait lapses this long after its process last renewed it."""
LIVE_EVERY = 5.0
"""Seconds between reads of the hall's live games from the store (several processes)."""

_RULE_CODES = {
    "too_many_seeks": ErrorCode.TOO_MANY_SEEKS,
    "lobby_full": ErrorCode.LOBBY_FULL,
    "own_seek": ErrorCode.OWN_SEEK,
    "self_pairing": ErrorCode.SELF_PAIRING,
    "unknown_seek": ErrorCode.UNKNOWN_SEEK,
    "not_your_seek": ErrorCode.NOT_YOUR_SEEK,
    "bad_clock": ErrorCode.BAD_CLOCK,
}


def refused(error: RuleError) -> ProtocolError:
    return ProtocolError(_RULE_CODES[error.reason], error.message)


@dataclass(frozen=True)
class Me:
    """Who a request is from: the player (the account's when signed in), the browser's own
    anonymous player, and the session token if signed in."""

    player: PlayerRow
    browser: str | None
    session: str | None

    @property
    def id(self) -> str:
        return self.player.id

    @property
    def signed_in(self) -> bool:
        return self.session is not None


class Hall:
    """Players, accounts, the lobby and ratings, on a hub (see the module docstring)."""

    def __init__(
        self,
        hub: Any,
        *,
        store: HallStore,
        passwords: Passwords | None = None,
        clock: Callable[[], float] = time.monotonic,
        leaderboard: tuple[int, float] = (LEADERBOARD_MIN_GAMES, LEADERBOARD_MAX_DEVIATION),
        tick: float | None = TICK,
    ) -> None:
        self.hub = hub
        self.store = store
        self.passwords = passwords or Passwords()
        self.sign_ins = AttemptLimiter(MAX_FAILURES)  # by address and username
        self.addresses = AttemptLimiter(MAX_ADDRESS_FAILURES)
        self.signups = AttemptLimiter(MAX_ADDRESS_SIGNUPS, SIGNUP_WINDOW)
        self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)
        self.clock = clock
        self.lobby = Lobby()
        self.min_games, self.max_deviation = leaderboard
        self.tick_every = tick
        self.connections: dict[str, dict[Connection, Me]] = {}
        self._noted: set[tuple[str, str]] = set()
        """(account, browser) pairs this process has stored in ``account_browsers``."""
        self.away: dict[str, float] = {}
        self._dirty = asyncio.Event()
        self._tasks: list[asyncio.Task[Any]] = []
        self._waits_here: set[str] = set()
        """The players whose quick-pairing wait was made through this process."""
        self._live: list[LiveInfo] | None = None
        self._live_read = -LIVE_EVERY

    # --- life ---

    async def start(self) -> None:
        self.hub.listeners.append(self)
        for name in await self.db(self.store.rekey_names, naming.name_key):
            log.warning("the name %r looks like another's; it keeps its old key", name)
        self.bus.subscribe(self._on_event)
        if self.bus.shared:  # other processes' seeks stay; those of one that died lapse
            await self.db(self.store.remove_lapsed_seeks)
            await self._reload_seeks()
        else:  # one process: seeks lapse with their creators' connections
            await self.db(self.store.clear_seeks)
        for game_id in await self.db(self.store.uncounted_rated_games):
            with contextlib.suppress(ProtocolError):
                await self.finished(await self.hub.get(game_id))
        loop = asyncio.get_running_loop()
        self._tasks.append(loop.create_task(self._broadcaster()))
        if self.tick_every:
            self._tasks.append(loop.create_task(self._ticker()))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for connections in self.connections.values():
            for connection in list(connections):
                await connection.stop()
        self.connections.clear()

    async def db(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return await self.hub.db(function, *args, **kwargs)

    @property
    def bus(self) -> Bus:
        return self.hub.bus

    # --- the other processes of the hall ---

    async def _on_event(self, event: Event) -> None:
        """A lobby event of another process: reload the seeks, or tell a player of a game."""
        if event.get("origin") == self.bus.origin:
            return
        kind = event.get("kind")
        if kind == "lobby":
            await self._reload_seeks()
            self.changed()
        elif kind == "paired":
            player, game_id = event.get("player"), event.get("id")
            if isinstance(player, str) and isinstance(game_id, str):
                message = PairedMessage(
                    id=game_id,
                    url=f"/game/{game_id}",
                    rated=bool(event.get("rated")),
                    clock=event.get("clock") if isinstance(event.get("clock"), str) else None,
                )
                for connection in self.connections.get(player, ()):
                    connection.send(message)
            self.changed()

    async def _lobby_changed(self) -> None:
        """The stored seeks changed here: the other processes reload them."""
        self.changed()
        if self.bus.shared:
            try:
                await self.bus.publish(self.bus.event("lobby", ""))
            except Exception:  # they reload on their next change or restart
                log.exception("cannot tell the other processes of the lobby")

    async def _reload_seeks(self) -> None:
        """Make this process's seeks and waits those of the store."""
        rows = await self.db(self.store.open_seeks)
        now, wall = self.clock(), datetime.datetime.now(datetime.UTC)
        known = self.lobby.seeks
        seeks: dict[str, Seek] = {}
        waits: dict[str, WaitingEntry] = {}
        for row in rows:
            if row["id"].startswith(WAIT_PREFIX):
                mine = self.lobby.waiting.get(row["player_id"])
                if mine is None or row["player_id"] not in self._waits_here:
                    waited = (
                        wall - datetime.datetime.fromisoformat(row["created"])
                    ).total_seconds()
                    mine = WaitingEntry(
                        row["player_id"], row["name"], _seek_rating(row["rating"]), row["game"],
                        row["clock"], row["rated"], now - max(0.0, waited),
                        frozenset(row["browsers"]),
                    )  # fmt: skip
                waits[mine.player] = mine
                continue
            old = known.get(row["id"])
            if old is not None:
                seeks[old.id] = old
                continue
            left = (datetime.datetime.fromisoformat(row["expires"]) - wall).total_seconds()
            side = row["side"]
            seeks[row["id"]] = Seek(
                id=row["id"],
                player=row["player_id"],
                name=row["name"],
                rating=_seek_rating(row["rating"]) if row["rated"] else None,
                game=row["game"],
                options=row["options"],
                clock=row["clock"],
                rated=row["rated"],
                side="random" if side == "random" else int(side),
                created=now,
                expires=now + left,
                address=row["address"],
                browsers=frozenset(row["browsers"]),
            )
        self.lobby.seeks = seeks
        self.lobby.waiting = waits
        self._waits_here &= set(waits)  # the others were paired through another process

    # --- who is asking ---

    async def me(self, browser: str | None, session: str | None) -> Me:
        """The player behind a browser identity and session cookie (a stale session is
        ignored); a browser seen for the first time becomes a player with a random name."""
        if session is not None:
            account = await self.db(self.store.session_player, token_hash(session))
            if account is not None:
                player = await self.db(self.store.player, account)
                if player is not None:
                    await self._seen(player.id, browser)
                    return Me(player, browser, session)
        if browser is None:  # a socket without cookies: a guest for this connection only
            guest = "guest-" + secrets.token_urlsafe(12)
            return Me(PlayerRow(guest, "guest", now_text(), False), None, None)
        player = await self.db(self.store.ensure_player, browser, _draw_name)
        return Me(player, browser, None)

    async def _seen(self, account: str, browser: str | None) -> None:
        """A browser holds a session of ``account``: stored once, for every process to see."""
        if browser is None or (account, browser) in self._noted:
            return
        await self.db(self.store.note_browser, account, browser)
        if len(self._noted) >= MAX_NOTED:
            self._noted.clear()
        self._noted.add((account, browser))

    async def browsers_of(self, me: Me) -> frozenset[str]:
        """The browsers this player is known by: this request's identity cookie, those seen
        (by any process) holding its sessions, and those whose anonymous player moved to its
        account. Two players sharing one are one person, as far as rated games go."""
        found = {me.browser} if me.browser is not None else set()
        if me.player.account:
            found |= set(await self.db(self.store.browsers_of, me.id))
        return frozenset(found)

    async def me_answer(self, me: Me) -> MeAnswer:
        sessions = await self.db(self.store.sessions_of, me.id) if me.signed_in else None
        return MeAnswer(name=me.player.name, account=me.signed_in, sessions=sessions)

    # --- names ---

    async def rename(self, me: Me, name: str) -> Me:
        if me.player.account:
            raise ProtocolError(
                ErrorCode.SIGNED_IN, "an account's name is its username; it cannot be changed"
            )
        checked = _checked_name(name)
        try:
            await self.db(self.store.rename, me.id, checked, naming.name_key(checked))
        except NameTaken:
            raise ProtocolError(ErrorCode.NAME_TAKEN, f"the name {checked!r} is taken") from None
        await self._names_changed(me.id)
        return Me(await self.db(self.store.player, me.id), me.browser, me.session)

    async def _names_changed(self, player_id: str) -> None:
        """Every live game this player sits in shows the new name."""
        for live in list(self.hub.games.values()):
            if player_id in live.player_ids.values():
                await self.loaded(live)
                live.broadcast_state(self.hub.clock.now())
        self.changed()

    # --- accounts ---

    async def _hashing_work(self, work: Callable[..., Any], *args: Any) -> Any:
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
        name = _checked_name(username)
        try:
            check_password(password)
        except ValueError as error:
            raise ProtocolError(ErrorCode.BAD_PASSWORD, str(error)) from None
        taken = await self.db(self.store.player_by_name, naming.name_key(name))
        if taken is not None and taken.id != me.id:
            raise ProtocolError(ErrorCode.NAME_TAKEN, f"the name {name!r} is taken")
        now = self.clock()
        wait = self.signups.retry_after([address], now)
        if wait > 0:
            raise ProtocolError(
                ErrorCode.TOO_MANY_ATTEMPTS,
                f"{MAX_ADDRESS_SIGNUPS} accounts were made from your network address within "
                f"the hour; try again in {int(wait) + 1} seconds",
            )
        self.signups.failed([address], now)  # every account made (or tried) counts
        password_hash = await self._hashing_work(self.passwords.hash, password)
        account = "a_" + secrets.token_urlsafe(12)
        try:
            await self.db(
                self.store.create_account,
                account,
                name,
                naming.name_key(name),
                password_hash,
                browser=me.id,
            )
        except NameTaken:
            raise ProtocolError(ErrorCode.NAME_TAKEN, f"the name {name!r} is taken") from None
        return await self._signed_in(me, account)

    async def _signed_in(self, me: Me, account: str) -> tuple[Me, str]:
        """The browser's anonymous games move to the account; a new session begins."""
        if me.browser is not None and await self.db(self.store.merge, me.browser, account):
            await self._reseat(me.browser)
        token = new_session_token()
        await self.db(self.store.add_session, token_hash(token), account)
        await self._seen(account, me.browser)
        player = await self.db(self.store.player, account)
        self.changed()
        return Me(player, me.browser, token), token

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
        found = await self.db(self.store.account, key)
        password_hash = found[1] if found is not None else None
        good = await self._hashing_work(self.passwords.verify, password_hash, password)
        if found is None or not good:
            self.sign_ins.failed([pair], now)
            self.addresses.failed([address], now)
            raise ProtocolError(ErrorCode.WRONG_PASSWORD, "wrong username or password")
        self.sign_ins.succeeded([pair])
        player_id = found[0]
        if self.passwords.needs_rehash(found[1]):
            new_hash = await self._hashing_work(self.passwords.hash, password)
            await self.db(self.store.set_password_hash, player_id, new_hash)
        if me.signed_in and me.session is not None:
            await self.db(self.store.end_session, token_hash(me.session))
        return await self._signed_in(me, player_id)

    async def _reseat(self, old_player: str) -> None:
        for live in list(self.hub.games.values()):
            if old_player in live.player_ids.values():
                await self.loaded(live)
                live.broadcast_state(self.hub.clock.now())

    async def logout(self, me: Me, everywhere: bool) -> int:
        """End this session (or every session of the account); returns how many ended."""
        if not me.signed_in or me.session is None:
            raise ProtocolError(ErrorCode.ACCOUNT_NEEDED, "you are not signed in")
        if everywhere:
            ended: int = await self.db(self.store.end_sessions, me.id)
        else:
            await self.db(self.store.end_session, token_hash(me.session))
            ended = 1
        return ended

    # --- seeks ---

    def _game(self, name: str, options: dict[str, Any], rated: bool) -> tuple[str, dict[str, Any]]:
        try:
            cls = game_class(name)
        except UnknownGameError as error:
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, str(error)) from None
        settings = self.hub.settings
        check_options(cls, options, settings)  # the bounds a new game's options have
        try:
            game = cls(**options)
        except GamehallError as error:
            given = [*options, *options.values()]
            raise ProtocolError(ErrorCode.BAD_OPTION, shorten_echoes(str(error), given)) from None
        check_length(game, settings)
        if rated and game.num_players != 2:
            raise ProtocolError(
                ErrorCode.NOT_RATABLE,
                f"{game.name} has {game.num_players} seats; rated games have 2",
            )
        # The game's options as it spells them, less those naming files (refused over the web
        # above, so at their defaults): the seek's game is made with them again, and a path
        # option, even empty, may not be given over the web.
        paths = {spec.name for spec in cls.option_specs if spec.kind == "path"}
        return game.name, {k: v for k, v in game.options.items() if k not in paths}

    async def _rating(self, player_id: str, game: str) -> Rating:
        row = await self.db(self.store.rating, player_id, game)
        return Rating(row.rating, row.deviation, row.volatility) if row is not None else Rating()

    async def create_seek(self, me: Me, body: CreateSeek, address: str | None = None) -> Seek:
        address = address_key(address) if address is not None else None
        try:
            clock = check_clock(body.clock)
        except RuleError as error:
            raise refused(error) from None
        if body.rated and not me.signed_in:
            raise ProtocolError(ErrorCode.ACCOUNT_NEEDED, "rated games need an account: sign in")
        name, options = self._game(body.game, dict(body.options), body.rated)
        seats = game_class(name)(**options).num_players
        if body.side != "random" and not 0 <= body.side < seats:
            raise ProtocolError(
                ErrorCode.BAD_SEAT, f"seat {body.side} does not exist; {name} has 0 to {seats - 1}"
            )
        if self.bus.shared:  # count the seeks every process made, as stored now
            await self._reload_seeks()
        try:
            self.lobby.check_room(me.id, address)
        except RuleError as error:
            raise refused(error) from None
        rating = (await self._rating(me.id, name)).rating if body.rated else None
        now = self.clock()
        seek = Seek(
            id="s_" + secrets.token_urlsafe(8),
            player=me.id,
            name=me.player.name,
            rating=rating,
            game=name,
            options=options,
            clock=clock,
            rated=body.rated,
            side=body.side,
            created=now,
            expires=now + SEEK_LIFETIME,
            address=address,
            browsers=await self.browsers_of(me) if body.rated else frozenset(),
        )
        try:
            self.lobby.add(seek)
        except RuleError as error:
            raise refused(error) from None
        await self.db(self.store.add_seek, _stored_seek(seek))
        self.lobby.seeks[seek.id] = seek  # again, if a reload meanwhile missed it
        await self._lobby_changed()
        return seek

    async def cancel_seek(self, me: Me, seek_id: str) -> Seek:
        if seek_id not in self.lobby.seeks and self.bus.shared:
            await self._reload_seeks()  # made on another process a moment ago
        try:
            seek = self.lobby.cancel(seek_id, me.id)
        except RuleError as error:
            raise refused(error) from None
        await self.db(self.store.remove_seeks, [seek.id])
        self.lobby.seeks.pop(seek.id, None)  # again, if a reload meanwhile brought it back
        await self._lobby_changed()
        return seek

    async def accept_seek(self, me: Me, seek_id: str) -> tuple[LiveGame, int]:
        """Make the seek's game with both players seated; returns it and the accepter's seat."""
        if seek_id not in self.lobby.seeks and self.bus.shared:
            await self._reload_seeks()  # made on another process a moment ago
        try:
            seek = self.lobby.check_accept(seek_id, me.id, await self.browsers_of(me))
        except RuleError as error:
            raise refused(error) from None
        if seek.rated and not me.signed_in:
            raise ProtocolError(ErrorCode.ACCOUNT_NEEDED, "rated games need an account: sign in")
        seats = game_class(seek.game)(**seek.options).num_players
        creator_seat = seat_of_creator(seek.side, seats, secrets.randbelow(seats))
        taken = await self.db(self.store.take_seek, seek.id)  # one accept, of any process
        self.lobby.take(seek.id)
        await self._lobby_changed()
        if not taken:  # someone else accepted it meanwhile
            raise refused(RuleError("unknown_seek", f"the seek {seek_id!r} was just taken"))
        other = next(i for i in range(seats) if i != creator_seat)
        live = await self.start_game(
            seek.game, seek.options, seek.clock, seek.rated,
            {creator_seat: seek.player, other: me.id},
        )  # fmt: skip
        await self._tell_paired(seek.player, live, creator_seat)
        return live, other

    # --- quick pairing ---

    async def pair(self, me: Me, message: Pair) -> None:
        if me.browser is None and not me.signed_in:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                "this connection came without the identity cookie; reload the page to pair",
            )
        try:
            clock = check_clock(message.clock)
        except RuleError as error:
            raise refused(error) from None
        if message.rated and not me.signed_in:
            raise ProtocolError(ErrorCode.ACCOUNT_NEEDED, "rated games need an account: sign in")
        name, _ = self._game(message.game, {}, message.rated)
        rating = await self._rating(me.id, name)
        browsers = await self.browsers_of(me) if message.rated else frozenset()
        entry = WaitingEntry(
            me.id, me.player.name, rating.rating, name, clock, message.rated, self.clock(), browsers
        )
        try:
            self.lobby.wait(entry)
        except RuleError as error:
            raise refused(error) from None
        if self.bus.shared:  # the pools are the store's: any process may pair this wait
            self._waits_here.add(me.id)
            entry = self.lobby.waiting[me.id]
            await self.db(self.store.add_wait, _stored_wait(entry, self.clock()))
            self._waits_here.add(me.id)  # again, if a reload meanwhile missed it
            self.lobby.waiting[me.id] = entry
            await self._lobby_changed()
        self.changed()

    async def unpair(self, me: Me) -> None:
        await self._unwait(me.id)

    async def _unwait(self, player: str) -> None:
        """A player waits no more (they asked, or their lobby page went away)."""
        if self.lobby.unwait(player) is not None:
            self.changed()
        if player in self._waits_here:
            self._waits_here.discard(player)
            await self.db(self.store.remove_seeks, [wait_id(player)])
            self.lobby.waiting.pop(player, None)  # again, if a reload meanwhile brought it back
            await self._lobby_changed()

    async def tick(self, now: float | None = None) -> None:
        """One round: lapse old seeks and those of players who left, pair who can be paired."""
        now = self.clock() if now is None else now
        gone = [s.id for s in self.lobby.expire(now)]
        for player, since in list(self.away.items()):
            if now - since >= LEAVE_GRACE:
                del self.away[player]
                seeks, _ = self.lobby.leave(player)
                gone += [s.id for s in seeks]
                self.changed()
        if gone:
            await self.db(self.store.remove_seeks, gone)
            for seek_id in gone:  # again, if a reload meanwhile brought them back
                self.lobby.seeks.pop(seek_id, None)
            await self._lobby_changed()
        if self.bus.shared:
            await self._shared_round(now)
        for a, b in self.lobby.pair(now):
            self.changed()
            if self.bus.shared:  # the pair is this process's if it removes both waits first
                if not await self.db(self.store.take_pair, wait_id(a.player), wait_id(b.player)):
                    continue
                self._waits_here -= {a.player, b.player}
                await self._lobby_changed()
            seats = game_class(a.game)().num_players
            first = secrets.randbelow(seats)
            second = (first + 1) % seats
            try:
                live = await self.start_game(
                    a.game, {}, a.clock, a.rated, {first: a.player, second: b.player}
                )
            except ProtocolError as error:
                log.error("quick pairing could not make a game: %s", error.message)
                continue
            await self._tell_paired(a.player, live, first)
            await self._tell_paired(b.player, live, second)

    async def _shared_round(self, now: float) -> None:
        """Of a lobby round with other processes: renew this process's waits, drop the lapsed
        seeks and waits (a dead process's), read the pools again, and now and then the live
        games of the whole hall."""
        lease = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=WAIT_LEASE)
        renewed = [wait_id(player) for player in self._waits_here]
        await self.db(self.store.renew, renewed, lease.isoformat(timespec="milliseconds"))
        await self.db(self.store.remove_lapsed_seeks)
        await self._reload_seeks()
        if now - self._live_read >= LIVE_EVERY:
            self._live_read = now
            rows = await self.db(self.store.live_games, LIVE_GAMES_SHOWN)
            live = [self._live_info(row) for row in rows]
            if live != self._live:
                self._live = live
                self.changed()

    def _live_info(self, row: dict[str, Any]) -> LiveInfo:
        here = self.hub.games.get(row["id"])
        if here is not None and not here.over:  # held here: its clocks, as they run
            return self._live_game(here)
        return LiveInfo(
            id=row["id"],
            game=row["game"],
            rated=row["rated"],
            clock=row["clock"],
            players=[row["players"].get(i) for i in range(row["seats"])],
            version=row["version"],
            clocks=None,
        )

    async def _ticker(self) -> None:
        assert self.tick_every
        while True:
            await asyncio.sleep(self.tick_every)
            try:
                await self.tick()
            except Exception:
                log.exception("the lobby's round failed")

    # --- games ---

    async def start_game(
        self,
        game: str,
        options: dict[str, Any],
        clock: str | None,
        rated: bool,
        players: dict[int, str],
    ) -> LiveGame:
        """A new online game with each seat's player seated (``players``: seat → player)."""
        (first_seat, first), *others = sorted(players.items())
        live, _ = await self.hub.create(
            game_name=game, options=options, mode="online", seat=first_seat, level="easy",
            player_id=first, clock=clock,
        )  # fmt: skip
        for seat, player in others:
            await self.db(self.hub.store.add_holding, player, live.id, seat)
            live.hold(player, seat)
        await self.db(self.store.mark_game, live.id, rated, clock)
        await self.loaded(live)
        live.broadcast_state(self.hub.clock.now())
        self.changed()
        return live

    async def _tell_paired(self, player: str, live: LiveGame, seat: int) -> None:
        info = live.hall or {}
        url = f"/game/{live.id}"  # the seat is held on the server: no invite needed
        message = PairedMessage(
            id=live.id, url=url, rated=bool(info.get("rated")), clock=info.get("clock")
        )
        for connection in self.connections.get(player, ()):
            connection.send(message)
        if self.bus.shared:  # the player's lobby page may be on another process
            event = self.bus.event(
                "paired", "", player=player, id=live.id, rated=message.rated, clock=message.clock
            )
            try:
                await self.bus.publish(event)
            except Exception:  # the game is made: they find it on their games list
                log.exception("cannot tell the other processes of a pairing")

    # hub listener: a game was loaded or made
    async def loaded(self, live: LiveGame) -> None:
        live.set_holders(await self.db(self.hub.store.holders, live.id))  # merged, or joined
        seats = await self.db(self.store.seat_players, live.id)
        live.player_ids = {seat: pid for seat, (pid, _) in seats.items()}
        live.players = {seat: name for seat, (_, name) in seats.items()}
        info = await self.db(self.store.hall_game, live.id)
        live.hall = {"rated": info[0], "clock": info[1]} if info is not None else None

    async def seats_changed(self, live: LiveGame) -> None:
        """Someone took a seat (an invite link): show their name."""
        await self.loaded(live)
        live.broadcast_state(self.hub.clock.now())
        self.changed()

    # hub listener: a game ended
    async def finished(self, live: LiveGame) -> None:
        """Rate a rated game that ended, once: by the rules, or as the game room ended it (a
        resignation, a loss on time, a claimed win). An aborted game has no result: it is
        marked counted and changes no rating."""
        self.changed()
        info = await self.db(self.store.hall_game, live.id)
        if info is None or not info[0] or info[2]:
            return
        ended = live.played.ended
        if ended is not None and ended.kind == "abort":
            await self.db(self.store.count_rated, live.id, live.game.name, [])
            return
        outcome = live.played.outcome()
        seats = await self.db(self.store.seat_players, live.id)
        if outcome is None or sorted(seats) != [0, 1] or seats[0][0] == seats[1][0]:
            log.error("rated game %s cannot be rated (seats %s)", live.id, sorted(seats))
            return
        (first, _), (second, _) = seats[0], seats[1]
        score = 0.5 if outcome.winner is None else (1.0 if outcome.winner == 0 else 0.0)
        new_first, new_second = rate_game(
            await self._rating(first, live.game.name),
            await self._rating(second, live.game.name),
            score,
        )
        results = [
            RatedResult(first, 0, score, *_triple(new_first)),
            RatedResult(second, 1, 1.0 - score, *_triple(new_second)),
        ]
        await self.db(self.store.count_rated, live.id, live.game.name, results)

    # --- the lobby's clients ---

    def attach(self, me: Me, connection: Connection) -> None:
        self.connections.setdefault(me.id, {})[connection] = me
        self.away.pop(me.id, None)
        connection.start()

    async def detach(self, me: Me, connection: Connection) -> None:
        held = self.connections.get(me.id, {})
        held.pop(connection, None)
        await connection.stop()
        if not held:
            self.connections.pop(me.id, None)
            self.away[me.id] = self.clock()
            await self._unwait(me.id)  # a wait ends with the page

    async def receive(self, me: Me, connection: Connection, text: str | bytes) -> None:
        try:
            message = parse_lobby_message(text)
            if isinstance(message, LobbyHello):
                connection.send(await self.lobby_message(me))
            elif isinstance(message, LobbyPing):
                connection.send(LobbyPong())
            elif isinstance(message, Pair):
                await self.pair(me, message)
            elif isinstance(message, Unpair):
                await self.unpair(me)
        except ProtocolError as error:
            connection.send(LobbyError(code=error.code, message=error.message))

    def changed(self) -> None:
        """The lobby changed: every lobby client hears of it (soon, once for many changes)."""
        self._dirty.set()

    async def _broadcaster(self) -> None:
        while True:
            await self._dirty.wait()
            await asyncio.sleep(0.05)
            self._dirty.clear()
            for player, connections in list(self.connections.items()):
                try:
                    row = await self.db(self.store.player, player)  # names may have changed
                except Exception:
                    log.exception("cannot tell the lobby")
                    continue
                for connection, me in list(connections.items()):
                    fresh = Me(row or me.player, me.browser, me.session)
                    connection.send(await self.lobby_message(fresh))

    def seek_info(self, seek: Seek, reader: str | None) -> SeekInfo:
        return SeekInfo(
            id=seek.id,
            game=seek.game,
            options=seek.options,
            clock=seek.clock,
            rated=seek.rated,
            side=seek.side,
            name=seek.name,
            rating=round(seek.rating) if seek.rating is not None else None,
            mine=seek.player == reader,
        )

    def live_games(self) -> list[LiveInfo]:
        """The games being played between people: this process's, or with other processes
        the whole hall's as last read from the store."""
        if self.bus.shared and self._live is not None:
            return self._live
        games = [
            self._live_game(live)
            for live in self.hub.games.values()
            if live.row.mode == "online" and not live.over
        ]
        games.sort(key=lambda g: -g.version)
        return games[:LIVE_GAMES_SHOWN]

    def _live_game(self, live: LiveGame) -> LiveInfo:
        info = live.hall or {}
        return LiveInfo(
            id=live.id,
            game=live.game.name,
            rated=bool(info.get("rated")),
            clock=info.get("clock"),
            players=[live.players.get(i) for i in range(len(live.row.seats))],
            version=live.version,
            clocks=live.clock_info(self.hub.clock.now()),
        )

    async def lobby_message(self, me: Me) -> LobbyMessage:
        waiting = self.lobby.waiting.get(me.id)
        return LobbyMessage(
            you=MeAnswer(name=me.player.name, account=me.signed_in, sessions=None),
            waiting=Waiting(game=waiting.game, clock=waiting.clock, rated=waiting.rated)
            if waiting is not None
            else None,
            controls=list(QUICK_CONTROLS),
            seeks=[self.seek_info(s, me.id) for s in self.lobby.seeks.values()],
            pools=[
                PoolInfo(game=game, clock=clock, rated=rated, waiting=count)
                for (game, clock, rated), count in sorted(
                    self.lobby.pools().items(), key=lambda item: str(item[0])
                )
            ],
            games=self.live_games(),
        )

    # --- ratings shown ---

    async def ratings(self, player_id: str) -> list[RatingInfo]:
        shown = []
        for row in await self.db(self.store.ratings_of, player_id):
            try:
                seat_names = game_class(row.game).player_names
            except GamehallError:
                continue
            history = await self.db(self.store.history, player_id, row.game, 10_000)
            tally: dict[int, list[int]] = {}
            for point in history:
                counts = tally.setdefault(point.seat, [0, 0, 0])
                counts[0 if point.score == 1 else 1 if point.score == 0.5 else 2] += 1
            shown.append(
                RatingInfo(
                    game=row.game,
                    rating=round(row.rating),
                    deviation=round(row.deviation),
                    games=row.games,
                    provisional=row.deviation > PROVISIONAL_DEVIATION,
                    history=[
                        HistoryPoint(
                            at=p.at,
                            rating=round(p.rating),
                            deviation=round(p.deviation),
                            game_id=p.game_id,
                        )
                        for p in history[-100:]
                    ],
                    seats=[
                        SeatScore(
                            seat=seat,
                            name=seat_names[seat],
                            wins=w,
                            draws=d,
                            losses=l_,
                        )
                        for seat, (w, d, l_) in sorted(tally.items())
                    ],
                )
            )
        return shown

    async def leaderboard(self, game: str) -> LeaderboardAnswer:
        try:
            name = game_class(game).name
        except UnknownGameError as error:
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, str(error)) from None
        rows = await self.db(
            self.store.leaderboard,
            name,
            min_games=self.min_games,
            max_deviation=self.max_deviation,
        )
        return LeaderboardAnswer(
            game=name,
            min_games=self.min_games,
            max_deviation=round(self.max_deviation),
            players=[
                LeaderRow(
                    rank=rank,
                    name=player,
                    rating=round(r.rating),
                    deviation=round(r.deviation),
                    games=r.games,
                )
                for rank, (player, r) in enumerate(rows, start=1)
            ],
        )


def _draw_name() -> tuple[str, str]:
    name = naming.random_name()
    return name, naming.name_key(name)


def _refuse_sign_in(wait: float, limit: str) -> None:
    """A 429 naming the sign-in limit reached (``limit``) and when to try again."""
    if wait > 0:
        raise ProtocolError(
            ErrorCode.TOO_MANY_ATTEMPTS,
            f"{limit} within {FAILURE_WINDOW / 60:g} minutes, the most allowed; "
            f"try again in {int(wait) + 1} seconds",
        )


def _checked_name(name: str) -> str:
    try:
        return naming.check_name(name)
    except naming.BadName as error:
        raise ProtocolError(ErrorCode.BAD_NAME, str(error)) from None


def _triple(rating: Rating) -> tuple[float, float, float]:
    return rating.rating, rating.deviation, rating.volatility


def _seek_rating(stored: float | None) -> float:
    """A rated seek's creator's rating (a player with no rated game yet has the first one)."""
    return stored if stored is not None else Rating().rating


WAIT_PREFIX = "w_"


def address_key(address: str) -> str:
    """What the hall keeps of a network address (to count a seek limit per address across
    processes): a hash, so the store holds no address."""
    return hashlib.sha256(b"gamehall address\n" + address.encode()).hexdigest()[:32]


def wait_id(player: str) -> str:
    """The stored id of a player's quick-pairing wait (one per player)."""
    return WAIT_PREFIX + hashlib.sha256(player.encode()).hexdigest()[:30]


def _stored_wait(entry: WaitingEntry, clock: float) -> dict[str, Any]:
    """A wait as stored (``clock``: the hall's clock now, which ``entry.since`` counts on)."""
    now = datetime.datetime.now(datetime.UTC)
    since = now - datetime.timedelta(seconds=max(0.0, clock - entry.since))
    lapses = now + datetime.timedelta(seconds=WAIT_LEASE)
    return {
        "id": wait_id(entry.player),
        "player_id": entry.player,
        "game": entry.game,
        "options": {},
        "clock": entry.clock,
        "rated": entry.rated,
        "side": "random",
        "created": since.isoformat(timespec="milliseconds"),
        "expires": lapses.isoformat(timespec="milliseconds"),
        "browsers": entry.browsers,
    }


def _stored_seek(seek: Seek) -> dict[str, Any]:
    now = datetime.datetime.now(datetime.UTC)
    lapses = now + datetime.timedelta(seconds=seek.expires - seek.created)
    return {
        "id": seek.id,
        "player_id": seek.player,
        "game": seek.game,
        "options": seek.options,
        "clock": seek.clock,
        "rated": seek.rated,
        "side": seek.side,
        "created": now.isoformat(timespec="milliseconds"),
        "expires": lapses.isoformat(timespec="milliseconds"),
        "address": seek.address,
        "browsers": seek.browsers,
    }


__all__ = ["Hall", "Me"]
