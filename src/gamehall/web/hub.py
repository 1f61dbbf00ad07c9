"""The authoritative game server behind the web app: live games, moves, chance and computers.

One :class:`Hub` per app. It keeps each game that is in play as a :class:`LiveGame` (the state is
the replay of the stored actions) and is the only writer of the store. The order of an accepted
action is always: check it with the rules engine (``State.parse_action``, the checked door), commit
it to the store, then change the state in memory and tell every client. A rejected request raises
:class:`~gamehall.web.protocol.ProtocolError` and changes nothing.

Chance is drawn here, never by a client: the outcome at version ``v`` comes from
``random.Random(f"{seed}:{v}")``, with the game's secret seed stored with it, so it is the same
after a restart. Chance and computer moves follow each other until a human seat is to move or the
game ends. Computer moves are chosen off the event loop (a thread pool, or a process pool for
CPU-bound search), so one slow search never delays another game.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import logging
import random
import secrets
import string
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import lru_cache, partial
from multiprocessing import get_context
from typing import Any, TypeVar

from starlette.websockets import WebSocket

from gamehall.ai import make_agent
from gamehall.core import (
    CHANCE,
    Action,
    Agent,
    Game,
    GamehallError,
    IllegalActionError,
    State,
    TooManyOutcomesError,
    UnknownGameError,
    game_class,
)
from gamehall.store import GameRow, Seat, Store, StoreError, now_text
from gamehall.web.protocol import Move, ProtocolError, error_message

log = logging.getLogger("gamehall.web")

T = TypeVar("T")
AgentFactory = Callable[[str, int | None], Agent]
"""Makes the computer player for a level and a seed (default: :func:`gamehall.ai.make_agent`)."""

_ID_ALPHABET = string.ascii_letters + string.digits + "-_"
SEND_QUEUE_LIMIT = 512
"""A client that falls this many messages behind is disconnected (it resyncs on reconnect)."""


def new_game_id() -> str:
    """``g_`` and 10 url-safe characters."""
    return "g_" + "".join(secrets.choice(_ID_ALPHABET) for _ in range(10))


def new_token() -> str:
    return secrets.token_urlsafe(18)


def _derived_seed(seed: str, purpose: str, version: int) -> int:
    digest = hashlib.sha256(f"{seed}:{purpose}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def chance_rng(seed: str, version: int) -> random.Random:
    """The generator that draws the chance outcome at ``version`` (the same after a restart)."""
    return random.Random(_derived_seed(seed, "chance", version))


@lru_cache(maxsize=256)
def make_game(name: str, options_json: str) -> Game:
    """The game ``name`` with its options (JSON), made once: games are immutable values."""
    return game_class(name)(**json.loads(options_json))


@lru_cache(maxsize=1024)
def _listed_outcomes(state: State) -> tuple[tuple[Action, ...], tuple[float, ...]] | None:
    try:
        outcomes = state.chance_outcomes()
    except TooManyOutcomesError:
        return None
    actions = tuple(a for a, _ in outcomes)
    return actions, tuple(itertools.accumulate(float(p) for _, p in outcomes))


def draw_chance(state: State, rng: random.Random) -> Action:
    """Draw a chance outcome with its exact probability. Listed outcomes are kept per state
    (every game of a variant starts from the same chance node, e.g. the first-player draw),
    so drawing is a binary search; nodes too big to list use the game's own sampler."""
    listed = _listed_outcomes(state)
    if listed is None:
        return state.sample_chance(rng)
    actions, cumulative = listed
    return rng.choices(actions, cum_weights=cumulative)[0]


def replay(game: Game, texts: Iterable[str], *, checked: bool = True) -> State:
    """The state after the actions ``texts`` from the initial state."""
    state = game.new_initial_state()
    for text in texts:
        action = state.parse_action(text) if checked else game.parse_action(text)
        state = state.apply_trusted(action)
    return state


def compute_move(
    game_name: str, options: dict[str, Any], actions: list[str], level: str, seed: int
) -> str:
    """Choose a computer move in a worker process: rebuild the state, ask the level's agent."""
    game = make_game(game_name, json.dumps(options, sort_keys=True))
    state = replay(game, actions, checked=False)
    return str(make_agent(level, seed).choose(state))


def _choose_here(factory: AgentFactory, level: str, seed: int, state: State) -> str:
    return str(factory(level, seed).choose(state))


def safe_options(cls: type[Game], options: dict[str, Any]) -> None:
    """Options from the network may not name files on the server: an option whose kind is
    ``path`` is refused by its kind (the value is never looked at, nor the file system)."""
    kinds = {spec.name: spec.kind for spec in cls.option_specs}
    for name in options:
        if kinds.get(name) == "path":
            raise ProtocolError(
                "bad_option",
                f"option {name} names a file, and files cannot be named over the web; "
                "give the data itself instead",
            )


# --- connections ---------------------------------------------------------------------------------


class Connection:
    """One WebSocket client of a game: the seats it holds and its outgoing queue.

    Messages are queued and written by the connection's own task, so telling many clients never
    waits on a slow one; one that falls :data:`SEND_QUEUE_LIMIT` messages behind is closed.
    """

    def __init__(self, websocket: WebSocket, seats: frozenset[int]) -> None:
        self.websocket = websocket
        self.seats = seats
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.closed = False

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._pump())

    def send(self, message: dict[str, Any] | str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= SEND_QUEUE_LIMIT:
            self.closed = True
            self.queue.put_nowait(None)
            return
        text = message if isinstance(message, str) else json.dumps(message, ensure_ascii=False)
        self.queue.put_nowait(text)

    async def _pump(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    with contextlib.suppress(Exception):
                        await self.websocket.close(code=1013)
                    return
                await self.websocket.send_text(text)
        except Exception:  # the client went away; the receive loop notices and detaches
            self.closed = True

    async def stop(self) -> None:
        self.closed = True
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task


# --- live games ----------------------------------------------------------------------------------


class LiveGame:
    """A game in play: its stored row, the current state, the actions so far and its clients."""

    def __init__(
        self, row: GameRow, game: Game, state: State, actions: list[str], movers: list[int]
    ):
        self.row = row
        self.game = game
        self.state = state
        self.actions = actions
        self.movers = movers
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.thinking: asyncio.Task[None] | None = None
        self._cached: tuple[int, dict[str, Any]] | None = None

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        return len(self.actions)

    def server_to_move(self, state: State | None = None) -> bool:
        """Whether the next action is the server's: chance, or a computer seat's move."""
        state = self.state if state is None else state
        if state.is_terminal():
            return False
        if state.is_chance_node():
            return True
        return self.row.seats[state.current_player].kind == "computer"

    def seats_of(self, tokens: Iterable[str]) -> frozenset[int]:
        """The human seats whose secret token is among ``tokens``."""
        tokens = [t for t in tokens if t]
        held = set()
        for index, seat in enumerate(self.row.seats):
            if seat.kind != "human" or not seat.token:
                continue
            if any(secrets.compare_digest(seat.token.encode(), t.encode()) for t in tokens):
                held.add(index)
        return frozenset(held)

    def connected(self) -> list[bool]:
        held = set()
        for connection in self.connections:
            held |= connection.seats
        return [
            seat.kind == "computer" or index in held for index, seat in enumerate(self.row.seats)
        ]

    def seats_json(self, *, presence: bool = True) -> list[dict[str, Any]]:
        connected = self.connected() if presence else None
        seats = []
        for index, seat in enumerate(self.row.seats):
            entry: dict[str, Any] = {
                "index": index,
                "name": self.game.player_names[index],
                "kind": seat.kind,
            }
            if seat.level is not None:
                entry["level"] = seat.level
            if connected is not None:
                entry["connected"] = connected[index]
            seats.append(entry)
        return seats

    def _base_state(self) -> dict[str, Any]:
        # The parts that do not depend on the reader, computed once per version.
        if self._cached is not None and self._cached[0] == self.version:
            return self._cached[1]
        state = self.state
        player = state.current_player
        outcome = state.outcome()
        base = {
            "type": "state",
            "version": self.version,
            "game": self.game.name,
            "id": self.id,
            "position": str(state),
            "view": state.view(),
            "to_move": player if player >= 0 else None,
            "to_move_name": state.player_name(),
            "legal": [str(a) for a in state.legal_actions()] if player >= 0 else [],
            "actions": list(self.actions),
            "movers": list(self.movers),
            "last": self.actions[-1] if self.actions else None,
            "over": state.is_terminal(),
            "outcome": outcome_json(self.game, outcome) if outcome is not None else None,
            "status": "finished" if state.is_terminal() else "ongoing",
            "mode": self.row.mode,
        }
        self._cached = (self.version, base)
        return base

    def state_message(self, you: Iterable[int]) -> dict[str, Any]:
        return {
            **self._base_state(),
            "seats": self.seats_json(),
            "you": sorted(you),
            "rematch": self.row.rematch,
        }

    def broadcast_state(self) -> None:
        seats = self.seats_json()
        base = {**self._base_state(), "seats": seats, "rematch": self.row.rematch}
        texts: dict[frozenset[int], str] = {}
        for connection in list(self.connections):
            text = texts.get(connection.seats)
            if text is None:
                text = json.dumps({**base, "you": sorted(connection.seats)}, ensure_ascii=False)
                texts[connection.seats] = text
            connection.send(text)

    def broadcast(self, message: dict[str, Any]) -> None:
        text = json.dumps(message, ensure_ascii=False)
        for connection in list(self.connections):
            connection.send(text)


def outcome_json(game: Game, outcome: Any) -> dict[str, Any]:
    winner = outcome.winner
    return {
        "winner": winner,
        "winner_name": game.player_names[winner] if winner is not None else None,
        "reason": outcome.reason,
        "scores": list(outcome.scores),
        "result": outcome.result_tag(),
    }


# --- the hub -------------------------------------------------------------------------------------


class Hub:
    """Every live game of one server, the store, and the workers for the store and computers."""

    def __init__(
        self,
        store: Store,
        *,
        agent_factory: AgentFactory | None = None,
        processes: bool = False,
        agent_workers: int | None = None,
    ) -> None:
        self.store = store
        self.agent_factory = agent_factory
        # A factory given in-process (tests) may not be picklable: it runs on threads.
        self.processes = processes and agent_factory is None
        self.agent_workers = agent_workers
        self.games: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._db_pool: ThreadPoolExecutor | None = None
        self._agent_pool: Executor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    # --- life ---

    async def start(self) -> None:
        # SQLite has one writer at a time: one store thread keeps writes in order, uncontended.
        self._db_pool = ThreadPoolExecutor(
            max_workers=1 if self.store.is_sqlite else 8, thread_name_prefix="gamehall-store"
        )
        if self.processes:
            self._agent_pool = ProcessPoolExecutor(
                max_workers=self.agent_workers, mp_context=get_context("spawn")
            )
        else:
            self._agent_pool = ThreadPoolExecutor(
                max_workers=self.agent_workers or 8, thread_name_prefix="gamehall-agent"
            )
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
        if self._agent_pool is not None:
            self._agent_pool.shutdown(wait=False, cancel_futures=True)
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
            if not game_id.startswith("g_") or len(game_id) > 32:
                raise ProtocolError("unknown_game", f"there is no game {game_id!r}", 404)
            row = await self.db(self.store.get_game, game_id)
            if row is None:
                raise ProtocolError("unknown_game", f"there is no game {game_id!r}", 404)
            stored = await self.db(self.store.actions, game_id)
            try:
                game = make_game(row.game, json.dumps(row.options, sort_keys=True))
                texts = [a.text for a in stored]
                state = replay(game, texts)
            except GamehallError as error:
                log.error("game %s does not replay: %s", game_id, error)
                raise ProtocolError(
                    "bad_game", f"game {game_id} cannot be replayed: {error}", 500
                ) from None
            live = LiveGame(row, game, state, texts, [a.mover for a in stored])
            self.games[game_id] = live
        self._loading.pop(game_id, None)
        await self.resume(live)
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
    ) -> tuple[LiveGame, frozenset[int]]:
        """Make and store a new game; returns it and the seats the creator holds."""
        try:
            cls = game_class(game_name)
        except UnknownGameError as error:
            raise ProtocolError("unknown_game", str(error), 404) from None
        safe_options(cls, options)
        try:
            game = cls(**options)
        except GamehallError as error:
            raise ProtocolError("bad_option", str(error)) from None
        players = game.num_players
        if not 0 <= seat < players:
            raise ProtocolError(
                "bad_seat", f"seat {seat} does not exist; {game.name} has seats 0 to {players - 1}"
            )
        if mode == "computer":
            try:
                (self.agent_factory or make_agent)(level, 0)
            except GamehallError as error:
                raise ProtocolError("bad_level", str(error)) from None
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
            options=dict(game.options),
            mode=mode,
            seed=secrets.token_hex(16),
            seats=seats,
            created=now,
            updated=now,
            pending=True,  # until the opening chance is drawn
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
                "not_your_seat", "only a player of this game can ask for a rematch", 403
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
            options=dict(live.row.options),
            mode=live.row.mode,
            seed=secrets.token_hex(16),
            seats=seats,
            created=now,
            updated=now,
            pending=True,
            rematch_of=live.id,
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
                "store_error", f"the game could not be stored: {error}", 500
            ) from None
        live = LiveGame(row, game, game.new_initial_state(), [], [])
        self.games[row.id] = live
        await self.resume(live)
        return live

    # --- moving ---

    async def move(self, live: LiveGame, seats: frozenset[int], message: Move) -> None:
        """Play a person's move; raises ProtocolError (and changes nothing) if it is refused."""
        async with live.lock:
            state = live.state
            if state.is_terminal():
                raise ProtocolError("game_over", "the game is over; no more moves")
            if not seats:
                raise ProtocolError(
                    "not_your_seat", "you hold no seat in this game (you are watching)"
                )
            if message.version != live.version:
                raise ProtocolError(
                    "stale_version",
                    f"your move was for version {message.version}, but the game is at version "
                    f"{live.version}; resync",
                )
            player = state.current_player
            if player < 0 or player not in seats:
                held = ", ".join(live.game.player_names[i] for i in sorted(seats))
                raise ProtocolError(
                    "not_your_turn", f"it is {state.player_name()}'s turn; you play {held}"
                )
            try:
                action = state.parse_action(message.action)
            except IllegalActionError as error:
                raise ProtocolError("illegal_move", str(error)) from None
            except GamehallError as error:
                legal = ", ".join(str(a) for a in state.legal_actions())
                raise ProtocolError("illegal_move", f"{error}; legal: {legal}") from None
            await self._commit(live, action, player)
            await self._chance(live)
        self._schedule(live)

    async def _commit(self, live: LiveGame, action: Action, mover: int) -> None:
        """Store the action, then apply it and tell everyone (the caller holds the lock)."""
        next_state = live.state.apply_trusted(action)
        text = str(action)
        number = live.version + 1
        outcome = next_state.outcome()
        try:
            await self.db(
                self.store.append_action,
                live.id,
                number,
                text,
                mover,
                status="finished" if next_state.is_terminal() else "ongoing",
                result=outcome_json(live.game, outcome) if outcome is not None else None,
                pending=live.server_to_move(next_state),
            )
        except StoreError as error:
            raise ProtocolError(
                "store_error", f"the move could not be stored: {error}", 500
            ) from None
        except Exception as error:
            log.exception("cannot store action %d of %s", number, live.id)
            raise ProtocolError(
                "store_error", f"the move could not be stored: {error}", 500
            ) from None
        live.state = next_state
        live.actions.append(text)
        live.movers.append(mover)
        live.row.version = number
        live.row.status = "finished" if next_state.is_terminal() else "ongoing"
        live.broadcast_state()

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
                    state = live.state
                    if not live.server_to_move(state):
                        return
                    player = state.current_player
                    version = live.version
                    level = live.row.seats[player].level or "easy"
                seed = _derived_seed(live.row.seed, "agent", version)
                text = await self._choose(live, state, level, seed)
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

    async def _choose(self, live: LiveGame, state: State, level: str, seed: int) -> str:
        assert self._agent_pool is not None, "the hub is not started"
        loop = asyncio.get_running_loop()
        if self.processes:
            return await loop.run_in_executor(
                self._agent_pool,
                compute_move,
                live.row.game,
                dict(live.row.options),
                list(live.actions),
                level,
                seed,
            )
        factory = self.agent_factory or make_agent
        return await loop.run_in_executor(
            self._agent_pool, _choose_here, factory, level, seed, state
        )

    # --- clients ---

    def attach(self, live: LiveGame, connection: Connection) -> None:
        before = live.connected()
        live.connections.add(connection)
        connection.start()
        if live.connected() != before:
            live.broadcast({"type": "presence", "seats": live.seats_json()})

    async def detach(self, live: LiveGame, connection: Connection) -> None:
        before = live.connected()
        live.connections.discard(connection)
        await connection.stop()
        if live.connected() != before:
            live.broadcast({"type": "presence", "seats": live.seats_json()})


__all__ = [
    "AgentFactory",
    "Connection",
    "Hub",
    "LiveGame",
    "compute_move",
    "error_message",
    "new_game_id",
    "replay",
]
