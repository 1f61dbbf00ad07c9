"""The authoritative game server behind the web app: live games, moves, chance and computers.

One :class:`Hub` per app, given its store (and its computer players): it keeps each game that is
in play as a :class:`~gamehall.web.live.LiveGame` and is the only writer of the store. The order
of an accepted action is always: the :func:`~gamehall.web.referee.referee` accepts it (the rules
engine's checked door), it is committed to the store, then the state changes in memory and every
client is told. A refused request raises :class:`~gamehall.web.protocol.ProtocolError` and
changes nothing.

Chance and computer moves follow each other until a human seat is to move or the game ends;
computers think off the event loop (:mod:`gamehall.web.computers`). Clients are
:class:`~gamehall.web.live.Connection` objects on any transport, and :meth:`Hub.receive` handles
one client message, so the hub runs (and is tested) without a web framework.
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

from gamehall.core import CHANCE, Action, Game, GamehallError, UnknownGameError, game_class
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
    safe_options,
    start_state,
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

log = logging.getLogger("gamehall.web")

T = TypeVar("T")

_ID_ALPHABET = string.ascii_letters + string.digits + "-_"


def new_game_id() -> str:
    """``g_`` and 10 url-safe characters."""
    return "g_" + "".join(secrets.choice(_ID_ALPHABET) for _ in range(10))


def new_token() -> str:
    return secrets.token_urlsafe(18)


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
    ) -> None:
        self.store = store
        self.computers = computers or Computers(
            agent_factory, processes=processes, workers=agent_workers
        )
        self.games: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._db_pool: ThreadPoolExecutor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.warmed_in = 0.0
        """How long the computer workers took to load the solvers' kernels at start."""

    # --- life ---

    async def start(self) -> None:
        # SQLite has one writer at a time: one store thread keeps writes in order, uncontended.
        self._db_pool = ThreadPoolExecutor(
            max_workers=1 if self.store.is_sqlite else 8, thread_name_prefix="gamehall-store"
        )
        self.computers.start()
        self.warmed_in = await self.computers.warm()  # before any computer move is offered
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
            texts = [a.text for a in stored]
            state = replay(game, texts, setup=row.setup)
        except GamehallError as error:
            log.error("game %s does not replay: %s", game_id, error)
            raise ProtocolError(
                ErrorCode.BAD_GAME, f"game {game_id} cannot be replayed: {error}"
            ) from None
        return LiveGame(row, game, state, texts, [a.mover for a in stored])

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
    ) -> tuple[LiveGame, frozenset[int]]:
        """Make and store a new game; returns it and the seats the creator holds. ``start`` is
        a game and the text of a position of it the server found itself (never a client's text),
        to start from there instead of the beginning: then ``game_name`` and ``options`` are not
        used."""
        if start is not None:
            game, setup = start
        else:
            setup = None
            try:
                cls = game_class(game_name)
            except UnknownGameError as error:
                raise ProtocolError(ErrorCode.UNKNOWN_GAME, str(error)) from None
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
            setup=setup,
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
            setup=live.row.setup,  # a rematch starts where its game started
        )
        holders = [(p, new_index(s)) for p, s in await self.db(self.store.holders, live.id)]
        async with live.lock:
            if live.row.rematch:  # another request made it meanwhile
                return await self.get(live.row.rematch), mapped
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
        self.games[row.id] = live
        await self.resume(live)
        return live

    # --- clients ---

    def attach(self, live: LiveGame, connection: Connection) -> None:
        before = live.connected()
        live.connections.add(connection)
        connection.start()
        if live.connected() != before:
            live.broadcast_presence()

    async def detach(self, live: LiveGame, connection: Connection) -> None:
        before = live.connected()
        live.connections.discard(connection)
        await connection.stop()
        if live.connected() != before:
            live.broadcast_presence()

    async def receive(self, live: LiveGame, connection: Connection, text: str | bytes) -> None:
        """Handle one message from a client: answer it, or play its move."""
        try:
            message = parse_client_message(text)
            if isinstance(message, Hello | Resync):
                connection.send(live.state_text(connection.seats))
            elif isinstance(message, Ping):
                connection.send(PongMessage())
            else:
                await self.move(live, connection.seats, message)
        except ProtocolError as error:
            connection.send(
                ErrorMessage(code=error.code, message=error.message, version=live.version)
            )
            if error.code == ErrorCode.STALE_VERSION:
                connection.send(live.state_text(connection.seats))

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
        next_state = live.state.apply_trusted(action)
        text = str(action)
        number = live.version + 1
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
            await self._chance(live)
        self._schedule(live)

    def _schedule(self, live: LiveGame) -> None:
        if live.server_to_move() and (live.thinking is None or live.thinking.done()):
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
                    if not live.server_to_move():
                        return
                    player = live.state.current_player
                    version = live.version
                    actions = list(live.actions)
                    level = live.row.seats[player].level or "easy"
                seed = derived_seed(live.row.seed, "agent", player)
                text = await self.computers.choose(
                    live.id, live.game, actions, player, level, seed, live.row.setup
                )
                async with live.lock:
                    if live.version != version:
                        continue
                    try:
                        action = live.state.parse_action(text)
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


__all__ = ["AgentFactory", "Connection", "Hub", "LiveGame", "new_game_id", "replay"]
