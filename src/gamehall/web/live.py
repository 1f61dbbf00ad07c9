"""A game in play and the clients connected to it.

A :class:`LiveGame` holds a game's stored row, its current state (the replay of the stored
actions), who played each action, which browsers hold its seats, and its :class:`Connection`
objects; it makes the protocol's ``state`` and ``presence`` messages and tells every client. A
connection writes to a :class:`Transport`, anything with ``send_text`` and ``close`` (a Starlette
WebSocket, or a fake in the tests), so a live game runs without a web framework.

State messages carry the action history as a delta: the actions after the version the reader
has (``since``). A connection remembers the last version it was sent, so telling it of one action
costs one action's text, whatever the game's length; a connection that has not said ``hello``
is told nothing until it does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Iterable
from typing import Protocol

from pydantic import BaseModel

from gamehall.core import Game, GamehallError, Record, State, find_plugin, make_record
from gamehall.store import GameRow
from gamehall.web.engine import legal_entries, outcome_info, played_item, start_state
from gamehall.web.protocol import (
    ErrorCode,
    PresenceMessage,
    ProtocolError,
    SeatInfo,
    SeatPresence,
    StateMessage,
)

SEND_QUEUE_LIMIT = 512
"""A client that falls this many messages behind is disconnected (it resyncs on reconnect)."""


class Transport(Protocol):
    """Where a connection's messages go (a WebSocket)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000) -> None: ...


class Connection:
    """One client of a game: the seats it holds and its outgoing queue.

    Messages are queued and written by the connection's own task, so telling many clients never
    waits on a slow one; one that falls :data:`SEND_QUEUE_LIMIT` messages behind is closed.
    """

    def __init__(
        self,
        transport: Transport,
        seats: frozenset[int],
        *,
        identity: str | None = None,
        address: str = "",
    ) -> None:
        self.transport = transport
        self.seats = seats
        self.identity = identity
        """The key of the browser's identity (None: it has none), see gamehall.web.identity."""
        self.address = address
        self.version: int | None = None
        """The last version this client was sent a state of (None: none yet, it has not said
        hello); the next state carries the actions after it."""
        self.queue: asyncio.Queue[str | int] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.closed = False
        self.rates: dict[str, object] = {}
        """The connection's own rate buckets (see gamehall.web.limits), made by the hub."""
        self.dropped = 0
        """Messages dropped for being over the rate (the socket closes past a bound)."""
        self.warned = False
        """Whether this run of dropped messages was answered with ``over_limit`` already."""

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._pump())

    def send(self, message: BaseModel | str) -> None:
        """Queue a message (a protocol model, or its JSON text)."""
        if self.closed:
            return
        if self.queue.qsize() >= SEND_QUEUE_LIMIT:
            self.close(1013)  # try again later: it resyncs on reconnect
            return
        text = message if isinstance(message, str) else message.model_dump_json()
        self.queue.put_nowait(text)

    def close(self, code: int = 1000) -> None:
        """Close the connection once what is queued has been sent (1008: it broke a limit)."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(code)

    async def _pump(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if isinstance(text, int):
                    with contextlib.suppress(Exception):
                        await self.transport.close(code=text)
                    return
                await self.transport.send_text(text)
        except Exception:  # the client went away; the receive loop notices and detaches
            self.closed = True

    async def stop(self) -> None:
        self.closed = True
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task


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
        """Held while an action is checked and committed: one writer at a time per game."""
        self.connections: set[Connection] = set()
        self.thinking: asyncio.Task[None] | None = None
        self.holders: dict[str, frozenset[int]] = {}
        """The seats each browser holds (identity key -> seat indices), as stored."""
        self.used = time.monotonic()
        """When the game was last asked for (idle games leave memory, see the hub)."""
        self._cached: tuple[int, StateMessage, str] | None = None
        self._text_cache: tuple[tuple[object, ...], str] | None = None

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

    def start(self) -> State:
        """The position the game started from (its setup, or the game's initial state)."""
        return start_state(self.game, self.row.setup)

    def states(self) -> list[State]:
        """Every position of the game: ``states()[k]`` is the one after ``k`` actions."""
        state = self.start()
        found = [state]
        for text in self.actions:  # stored actions were checked when they were played
            state = state.apply_trusted(self.game.parse_action(text))
            found.append(state)
        return found

    def record(self) -> Record:
        """The game's record (from its setup position, if it has one)."""
        players = [
            f"computer ({s.level})" if s.kind == "computer" else "human" for s in self.row.seats
        ]
        return make_record(
            self.game,
            self.actions,
            players=players,
            date=self.row.created[:10].replace("-", "."),
            setup=self.start() if self.row.setup is not None else None,
            final=self.state,
            extra={"Site": "gamehall web", "GameId": self.id},
        )

    def check_start(self, game: str, options: dict[str, object]) -> None:
        """Refuse a new game from this one's positions that names another game, or options of
        its own (it plays this game's): ProtocolError(bad_start)."""
        try:
            named = find_plugin(game).name
        except GamehallError:
            named = game
        if named != self.game.name:
            raise ProtocolError(
                ErrorCode.BAD_START,
                f"game {self.id} is a game of {self.game.name}, not of {game}",
            )
        if options:
            raise ProtocolError(
                ErrorCode.BAD_START,
                f"a game started from a position of game {self.id} plays its options; "
                f"give none (not {', '.join(sorted(options))})",
            )

    def playable_position(self, step: int) -> State:
        """The position after the first ``step`` actions, to start another game from; raises
        ProtocolError(bad_start) past the end, or where the game is over."""
        if not 0 <= step <= self.version:
            raise ProtocolError(
                ErrorCode.BAD_START,
                f"game {self.id} has positions after 0 to {self.version} actions, not {step}",
            )
        state = self.states()[step]
        if state.is_terminal():
            raise ProtocolError(
                ErrorCode.BAD_START,
                f"the game {self.id} is over after {step} actions: nothing to play from there",
            )
        return state

    def advance(self, state: State, text: str, mover: int) -> None:
        """Take a committed action into memory."""
        self.state = state
        self.actions.append(text)
        self.movers.append(mover)
        self.row.version = self.version
        self.row.status = "finished" if state.is_terminal() else "ongoing"

    def touch(self) -> None:
        self.used = time.monotonic()

    def idle(self) -> bool:
        """Nobody watches, no computer thinks and no action is being committed."""
        return (
            not self.connections
            and (self.thinking is None or self.thinking.done())
            and not self.lock.locked()
        )

    # --- seats ---

    def set_holders(self, holdings: Iterable[tuple[str, int]]) -> None:
        """Take the stored holdings (identity key, seat) of this game."""
        found: dict[str, set[int]] = {}
        for key, seat in holdings:
            found.setdefault(key, set()).add(seat)
        self.holders = {key: frozenset(seats) for key, seats in found.items()}

    def hold(self, key: str, seat: int) -> None:
        """A browser now holds ``seat`` (already stored)."""
        self.holders[key] = self.holders.get(key, frozenset()) | {seat}

    def seats_for(self, key: str | None) -> frozenset[int]:
        """The seats the browser with identity ``key`` holds (none for no identity)."""
        if key is None:
            return frozenset()
        return self.holders.get(key, frozenset())

    def claimed(self, seat: int) -> bool:
        """Whether some browser holds ``seat``."""
        return any(seat in seats for seats in self.holders.values())

    @property
    def owner(self) -> str:
        """The browser whose game this is, for fair shares of the computers: the first holder
        (by key) of a seat, or nobody."""
        return min(self.holders) if self.holders else ""

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
        held: set[int] = set()
        for connection in self.connections:
            held |= connection.seats
        return [
            seat.kind == "computer" or index in held for index, seat in enumerate(self.row.seats)
        ]

    def seat_infos(self) -> list[SeatInfo]:
        return seat_infos(self.game, self.row)

    def seat_presence(self) -> list[SeatPresence]:
        connected = self.connected()
        names = self.game.player_names
        return [
            SeatPresence(
                index=index,
                name=names[index],
                kind=seat.kind,  # type: ignore[arg-type]
                level=seat.level,
                connected=connected[index],
            )
            for index, seat in enumerate(self.row.seats)
        ]

    # --- messages ---

    def _base_state(self) -> tuple[StateMessage, str]:
        # The parts that do not depend on the reader or on presence, made once per version, and
        # the legal items as JSON (each item's text is written once per game and action).
        if self._cached is not None and self._cached[0] == self.version:
            return self._cached[1], self._cached[2]
        state, game = self.state, self.game
        player = state.current_player
        outcome = state.outcome()
        legal = legal_entries(game, state.legal_actions()) if player >= 0 else []
        last = None
        if self.actions:
            last = played_item(game, game.parse_action(self.actions[-1]), self.movers[-1])
        base = StateMessage(
            version=self.version,
            game=game.name,
            rules_version=game.rules_version,
            id=self.id,
            position=str(state),
            view=state.view(),
            to_move=player if player >= 0 else None,
            to_move_name=state.player_name(),
            since=0,
            actions=list(self.actions),
            movers=list(self.movers),
            last=last,
            over=state.is_terminal(),
            outcome=outcome_info(game, outcome) if outcome is not None else None,
            status="finished" if state.is_terminal() else "ongoing",
            mode=self.row.mode,  # type: ignore[arg-type]
            seats=[],
            rematch=None,
            you=[],
            legal=[item for item, _ in legal],
        )
        legal_json = "[" + ",".join(text for _, text in legal) + "]"
        self._cached = (self.version, base, legal_json)
        return base, legal_json

    def state_message(self, you: Iterable[int]) -> StateMessage:
        """The state message for a reader holding the seats ``you``."""
        base, _ = self._base_state()
        return base.model_copy(
            update={"seats": self.seat_presence(), "rematch": self.row.rematch, "you": sorted(you)}
        )

    def _texts(self) -> tuple[str, str]:
        # The state message as JSON up to its history (``since`` and after), and the legal items:
        # written once per version, presence and rematch (the message ends with since, actions,
        # movers, you and legal), so telling many readers costs one serialisation and a delta.
        base, legal = self._base_state()
        seats = self.seat_presence()
        key = (self.version, tuple(seat.connected for seat in seats), self.row.rematch)
        if self._text_cache is not None and self._text_cache[0] == key:
            return self._text_cache[1], legal
        update = {
            "seats": seats,
            "rematch": self.row.rematch,
            "since": 0,
            "actions": [],
            "movers": [],
            "you": [],
            "legal": [],
        }
        text = base.model_copy(update=update).model_dump_json()
        assert text.endswith(_TAIL), "StateMessage must end with since, actions, movers, you, legal"
        head = text[: -len(_TAIL)] + '"since":'
        self._text_cache = (key, head)
        return head, legal

    def state_text(self, you: Iterable[int], since: int = 0) -> str:
        """:meth:`state_message` as JSON text, with the actions after version ``since``."""
        head, legal = self._texts()
        return _splice(head, self._history(since), you, legal)

    def _history(self, since: int) -> str:
        since = min(max(since, 0), self.version)
        actions = json.dumps(self.actions[since:], ensure_ascii=False, separators=(",", ":"))
        movers = json.dumps(self.movers[since:], separators=(",", ":"))
        return f'{since},"actions":{actions},"movers":{movers}'

    def send_state(self, connection: Connection, since: int | None = None) -> None:
        """Send one client the state, with the actions after ``since`` (default: after the
        version it was last sent; every action if none)."""
        if since is None:
            since = connection.version if connection.version is not None else 0
        connection.send(self.state_text(connection.seats, since))
        connection.version = self.version

    def broadcast_state(self) -> None:
        """Tell every client that has said hello the current state: one text per set of seats
        held and version had."""
        head, legal = self._texts()
        texts: dict[tuple[frozenset[int], int], str] = {}
        for connection in list(self.connections):
            if connection.version is None:
                continue  # not in sync yet: its hello will be answered
            key = (connection.seats, connection.version)
            text = texts.get(key)
            if text is None:
                history = self._history(connection.version)
                text = texts[key] = _splice(head, history, connection.seats, legal)
            connection.send(text)
            connection.version = self.version

    def broadcast_presence(self) -> None:
        text = PresenceMessage(seats=self.seat_presence()).model_dump_json()
        for connection in list(self.connections):
            connection.send(text)


_TAIL = '"since":0,"actions":[],"movers":[],"you":[],"legal":[]}'


def _splice(head: str, history: str, you: Iterable[int], legal: str) -> str:
    seats = ",".join(str(seat) for seat in sorted(you))
    return f'{head}{history},"you":[{seats}],"legal":{legal}}}'


def seat_infos(game: Game | type[Game], row: GameRow) -> list[SeatInfo]:
    """The seats of a stored game as the protocol shows them (never their tokens)."""
    return [
        SeatInfo(index=index, name=game.player_names[index], kind=seat.kind, level=seat.level)  # type: ignore[arg-type]
        for index, seat in enumerate(row.seats)
    ]
