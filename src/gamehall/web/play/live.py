"""A game in play: its stored row, what its log comes to, its pause, seats and clients.

A :class:`LiveGame` holds a game's stored row, what its stored log comes to
(:class:`~gamehall.web.play.history.Played`: the state, the actions and who played each, an
ending, a takeback offer, the clocks), a pause, which browsers hold its seats, and its
:class:`~gamehall.web.play.connection.Connection` objects; it makes the protocol's ``state`` and
``presence`` messages (written as text, :mod:`gamehall.web.play.messages`) and tells every client.

State messages carry the action history as a delta: a connection remembers the last version it
was sent, so telling it of one action costs one action's text, whatever the game's length; a
connection that has not said ``hello`` is told nothing until it does. The fields that change with
presence and time (:data:`~gamehall.web.play.messages.DYNAMIC`: seats, rematch, clocks, pause,
takeback offer, absences, abortable) are written at each broadcast, once for every reader.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pydantic_core import to_json

from gamehall.core import (
    Game,
    GamehallError,
    Record,
    State,
    Termination,
    find_plugin,
    make_record,
)
from gamehall.protocol import (
    ClockInfo,
    ErrorCode,
    ProtocolError,
    SeatInfo,
    StateMessage,
)
from gamehall.store.rows import ActionRow, GameRow
from gamehall.web.base.clock import (
    LAG_ALLOWANCE_MS,
    TimeControl,
    running_seat,
    starting_clocks,
    time_left,
)
from gamehall.web.base.engine import start_state
from gamehall.web.base.position import Position
from gamehall.web.play.conduct import first_move_due, leave_grace_ms
from gamehall.web.play.connection import Connection, Transport
from gamehall.web.play.history import Ending, Played
from gamehall.web.play.messages import Fixed, history_text, seat_infos, splice

RECORD_TERMINATIONS: dict[str, str] = {
    "resign": "resignation",
    "flag": "time forfeit",
    "claim": "claim",
    "abort": "aborted",
}
"""Each ending entry of a game's log (:data:`gamehall.web.play.history.ENDINGS`) as the
Termination tag of its record (:data:`gamehall.core.record.TERMINATIONS`)."""


def record_termination(ended: Ending, game: Game) -> Termination:
    """An ending of the log as its record says it: Termination, Result and the sentence."""
    outcome = ended.outcome(game)
    # An ending with no result is an abort, whatever entry made it.
    kind = "aborted" if outcome.result == "*" else RECORD_TERMINATIONS[ended.kind]
    return Termination(kind, outcome.result, outcome.reason)


@dataclass
class Pause:
    """Play waits for the players (a round is over): why, until when at most (ms, server
    time), the human seats it waits for, and those of them that have not gone on yet."""

    reason: str
    until: int | None
    seats: frozenset[int]
    waiting: set[int] = field(init=False)

    def __post_init__(self) -> None:
        self.waiting = set(self.seats)

    @property
    def gone_on(self) -> set[int]:
        """The seats that have gone on (through any process), told to a process that loads the
        game during the pause."""
        return set(self.seats - self.waiting)


class LiveGame:
    """A game in play: its stored row, what its log comes to (:class:`Played`: the state, the
    game's actions and who played them, an ending, a takeback offer, the clocks), a pause, its
    clients and who of them is gone since when."""

    def __init__(
        self,
        row: GameRow,
        game: Game,
        played: Played,
        *,
        now: int,
        control: TimeControl | None = None,
    ):
        self.row = row
        self.game = game
        self.played = played
        self.control = control
        self.lock = asyncio.Lock()
        """Held while an action is checked and committed: one writer at a time per game."""
        self.connections: set[Connection] = set()
        self.thinking: asyncio.Task[None] | None = None
        self.timer: asyncio.Task[None] | None = None
        """Waits for what is due next: a flag fall, or the end of a pause."""
        self.pause: Pause | None = None
        self.released = -1
        """The version whose pause the players went on from (chance is drawn there)."""
        self.clocks: list[int | None] | None = None
        if control is not None:
            stored = played.clock
            self.clocks = list(stored) if stored else list(starting_clocks(control, self.timed()))
        self.turn_started = now
        """When the running clock started: the last entry, or when the game was loaded."""
        human = [i for i, seat in enumerate(row.seats) if seat.kind == "human"]
        self.absent_since: dict[int, int] = {seat: now for seat in human}
        # Who sits where (seat → player id and name) and how the hall made the game
        # ({"rated", "clock"} or None), and the table the room is shown (TableInfo's fields:
        # rated, clock, the players' ratings): filled in by the hall (gamehall.web.hall.hall).
        self.player_ids: dict[int, str] = {}
        self.players: dict[int, str] = {}
        self.bots: frozenset[int] = frozenset()
        """The seats held by bot accounts (docs/bots.md)."""
        self.hall: dict[str, Any] | None = None
        self.seated_at = 0
        """When an invite seated the last person (ms; 0: before this process loaded the game)."""
        self.table: dict[str, Any] | None = None
        self.holders: dict[str, frozenset[int]] = {}
        """The seats each browser holds (identity key -> seat indices), as stored."""
        self.remote: dict[str, frozenset[int]] = {}
        """The seats connected to other processes of the hall, by process (see
        :mod:`gamehall.web.play.processes`)."""
        self.used = time.monotonic()
        """When the game was last asked for (idle games leave memory, see
        :mod:`gamehall.web.play.memory`)."""
        self._cached: Fixed | None = None

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def state(self) -> State:
        return self.played.state

    @property
    def actions(self) -> list[str]:
        return self.played.actions

    @property
    def movers(self) -> list[int]:
        return self.played.movers

    @property
    def version(self) -> int:
        return self.played.version

    @property
    def over(self) -> bool:
        return self.played.over

    def moved(self) -> set[int]:
        """The seats that have made a move in the game as it stands."""
        return {mover for mover in self.movers if mover >= 0}

    def timed(self) -> list[bool]:
        """Which seats have a clock: the human seats of a game with a time control."""
        return [self.control is not None and seat.kind == "human" for seat in self.row.seats]

    def humans(self) -> list[int]:
        return [i for i, seat in enumerate(self.row.seats) if seat.kind == "human"]

    def server_to_move(self, state: State | None = None) -> bool:
        """Whether the next action is the server's: chance, or a computer seat's move."""
        state = self.state if state is None else state
        if state.is_terminal() or (state is self.state and self.played.ended is not None):
            return False
        if state.is_chance_node():
            return True
        return self.row.seats[state.current_player].kind == "computer"

    def start(self) -> State:
        """The position the game started from (its setup, or the game's initial state)."""
        return start_state(self.game, self.row.setup)

    def states(self) -> list[State]:
        """Every position of the game: ``states()[k]`` is the one after ``k`` actions."""
        return self.played.states

    def position(self, *, record: bool = False) -> Position:
        """The game as it stands, as a plain value for the work off the event loop (with its
        record's text if ``record``)."""
        return Position(
            game_id=self.id,
            game=self.game,
            mode=self.row.mode,
            seed=self.row.seed,
            setup=self.row.setup,
            actions=tuple(self.actions),
            movers=tuple(self.movers),
            version=self.version,
            state=self.state,
            record=str(self.record()) if record else None,
            over=self.over,
        )

    def record(self) -> Record:
        """The game's record (from its setup position, if it has one)."""
        players = [
            f"computer ({s.level})" if s.kind == "computer" else "human" for s in self.row.seats
        ]
        extra = {"Site": "gamehall web", "GameId": self.id}
        if self.row.clock:
            extra["TimeControl"] = self.row.clock
        return make_record(
            self.game,
            self.actions,
            players=players,
            date=self.row.created[:10].replace("-", "."),
            setup=self.start() if self.row.setup is not None else None,
            final=self.state,
            extra=extra,
            ended=self.termination(),
        )

    def termination(self) -> Termination | None:
        """How the game ended off the board (resigned, on time, claimed, aborted), as its record
        says it; None while it goes on or when it ended on the board."""
        ended = self.played.ended
        if ended is None or self.state.is_terminal():
            return None
        return record_termination(ended, self.game)

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
                f"game {self.id} has positions after 0 to {self.version} moves, not {step}",
            )
        state = self.states()[step]
        if state.is_terminal():
            raise ProtocolError(
                ErrorCode.BAD_START,
                f"the game {self.id} is over after {step} moves: nothing to play from there",
            )
        return state

    def watches_first_moves(self) -> bool:
        """Whether a side's first move is awaited under the hall's limit: an online game going
        on, with a person who has not moved yet, that the hall made (``hall`` is set) or whose
        invite was taken (every person's seat held: until then the creator waits for a friend)."""
        if self.row.mode != "online" or self.over:
            return False
        if self.hall is None and not all(self.claimed(seat) for seat in self.humans()):
            return False
        moved = self.moved()
        return any(seat not in moved for seat in self.humans())

    def first_move(self) -> tuple[int, int] | None:
        """The seat that must make its first move now and when its time for it is up (ms;
        counted from when its turn came, or from the game's loading, as the clocks are), or
        None (see :func:`~gamehall.web.play.conduct.first_move_due`)."""
        if self.pause is not None:
            return None
        player = self.state.current_player
        return first_move_due(
            watched=self.watches_first_moves(),
            over=self.over,
            to_move=player if player >= 0 else None,
            humans=self.humans(),
            moved=self.moved(),
            since=max(self.turn_started, self.seated_at),
            control=self.control,
        )

    def running(self) -> int | None:
        """The seat whose clock runs now, if any."""
        if self.clocks is None:
            return None
        player = self.state.current_player
        return running_seat(
            player if player >= 0 else None,
            self.timed(),
            self.moved(),
            stopped=self.over or self.pause is not None,
        )

    def clocks_at(self, now: int) -> list[int | None] | None:
        """Each seat's remaining time at ``now`` (the running one counted down)."""
        if self.clocks is None:
            return None
        clocks = list(self.clocks)
        seat = self.running()
        if seat is not None:
            clocks[seat] = max(0, time_left(clocks[seat] or 0, now - self.turn_started))
        return clocks

    def clocks_after(self, now: int, mover: int | None) -> list[int | None] | None:
        """The clocks to store with an entry made at ``now``: a move by the seat whose clock
        runs (``mover``) costs its time less the lag allowance and gains what the time control
        gives; any other entry takes the running clock's time exactly."""
        if self.clocks is None or self.control is None:
            return None
        clocks = list(self.clocks)
        seat = self.running()
        if seat is not None:
            elapsed = now - self.turn_started
            if seat == mover:
                clocks[seat] = self.control.after_move(time_left(clocks[seat] or 0, elapsed))
            else:
                clocks[seat] = max(0, (clocks[seat] or 0) - elapsed)
        return clocks

    def advance(self, entry: ActionRow, now: int, state: State | None = None) -> None:
        """Take a committed entry into memory (``state``: the state after a game action)."""
        self.played.apply(entry, checked=False, state=state)
        if entry.clock is not None:
            self.clocks = list(entry.clock)
        self.turn_started = now
        if entry.kind not in ("offer", "decline"):  # a takeback's question leaves a pause be
            self.pause = None
        self.row.version = self.version
        self.row.status = "finished" if self.over else "ongoing"

    def touch(self) -> None:
        self.used = time.monotonic()

    def idle(self) -> bool:
        """Nobody watches, no computer thinks, no clock or pause waits on a timer and no action
        is being committed."""
        return (
            not self.connections
            and (self.thinking is None or self.thinking.done())
            and (self.timer is None or self.timer.done())
            and not self.lock.locked()
        )

    # --- seats ---

    def set_holders(self, holdings: Iterable[tuple[str, int]]) -> None:
        """Take the stored holdings (identity key, seat) of this game."""
        found: dict[str, set[int]] = {}
        for key, seat in holdings:
            found.setdefault(key, set()).add(seat)
        self.holders = {key: frozenset(seats) for key, seats in found.items()}

    def hold(self, key: str, seat: int, now: int | None = None) -> None:
        """A browser now holds ``seat`` (already stored), at ``now`` (ms) if known: when that
        seats every person, a first move's time counts from then (:meth:`first_move`)."""
        self.holders[key] = self.holders.get(key, frozenset()) | {seat}
        if now is not None and all(self.claimed(s) for s in self.humans()):
            self.seated_at = max(self.seated_at, now)

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

    def local_seats(self) -> frozenset[int]:
        """The seats whose players are connected to this process."""
        held: set[int] = set()
        for connection in self.connections:
            held |= connection.seats
        return frozenset(held)

    def held(self) -> set[int]:
        """The seats some connected client holds, on this process or another of the hall."""
        held = set(self.local_seats())
        for seats in self.remote.values():
            held |= seats
        return held

    def connected(self) -> list[bool]:
        held = self.held()
        return [
            seat.kind == "computer" or index in held for index, seat in enumerate(self.row.seats)
        ]

    def note_presence(self, now: int) -> None:
        """Keep, for each human seat nobody holds now, since when that is so."""
        held = self.held()
        for seat in self.humans():
            if seat in held:
                self.absent_since.pop(seat, None)
            else:
                self.absent_since.setdefault(seat, now)

    def away_ms(self, now: int) -> dict[int, int]:
        """For how long each absent human seat has had nobody connected."""
        return {seat: now - since for seat, since in self.absent_since.items()}

    def seat_infos(self) -> list[SeatInfo]:
        return seat_infos(self.game, self.row, self.players, self.bots)

    def seat_presence(self) -> list[dict[str, Any]]:
        """Each seat and whether someone holding it is connected (SeatPresence's fields, as
        plain data: the server writes it into every state message)."""
        connected = self.connected()
        names = self.game.player_names
        players = self.players
        return [
            {
                "index": index,
                "name": names[index],
                "kind": seat.kind,
                "level": seat.level,
                "player": players.get(index),
                "bot": index in self.bots,
                "connected": connected[index],
            }
            for index, seat in enumerate(self.row.seats)
        ]

    def absent_infos(self, now: int) -> list[dict[str, Any]]:
        """The human seats nobody holds now (AbsentInfo's fields, as plain data)."""
        if not self.absent_since:
            return []
        grace = leave_grace_ms(self.control) if self.row.mode == "online" else None
        moved = self.moved()
        infos = []
        for seat, away in sorted(self.away_ms(now).items()):
            claim = None
            if grace is not None and not self.over and seat in moved:
                claim = max(0, grace - away)
            infos.append({"seat": seat, "away_ms": away, "claim_in_ms": claim})
        return infos

    # --- messages ---

    def _base(self) -> Fixed:
        # Made once per version (see gamehall.web.play.messages).
        cached = self._cached
        if cached is None or cached.version != self.version:
            cached = self._cached = Fixed.of(self.played, self.id, self.row.mode)
        return cached

    def _clock(self, now: int) -> dict[str, Any] | None:
        clocks = self.clocks_at(now)
        if clocks is None or self.control is None:
            return None
        return {
            "control": str(self.control),
            "remaining": clocks,
            "running": self.running(),
            "sent": now,
            "lag_allowance": LAG_ALLOWANCE_MS,
        }

    def clock_info(self, now: int) -> ClockInfo | None:
        """The clocks as the protocol shows them at ``now`` (None: the game has no clock)."""
        clock = self._clock(now)
        return None if clock is None else ClockInfo(**clock)

    def tail(self, now: int) -> dict[str, Any]:
        """The fields of the state message written when it is sent
        (:data:`~gamehall.web.play.messages.DYNAMIC`, in the message's order), as plain data."""
        pause = None
        if self.pause is not None and not self.over:
            left = None if self.pause.until is None else max(0, self.pause.until - now)
            pause = {
                "reason": self.pause.reason,
                "left_ms": left,
                "waiting": sorted(self.pause.waiting),
            }
        offer = self.played.offer
        players = len(self.row.seats)
        return {
            "seats": self.seat_presence(),
            "rematch": self.row.rematch,
            "clock": self._clock(now),
            "pause": pause,
            "takeback": {"by": offer} if offer is not None and not self.over else None,
            "absent": self.absent_infos(now),
            "abortable": not self.over and not all(seat in self.moved() for seat in range(players)),
            "table": self.table,
        }

    def state_message(self, you: Iterable[int], now: int) -> StateMessage:
        """The state message for a reader holding the seats ``you``, with every action."""
        base = self._base()
        return StateMessage.model_validate(
            {
                **base.static,
                **self.tail(now),
                "since": 0,
                "actions": list(self.actions),
                "movers": list(self.movers),
                "words": list(self.played.words),
                "chapters": list(self.played.chapters),
                "ends": list(self.played.ends),
                "you": sorted(you),
                "legal": base.legal,
            }
        )

    def _texts(self, now: int) -> tuple[str, str]:
        # The message as JSON up to its history (``since`` and after), and the legal items: the
        # static part is written once per version, the dynamic part once per broadcast, so
        # telling many readers costs one serialisation and a delta (the message ends with
        # since, actions, movers, you and legal).
        base = self._base()
        tail = to_json(self.tail(now)).decode()
        return f'{base.head},{tail[1:-1]},"since":', base.legal_json

    def state_text(self, you: Iterable[int], now: int, since: int = 0) -> str:
        """:meth:`state_message` as JSON text, with the actions a reader who had version
        ``since`` does not have right."""
        head, legal = self._texts(now)
        return splice(head, history_text(self.played, since), you, legal)

    def send_state(self, connection: Connection, now: int, since: int | None = None) -> None:
        """Send one client the state, with the actions after those it has right as of version
        ``since`` (default: the version it was last sent; every action if none)."""
        if since is None:
            since = connection.version if connection.version is not None else 0
        connection.send(self.state_text(connection.seats, now, since))
        connection.version = self.version

    def broadcast_state(self, now: int) -> None:
        """Tell every client that has said hello the current state: one text per set of seats
        held and version had."""
        head, legal = self._texts(now)
        texts: dict[tuple[frozenset[int], int], str] = {}
        for connection in list(self.connections):
            if connection.version is None:
                continue  # not in sync yet: its hello will be answered
            key = (connection.seats, connection.version)
            text = texts.get(key)
            if text is None:
                history = history_text(self.played, connection.version)
                text = texts[key] = splice(head, history, connection.seats, legal)
            connection.send(text)
            connection.version = self.version

    def broadcast_presence(self, now: int) -> None:
        data = {"type": "presence", "seats": self.seat_presence(), "absent": self.absent_infos(now)}
        text = to_json(data).decode()
        for connection in list(self.connections):
            connection.send(text)


__all__ = ["Connection", "LiveGame", "Pause", "Transport", "seat_infos"]
