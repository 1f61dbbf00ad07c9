"""New games and their seats: a game made from a creation body or as a rematch, a seat taken by
its invite.

A new game's row is written here from what was asked (the game and its options, or a position
the server found itself; the mode, the creator's seat, the computers' level, the clock), within
the server's limits (``games_per_minute`` per browser and, ``address_factor`` times more, per
network address; ``computer_games`` going on per browser); the hub stores it and plays it. Each
human seat has a secret token of its own, and an invite link names one: the first browser to open
it holds the seat, and the link is spent after that (see :mod:`gamehall.web.http.identity`).
"""

from __future__ import annotations

import re
import secrets
import string
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from gamehall.core import Game, GamehallError, UnknownGameError, game_class
from gamehall.protocol import ErrorCode, ProtocolError
from gamehall.store.bus import Bus, Event
from gamehall.store.rows import GameRow, Seat, now_text
from gamehall.web.base.clock import Clock, ClockError, TimeControl
from gamehall.web.base.limits import (
    RateTable,
    check_length,
    check_options,
    over_limit,
    shorten_echoes,
)
from gamehall.web.base.settings import Settings
from gamehall.web.compute.computers import Computers
from gamehall.web.play.live import LiveGame
from gamehall.web.play.pools import Run

if TYPE_CHECKING:  # the store is built by the transport layer and injected
    from gamehall.store.db import Store

_ID_ALPHABET = string.ascii_letters + string.digits + "-_"
GAME_ID = re.compile(r"g_[A-Za-z0-9_-]{10}")
"""What a game id looks like; anything else is no game, and is not looked up."""


def new_game_id() -> str:
    """``g_`` and 10 url-safe characters."""
    return "g_" + "".join(secrets.choice(_ID_ALPHABET) for _ in range(10))


def new_token() -> str:
    return secrets.token_urlsafe(18)


def parse_clock(text: str | None) -> TimeControl | None:
    """A game's time control from the creation body (None: no clock)."""
    if text is None or not text.strip():
        return None
    try:
        return TimeControl.parse(text)
    except ClockError as error:
        raise ProtocolError(ErrorCode.BAD_CLOCK, str(error)) from None


Insert = Callable[[GameRow, Game, list[tuple[str, int]]], Awaitable[LiveGame]]
"""Stores a new game's row with its seats' holders (browser, seat), and plays it."""


class Tables:
    """Makes new games (within the limits on making them) and seats browsers by invite."""

    def __init__(
        self,
        store: Store,
        bus: Bus,
        settings: Settings,
        computers: Computers,
        clock: Clock,
        *,
        db: Run,
        publish: Callable[[Event], Awaitable[None]],
        insert: Insert,
        get: Callable[[str], Awaitable[LiveGame]],
    ) -> None:
        self.store = store
        self.bus = bus
        self.settings = settings
        self.computers = computers
        self.clock = clock
        self._db = db
        self._publish = publish
        self._insert = insert
        self._get = get
        per_minute = settings.games_per_minute
        self._made = RateTable(per_minute / 60, per_minute)
        wide = per_minute * settings.address_factor
        self._made_at = RateTable(wide / 60, wide)

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
        going = await self._db(self.store.ongoing_count, player_id, "computer")
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
            return await self._get(live.row.rematch), mapped
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
        holders = [(p, new_index(s)) for p, s in await self._db(self.store.holders, live.id)]
        async with live.lock:
            if live.row.rematch:  # another request made it meanwhile
                return await self._get(live.row.rematch), mapped
            self._check_made(player_id, address)
            new = await self._insert(row, live.game, holders)
            live.row.rematch = new.id
        live.broadcast_state(self.clock.now())
        await self._publish(self.bus.event("game", live.id))
        return new, mapped

    async def claim(self, live: LiveGame, player_id: str, token: str) -> frozenset[int]:
        """Take the seat an invite secret names, for the browser ``player_id``: the first to
        open the link holds it; the link is spent after that (see gamehall.web.http.identity)."""
        seats = live.seats_of([token])
        if not seats:
            raise ProtocolError(
                ErrorCode.BAD_SEAT_TOKEN, "that invite is not one of this game's seats"
            )
        seat = min(seats)
        name = live.game.player_names[seat].capitalize()
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
                held = ", ".join(live.game.player_names[i].capitalize() for i in sorted(mine))
                raise ProtocolError(
                    ErrorCode.SEAT_TAKEN,
                    f"you play {held} in this game; the invite link is for the other player: "
                    "send it to them",
                )
            taken = await self._db(self.store.claim_seat, player_id, live.id, seat)
            if not taken:
                raise ProtocolError(
                    ErrorCode.SEAT_TAKEN, f"this invite link was used already: {name} is taken"
                )
            live.hold(player_id, seat, self.clock.now())
        await self._publish(self.bus.event("game", live.id))
        return live.seats_for(player_id)


def invite_seat(live: LiveGame, player_id: str | None) -> int | None:
    """The free seat whose invite the browser ``player_id`` may show: an online game's human
    seat no one holds yet, for a browser that holds another seat; else None."""
    if live.row.mode != "online" or not live.seats_for(player_id) or live.over:
        return None
    for index, seat in enumerate(live.row.seats):
        if seat.kind == "human" and not live.claimed(index):
            return index
    return None


__all__ = ["GAME_ID", "Insert", "Tables", "invite_seat", "new_game_id", "new_token", "parse_clock"]
