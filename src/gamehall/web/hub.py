"""The authoritative game server behind the web app: live games, moves, chance and computers.

One :class:`Hub` per app, given its store, its :class:`~gamehall.web.settings.Settings` (and its
computer players): it keeps each game that is in play as a :class:`~gamehall.web.live.LiveGame`
and is the only writer of the store. The order of an accepted action is always: the
:func:`~gamehall.web.referee.referee` accepts it (the rules engine's checked door), it is
committed to the store, then the state changes in memory and every client is told. A refused
request raises :class:`~gamehall.web.protocol.ProtocolError` and changes nothing.

Chance and computer moves follow each other until a human seat is to move or the game ends;
computers think off the event loop (:mod:`gamehall.web.computers`). Clients are
:class:`~gamehall.web.live.Connection` objects on any transport, and :meth:`Hub.receive` handles
one client message, so the hub runs (and is tested) without a web framework.

Loading a stored game replays its actions through the engine's trusted path (each was checked
once, when it was played) on a thread, within ``load_seconds``; a game that does not replay, or
not in time, is *quarantined*: marked in the store with the reason, logged, and answered with
``quarantined`` from then on, while every other game is served. Games nobody uses leave memory
after ``idle_seconds`` (and past ``max_live_games``) and are loaded again when asked for.
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
from typing import Any, TypeVar

from gamehall.core import (
    CHANCE,
    Action,
    Game,
    GamehallError,
    State,
    UnknownGameError,
    game_class,
)
from gamehall.store import GameRow, Seat, Store, now_text
from gamehall.web.computers import AgentFactory, Computers
from gamehall.web.engine import (
    chance_rng,
    check_rules_version,
    derived_seed,
    draw_chance,
    game_of,
    outcome_info,
    replay,
    start_state,
)
from gamehall.web.limits import (
    Rate,
    RateTable,
    check_length,
    check_options,
    over_limit,
    quote,
    shorten_echoes,
)
from gamehall.web.live import Connection, LiveGame
from gamehall.web.protocol import (
    ErrorCode,
    ErrorMessage,
    Hello,
    Move,
    Ping,
    PongMessage,
    ProtocolError,
    Resync,
    parse_client_message,
)
from gamehall.web.referee import referee
from gamehall.web.settings import Settings

log = logging.getLogger("gamehall.web")

T = TypeVar("T")

_ID_ALPHABET = string.ascii_letters + string.digits + "-_"
GAME_ID = re.compile(r"g_[A-Za-z0-9_-]{10}")
"""What a game id looks like; anything else is no game, and is not looked up."""
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


class LoadTimeout(Exception):
    """Replaying a stored game took longer than ``load_seconds``."""


def replay_within(
    game: Game, texts: Sequence[str], deadline: float, setup: str | None = None
) -> State:
    """The state after ``texts`` from the start (the ``setup`` position, if any) by the trusted
    path, or LoadTimeout past ``deadline`` (a ``time.monotonic()`` value)."""
    state = start_state(game, setup)
    for number, text in enumerate(texts):
        if number % 64 == 0 and time.monotonic() > deadline:
            raise LoadTimeout(f"replaying took longer than the limit, at action {number + 1}")
        state = state.apply_trusted(game.parse_action(text))
    return state


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
    ) -> None:
        self.store = store
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
        self._tasks: set[asyncio.Task[Any]] = set()
        per_minute = settings.games_per_minute
        self._made = RateTable(per_minute / 60, per_minute)
        wide = per_minute * settings.address_factor
        self._made_at = RateTable(wide / 60, wide)
        self.connections = 0
        """WebSocket connections held now."""
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
        await self.computers.start()
        self.warmed_in = await self.computers.warm()  # before any computer move is offered
        self._background(self._resume_pending())
        self._background(self._sweeper())

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
        if self._db_pool is not None:
            self._db_pool.shutdown(wait=True)
        self.store.dispose()

    def _background(self, coroutine: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def db(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call on the store thread, off the event loop."""
        assert self._db_pool is not None, "the hub is not started"
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_pool, partial(function, *args, **kwargs))

    # --- games ---

    async def get(self, game_id: str) -> LiveGame:
        """The live game ``game_id``, loaded from the store (and resumed) if need be. A malformed
        or unknown id leaves nothing behind."""
        live = self.games.get(game_id)
        if live is not None:
            live.touch()
            return live
        if not GAME_ID.fullmatch(game_id):
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, f"there is no game {quote(game_id)}")
        loading = self._loading.get(game_id)
        if loading is not None:  # someone else is loading it: wait for the same result
            return await asyncio.shield(loading)
        loading = self._loading[game_id] = asyncio.get_running_loop().create_future()
        try:
            live = await self._load(game_id)
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
        texts = [a.text for a in stored]
        seconds = self.settings.load_seconds
        deadline = time.monotonic() + seconds

        def build() -> tuple[Game, State]:
            game = game_of(row.game, row.options)
            return game, replay_within(game, texts, deadline, row.setup)

        try:
            game, state = await asyncio.wait_for(asyncio.to_thread(build), seconds + 1.0)
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
        live = LiveGame(row, game, state, texts, [a.mover for a in stored])
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
    ) -> tuple[LiveGame, frozenset[int]]:
        """Make and store a new game for the browser ``player_id`` (an identity key); returns
        it and the seats the creator holds. ``start`` is a game and the text of a position of it
        the server found itself (never a client's text), to start from there instead of the
        beginning: then ``game_name`` and ``options`` are not used."""
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
        if not live.state.is_terminal():
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
            setup=live.row.setup,  # a rematch starts where its game started
        )
        holders = [(p, new_index(s)) for p, s in await self.db(self.store.holders, live.id)]
        async with live.lock:
            if live.row.rematch:  # another request made it meanwhile
                return await self.get(live.row.rematch), mapped
            self._check_made(player_id, address)
            new = await self._insert(row, live.game, holders)
            live.row.rematch = new.id
        live.broadcast_state()
        return new, mapped

    async def _insert(self, row: GameRow, game: Game, holders: list[tuple[str, int]]) -> LiveGame:
        try:
            await self.db(self.store.create_game, row, holders)
        except Exception as error:
            log.exception("cannot store a new game")
            raise ProtocolError(
                ErrorCode.STORE_ERROR, f"the game could not be stored: {error}"
            ) from None
        live = LiveGame(row, game, start_state(game, row.setup), [], [])
        live.set_holders(holders)
        self.games[row.id] = live
        await self.resume(live)
        return live

    # --- seats ---

    async def claim(self, live: LiveGame, player_id: str, token: str) -> frozenset[int]:
        """Take the seat an invite secret names, for the browser ``player_id``: the first to
        open the link holds it; the link is spent after that (see gamehall.web.identity)."""
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
        return live.seats_for(player_id)

    @staticmethod
    def invite_seat(live: LiveGame, player_id: str | None) -> int | None:
        """The free seat whose invite the browser ``player_id`` may show: an online game's human
        seat no one holds yet, for a browser that holds another seat; else None."""
        if live.row.mode != "online" or not live.seats_for(player_id) or live.state.is_terminal():
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
        before = live.connected()
        live.connections.add(connection)
        live.touch()
        connection.start()
        if live.connected() != before:
            live.broadcast_presence()

    async def detach(self, live: LiveGame, connection: Connection) -> None:
        before = live.connected()
        if connection in live.connections:
            self.connections -= 1
        live.connections.discard(connection)
        live.touch()
        await connection.stop()
        if live.connected() != before:
            live.broadcast_presence()

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
        live.send_state(connection, start)

    async def receive(self, live: LiveGame, connection: Connection, text: str | bytes) -> None:
        """Handle one message from a client: answer it, or play its move."""
        if not self._within_rate(connection):
            return
        live.touch()
        try:
            message = parse_client_message(text)
            if isinstance(message, Hello):
                self._send_state(live, connection, message.version)
            elif isinstance(message, Resync):
                self._send_state(live, connection, None)
            elif isinstance(message, Ping):
                connection.send(PongMessage())
            else:
                longest = self.settings.max_action_chars
                if len(message.action) > longest:
                    raise ProtocolError(
                        ErrorCode.BAD_MESSAGE,
                        f"an action is at most {longest} characters (limit max_action_chars), "
                        f"not {len(message.action)}",
                    )
                await self.move(live, connection.seats, message)
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
        async with live.lock:
            action = referee(live.state, live.version, seats, message)
            await self._commit(live, action, live.state.current_player)
            await self._chance(live)
        self._schedule(live)

    async def _commit(self, live: LiveGame, action: Action, mover: int) -> None:
        """Store the action, then apply it and tell everyone (the caller holds the lock)."""
        number = live.version + 1
        if number > self.settings.max_actions:
            raise ProtocolError(
                ErrorCode.GAME_TOO_LONG,
                f"the game has {live.version} actions, the most this server plays "
                "(limit max_actions)",
            )
        next_state = live.state.apply_trusted(action)
        text = str(action)
        outcome = next_state.outcome()
        result = outcome_info(live.game, outcome).model_dump() if outcome is not None else None
        try:
            await self.db(
                self.store.append_action,
                live.id,
                number,
                text,
                mover,
                status="finished" if next_state.is_terminal() else "ongoing",
                result=result,
                pending=live.server_to_move(next_state),
            )
        except Exception as error:
            log.exception("cannot store action %d of %s", number, live.id)
            raise ProtocolError(
                ErrorCode.STORE_ERROR, f"the move could not be stored: {error}"
            ) from None
        live.advance(next_state, text, mover)
        live.broadcast_state()
        if next_state.is_terminal():
            self.computers.forget(live.id)

    async def _chance(self, live: LiveGame) -> None:
        """Draw and commit chance outcomes until someone is to move (the caller holds the lock)."""
        while live.state.is_chance_node():
            # Drawing may be slow for some games (listing every outcome): off the event loop.
            action = await asyncio.to_thread(
                draw_chance, live.state, chance_rng(live.row.seed, live.version)
            )
            await self._commit(live, action, CHANCE)

    async def resume(self, live: LiveGame) -> None:
        """Carry on a game whose next action is the server's (after creation or a restart)."""
        if not live.server_to_move():
            return
        async with live.lock:
            try:
                await self._chance(live)
            except ProtocolError as error:
                log.error("chance in %s: %s", live.id, error.message)
                return
        self._schedule(live)

    def _schedule(self, live: LiveGame) -> None:
        if live.server_to_move() and (live.thinking is None or live.thinking.done()):
            live.thinking = self._background(self._computers(live))

    async def _computers(self, live: LiveGame) -> None:
        """Computer seats move (chance in between) until a person is to move or the game ends."""
        try:
            while True:
                async with live.lock:
                    await self._chance(live)
                    if not live.server_to_move():
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
        except asyncio.CancelledError:
            raise
        except ProtocolError as error:
            log.error("computer move in %s failed: %s", live.id, error.message)
        except Exception:
            log.exception("computer move in %s failed", live.id)

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


__all__ = ["AgentFactory", "Connection", "Hub", "LiveGame", "new_game_id", "replay"]
