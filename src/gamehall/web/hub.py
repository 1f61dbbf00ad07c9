"""The authoritative game server behind the web app: live games, moves, chance and computers.

One :class:`Hub` per app, given its store (and its computer players): it keeps each game that is
in play as a :class:`~gamehall.web.live.LiveGame` and is the only writer of the store. The order
of an accepted action is always: the :func:`~gamehall.web.referee.referee` accepts it (the rules
engine's checked door), it is committed to the store, then the state changes in memory and every
client is told. A refused request raises :class:`~gamehall.web.protocol.ProtocolError` and
changes nothing.

Chance and computer moves follow each other until a human seat is to move or the game ends;
computers think off the event loop (:mod:`gamehall.web.computers`). Where the game says people
should look before chance goes on (:meth:`gamehall.core.State.pause`: a round is over), chance
waits until every person seated sends ``continue``, or :data:`PAUSE_VS_COMPUTER_MS` against the
computer and :data:`PAUSE_BETWEEN_PEOPLE_MS` otherwise. Resigning, aborting, takebacks and claims
(:mod:`gamehall.web.conduct`) are entries of the game's log like moves (:mod:`gamehall.web.history`),
committed before anyone is told. Clocks (:mod:`gamehall.web.clock`) are measured with the hub's
:class:`~gamehall.web.clock.Clock`; a timer per game ends it on time, whether or not anyone is
connected. Chat goes to the players' room or the spectators' (:mod:`gamehall.web.chat`).

Clients are :class:`~gamehall.web.live.Connection` objects on any transport, and
:meth:`Hub.receive` handles one client message, so the hub runs (and is tested) without a web
framework.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import string
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from gamehall.core import (
    CHANCE,
    Action,
    Game,
    GamehallError,
    Outcome,
    UnknownGameError,
    game_class,
)
from gamehall.store import ActionRow, GameRow, Seat, Store, now_text
from gamehall.web import conduct
from gamehall.web.chat import CHAT_HISTORY, CHAT_STORED, RateLimit, clean, room_of
from gamehall.web.clock import Clock, ClockError, SystemClock, TimeControl, flag_due, time_left
from gamehall.web.computers import AgentFactory, Computers
from gamehall.web.engine import (
    chance_rng,
    check_rules_version,
    derived_seed,
    draw_chance,
    game_of,
    outcome_info,
    replay,
    safe_options,
)
from gamehall.web.history import ENDINGS, Ending, Played, replay_log, takeback_count, takeback_text
from gamehall.web.live import Connection, LiveGame, Pause
from gamehall.web.protocol import (
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
from gamehall.web.referee import referee

log = logging.getLogger("gamehall.web")

T = TypeVar("T")

_ID_ALPHABET = string.ascii_letters + string.digits + "-_"


def new_game_id() -> str:
    """``g_`` and 10 url-safe characters."""
    return "g_" + "".join(secrets.choice(_ID_ALPHABET) for _ in range(10))


def new_token() -> str:
    return secrets.token_urlsafe(18)


PAUSE_VS_COMPUTER_MS = 8_000
"""Against the computer, a round's end shows this long (or until the player goes on)."""
PAUSE_BETWEEN_PEOPLE_MS = 120_000
"""Between people, a round's end waits for every player, but no longer than this."""


def parse_clock(text: str | None) -> TimeControl | None:
    """A game's time control from the creation body (None: no clock)."""
    if text is None or not text.strip():
        return None
    try:
        return TimeControl.parse(text)
    except ClockError as error:
        raise ProtocolError(ErrorCode.BAD_CLOCK, str(error)) from None


class Hub:
    """Every live game of one server, its store, and the workers for the store and computers."""

    def __init__(
        self,
        store: Store,
        *,
        agent_factory: AgentFactory | None = None,
        processes: bool = False,
        agent_workers: int | None = None,
        computers: Computers | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self.computers = computers or Computers(
            agent_factory, processes=processes, workers=agent_workers
        )
        self.games: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._db_pool: ThreadPoolExecutor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    # --- life ---

    async def start(self) -> None:
        # SQLite has one writer at a time: one store thread keeps writes in order, uncontended.
        self._db_pool = ThreadPoolExecutor(
            max_workers=1 if self.store.is_sqlite else 8, thread_name_prefix="gamehall-store"
        )
        self.computers.start()
        for game_id in await self.db(self.store.pending_games):
            try:
                await self.get(game_id)  # loading a game resumes its chance and computer moves
            except ProtocolError as error:
                log.error("cannot resume game %s: %s", game_id, error.message)
            except Exception:  # one broken game must not keep the server from starting
                log.exception("cannot resume game %s", game_id)

    async def stop(self) -> None:
        for live in self.games.values():
            for connection in list(live.connections):
                await connection.stop()
        tasks = [t for t in self._tasks if not t.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.computers.stop()
        if self._db_pool is not None:
            self._db_pool.shutdown(wait=True)
        self.store.dispose()

    async def db(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call on the store thread, off the event loop."""
        assert self._db_pool is not None, "the hub is not started"
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_pool, partial(function, *args, **kwargs))

    # --- games ---

    async def get(self, game_id: str) -> LiveGame:
        """The live game ``game_id``, loaded from the store (and resumed) if need be."""
        live = self.games.get(game_id)
        if live is not None:
            return live
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            live = self.games.get(game_id)
            if live is not None:
                return live
            live = await self._load(game_id)
            self.games[game_id] = live
        self._loading.pop(game_id, None)
        await self.resume(live)
        return live

    async def _load(self, game_id: str) -> LiveGame:
        if not game_id.startswith("g_") or len(game_id) > 32:
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, f"there is no game {game_id!r}")
        row = await self.db(self.store.get_game, game_id)
        if row is None:
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, f"there is no game {game_id!r}")
        stored = await self.db(self.store.actions, game_id)
        try:
            check_rules_version(game_id, game_class(row.game), row.rules_version)
            game = game_of(row.game, row.options)
            played = replay_log(game, stored)
            control = TimeControl.parse(row.clock) if row.clock else None
        except (GamehallError, ValueError) as error:
            log.error("game %s does not replay: %s", game_id, error)
            raise ProtocolError(
                ErrorCode.BAD_GAME, f"game {game_id} cannot be replayed: {error}"
            ) from None
        return LiveGame(row, game, played, now=self.clock.now(), control=control)

    async def create(
        self,
        *,
        game_name: str,
        options: dict[str, Any],
        mode: str,
        seat: int,
        level: str,
        player_id: str,
        clock: str | None = None,
    ) -> tuple[LiveGame, frozenset[int]]:
        """Make and store a new game; returns it and the seats the creator holds."""
        try:
            cls = game_class(game_name)
        except UnknownGameError as error:
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, str(error)) from None
        control = parse_clock(clock)
        safe_options(cls, options)
        try:
            game = cls(**options)
        except GamehallError as error:
            raise ProtocolError(ErrorCode.BAD_OPTION, str(error)) from None
        players = game.num_players
        if not 0 <= seat < players:
            raise ProtocolError(
                ErrorCode.BAD_SEAT,
                f"seat {seat} does not exist; {game.name} has seats 0 to {players - 1}",
            )
        if mode == "computer":
            self.computers.check_level(level)
            seats = [
                Seat("human", new_token()) if i == seat else Seat("computer", "", level)
                for i in range(players)
            ]
            held = frozenset({seat})
        else:
            seats = [Seat("human", new_token()) for _ in range(players)]
            held = frozenset(range(players)) if mode == "hotseat" else frozenset({seat})
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
        )
        return await self._insert(row, game, [(player_id, s) for s in sorted(held)]), held

    async def rematch(
        self, live: LiveGame, held: frozenset[int]
    ) -> tuple[LiveGame, frozenset[int]]:
        """A new game like ``live`` (same options and mode) with the seats turned round one
        place (swapped, for two players); every holder keeps their person's seat. Asking twice
        gives the same new game."""
        if not held:
            raise ProtocolError(
                ErrorCode.NOT_YOUR_SEAT, "only a player of this game can ask for a rematch"
            )
        players = len(live.row.seats)

        def new_index(old: int) -> int:
            return (old + 1) % players if players > 1 else old

        mapped = frozenset(new_index(i) for i in held)
        if live.row.rematch:
            return await self.get(live.row.rematch), mapped
        seats: list[Seat] = [live.row.seats[0]] * players
        for old, seat in enumerate(live.row.seats):
            seats[new_index(old)] = Seat(seat.kind, seat.token, seat.level)
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
        )
        holders = [(p, new_index(s)) for p, s in await self.db(self.store.holders, live.id)]
        async with live.lock:
            if live.row.rematch:  # another request made it meanwhile
                return await self.get(live.row.rematch), mapped
            new = await self._insert(row, live.game, holders)
            live.row.rematch = new.id
        live.broadcast_state(self.clock.now())
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
        played = Played(game, [game.new_initial_state()])
        live = LiveGame(row, game, played, now=self.clock.now(), control=control)
        self.games[row.id] = live
        await self.resume(live)
        return live

    # --- clients ---

    def attach(self, live: LiveGame, connection: Connection) -> None:
        before = live.connected()
        live.connections.add(connection)
        connection.start()
        live.note_presence(self.clock.now())
        if live.connected() != before:
            live.broadcast_presence(self.clock.now())

    async def detach(self, live: LiveGame, connection: Connection) -> None:
        before = live.connected()
        live.connections.discard(connection)
        await connection.stop()
        live.note_presence(self.clock.now())
        if live.connected() != before:
            live.broadcast_presence(self.clock.now())

    async def receive(self, live: LiveGame, connection: Connection, text: str | bytes) -> None:
        """Handle one message from a client: answer it, or do what it asks."""
        seats = connection.seats
        try:
            message = parse_client_message(text)
            if isinstance(message, Hello | Resync):
                connection.send(live.state_text(seats, self.clock.now()))
                if isinstance(message, Hello):
                    await self.send_chat_history(live, connection)
            elif isinstance(message, Ping):
                connection.send(PongMessage())
            elif isinstance(message, Move):
                await self.move(live, seats, message)
            elif isinstance(message, Continue):
                await self.go_on(live, seats, message.version)
            elif isinstance(message, Resign):
                await self.resign(live, seats)
            elif isinstance(message, Abort):
                await self.abort(live, seats)
            elif isinstance(message, Takeback):
                await self.takeback(live, seats, message.op)
            elif isinstance(message, Claim):
                await self.claim(live, seats)
            elif isinstance(message, Chat):
                await self.chat(live, connection, message.text)
        except ProtocolError as error:
            connection.send(
                ErrorMessage(code=error.code, message=error.message, version=live.version)
            )
            if error.code == ErrorCode.STALE_VERSION:
                connection.send(live.state_text(seats, self.clock.now()))

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
        clocks: list[int | None] | None,
        over: bool,
        result: dict[str, Any] | None,
        pending: bool,
    ) -> ActionRow:
        number = live.version + 1
        try:
            await self.db(
                self.store.append_action,
                live.id,
                number,
                text,
                mover,
                status="finished" if over else "ongoing",
                result=result,
                pending=pending,
                kind=kind,
                clock=clocks,
            )
        except Exception as error:
            log.exception("cannot store entry %d (%s) of %s", number, kind, live.id)
            raise ProtocolError(
                ErrorCode.STORE_ERROR, f"the {kind} could not be stored: {error}"
            ) from None
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
        live.pause = Pause(reason, now + wait, set(live.humans()))
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
            clocks=clocks,
            over=ending,
            result=result,
            pending=False if ending else self._pending_after(live, kind, text),
        )
        live.advance(entry, now)
        live.broadcast_state(now)
        if ending:
            self.computers.forget(live.id)

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
                await self._chance(live)
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
            if pause.waiting:
                live.broadcast_state(self.clock.now())
            else:
                await self._release(live)
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

    async def claim(self, live: LiveGame, seats: frozenset[int]) -> None:
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
            log.error("the timer of %s failed: %s", live.id, error.message)
        except Exception:
            log.exception("the timer of %s failed", live.id)

    # --- chat ---

    async def chat(self, live: LiveGame, connection: Connection, text: str) -> None:
        """Store a chat message and tell the writer's room."""
        line = clean(text)
        if connection.chat_limit is None:
            connection.chat_limit = RateLimit(self.clock.now)
        connection.chat_limit.check()
        room = room_of(connection.seats)
        seat = None
        if connection.seats:
            player = live.state.current_player
            seat = conduct.acting_seat(connection.seats, player if player >= 0 else None)
        try:
            row = await self.db(self.store.add_chat, live.id, room, seat, line, CHAT_STORED)
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
            task = asyncio.get_running_loop().create_task(self._computers(live))
            live.thinking = task
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

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
                    actions = list(live.actions)
                    level = live.row.seats[player].level or "easy"
                seed = derived_seed(live.row.seed, "agent", player)
                text = await self.computers.choose(live.id, live.game, actions, player, level, seed)
                async with live.lock:
                    if live.version != version:
                        continue
                    try:
                        action = live.state.parse_action(text)
                    except GamehallError as error:
                        log.error("computer (%s) in %s chose badly: %s", level, live.id, error)
                        return
                    await self._commit(live, action, player)
                self._arm(live)
        except asyncio.CancelledError:
            raise
        except ProtocolError as error:
            log.error("computer move in %s failed: %s", live.id, error.message)
        except Exception:
            log.exception("computer move in %s failed", live.id)


def outcome_dump(live: LiveGame, outcome: Outcome | None) -> dict[str, Any] | None:
    return outcome_info(live.game, outcome).model_dump() if outcome is not None else None


__all__ = ["AgentFactory", "Connection", "Hub", "LiveGame", "new_game_id", "replay"]
