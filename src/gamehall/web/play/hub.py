"""The authoritative game server behind the web app: live games, moves, chance and computers.

One :class:`Hub` per app, given its store, its :class:`~gamehall.web.base.settings.Settings` (and its
computer players): it keeps each game that is in play as a :class:`~gamehall.web.play.live.LiveGame`
and is the only writer of the store. The order of an accepted action is always: the
:func:`~gamehall.web.play.referee.referee` accepts it (the rules engine's checked door), it is
committed to the store, then the state changes in memory and every client is told. A refused
request raises :class:`~gamehall.protocol.ProtocolError` and changes nothing.

Chance and computer moves follow each other until a human seat is to move or the game ends;
computers think off the event loop (:mod:`gamehall.web.compute.computers`). Where the game says people
should look before chance goes on (:meth:`gamehall.core.State.pause`: a round is over), chance
waits until every person seated sends ``continue``, or :data:`PAUSE_VS_COMPUTER_MS` against the
computer and :data:`PAUSE_BETWEEN_PEOPLE_MS` otherwise. Resigning, aborting, takebacks and claims
(:mod:`gamehall.web.play.conduct`) are entries of the game's log like moves (:mod:`gamehall.web.play.history`),
committed before anyone is told. Clocks (:mod:`gamehall.web.base.clock`) are measured with the hub's
:class:`~gamehall.web.base.clock.Clock`; a timer per game ends it on time, whether or not anyone is
connected. Chat goes to the players' room or the spectators' (:mod:`gamehall.web.play.chat`), within
the per-client rates of :mod:`gamehall.web.base.limits`.

Clients are :class:`~gamehall.web.play.live.Connection` objects on any transport, and
:meth:`Hub.receive` handles one client message, so the hub runs (and is tested) without a web
framework.

Loading a stored game replays its log through the engine's trusted path (each action was checked
once, when it was played) on a thread, within ``load_seconds``; a game that does not replay, or
not in time, is *quarantined*: marked in the store with the reason, logged, and answered with
``quarantined`` from then on, while every other game is served. Games nobody uses (no client, no
computer thinking, no clock or pause waiting) leave memory after ``idle_seconds`` (and past
``max_live_games``) and are loaded again when asked for.

Several processes on one PostgreSQL store are one hall (:mod:`gamehall.store.bus`): each entry of a
game's log (a move, a takeback, a resignation, a flag fall) is stored under a version check in
the store's transaction (so of two processes writing for the same version, exactly one is
accepted; the other answers ``stale_version`` and catches up), the transaction also notifies
every process, and a process that holds the game in memory takes the entry in and tells its own
clients. Chat is notified in the transaction that stores it; presence and a round's ``continue``
ride the bus. Every process that holds a game watches its clocks, and the first flag fall
stored wins. A process catches up from the store whenever a client opens a game it holds, so a
client that moves to another process (its own died) resyncs there. Concurrent entries of
different games are committed together, in one transaction (group commit), each still told only
after its commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import string
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from gamehall.core import (
    CHANCE,
    Action,
    Game,
    GamehallError,
    Outcome,
    UnknownGameError,
    game_class,
)
from gamehall.protocol import (
    Abort,
    Chat,
    ChatLine,
    ChatMessage,
    Claim,
    Continue,
    ErrorCode,
    ErrorMessage,
    Hello,
    Move,
    Ping,
    PongMessage,
    ProtocolError,
    Resign,
    Resync,
    Takeback,
    parse_client_message,
)
from gamehall.store.bus import Bus, Event, LocalBus
from gamehall.store.rows import (
    ActionRow,
    Append,
    ChatRow,
    GameRow,
    Seat,
    VersionConflict,
    now_text,
)
from gamehall.web.base.clock import Clock, ClockError, SystemClock, TimeControl, flag_due, time_left
from gamehall.web.base.engine import (
    chance_rng,
    check_rules_version,
    derived_seed,
    draw_chance,
    game_of,
    outcome_info,
    replay,
    start_state,
)
from gamehall.web.base.limits import (
    Rate,
    RateTable,
    check_length,
    check_options,
    over_limit,
    quote,
    shorten_echoes,
)
from gamehall.web.base.settings import Settings
from gamehall.web.compute.computers import AgentFactory, Computers
from gamehall.web.play import conduct
from gamehall.web.play.chat import CHAT_HISTORY, CHAT_STORED, clean, room_of
from gamehall.web.play.history import (
    ENDINGS,
    Ending,
    Played,
    ReplayTimeout,
    replay_log,
    takeback_count,
    takeback_text,
)
from gamehall.web.play.live import Connection, LiveGame, Pause
from gamehall.web.play.referee import referee

if TYPE_CHECKING:  # the store is built by the transport layer and injected
    from gamehall.store.db import Store

log = logging.getLogger("gamehall.web")

T = TypeVar("T")


class HubListener(Protocol):
    """Told of games as they come and go (the hall: names seats, rates finished games)."""

    async def loaded(self, live: LiveGame) -> None:
        """A game was made or loaded from the store."""

    async def finished(self, live: LiveGame) -> None:
        """A game ended (its final action is committed)."""


_ID_ALPHABET = string.ascii_letters + string.digits + "-_"
GAME_ID = re.compile(r"g_[A-Za-z0-9_-]{10}")
"""What a game id looks like; anything else is no game, and is not looked up."""
BUS_ACTION_CHARS = 1000
"""An action's text rides its bus event up to this length (a chance outcome may be longer than
any move a client may send); a longer one is loaded from the store by the other processes."""
GROUP_COMMIT = 64
"""The most entries committed in one transaction."""
COMMITTERS = 4
COMMITTERS_SQLITE = 1
"""Group commits in flight at once (SQLite has one writer at a time)."""
HEARTBEAT_SECONDS = 5.0
"""How often a process of a shared hall says it lives (the ``alive`` event)."""
SILENT_BEATS = 3
"""A process not heard of for this many heartbeats is taken for dead: the seats connected
through it are no longer shown connected (and its players can be claimed against)."""
FREE_DELTA = 32
"""A state asked for (hello, resync) with at most this many actions of history is not counted
as a full resync."""


def new_game_id() -> str:
    """``g_`` and 10 url-safe characters."""
    return "g_" + "".join(secrets.choice(_ID_ALPHABET) for _ in range(10))


def new_token() -> str:
    return secrets.token_urlsafe(18)


ANALYSIS_LANES = {"hint": 1, "review": 1}
"""The lanes of analysis jobs beside the computers' and their workers (processes under
``gamehall serve``): a review never holds up a hint, and neither holds up a computer move."""


PAUSE_VS_COMPUTER_MS = 8_000
"""Against the computer, a round's end shows this long (or until the player goes on)."""
PAUSE_BETWEEN_PEOPLE_MS = 120_000
"""Between people, a round's end waits for every player, but no longer than this."""


class StoreStopped(Exception):
    """The server stopped before an entry could be stored."""


def parse_clock(text: str | None) -> TimeControl | None:
    """A game's time control from the creation body (None: no clock)."""
    if text is None or not text.strip():
        return None
    try:
        return TimeControl.parse(text)
    except ClockError as error:
        raise ProtocolError(ErrorCode.BAD_CLOCK, str(error)) from None


LoadTimeout = ReplayTimeout
"""Replaying a stored game took longer than ``load_seconds``."""


def replay_within(
    game: Game, entries: Sequence[ActionRow], deadline: float, setup: str | None = None
) -> Played:
    """What the log ``entries`` comes to from the start (the ``setup`` position, if any), by
    the trusted path, or LoadTimeout past ``deadline`` (a ``time.monotonic()`` value)."""
    start = start_state(game, setup)
    return replay_log(game, entries, checked=False, deadline=deadline, start=start)


class Hub:
    """Every live game of one server, its store, and the workers for the store and computers."""

    def __init__(
        self,
        store: Store,
        *,
        settings: Settings | None = None,
        agent_factory: AgentFactory | None = None,
        processes: bool = False,
        agent_workers: int | None = None,
        computers: Computers | None = None,
        bus: Bus | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.bus = bus or LocalBus()
        self.bus.subscribe(self._on_event)
        self.bus.on_reconnect(self._catch_up_all)
        self.settings = settings = settings or Settings()
        self.computers = computers or Computers(
            agent_factory,
            processes=processes,
            workers=agent_workers or settings.search_workers,
            quick_workers=settings.quick_workers,
            limit=settings.computer_limit,
            analysis=ANALYSIS_LANES,
        )
        self.games: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Future[LiveGame]] = {}
        self._db_pool: ThreadPoolExecutor | None = None
        self._commit_pool: ThreadPoolExecutor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.listeners: list[HubListener] = []
        per_minute = settings.games_per_minute
        self._made = RateTable(per_minute / 60, per_minute)
        wide = per_minute * settings.address_factor
        self._made_at = RateTable(wide / 60, wide)
        seconds = self._seconds
        self._chats = RateTable(settings.chat_per_second, settings.chat_burst, clock=seconds)
        takebacks = settings.takebacks_per_minute
        self._takebacks = RateTable(takebacks / 60, max(1, takebacks // 2), clock=seconds)
        self.connections = 0
        """WebSocket connections held now."""
        self._appends: list[tuple[Append, asyncio.Future[None]]] = []
        self._flushers = 0
        self.commits = 0
        """Transactions that stored entries (fewer than the entries: group commit)."""
        self._heard: dict[str, float] = {}
        """When each other process of the hall was last heard of (``time.monotonic()``)."""
        self.resumed = asyncio.Event()
        """Set once the games waiting for the server at start have been resumed (or set aside)."""
        self.warmed_in = 0.0
        """How long the computer workers took to load the solvers' kernels at start."""

    # --- life ---

    async def start(self) -> None:
        # SQLite has one writer at a time: one store thread keeps writes in order, uncontended.
        self._db_pool = ThreadPoolExecutor(
            max_workers=1 if self.store.is_sqlite else 8, thread_name_prefix="gamehall-store"
        )
        # The moves' group commits have threads of their own, so a move never queues behind
        # the reads and writes of games being made and opened (a crowd arriving at once).
        self._commit_pool = ThreadPoolExecutor(
            max_workers=COMMITTERS_SQLITE if self.store.is_sqlite else COMMITTERS,
            thread_name_prefix="gamehall-commit",
        )
        await self.computers.start()
        self.warmed_in = await self.computers.warm()  # before any computer move is offered
        await self.bus.start()
        self._background(self._resume_pending())
        self._background(self._sweeper())
        if self.bus.shared:
            self._background(self._heartbeat())

    async def _resume_pending(self) -> None:
        """Carry on the games whose next action is the server's, one at a time, while the
        server serves everything else; a game that cannot be loaded is set aside."""
        try:
            for game_id in await self.db(self.store.pending_games):
                try:
                    await self.get(game_id)  # loading a game resumes its chance and computers
                except ProtocolError as error:
                    log.error("cannot resume game %s: %s", game_id, error.message)
                except Exception:  # one broken game must not keep the others from resuming
                    log.exception("cannot resume game %s", game_id)
        finally:
            self.resumed.set()

    async def stop(self) -> None:
        for live in list(self.games.values()):
            for connection in list(live.connections):
                await connection.stop()
        tasks = [t for t in self._tasks if not t.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.computers.stop()
        if self.bus.shared:  # the others forget this process's presence at once
            await self._publish(self.bus.event("leaving", ""))
        await self.bus.stop()
        for pool in (self._commit_pool, self._db_pool):
            if pool is not None:
                pool.shutdown(wait=True)
        self.store.dispose()

    def _background(self, coroutine: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def db(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call on the store threads, off the event loop."""
        return await self._run_on(self._db_pool, function, *args, **kwargs)

    async def commit_db(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call on the moves' commit threads (never queued behind other calls)."""
        return await self._run_on(self._commit_pool, function, *args, **kwargs)

    @staticmethod
    async def _run_on(
        pool: ThreadPoolExecutor | None, function: Callable[..., T], *args: Any, **kwargs: Any
    ) -> T:
        assert pool is not None, "the hub is not started"
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(pool, partial(function, *args, **kwargs))

    # --- games ---

    async def get(self, game_id: str) -> LiveGame:
        """The live game ``game_id``, loaded from the store (and resumed) if need be. A malformed
        or unknown id leaves nothing behind."""
        live = self.games.get(game_id)
        if live is not None:
            live.touch()
            if self.bus.shared:  # another process may have moved meanwhile, or died
                async with live.lock:
                    await self.catch_up(live)
                await self.resume(live)
            return live
        if not GAME_ID.fullmatch(game_id):
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, f"there is no game {quote(game_id)}")
        loading = self._loading.get(game_id)
        if loading is not None:  # someone else is loading it: wait for the same result
            return await asyncio.shield(loading)
        loading = self._loading[game_id] = asyncio.get_running_loop().create_future()
        try:
            live = await self._load(game_id)
            await self._tell("loaded", live)
        except BaseException as error:
            if isinstance(error, Exception):
                loading.set_exception(error)
                loading.exception()  # retrieved: waiters (if any) get it too
            else:
                loading.cancel()
            raise
        finally:
            self._loading.pop(game_id, None)
        self.games[game_id] = live
        loading.set_result(live)
        await self.resume(live)
        if self.bus.shared:  # who is connected to it elsewhere, and who went on from its pause?
            await self._publish(self.bus.event("ask", game_id))
        return live

    async def _load(self, game_id: str) -> LiveGame:
        row = await self.db(self.store.get_game, game_id)
        if row is None:
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, f"there is no game {game_id}")
        if row.problem:
            raise ProtocolError(
                ErrorCode.QUARANTINED,
                f"game {game_id} cannot be loaded and is set aside: {row.problem}",
            )
        cls = game_class(row.game)
        check_rules_version(game_id, cls, row.rules_version)
        stored = await self.db(self.store.actions, game_id)
        holders = await self.db(self.store.holders, game_id)
        seconds = self.settings.load_seconds
        deadline = time.monotonic() + seconds

        def build() -> tuple[Game, Played]:
            game = game_of(row.game, row.options)
            return game, replay_within(game, stored, deadline, row.setup)

        try:
            game, played = await asyncio.wait_for(asyncio.to_thread(build), seconds + 1.0)
        except Exception as error:  # any failure of this one game: it is set aside
            why = str(error) or type(error).__name__
            if isinstance(error, TimeoutError):
                why = f"loading took longer than {seconds:g} s (limit load_seconds)"
            problem = f"it does not replay under the engine: {why}"
            if isinstance(error, LoadTimeout | TimeoutError):
                problem = f"it does not load in time: {why}"
            log.error("game %s is quarantined: %s", game_id, problem)
            with contextlib.suppress(Exception):
                await self.db(self.store.quarantine, game_id, problem)
            raise ProtocolError(
                ErrorCode.QUARANTINED,
                f"game {game_id} cannot be loaded and is set aside: {problem}",
            ) from None
        control = TimeControl.parse(row.clock) if row.clock else None
        live = LiveGame(row, game, played, now=self.clock.now(), control=control)
        live.set_holders(holders)
        return live

    async def create(
        self,
        *,
        game_name: str,
        options: dict[str, Any],
        mode: str,
        seat: int,
        level: str,
        player_id: str,
        start: tuple[Game, str] | None = None,
        address: str = "",
        clock: str | None = None,
    ) -> tuple[LiveGame, frozenset[int]]:
        """Make and store a new game for the browser ``player_id`` (an identity key); returns
        it and the seats the creator holds. ``start`` is a game and the text of a position of it
        the server found itself (never a client's text), to start from there instead of the
        beginning: then ``game_name`` and ``options`` are not used."""
        control = parse_clock(clock)
        if start is not None:
            game, setup = start
        else:
            setup = None
            try:
                cls = game_class(game_name)
            except UnknownGameError as error:
                raise ProtocolError(ErrorCode.UNKNOWN_GAME, str(error)) from None
            check_options(cls, options, self.settings)
            try:
                game = cls(**options)
            except GamehallError as error:
                given = [*options, *options.values()]
                raise ProtocolError(
                    ErrorCode.BAD_OPTION, shorten_echoes(str(error), given)
                ) from None
        check_length(game, self.settings)
        players = game.num_players
        if not 0 <= seat < players:
            raise ProtocolError(
                ErrorCode.BAD_SEAT,
                f"seat {seat} does not exist; {game.name} has seats 0 to {players - 1}",
            )
        if mode == "computer":
            self.computers.check_level(level)
            await self._check_computer_games(player_id)
            seats = [
                Seat("human", new_token()) if i == seat else Seat("computer", "", level)
                for i in range(players)
            ]
            held = frozenset({seat})
        else:
            seats = [Seat("human", new_token()) for _ in range(players)]
            held = frozenset(range(players)) if mode == "hotseat" else frozenset({seat})
        self._check_made(player_id, address)
        now = now_text()
        row = GameRow(
            id=new_game_id(),
            game=game.name,
            rules_version=game.rules_version,
            options=dict(game.options),
            mode=mode,
            seed=secrets.token_hex(16),
            seats=seats,
            created=now,
            updated=now,
            pending=True,  # until the opening chance is drawn
            clock=str(control) if control is not None else None,
            setup=setup,
        )
        holders = [(player_id, s) for s in sorted(held)]
        return await self._insert(row, game, holders), held

    async def _check_computer_games(self, player_id: str) -> None:
        most = self.settings.computer_games
        going = await self.db(self.store.ongoing_count, player_id, "computer")
        if going >= most:
            raise over_limit(
                "computer_games",
                f"you have {going} games against the computer going on, the most one browser "
                "may have; finish one first",
            )

    def _check_made(self, player_id: str, address: str) -> None:
        most = self.settings.games_per_minute
        if not self._made.take(player_id):
            raise over_limit("games_per_minute", f"you made {most} games in the last minute")
        if address and not self._made_at.take(address):
            raise over_limit(
                "games_per_minute × address_factor",
                f"{most * self.settings.address_factor} games were made from your network "
                "address in the last minute",
            )

    async def rematch(
        self, live: LiveGame, held: frozenset[int], player_id: str, address: str = ""
    ) -> tuple[LiveGame, frozenset[int]]:
        """A new game like ``live`` (same options and mode) with the seats turned round one
        place (swapped, for two players), once ``live`` is over; every browser holding a seat
        holds its person's new seat. Asking twice gives the same new game. The new game's
        seats have secrets of their own: nothing of the old game's is reused or sent."""
        if not held:
            raise ProtocolError(
                ErrorCode.NOT_YOUR_SEAT, "only a player of this game can ask for a rematch"
            )
        if not live.over:  # ended on the board, or resigned, on time, claimed, aborted
            raise ProtocolError(
                ErrorCode.NOT_OVER, "a rematch can be asked for once the game is over"
            )
        players = len(live.row.seats)

        def new_index(old: int) -> int:
            return (old + 1) % players if players > 1 else old

        mapped = frozenset(new_index(i) for i in held)
        if live.row.rematch:
            return await self.get(live.row.rematch), mapped
        seats: list[Seat] = [live.row.seats[0]] * players
        for old, seat in enumerate(live.row.seats):
            token = new_token() if seat.kind == "human" else ""
            seats[new_index(old)] = Seat(seat.kind, token, seat.level)
        now = now_text()
        row = GameRow(
            id=new_game_id(),
            game=live.row.game,
            rules_version=live.game.rules_version,
            options=dict(live.row.options),
            mode=live.row.mode,
            seed=secrets.token_hex(16),
            seats=seats,
            created=now,
            updated=now,
            pending=True,
            rematch_of=live.id,
            clock=live.row.clock,
            setup=live.row.setup,  # a rematch starts where its game started
        )
        holders = [(p, new_index(s)) for p, s in await self.db(self.store.holders, live.id)]
        async with live.lock:
            if live.row.rematch:  # another request made it meanwhile
                return await self.get(live.row.rematch), mapped
            self._check_made(player_id, address)
            new = await self._insert(row, live.game, holders)
            live.row.rematch = new.id
        live.broadcast_state(self.clock.now())
        await self._publish(self.bus.event("game", live.id))
        return new, mapped

    async def _insert(self, row: GameRow, game: Game, holders: list[tuple[str, int]]) -> LiveGame:
        try:
            await self.db(self.store.create_game, row, holders)
        except Exception as error:
            log.exception("cannot store a new game")
            raise ProtocolError(
                ErrorCode.STORE_ERROR, f"the game could not be stored: {error}"
            ) from None
        control = TimeControl.parse(row.clock) if row.clock else None
        played = Played(game, [start_state(game, row.setup)])
        live = LiveGame(row, game, played, now=self.clock.now(), control=control)
        live.set_holders(holders)
        await self._tell("loaded", live)
        self.games[row.id] = live
        await self.resume(live)
        return live

    # --- seats ---

    async def claim(self, live: LiveGame, player_id: str, token: str) -> frozenset[int]:
        """Take the seat an invite secret names, for the browser ``player_id``: the first to
        open the link holds it; the link is spent after that (see gamehall.web.http.identity)."""
        seats = live.seats_of([token])
        if not seats:
            raise ProtocolError(
                ErrorCode.BAD_SEAT_TOKEN, "that invite is not one of this game's seats"
            )
        seat = min(seats)
        name = live.game.player_names[seat]
        async with live.lock:
            mine = live.seats_for(player_id)
            if seat in mine:
                return mine
            if live.claimed(seat):
                raise ProtocolError(
                    ErrorCode.SEAT_TAKEN,
                    f"this invite link was used already: someone else plays {name}; you can "
                    "watch the game",
                )
            if mine:
                held = ", ".join(live.game.player_names[i] for i in sorted(mine))
                raise ProtocolError(
                    ErrorCode.SEAT_TAKEN,
                    f"you play {held} in this game; the invite link is for the other player: "
                    "send it to them",
                )
            taken = await self.db(self.store.claim_seat, player_id, live.id, seat)
            if not taken:
                raise ProtocolError(
                    ErrorCode.SEAT_TAKEN, f"this invite link was used already: {name} is taken"
                )
            live.hold(player_id, seat)
        await self._publish(self.bus.event("game", live.id))
        return live.seats_for(player_id)

    @staticmethod
    def invite_seat(live: LiveGame, player_id: str | None) -> int | None:
        """The free seat whose invite the browser ``player_id`` may show: an online game's human
        seat no one holds yet, for a browser that holds another seat; else None."""
        if live.row.mode != "online" or not live.seats_for(player_id) or live.over:
            return None
        for index, seat in enumerate(live.row.seats):
            if seat.kind == "human" and not live.claimed(index):
                return index
        return None

    # --- clients ---

    def attach(self, live: LiveGame, connection: Connection) -> None:
        """Add a client to a game (ProtocolError(over_limit) when the server holds too many)."""
        if self.connections >= self.settings.max_connections:
            raise over_limit("max_connections", "the server holds all the connections it can")
        self.connections += 1
        per_second = self.settings.messages_per_second
        connection.rates["messages"] = Rate(per_second, 2 * per_second, time.monotonic())
        resyncs = self.settings.resyncs_per_minute
        connection.rates["resyncs"] = Rate(resyncs / 60, resyncs, time.monotonic())
        before, mine = live.connected(), live.local_seats()
        live.connections.add(connection)
        live.touch()
        connection.start()
        live.note_presence(self.clock.now())
        if live.connected() != before:
            live.broadcast_presence(self.clock.now())
        self._tell_presence(live, mine)

    async def detach(self, live: LiveGame, connection: Connection) -> None:
        before, mine = live.connected(), live.local_seats()
        if connection in live.connections:
            self.connections -= 1
        live.connections.discard(connection)
        live.touch()
        await connection.stop()
        live.note_presence(self.clock.now())
        if live.connected() != before:
            live.broadcast_presence(self.clock.now())
        self._tell_presence(live, mine)

    def _within_rate(self, connection: Connection) -> bool:
        """Whether a client's message is within ``messages_per_second``: past it the message is
        dropped (the first dropped one of a run is answered with ``over_limit``), and a client
        that has had 20 seconds' worth of messages dropped is disconnected (counted over the
        connection's life, so a slow link or a busy server cannot stretch a flood out of it)."""
        rate = connection.rates.get("messages")
        if not isinstance(rate, Rate) or rate.take(time.monotonic()):
            connection.warned = False
            return True
        connection.dropped += 1
        if not connection.warned:
            connection.warned = True
            limit = self.settings.messages_per_second
            error = over_limit("messages_per_second", f"more than {limit:g} messages a second")
            connection.send(ErrorMessage(code=error.code, message=error.message, version=None))
        if connection.dropped > 20 * self.settings.messages_per_second:
            connection.close(1008)
        return False

    def _seconds(self) -> float:
        """The hub's clock in seconds, for the rate tables of chat and takebacks."""
        return self.clock.now() / 1000

    @staticmethod
    def _client(connection: Connection) -> str:
        """Whose rate a connection's chat and takebacks count against: its browser, else its
        network address, else the connection alone."""
        return connection.identity or connection.address or f"connection {id(connection)}"

    def _within(self, what: str, connection: Connection) -> None:
        """Count one takeback request of the connection's client, or refuse it (over_limit)."""
        assert what == "takebacks"
        if not self._takebacks.take(self._client(connection)):
            limit = self.settings.takebacks_per_minute
            raise over_limit(
                "takebacks_per_minute", f"more than {limit} takeback requests a minute"
            )

    def _send_state(self, live: LiveGame, connection: Connection, since: int | None) -> None:
        """Answer a client's request for the state: the actions after ``since`` (None: all),
        counted against ``resyncs_per_minute`` when that is more than a few."""
        start = 0 if since is None or not 0 <= since <= live.version else since
        if live.version - start > FREE_DELTA:
            rate = connection.rates.get("resyncs")
            if isinstance(rate, Rate) and not rate.take(time.monotonic()):
                limit = self.settings.resyncs_per_minute
                raise over_limit(
                    "resyncs_per_minute", f"more than {limit} full states asked for a minute"
                )
        live.send_state(connection, self.clock.now(), start)

    async def receive(self, live: LiveGame, connection: Connection, text: str | bytes) -> None:
        """Handle one message from a client: answer it, or do what it asks."""
        if not self._within_rate(connection):
            return
        live.touch()
        seats = connection.seats
        try:
            message = parse_client_message(text)
            if isinstance(message, Hello):
                self._send_state(live, connection, message.version)
                await self.send_chat_history(live, connection)
            elif isinstance(message, Resync):
                self._send_state(live, connection, None)
            elif isinstance(message, Ping):
                connection.send(PongMessage())
            elif isinstance(message, Move):
                longest = self.settings.max_action_chars
                if len(message.action) > longest:
                    raise ProtocolError(
                        ErrorCode.BAD_MESSAGE,
                        f"an action is at most {longest} characters (limit max_action_chars), "
                        f"not {len(message.action)}",
                    )
                await self.move(live, seats, message)
            elif isinstance(message, Continue):
                await self.go_on(live, seats, message.version)
            elif isinstance(message, Resign):
                await self.resign(live, seats)
            elif isinstance(message, Abort):
                await self.abort(live, seats)
            elif isinstance(message, Takeback):
                self._within("takebacks", connection)
                await self.takeback(live, seats, message.op)
            elif isinstance(message, Claim):
                await self.claim_win(live, seats)
            elif isinstance(message, Chat):
                await self.chat(live, connection, message.text)
        except ProtocolError as error:
            connection.send(
                ErrorMessage(code=error.code, message=error.message, version=live.version)
            )
            if error.code == ErrorCode.STALE_VERSION:
                with contextlib.suppress(ProtocolError):
                    self._send_state(live, connection, connection.version)

    # --- moving ---

    async def move(self, live: LiveGame, seats: frozenset[int], message: Move) -> None:
        """Play a person's move; raises ProtocolError (and changes nothing) if it is refused."""
        try:
            async with live.lock:
                if live.played.ended is not None:
                    raise ProtocolError(ErrorCode.GAME_OVER, "the game is over; no more moves")
                if live.pause is not None and seats:
                    raise ProtocolError(
                        ErrorCode.PAUSED, f"{live.pause.reason} Send continue to go on."
                    )
                running = live.running()
                if running is not None and running in seats and self._flag_is_due(live):
                    await self._end(live, "flag", running)
                    raise ProtocolError(
                        ErrorCode.GAME_OVER, "your time ran out before the move arrived"
                    )
                action = referee(live.state, live.version, seats, message)
                await self._commit(live, action, live.state.current_player)
                await self._chance(live)
        finally:
            self._after(live)

    def _flag_is_due(self, live: LiveGame) -> bool:
        seat = live.running()
        if seat is None or live.clocks is None:
            return False
        return self.clock.now() >= flag_due(live.clocks[seat] or 0, live.turn_started)

    def _clocks_now(self, live: LiveGame, now: int, mover: int | None) -> list[int | None] | None:
        """The clocks to store with an entry made at ``now``: a move by the seat whose clock
        runs costs its time less the lag allowance and gains what the time control gives; any
        other entry takes the running clock's time exactly."""
        if live.clocks is None or live.control is None:
            return None
        clocks = list(live.clocks)
        seat = live.running()
        if seat is not None:
            elapsed = now - live.turn_started
            if seat == mover:
                clocks[seat] = live.control.after_move(time_left(clocks[seat] or 0, elapsed))
            else:
                clocks[seat] = max(0, (clocks[seat] or 0) - elapsed)
        return clocks

    async def _store(
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
            await self._append(append)
        except VersionConflict:
            # Another process stored this version first: take in what it did, and refuse.
            await self.catch_up(live)
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

    async def _commit(self, live: LiveGame, action: Action, mover: int) -> None:
        """Store the action, then apply it and tell everyone (the caller holds the lock)."""
        now = self.clock.now()
        next_state = live.state.apply_trusted(action)
        clocks = self._clocks_now(live, now, mover)
        over = next_state.is_terminal()
        outcome = next_state.outcome()
        entry = await self._store(
            live,
            "action",
            str(action),
            mover,
            now=now,
            clocks=clocks,
            over=over,
            result=outcome_dump(live, outcome),
            pending=not over and (live.server_to_move(next_state) or live.control is not None),
        )
        live.advance(entry, now, next_state)
        self._pause_if_due(live, now)
        live.broadcast_state(now)
        if over:
            self.computers.forget(live.id)
            self._spawn(self._tell("finished", live))

    async def _tell(self, event: str, live: LiveGame) -> None:
        """Tell every listener of ``event`` (one that fails is logged, never the caller's
        problem: the game itself is stored and told already)."""
        for listener in self.listeners:
            try:
                tell = listener.loaded if event == "loaded" else listener.finished
                await tell(live)
            except Exception:
                log.exception("a listener failed on %s of %s", event, live.id)

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _append(self, append: Append) -> None:
        """Store one entry, with whatever other entries are waiting to be stored meanwhile
        (group commit); returns once its transaction is committed."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._appends.append((append, done))
        most = COMMITTERS_SQLITE if self.store.is_sqlite else COMMITTERS
        if self._flushers < most:
            self._flushers += 1
            self._background(self._flush())
        await done

    async def _flush(self) -> None:
        try:
            while self._appends:
                batch = self._appends[:GROUP_COMMIT]
                del self._appends[:GROUP_COMMIT]
                try:
                    stored = await self.commit_db(self.store.append_actions, [a for a, _ in batch])
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

    def _pause_if_due(self, live: LiveGame, now: int) -> bool:
        """Hold the game if the state says people should look before chance goes on (set
        before anyone is told of the state, so the state they get says so)."""
        if live.pause is not None:
            return True
        state = live.state
        if live.over or not state.is_chance_node() or live.released == live.version:
            return False
        reason = state.pause()
        if not reason or not live.humans():
            return False
        vs_computer = any(seat.kind == "computer" for seat in live.row.seats)
        wait = PAUSE_VS_COMPUTER_MS if vs_computer else PAUSE_BETWEEN_PEOPLE_MS
        live.pause = Pause(reason, now + wait, frozenset(live.humans()))
        return True

    async def _entry(self, live: LiveGame, kind: str, text: str, mover: int) -> None:
        """Store an entry around the game's actions (an offer, a takeback, an ending), then
        take it into memory and tell everyone (the caller holds the lock)."""
        now = self.clock.now()
        clocks = self._clocks_now(live, now, None)
        ending = kind in ENDINGS
        result = None
        if ending:
            result = Ending(kind, mover).outcome(live.game).model_dump()
            if kind == "flag" and clocks is not None:
                clocks[mover] = 0
        entry = await self._store(
            live,
            kind,
            text,
            mover,
            now=now,
            clocks=clocks,
            over=ending,
            result=result,
            pending=False if ending else self._pending_after(live, kind, text),
        )
        live.advance(entry, now)
        live.broadcast_state(now)
        if ending:  # resigned, aborted, on time or claimed: the hall rates it (or not)
            self.computers.forget(live.id)
            self._spawn(self._tell("finished", live))

    def _pending_after(self, live: LiveGame, kind: str, text: str) -> bool:
        """Whether the server has something to do after an entry that does not end the game."""
        if live.control is not None:
            return True
        if kind != "takeback":
            return live.server_to_move()
        return live.server_to_move(live.played.states[-1 - takeback_count(text)])

    async def _end(self, live: LiveGame, kind: str, seat: int) -> None:
        await self._entry(live, kind, kind, seat)

    async def _chance(self, live: LiveGame) -> None:
        """Draw and commit chance outcomes until someone is to move, or until the game says the
        players should look first (a pause) (the caller holds the lock)."""
        while live.state.is_chance_node() and not live.over:
            if live.pause is not None:
                return
            if self._pause_if_due(live, self.clock.now()):  # after a restart
                live.broadcast_state(self.clock.now())
                return
            # Drawing may be slow for some games (listing every outcome): off the event loop.
            action = await asyncio.to_thread(
                draw_chance, live.state, chance_rng(live.row.seed, live.version)
            )
            await self._commit(live, action, CHANCE)

    async def resume(self, live: LiveGame) -> None:
        """Carry on a game whose next action is the server's (after creation or a restart), and
        watch its clocks."""
        if live.server_to_move():
            async with live.lock:
                try:
                    await self._chance(live)
                except ProtocolError as error:
                    log.error("chance in %s: %s", live.id, error.message)
                    return
        self._after(live)

    def _after(self, live: LiveGame) -> None:
        """After a change: computers to move, and the timer for what is due next."""
        self._schedule(live)
        self._arm(live)

    # --- around the moves: pauses, resigning, aborting, takebacks, claims ---

    async def go_on(self, live: LiveGame, seats: frozenset[int], version: int) -> None:
        """Seats go on from a pause; when every seat has, chance goes on."""
        async with live.lock:
            if live.over:
                raise ProtocolError(ErrorCode.GAME_OVER, "the game is over")
            pause = live.pause
            mine = conduct.go_on(pause.waiting if pause else None, live.version, version, seats)
            assert pause is not None
            pause.waiting -= mine
            if self.bus.shared:  # the other processes' pause waits for these seats no more
                event = self.bus.event("continue", live.id, version=version, seats=sorted(mine))
                await self._publish(event)
            if pause.waiting:
                live.broadcast_state(self.clock.now())
            else:
                await self._release(live)
        self._after(live)

    async def _went_on(self, live: LiveGame, event: Event) -> None:
        """Seats went on from a pause through another process (when no one is left to wait
        for, this process releases the pause too: the chance drawn is the same, and the store
        keeps the first of the two)."""
        seats, version = event.get("seats"), event.get("version")
        if not isinstance(seats, list) or not isinstance(version, int):
            return
        try:
            async with live.lock:
                pause = live.pause
                if pause is None or live.over or live.version != version:
                    return
                went = {int(seat) for seat in seats}
                pause.waiting -= went
                if pause.waiting:
                    live.broadcast_state(self.clock.now())
                else:
                    await self._release(live)
        except ProtocolError as error:
            log.info("going on in %s: %s", live.id, error.message)
        self._after(live)

    async def _release(self, live: LiveGame) -> None:
        live.released = live.version
        live.pause = None
        await self._chance(live)

    async def resign(self, live: LiveGame, seats: frozenset[int]) -> None:
        async with live.lock:
            player = live.state.current_player if not live.over else None
            seat = conduct.resign(live.over, seats, player)
            await self._end(live, "resign", seat)
        self._after(live)

    async def abort(self, live: LiveGame, seats: frozenset[int]) -> None:
        async with live.lock:
            player = live.state.current_player if not live.over else None
            seat = conduct.abort(live.over, seats, player, live.moved(), len(live.row.seats))
            await self._end(live, "abort", seat)
        self._after(live)

    async def takeback(self, live: LiveGame, seats: frozenset[int], op: str) -> None:
        async with live.lock:
            # Another person must agree unless every other human seat is held by the asker.
            consent = any(seat not in seats for seat in live.humans())
            ruling = conduct.takeback(
                op,  # type: ignore[arg-type]
                over=live.over,
                seats=seats,
                movers=live.movers,
                offer=live.played.offer,
                consent_needed=consent,
                declined=live.played.declined,
            )
            if ruling.what == "grant":
                await self._entry(live, "takeback", takeback_text(ruling.count), ruling.seat)
            elif ruling.what == "offer":
                await self._entry(live, "offer", "offer takeback", ruling.seat)
            else:
                await self._entry(live, "decline", "decline takeback", ruling.seat)
        self._after(live)

    async def claim_win(self, live: LiveGame, seats: frozenset[int]) -> None:
        """A player claims the win: the opponent has been gone past the grace period."""
        async with live.lock:
            seat = conduct.claim(
                online=live.row.mode == "online",
                control=live.control,
                over=live.over,
                seats=seats,
                away_ms=live.away_ms(self.clock.now()),
                moved=live.moved(),
            )
            await self._end(live, "claim", seat)
        self._after(live)

    # --- the timer: flag falls and the end of pauses ---

    def _arm(self, live: LiveGame) -> None:
        """(Re)start the game's timer for what is due next, if anything."""
        current = asyncio.current_task()
        if live.timer is not None and live.timer is not current and not live.timer.done():
            live.timer.cancel()
        live.timer = None
        due = []
        seat = live.running()
        if seat is not None and live.clocks is not None:
            due.append(flag_due(live.clocks[seat] or 0, live.turn_started))
        if live.pause is not None and live.pause.until is not None and not live.over:
            due.append(live.pause.until)
        if not due:
            return
        task = asyncio.get_running_loop().create_task(self._timer(live, min(due)))
        live.timer = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _timer(self, live: LiveGame, due: int) -> None:
        try:
            await self.clock.sleep_until(due)
            async with live.lock:
                now = self.clock.now()
                seat = live.running()
                if seat is not None and self._flag_is_due(live):
                    await self._end(live, "flag", seat)
                elif (
                    live.pause is not None
                    and live.pause.until is not None
                    and now >= live.pause.until
                ):
                    await self._release(live)
            self._after(live)
        except asyncio.CancelledError:
            raise
        except ProtocolError as error:
            if error.code == ErrorCode.STALE_VERSION:  # another process stored it first
                log.info("the timer of %s: %s", live.id, error.message)
            else:
                log.error("the timer of %s failed: %s", live.id, error.message)
        except Exception:
            log.exception("the timer of %s failed", live.id)

    # --- chat ---

    async def chat(self, live: LiveGame, connection: Connection, text: str) -> None:
        """Store a chat message and tell the writer's room."""
        line = clean(text)
        if not self._chats.take(self._client(connection)):
            burst, rate = self.settings.chat_burst, self.settings.chat_per_second
            raise ProtocolError(
                ErrorCode.CHAT_TOO_FAST,
                f"at most {burst} chat messages at once and {rate:g} a second after "
                "(limits chat_burst, chat_per_second): wait a few seconds",
            )
        room = room_of(connection.seats)
        seat = None
        if connection.seats:
            player = live.state.current_player
            seat = conduct.acting_seat(connection.seats, player if player >= 0 else None)

        def notify(row: ChatRow) -> str | None:  # the other processes' clients, on PostgreSQL
            return self.bus.in_transaction(self._chat_event(live, row))

        try:
            row = await self.db(self.store.add_chat, live.id, room, seat, line, CHAT_STORED, notify)
        except Exception as error:
            log.exception("cannot store a chat message of %s", live.id)
            raise ProtocolError(
                ErrorCode.STORE_ERROR, f"the message could not be stored: {error}"
            ) from None
        if row is None:
            raise ProtocolError(
                ErrorCode.BAD_CHAT,
                f"this game's chat holds its {CHAT_STORED} messages already; it takes no more",
            )
        message = ChatMessage(room=room, lines=[self._chat_line(live, row)])  # type: ignore[arg-type]
        text_out = message.model_dump_json()
        for other in list(live.connections):
            if room_of(other.seats) == room:
                other.send(text_out)

    def _chat_event(self, live: LiveGame, row: ChatRow) -> Event:
        return self.bus.event(
            "chat",
            live.id,
            number=row.number,
            room=row.room,
            seat=row.seat,
            text=row.text,
            at=row.at,
        )

    def _tell_chat(self, live: LiveGame, event: Event) -> None:
        """A chat message stored through another process: tell the clients in its room here."""
        try:
            row = ChatRow(
                int(event["number"]),
                str(event["room"]),
                None if event.get("seat") is None else int(event["seat"]),
                str(event["text"]),
                str(event["at"]),
            )
            message = ChatMessage(room=row.room, lines=[self._chat_line(live, row)])  # type: ignore[arg-type]
        except (KeyError, TypeError, ValueError, IndexError):
            log.error("a malformed chat event for %s", live.id)
            return
        text = message.model_dump_json()
        for other in list(live.connections):
            if room_of(other.seats) == row.room:
                other.send(text)

    def _chat_line(self, live: LiveGame, row: Any) -> ChatLine:
        name = live.game.player_names[row.seat] if row.seat is not None else "spectator"
        return ChatLine(number=row.number, seat=row.seat, name=name, text=row.text, at=row.at)

    async def send_chat_history(self, live: LiveGame, connection: Connection) -> None:
        room = room_of(connection.seats)
        rows = await self.db(self.store.chat, live.id, room, CHAT_HISTORY)
        lines = [self._chat_line(live, row) for row in rows]
        connection.send(ChatMessage(room=room, lines=lines))  # type: ignore[arg-type]

    # --- computers ---

    def _schedule(self, live: LiveGame) -> None:
        if (
            live.server_to_move()
            and live.pause is None
            and (live.thinking is None or live.thinking.done())
        ):
            live.thinking = self._background(self._computers(live))

    async def _computers(self, live: LiveGame) -> None:
        """Computer seats move (chance in between) until a person is to move or the game ends."""
        try:
            while True:
                async with live.lock:
                    await self._chance(live)
                    if not live.server_to_move() or live.pause is not None:
                        return
                    player = live.state.current_player
                    version = live.version
                    state = live.state
                    actions = list(live.actions)
                    level = live.row.seats[player].level or "easy"
                seed = derived_seed(live.row.seed, "agent", player)
                choice = await self.computers.choose(
                    live.id,
                    state,
                    actions,
                    player,
                    level,
                    seed,
                    client=live.owner,
                    setup=live.row.setup,
                )
                async with live.lock:
                    if live.version != version:
                        continue
                    try:
                        action = live.state.parse_action(choice.text)
                    except GamehallError as error:
                        log.error("computer (%s) in %s chose badly: %s", level, live.id, error)
                        return
                    await self._commit(live, action, player)
                self._arm(live)
        except asyncio.CancelledError:
            raise
        except ProtocolError as error:
            if error.code == ErrorCode.STALE_VERSION:  # another process moved for it
                log.info("computer move in %s: %s", live.id, error.message)
            else:
                log.error("computer move in %s failed: %s", live.id, error.message)
        except Exception:
            log.exception("computer move in %s failed", live.id)

    # --- other processes of the hall ---

    async def _publish(self, event: Event) -> None:
        try:
            await self.bus.publish(event)
        except Exception:  # the others catch up from the store when asked for the game
            log.exception("cannot publish a bus event")

    def _tell_presence(self, live: LiveGame, before: frozenset[int]) -> None:
        """Say which seats are connected here, when that changed (other processes show them)."""
        if self.bus.shared and live.local_seats() != before:
            self._background(self._say_presence(live))

    async def _say_presence(self, live: LiveGame) -> None:
        seats = sorted(live.local_seats())
        await self._publish(self.bus.event("presence", live.id, seats=seats))

    async def _on_event(self, event: Event) -> None:
        """An event of the hall: take in what another process did to a game held here."""
        origin = str(event.get("origin"))
        if origin == self.bus.origin:
            return
        self._heard[origin] = time.monotonic()
        kind = event.get("kind")
        if kind == "leaving":  # that process stops: its clients are gone from it
            self._forget_process(origin)
            return
        live = self.games.get(str(event.get("game")))
        if live is None:  # not in memory here: it is loaded from the store when asked for
            return
        if kind == "action":
            version = event.get("version")
            if not isinstance(version, int) or version <= live.version:
                return
            async with live.lock:
                entry = _event_entry(event) if version == live.version + 1 else None
                if entry is None:
                    await self.catch_up(live)
                else:
                    at = event.get("at")
                    try:
                        self._take(live, entry, at if isinstance(at, int) else self.clock.now())
                    except (GamehallError, ValueError):
                        await self.catch_up(live)
                    else:
                        live.broadcast_state(self.clock.now())
            self._arm(live)
        elif kind == "game":  # a seat was claimed or a rematch made there
            async with live.lock:
                await self.catch_up(live)
                await self._tell("loaded", live)  # the hall names the seats anew
            live.broadcast_state(self.clock.now())
        elif kind == "chat":
            self._tell_chat(live, event)
        elif kind == "continue":
            await self._went_on(live, event)
        elif kind == "presence":
            seats = event.get("seats")
            if isinstance(seats, list):
                self._set_remote(live, origin, frozenset(int(s) for s in seats))
        elif kind == "ask":  # a process loaded the game: what it cannot read in the store
            if live.connections:
                await self._say_presence(live)
            pause = live.pause
            if pause is not None and pause.gone_on and not live.over:
                event = self.bus.event(
                    "continue", live.id, version=live.version, seats=sorted(pause.gone_on)
                )
                await self._publish(event)

    def _set_remote(self, live: LiveGame, origin: str, seats: frozenset[int]) -> None:
        """The seats connected to the process ``origin`` are now ``seats``."""
        before = live.connected()
        if seats:
            live.remote[origin] = seats
        else:
            live.remote.pop(origin, None)
        now = self.clock.now()
        live.note_presence(now)
        if live.connected() != before:
            live.broadcast_presence(now)

    def _forget_process(self, origin: str) -> None:
        """The process ``origin`` stopped or has gone silent: nobody is connected through it."""
        self._heard.pop(origin, None)
        for live in list(self.games.values()):
            if origin in live.remote:
                self._set_remote(live, origin, frozenset())

    async def _heartbeat(self) -> None:
        """Tell the other processes this one lives, and forget those silent too long (a killed
        process says nothing: its players' presence goes with its silence)."""
        while True:
            await self._publish(self.bus.event("alive", ""))
            await asyncio.sleep(HEARTBEAT_SECONDS)
            silent = time.monotonic() - SILENT_BEATS * HEARTBEAT_SECONDS
            for origin, heard in list(self._heard.items()):
                if heard < silent:
                    log.warning(
                        "process %s of the hall is silent; its presence is forgotten", origin
                    )
                    self._forget_process(origin)

    def _take(self, live: LiveGame, entry: ActionRow, now: int) -> None:
        """Take in an entry another process committed (checked once, there), made at ``now``."""
        live.advance(entry, now)
        if entry.kind == "action":
            self._pause_if_due(live, now)
        if live.over:
            self.computers.forget(live.id)
            # The listeners hear of it here too (the hall rates a game once: the database
            # claims the rating in the same transaction, whichever process gets there first).
            self._spawn(self._tell("finished", live))

    async def catch_up(self, live: LiveGame) -> None:
        """Load what other processes stored of ``live`` since its version (its log, seats
        held, its rematch) and tell this process's clients."""
        found = await self.db(self.store.since, live.id, live.version)
        if found is None:
            return
        row, holders, entries = found
        changed = False
        now = self.clock.now()
        for stored in entries:
            if stored.number != live.version + 1 or live.played.ended is not None:
                continue
            self._take(live, stored, now)
            changed = True
        if row.rematch != live.row.rematch:
            live.row.rematch = row.rematch
            changed = True
        live.set_holders(holders)
        for connection in live.connections:
            if connection.identity is not None:
                connection.seats = live.seats_for(connection.identity)
        if changed:
            live.broadcast_state(now)

    async def _catch_up_all(self) -> None:
        """After events may have been missed: every game in memory catches up."""
        for live in list(self.games.values()):
            async with live.lock:
                await self.catch_up(live)

    # --- memory ---

    async def _sweeper(self) -> None:
        every = max(0.05, min(30.0, self.settings.idle_seconds / 2))
        while True:
            await asyncio.sleep(every)
            self.sweep()

    def sweep(self, now: float | None = None) -> list[str]:
        """Let idle games leave memory: those unused for ``idle_seconds``, then the longest
        unused past ``max_live_games``. Returns the ids that left (they load again on demand)."""
        now = time.monotonic() if now is None else now
        idle = sorted((live.used, live.id) for live in self.games.values() if live.idle())
        gone = [game_id for used, game_id in idle if now - used >= self.settings.idle_seconds]
        over = len(self.games) - len(gone) - self.settings.max_live_games
        if over > 0:
            gone += [game_id for _, game_id in idle if game_id not in gone][:over]
        for game_id in gone:
            self.games.pop(game_id, None)
        return gone


def outcome_dump(live: LiveGame, outcome: Outcome | None) -> dict[str, Any] | None:
    return outcome_info(live.game, outcome).model_dump() if outcome is not None else None


def _event_entry(event: Event) -> ActionRow | None:
    """The log entry an ``action`` event of another process carries, or None when it does not
    carry it whole (a long text, or something malformed: then it is loaded from the store)."""
    text, mover, kind, clock = (event.get(k) for k in ("action", "mover", "entry", "clock"))
    if not isinstance(text, str) or not isinstance(mover, int) or not isinstance(kind, str):
        return None
    if clock is not None and not (
        isinstance(clock, list) and all(c is None or isinstance(c, int) for c in clock)
    ):
        return None
    return ActionRow(
        event["version"], text, mover, now_text(), kind, tuple(clock) if clock else None
    )


__all__ = ["AgentFactory", "Connection", "Hub", "LiveGame", "new_game_id", "replay"]
