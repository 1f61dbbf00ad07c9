"""The authoritative game server behind the web app: live games, moves, chance and computers.

One :class:`Hub` per app, given its store, its :class:`~gamehall.web.base.settings.Settings` (and
its computer players): it keeps each game that is in play as a
:class:`~gamehall.web.play.live.LiveGame` and is the only writer of the store. The order of an
accepted action is always: the :func:`~gamehall.web.play.referee.referee` accepts it (the rules
engine's checked door), it is committed to the store, then the state changes in memory and every
client is told. A refused request raises :class:`~gamehall.protocol.ProtocolError` and changes
nothing. Chance and computer moves follow each other until a human seat is to move or the game ends.

That order is the hub's own. The rest is done by objects it holds, given what they need (the
store, the bus, the clock, the settings, and the hub's own steps as callables), as the hub is given
its store, bus and clock: :class:`~gamehall.web.play.pools.Pools` (the store's threads),
:class:`~gamehall.web.play.committer.Committer` (each entry stored under its version check, many
at once), :class:`~gamehall.web.play.processes.Processes` (the other processes of a hall on one
PostgreSQL store), :class:`~gamehall.web.play.arbiter.Arbiter` (pauses, resigning, aborting,
takebacks, claims, and the timer), :class:`~gamehall.web.play.chat.Chats` (the players' and the
spectators' chat), :class:`~gamehall.web.play.scheduling.Scheduler` (when the computers move;
they think off the event loop), :class:`~gamehall.web.play.clients.Clients` (the clients, their
messages and rates), :class:`~gamehall.web.play.tables.Tables` (new games, rematches, invites)
and :class:`~gamehall.web.play.memory.Memory` (idle games leave, broken ones are set aside).

Clients are :class:`~gamehall.web.play.connection.Connection` objects on any transport, and
:meth:`Hub.receive` handles one client message, so the hub runs (and is tested) without a web
framework. Loading a stored game replays its log through the engine's trusted path (each action
was checked once, when it was played) on a thread, within ``load_seconds``; a game that does not
replay, or not in time, is quarantined, while every other game is served.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from gamehall.core import CHANCE, Action, Game, Outcome, game_class
from gamehall.protocol import ErrorCode, Move, ProtocolError
from gamehall.store.bus import Bus, LocalBus
from gamehall.store.rows import ActionRow, GameRow
from gamehall.web.base.clock import Clock, SystemClock, TimeControl
from gamehall.web.base.engine import (
    chance_rng,
    check_rules_version,
    draw_chance,
    game_of,
    outcome_info,
    replay,
    start_state,
)
from gamehall.web.base.limits import quote
from gamehall.web.base.settings import Settings
from gamehall.web.compute.computers import AgentFactory, Computers
from gamehall.web.play.arbiter import PAUSE_VS_COMPUTER_MS, Arbiter, flag_is_due, pause_if_due
from gamehall.web.play.chat import CHAT_STORED, Chats
from gamehall.web.play.clients import Clients
from gamehall.web.play.committer import Committer
from gamehall.web.play.connection import Connection
from gamehall.web.play.history import (
    ENDINGS,
    Ending,
    Played,
    ReplayTimeout,
    replay_log,
    takeback_count,
)
from gamehall.web.play.live import LiveGame
from gamehall.web.play.memory import Memory, quarantined
from gamehall.web.play.pools import Pools
from gamehall.web.play.processes import Processes, publish
from gamehall.web.play.referee import referee
from gamehall.web.play.scheduling import Scheduler
from gamehall.web.play.tables import GAME_ID, Tables, invite_seat, new_game_id

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


ANALYSIS_LANES = {"hint": 1, "review": 1}
"""The lanes of analysis jobs beside the computers' and their workers (processes under
``gamehall serve``): a review never holds up a hint, and neither holds up a computer move."""


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
        self._tasks: set[asyncio.Task[Any]] = set()
        self.listeners: list[HubListener] = []
        self.resumed = asyncio.Event()
        """Set once the games waiting for the server at start have been resumed (or set aside)."""
        self.warmed_in = 0.0
        """How long the computer workers took to load the solvers' kernels at start (once
        they have: they warm up in the background while the server serves, :meth:`warm`)."""

        # The pieces, each given the hub's steps it calls back into (built in the order they
        # need each other: the arbiter and the chat before the processes that tell them).
        clock, bus, spawn = self.clock, self.bus, self._background
        tell_others = partial(publish, bus)
        self.pools = Pools(store.is_sqlite)
        self.chats = Chats(store, bus, settings, db=self.db, seconds=self._seconds)
        self.arbiter = Arbiter(
            clock,
            bus,
            publish=tell_others,
            entry=self._entry,
            chance=self._chance,
            after=self._after,
            background=spawn,
        )
        self.processes = Processes(
            store,
            bus,
            clock,
            self.games,
            db=self.db,
            background=spawn,
            loaded=partial(self._tell, "loaded"),
            finished=self._finished,
            arm=self.arbiter.arm,
            went_on=self.arbiter.went_on,
            chat=self.chats.tell,
        )
        bus.subscribe(self.processes.on_event)
        bus.on_reconnect(self.processes.catch_up_all)
        self.committer = Committer(
            store,
            bus,
            settings,
            commit_db=self.pools.commit_db,
            committers=self.pools.committers,
            background=spawn,
            catch_up=self.processes.catch_up,
        )
        self.scheduler = Scheduler(
            self.computers,
            background=spawn,
            chance=self._chance,
            commit=self._commit,
            arm=self.arbiter.arm,
        )
        self.clients = Clients(
            settings,
            clock,
            self,
            seconds=self._seconds,
            tell_presence=self.processes.tell_presence,
            chat_history=self.chats.send_history,
        )
        self.tables = Tables(
            store,
            bus,
            settings,
            self.computers,
            clock,
            db=self.db,
            publish=tell_others,
            insert=self._insert,
            get=self.get,
        )
        self.memory = Memory(
            store, settings, self.games, db=self.db, clock=clock, wake=self.get,
            spawn=self._background,
        )  # fmt: skip

    @property
    def connections(self) -> int:
        """WebSocket connections held now."""
        return self.clients.connections

    @property
    def commits(self) -> int:
        """Transactions that stored entries (fewer than the entries: group commit)."""
        return self.committer.commits

    # --- life ---

    async def start(self) -> None:
        self.pools.start()
        # The workers warm up in the background: pages are served meanwhile, and a computer
        # move asked for before they are ready waits for them (Computers.choose).
        await self.computers.start()
        await self.bus.start()
        self._background(self._resume_pending())
        self._background(self.memory.sweeper())
        if self.bus.shared:
            self._background(self.processes.heartbeat())

    async def warm(self) -> float:
        """Wait until the computer workers are warm; the seconds their warm-up took."""
        self.warmed_in = await self.computers.warm()
        return self.warmed_in

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
            await self.processes.leave()
        await self.bus.stop()
        self.pools.stop()
        self.store.dispose()

    def _background(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def db(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call on the store threads, off the event loop."""
        return await self.pools.db(function, *args, **kwargs)

    def _seconds(self) -> float:
        """The hub's clock in seconds, for the rate tables of chat and takebacks."""
        return self.clock.now() / 1000

    # --- games ---

    async def get(self, game_id: str) -> LiveGame:
        """The live game ``game_id``, loaded from the store (and resumed) if need be. A malformed
        or unknown id leaves nothing behind."""
        live = self.games.get(game_id)
        if live is not None:
            live.touch()
            if self.bus.shared:  # another process may have moved meanwhile, or died
                async with live.lock:
                    await self.processes.catch_up(live)
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
            await self.processes.publish(self.bus.event("ask", game_id))
        return live

    async def _load(self, game_id: str) -> LiveGame:
        row = await self.db(self.store.get_game, game_id)
        if row is None:
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, f"there is no game {game_id}")
        if row.problem:
            raise quarantined(game_id, row.problem)
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
            refusal = await self.memory.quarantine(game_id, error)
            raise refusal from None
        control = TimeControl.parse(row.clock) if row.clock else None
        live = LiveGame(row, game, played, now=self.clock.now(), control=control)
        live.set_holders(holders)
        self.memory.woken(live)  # left with its clock running: the clock ran on meanwhile
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
        """Make and store a new game (see :meth:`Tables.create`); returns it and the seats the
        creator holds."""
        return await self.tables.create(
            game_name=game_name,
            options=options,
            mode=mode,
            seat=seat,
            level=level,
            player_id=player_id,
            start=start,
            address=address,
            clock=clock,
        )

    async def rematch(
        self, live: LiveGame, held: frozenset[int], player_id: str, address: str = ""
    ) -> tuple[LiveGame, frozenset[int]]:
        """A new game like ``live``, the seats turned round (see :meth:`Tables.rematch`)."""
        return await self.tables.rematch(live, held, player_id, address)

    async def _insert(self, row: GameRow, game: Game, holders: list[tuple[str, int]]) -> LiveGame:
        """Store a new game, then hold it in memory, tell the listeners and start it."""
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
        """Take the seat an invite secret names (see :meth:`Tables.claim`); with every person
        seated, the first move's time starts (the timer is armed)."""
        seats = await self.tables.claim(live, player_id, token)
        self._after(live)
        return seats

    @staticmethod
    def invite_seat(live: LiveGame, player_id: str | None) -> int | None:
        """The free seat whose invite the browser ``player_id`` may show, if any."""
        return invite_seat(live, player_id)

    # --- clients ---

    def attach(self, live: LiveGame, connection: Connection) -> None:
        """Add a client to a game (ProtocolError(over_limit) when the server holds too many)."""
        self.clients.attach(live, connection)

    async def detach(self, live: LiveGame, connection: Connection) -> None:
        await self.clients.detach(live, connection)

    async def receive(self, live: LiveGame, connection: Connection, text: str | bytes) -> None:
        """Handle one message from a client: answer it, or do what it asks."""
        await self.clients.receive(live, connection, text)

    # --- moving: accept, commit, tell ---

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
                if running is not None and running in seats and flag_is_due(live, self.clock.now()):
                    await self.arbiter.end(live, "flag", running)
                    raise ProtocolError(
                        ErrorCode.GAME_OVER, "your time ran out before the move arrived"
                    )
                action = referee(live.state, live.version, seats, message)
                await self._commit(live, action, live.state.current_player)
                await self._chance(live)
        finally:
            self._after(live)

    async def _commit(self, live: LiveGame, action: Action, mover: int) -> None:
        """Store the action, then apply it and tell everyone (the caller holds the lock)."""
        now = self.clock.now()
        next_state = live.state.apply_trusted(action)
        clocks = live.clocks_after(now, mover)
        over = next_state.is_terminal()
        outcome = next_state.outcome()
        entry = await self.committer.commit(
            live,
            "action",
            str(action),
            mover,
            now=now,
            clocks=clocks,
            over=over,
            result=outcome_dump(live, outcome),
            pending=not over
            and (
                live.server_to_move(next_state)
                or live.control is not None
                or live.watches_first_moves()  # its abort deadline: watched after a restart
            ),
        )
        live.advance(entry, now, next_state)
        pause_if_due(live, now)
        live.broadcast_state(now)
        if over:
            self._finished(live)

    async def _entry(self, live: LiveGame, kind: str, text: str, mover: int) -> None:
        """Store an entry around the game's actions (an offer, a takeback, an ending), then
        take it into memory and tell everyone (the caller holds the lock)."""
        now = self.clock.now()
        clocks = live.clocks_after(now, None)
        ending = kind in ENDINGS
        result = None
        if ending:
            result = Ending.of(kind, mover, text).outcome(live.game).model_dump()
            if kind == "flag" and clocks is not None:
                clocks[mover] = 0
        entry = await self.committer.commit(
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
            self._finished(live)

    def _pending_after(self, live: LiveGame, kind: str, text: str) -> bool:
        """Whether the server has something to do after an entry that does not end the game."""
        if live.control is not None or live.watches_first_moves():
            return True
        if kind != "takeback":
            return live.server_to_move()
        return live.server_to_move(live.played.states[-1 - takeback_count(text)])

    async def _chance(self, live: LiveGame) -> None:
        """Draw and commit chance outcomes until someone is to move, or until the game says the
        players should look first (a pause) (the caller holds the lock)."""
        while live.state.is_chance_node() and not live.over:
            if live.pause is not None:
                return
            if pause_if_due(live, self.clock.now()):  # after a restart
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
        self.scheduler.schedule(live)
        self.arbiter.arm(live)

    def _finished(self, live: LiveGame) -> None:
        """The game is over (its final entry is stored): its computers are forgotten, and the
        listeners are told (the hall rates it)."""
        self.computers.forget(live.id)
        self._background(self._tell("finished", live))

    async def _tell(self, event: str, live: LiveGame) -> None:
        """Tell every listener of ``event`` (one that fails is logged, never the caller's
        problem: the game itself is stored and told already)."""
        for listener in self.listeners:
            try:
                tell = listener.loaded if event == "loaded" else listener.finished
                await tell(live)
            except Exception:
                log.exception("a listener failed on %s of %s", event, live.id)

    # --- around the moves, chat, memory: the arbiter, the chat and the memory ---

    async def go_on(self, live: LiveGame, seats: frozenset[int], version: int) -> None:
        """Seats go on from a pause; when every seat has, chance goes on."""
        await self.arbiter.go_on(live, seats, version)

    async def resign(self, live: LiveGame, seats: frozenset[int]) -> None:
        await self.arbiter.resign(live, seats)

    async def abort(self, live: LiveGame, seats: frozenset[int]) -> None:
        await self.arbiter.abort(live, seats)

    async def takeback(self, live: LiveGame, seats: frozenset[int], op: str) -> None:
        await self.arbiter.takeback(live, seats, op)

    async def claim_win(self, live: LiveGame, seats: frozenset[int]) -> None:
        """A player claims the win: the opponent has been gone past the grace period."""
        await self.arbiter.claim_win(live, seats)

    async def chat(self, live: LiveGame, connection: Connection, text: str) -> None:
        """Store a chat message and tell the writer's room."""
        # The bound is looked up at each message, not fixed when the hub is made, so it can be
        # lowered on a running server (the tests do).
        await self.chats.say(live, connection, text, most=CHAT_STORED)

    def sweep(self, now: float | None = None) -> list[str]:
        """Let idle games leave memory (see :meth:`Memory.sweep`); returns the ids that left."""
        return self.memory.sweep(now)


def outcome_dump(live: LiveGame, outcome: Outcome | None) -> dict[str, Any] | None:
    return outcome_info(live.game, outcome).model_dump() if outcome is not None else None


__all__ = [
    "PAUSE_VS_COMPUTER_MS",
    "AgentFactory",
    "Connection",
    "Hub",
    "HubListener",
    "LiveGame",
    "new_game_id",
    "replay",
]
