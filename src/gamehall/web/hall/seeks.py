"""Seeks and quick pairing: the lobby's requests, checked, kept and stored.

The rules are :mod:`~gamehall.web.hall.pairing`'s pure :class:`~gamehall.web.hall.pairing.Lobby`;
here they meet the requests (a refused one raises :class:`ProtocolError` and changes nothing),
the store and the other processes (:mod:`~gamehall.web.hall.processes`). Accepting a seek deletes
its row: the one accept whose delete removed it makes the game, on whichever process. A pair of
quick-pairing waits is made by the one process whose delete removed both. The limits on seeks
per player, per network address and in the whole hall count the store's seeks. Making the games
is the hall's: :meth:`Seeks.take` and :meth:`QuickPairing.claim` say who plays.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gamehall.core import GamehallError, UnknownGameError, game_class
from gamehall.protocol import ErrorCode, ProtocolError
from gamehall.protocol.hall import CreateSeek, Pair
from gamehall.web.base.limits import check_length, check_options, shorten_echoes
from gamehall.web.base.settings import Settings
from gamehall.web.hall.lobby import LobbyRoom
from gamehall.web.hall.pairing import (
    LEAVE_GRACE,
    MAX_RATED_PER_PAIR,
    RATED_PAIR_WINDOW,
    SEEK_LIFETIME,
    UNWATCHED_GRACE,
    Seek,
    check_clock,
    seat_of_creator,
)
from gamehall.web.hall.pairing import LobbyError as RuleError
from gamehall.web.hall.pairing import Waiting as WaitingEntry
from gamehall.web.hall.players import Me, Players
from gamehall.web.hall.processes import Processes
from gamehall.web.hall.standings import Standings
from gamehall.web.hall.stored import address_key, stored_seek, stored_wait, wait_id

if TYPE_CHECKING:  # the store is built by the transport layer and injected
    from gamehall.store.hall import HallStore

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
    """A lobby rule's refusal as the protocol's error."""
    return ProtocolError(_RULE_CODES[error.reason], error.message)


def checked_game(
    name: str, options: dict[str, Any], rated: bool, settings: Settings
) -> tuple[str, dict[str, Any]]:
    """A seek's or a pool's game: its name and options as the game spells them, within the
    ``settings``' bounds for a new game (rated: two seats)."""
    try:
        cls = game_class(name)
    except UnknownGameError as error:
        raise ProtocolError(ErrorCode.UNKNOWN_GAME, str(error)) from None
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


def _account_needed() -> ProtocolError:
    return ProtocolError(ErrorCode.ACCOUNT_NEEDED, "rated games need an account: sign in")


class _Offers:
    """What seeks and quick pairing both work with: the hub, the hall's store, the lobby room
    and the other pieces of the hall they ask."""

    def __init__(
        self,
        hub: Any,
        store: HallStore,
        *,
        room: LobbyRoom,
        processes: Processes,
        players: Players,
        standings: Standings,
        clock: Callable[[], float],
    ) -> None:
        self.hub = hub
        self.store = store
        self.room = room
        self.lobby = room.lobby
        self.processes = processes
        self.players = players
        self.standings = standings
        self.clock = clock

    async def check_rated_limit(self, first: str, second: str, name: str) -> None:
        """Refuse (``rated_limit``) a rated game between two players who have played
        :data:`~gamehall.web.hall.pairing.MAX_RATED_PER_PAIR` rated games with each other in
        the last day; ``name`` is the other player's, as the asker sees it."""
        played = await self.hub.db(self.store.rated_between, first, second, _window_start())
        if played >= MAX_RATED_PER_PAIR:
            raise ProtocolError(
                ErrorCode.RATED_LIMIT,
                f"you and {name} have played {played} rated games with each other in the last "
                f"24 hours, the most two players may; play a casual game, or a rated one with "
                "someone else (the limit frees up as those games get a day old)",
            )


def _window_start() -> str:
    """The store's time text :data:`~gamehall.web.hall.pairing.RATED_PAIR_WINDOW` ago (the
    store keeps wall-clock UTC times)."""
    start = datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=RATED_PAIR_WINDOW)
    return start.isoformat(timespec="milliseconds")


class Seeks(_Offers):
    """Open offers to play: made, cancelled, taken by an accepter, lapsed."""

    async def create(self, me: Me, body: CreateSeek, address: str | None = None) -> Seek:
        address = address_key(address) if address is not None else None
        try:
            clock = check_clock(body.clock)
        except RuleError as error:
            raise refused(error) from None
        if body.rated and not me.signed_in:
            raise _account_needed()
        name, options = checked_game(body.game, dict(body.options), body.rated, self.hub.settings)
        seats = game_class(name)(**options).num_players
        if body.side != "random" and not 0 <= body.side < seats:
            raise ProtocolError(
                ErrorCode.BAD_SEAT, f"seat {body.side} does not exist; {name} has 0 to {seats - 1}"
            )
        if self.processes.shared:  # count the seeks every process made, as stored now
            await self.processes.reload_seeks()
        try:
            self.lobby.check_room(me.id, address)
        except RuleError as error:
            raise refused(error) from None
        me = await self.players.keep(me)  # a guest's first seek stores it (its name is shown)
        rating = await self.standings.rating(me.id, name) if body.rated else None
        now = self.clock()
        seek = Seek(
            id="s_" + secrets.token_urlsafe(8),
            player=me.id,
            name=me.player.name,
            rating=rating.rating if rating is not None else None,
            deviation=rating.deviation if rating is not None else None,
            game=name,
            options=options,
            clock=clock,
            rated=body.rated,
            side=body.side,
            created=now,
            expires=now + SEEK_LIFETIME,
            address=address,
            browsers=await self.players.browsers_of(me) if body.rated else frozenset(),
            bot=me.player.bot,
        )
        try:
            self.lobby.add(seek)
        except RuleError as error:
            raise refused(error) from None
        await self.hub.db(self.store.add_seek, stored_seek(seek))
        self.lobby.seeks[seek.id] = seek  # again, if a reload meanwhile missed it
        if not self.room.connections.get(me.id):
            # Made with no lobby page open here: it lapses unless one opens soon, here or (the
            # other processes are asked) on another process of the hall.
            self.room.unwatched.setdefault(me.id, now)
            await self.processes.unwatched(me.id)
        await self.processes.lobby_changed()
        return seek

    async def cancel(self, me: Me, seek_id: str) -> Seek:
        if seek_id not in self.lobby.seeks and self.processes.shared:
            await self.processes.reload_seeks()  # made on another process a moment ago
        try:
            seek = self.lobby.cancel(seek_id, me.id)
        except RuleError as error:
            raise refused(error) from None
        await self.hub.db(self.store.remove_seeks, [seek.id])
        self.lobby.seeks.pop(seek.id, None)  # again, if a reload meanwhile brought it back
        await self.processes.lobby_changed()
        return seek

    async def take(self, me: Me, seek_id: str) -> tuple[Seek, int, int]:
        """Take a seek for its accepter (its row deleted here, or refused); returns it, its
        creator's seat and the accepter's."""
        if seek_id not in self.lobby.seeks and self.processes.shared:
            await self.processes.reload_seeks()  # made on another process a moment ago
        try:
            seek = self.lobby.check_accept(seek_id, me.id, await self.players.browsers_of(me))
        except RuleError as error:
            raise refused(error) from None
        if seek.rated and not me.signed_in:
            raise _account_needed()
        if seek.rated:
            await self.check_rated_limit(me.id, seek.player, seek.name)
        seats = game_class(seek.game)(**seek.options).num_players
        creator_seat = seat_of_creator(seek.side, seats, secrets.randbelow(seats))
        taken = await self.hub.db(self.store.take_seek, seek.id)  # one accept, of any process
        self.lobby.take(seek.id)
        await self.processes.lobby_changed()
        if not taken:  # someone else accepted it meanwhile
            raise refused(RuleError("unknown_seek", f"the seek {seek_id!r} was just taken"))
        other = next(i for i in range(seats) if i != creator_seat)
        return seek, creator_seat, other

    async def lapse(self, now: float) -> None:
        """Of a lobby round: old seeks lapse, and those of players away longer than
        :data:`~gamehall.web.hall.pairing.LEAVE_GRACE` (their waits too), or who made them
        with no lobby page open and have opened none for
        :data:`~gamehall.web.hall.pairing.UNWATCHED_GRACE`."""
        gone = [s.id for s in self.lobby.expire(now)]
        for absent, grace in (
            (self.room.away, LEAVE_GRACE),
            (self.room.unwatched, UNWATCHED_GRACE),
        ):
            for player, since in list(absent.items()):
                if now - since >= grace:
                    del absent[player]
                    seeks, _ = self.lobby.leave(player)
                    gone += [s.id for s in seeks]
                    self.room.changed()
        if gone:
            await self.hub.db(self.store.remove_seeks, gone)
            for seek_id in gone:  # again, if a reload meanwhile brought them back
                self.lobby.seeks.pop(seek_id, None)
            await self.processes.lobby_changed()


class QuickPairing(_Offers):
    """Players waiting in a pool (a game, a time control, rated or casual) to be paired."""

    async def wait(self, me: Me, message: Pair) -> None:
        """The player waits in the message's pool (one wait a player)."""
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
            raise _account_needed()
        name, _ = checked_game(message.game, {}, message.rated, self.hub.settings)
        me = await self.players.keep(me)  # a guest's first wait stores it
        rating = await self.standings.rating(me.id, name)
        browsers = await self.players.browsers_of(me) if message.rated else frozenset()
        entry = WaitingEntry(
            me.id, me.player.name, rating.rating, name, clock, message.rated, self.clock(), browsers
        )
        try:
            self.lobby.wait(entry)
        except RuleError as error:
            raise refused(error) from None
        if self.processes.shared:  # the pools are the store's: any process may pair this wait
            here = self.processes.waits_here
            here.add(me.id)
            entry = self.lobby.waiting[me.id]
            await self.hub.db(self.store.add_wait, stored_wait(entry, self.clock()))
            here.add(me.id)  # again, if a reload meanwhile missed it
            self.lobby.waiting[me.id] = entry
            await self.processes.lobby_changed()
        self.room.changed()

    async def unwait(self, player: str) -> None:
        """A player waits no more (they asked, or their lobby page went away)."""
        if self.lobby.unwait(player) is not None:
            self.room.changed()
        here = self.processes.waits_here
        if player in here:
            here.discard(player)
            await self.hub.db(self.store.remove_seeks, [wait_id(player)])
            self.lobby.waiting.pop(player, None)  # again, if a reload meanwhile brought it back
            await self.processes.lobby_changed()

    async def apart(self) -> frozenset[frozenset[str]]:
        """The pairs of players waiting in rated pools who have played their day's rated games
        with each other (:data:`~gamehall.web.hall.pairing.MAX_RATED_PER_PAIR`): quick pairing
        pairs each of them with someone else."""
        rated = sorted(w.player for w in self.lobby.waiting.values() if w.rated)
        if len(rated) < 2:
            return frozenset()
        pairs = await self.hub.db(
            self.store.rated_pairs, rated, _window_start(), MAX_RATED_PER_PAIR
        )
        return frozenset(frozenset(pair) for pair in pairs)

    async def claim(self, a: WaitingEntry, b: WaitingEntry) -> bool:
        """Whether a pair the lobby's rules made is this process's to seat: with other
        processes, only if it removed both stored waits first."""
        self.room.changed()
        if not self.processes.shared:
            return True
        if not await self.hub.db(self.store.take_pair, wait_id(a.player), wait_id(b.player)):
            return False
        self.processes.waits_here -= {a.player, b.player}
        await self.processes.lobby_changed()
        return True


__all__ = ["QuickPairing", "Seeks", "checked_game", "refused"]
