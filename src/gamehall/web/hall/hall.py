"""The hall: players and names, accounts, the lobby (seeks, quick pairing), rated games.

One :class:`Hall` per app, beside the :class:`~gamehall.web.play.hub.Hub`: it asks the hub to make
games, listens to it (a game loaded: name its seats; a game over: rate it) and keeps the lobby's
clients. Its rules are pure units (:mod:`~gamehall.web.hall.pairing`, :mod:`~gamehall.web.hall.ratings`,
:mod:`~gamehall.web.hall.names`, :mod:`~gamehall.web.hall.accounts`); the objects it holds, one a
concern, apply them to requests, the store and connections:

- :class:`~gamehall.web.hall.players.Players`: who is asking, and names;
- :class:`~gamehall.web.hall.signin.SignIn`: accounts (sign-up, sign-in, sign-out);
- :class:`~gamehall.web.hall.seeks.Seeks` and :class:`~gamehall.web.hall.seeks.QuickPairing`;
- :class:`~gamehall.web.hall.challenges.Challenges`: one player asks a named other to play;
- :class:`~gamehall.web.hall.processes.Processes`: the other processes of the hall, on the bus;
- :class:`~gamehall.web.hall.lobby.LobbyRoom`: the lobby's clients and what they are shown;
- :class:`~gamehall.web.hall.standings.Standings`: rating ended games, ratings and leaderboards.

The hall itself ties the lobby to the games: it makes the game of an accepted seek or a quick
pair or an accepted challenge, names a game's seats, has a game that ended rated, and runs the
lobby's rounds (lapsing seeks and challenges and pairing waits, every :data:`TICK` seconds). A refused request raises
:class:`ProtocolError` and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gamehall.core import game_class
from gamehall.protocol import ProtocolError
from gamehall.protocol.challenges import ChallengeInfo, ChallengeList, CreateChallenge
from gamehall.protocol.hall import (
    CreateSeek,
    LeaderboardAnswer,
    LiveInfo,
    LobbyError,
    LobbyHello,
    LobbyMessage,
    LobbyPing,
    LobbyPong,
    MeAnswer,
    Pair,
    PairedMessage,
    RatingInfo,
    SeekInfo,
    Unpair,
    parse_lobby_message,
)
from gamehall.store.bus import Bus
from gamehall.web.hall.accounts import Passwords
from gamehall.web.hall.bots import BotNames
from gamehall.web.hall.challenges import Challenges
from gamehall.web.hall.lobby import LIVE_GAMES_SHOWN, LobbyRoom
from gamehall.web.hall.pairing import Lobby, Seek
from gamehall.web.hall.players import MAX_NOTED, Me, Players
from gamehall.web.hall.processes import LIVE_EVERY, Processes
from gamehall.web.hall.seeks import QuickPairing, Seeks, refused
from gamehall.web.hall.signin import SignIn
from gamehall.web.hall.standings import (
    LEADERBOARD_MAX_DEVIATION,
    LEADERBOARD_MIN_GAMES,
    LEADERBOARD_MIN_OPPONENTS,
    PROVISIONAL_DEVIATION,
    Standings,
)
from gamehall.web.hall.stored import (
    WAIT_LEASE,
    WAIT_PREFIX,
    address_key,
    wait_id,
)
from gamehall.web.play.live import Connection, LiveGame

if TYPE_CHECKING:  # the store is built by the transport layer and injected
    from gamehall.store.hall import HallStore

log = logging.getLogger("gamehall.web.hall")

TICK = 1.0
"""Seconds between the lobby's rounds of lapsing seeks and pairing."""


class Hall:
    """Players, accounts, the lobby and ratings, on a hub (see the module docstring)."""

    def __init__(
        self,
        hub: Any,
        *,
        store: HallStore,
        passwords: Passwords | None = None,
        clock: Callable[[], float] = time.monotonic,
        leaderboard: tuple[int, float] = (LEADERBOARD_MIN_GAMES, LEADERBOARD_MAX_DEVIATION),
        min_opponents: int = LEADERBOARD_MIN_OPPONENTS,
        tick: float | None = TICK,
    ) -> None:
        self.hub = hub
        self.store = store
        self._clock = clock
        self.tick_every = tick
        self.lobby = Lobby()
        """The lobby's seeks and waits (with other processes, this one's copy of the store's)."""
        self.players = Players(self.db, store, clock)
        self.room = LobbyRoom(hub, store, self.lobby, clock)
        self.bots = BotNames(self.db, store)
        """Which player names are bot accounts' (docs/bots.md): marked wherever shown."""
        self.room.bots = self.bots
        self.processes = Processes(hub, store, self.room, clock)
        min_games, max_deviation = leaderboard
        self.standings = Standings(
            self.db, store, min_games=min_games, max_deviation=max_deviation,
            min_opponents=min_opponents,
        )  # fmt: skip
        self.signin = SignIn(
            self.db, store, self.players, changed=self.room.changed, reseat=self._reseat,
            ended=self.processes.sessions_ended, passwords=passwords, clock=clock,
        )  # fmt: skip
        self.seeks = Seeks(
            hub, store, room=self.room, processes=self.processes, players=self.players,
            standings=self.standings, clock=clock,
        )  # fmt: skip
        self.quick = QuickPairing(
            hub, store, room=self.room, processes=self.processes, players=self.players,
            standings=self.standings, clock=clock,
        )  # fmt: skip
        self.challenges = Challenges(
            hub, store, players=self.players, tell=self.room.tell,
            check_rated_limit=self.seeks.check_rated_limit,
        )  # fmt: skip
        self.processes.handlers["challenges"] = self.challenges.on_event
        self._challenged: weakref.WeakSet[Connection] = weakref.WeakSet()
        """The lobby pages sent their challenges (on their first ``hello``)."""
        self._tasks: list[asyncio.Task[Any]] = []
        self._renamed: set[str] = set()
        """Games whose seats' names changed since the last round (shown then, once)."""

    @property
    def clock(self) -> Callable[[], float]:
        """The hall's clock (seconds, any monotonic origin), which its parts share."""
        return self._clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        for part in (self.players, self.room, self.processes, self.signin, self.seeks, self.quick):
            part.clock = clock

    # --- life ---

    async def start(self) -> None:
        self.hub.listeners.append(self)
        await self.players.rekey_names()
        await self.processes.start()
        for game_id in await self.db(self.store.uncounted_rated_games):
            with contextlib.suppress(ProtocolError):
                await self.finished(await self.hub.get(game_id))
        loop = asyncio.get_running_loop()
        self._tasks.append(loop.create_task(self.room.broadcaster()))
        if self.tick_every:
            self._tasks.append(loop.create_task(self._ticker()))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.room.stop()

    async def db(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return await self.hub.db(function, *args, **kwargs)

    @property
    def bus(self) -> Bus:
        return self.hub.bus

    # --- the parts' state, by the names it had here ---

    @property
    def connections(self) -> dict[str, dict[Connection, Me]]:
        return self.room.connections

    @property
    def away(self) -> dict[str, float]:
        return self.room.away

    @property
    def _waits_here(self) -> set[str]:
        return self.processes.waits_here

    async def _reload_seeks(self) -> None:
        await self.processes.reload_seeks()

    async def _hashing_work(self, work: Callable[..., Any], *args: Any) -> Any:
        return await self.signin.hashing_work(work, *args)

    # --- who is asking, names and accounts ---

    async def me(self, browser: str | None, session: str | None, marker: str | None = None) -> Me:
        """The player behind a browser identity and session cookie, with the browser's marker
        (see :class:`Players`)."""
        return await self.players.marked(await self.players.me(browser, session), marker)

    async def known(self, browser: str) -> bool:
        """Whether a browser (its identity's key) is a stored player."""
        return await self.db(self.store.player, browser) is not None

    async def keep(self, me: Me) -> Me:
        """The same player, stored if it was a guest not stored yet (see :class:`Players`)."""
        return await self.players.keep(me)

    async def browsers_of(self, me: Me) -> frozenset[str]:
        return await self.players.browsers_of(me)

    async def me_answer(self, me: Me) -> MeAnswer:
        return await self.players.me_answer(me)

    async def rename(self, me: Me, name: str, address: str | None = None) -> Me:
        """Rename a guest (limited per player and per address). Every live game it sits in has the new name at
        once, and its watchers are shown it at the next lobby round, once however many renames
        came meanwhile (:meth:`show_renamed`)."""
        await self.players.rename(me, name, address)
        me = await self.players.again(me)
        for live in list(self.hub.games.values()):
            seats = [seat for seat, pid in live.player_ids.items() if pid == me.id]
            for seat in seats:
                live.players[seat] = me.player.name
            if seats:
                self._renamed.add(live.id)
        self.changed()
        return me

    def show_renamed(self) -> None:
        """Send the games whose players were renamed since the last round their state, once."""
        renamed, self._renamed = self._renamed, set()
        for game_id in renamed:
            live = self.hub.games.get(game_id)
            if live is not None:
                live.broadcast_state(self.hub.clock.now())

    async def _reseat(self, player_id: str) -> None:
        """Name again the seats of every live game this player sits in, and show them."""
        for live in list(self.hub.games.values()):
            if player_id in live.player_ids.values():
                await self.loaded(live)
                live.broadcast_state(self.hub.clock.now())

    async def signup(
        self, me: Me, username: str, password: str, address: str = "unknown"
    ) -> tuple[Me, str]:
        return await self.signin.signup(me, username, password, address)

    async def make_bot(self, me: Me, name: str, address: str = "unknown") -> tuple[str, str]:
        """A bot account of the signed-in person ``me``: its name and secret token."""
        name, token = await self.signin.make_bot(me, name, address)
        self.bots.made(name)
        return name, token

    async def login(self, me: Me, username: str, password: str, address: str) -> tuple[Me, str]:
        return await self.signin.login(me, username, password, address)

    async def logout(self, me: Me, everywhere: bool) -> int:
        return await self.signin.logout(me, everywhere)

    # --- seeks and quick pairing ---

    async def create_seek(self, me: Me, body: CreateSeek, address: str | None = None) -> Seek:
        return await self.seeks.create(me, body, address)

    async def cancel_seek(self, me: Me, seek_id: str) -> Seek:
        return await self.seeks.cancel(me, seek_id)

    async def accept_seek(self, me: Me, seek_id: str) -> tuple[LiveGame, int]:
        """Make the seek's game with both players seated; returns it and the accepter's seat."""
        seek, creator_seat, other = await self.seeks.take(me, seek_id)
        me = await self.keep(me)  # a guest accepting is stored now, seated next
        live = await self.start_game(
            seek.game, seek.options, seek.clock, seek.rated,
            {creator_seat: seek.player, other: me.id},
        )  # fmt: skip
        await self._tell_paired(seek.player, live, creator_seat)
        return live, other

    # --- challenges ---

    async def challenge(
        self, me: Me, body: CreateChallenge, address: str | None = None
    ) -> ChallengeInfo:
        return await self.challenges.create(me, body, address)

    async def challenge_list(self, me: Me) -> ChallengeList:
        return await self.challenges.listing(me.id)

    async def accept_challenge(self, me: Me, challenge_id: str) -> tuple[LiveGame, int]:
        """Make the challenge's game with both players seated; returns it and the accepter's
        seat (the challenger is told, as a seek's creator is)."""
        row, challenger_seat, seat = await self.challenges.take(me, challenge_id)
        live = await self.start_game(
            row["game"], row["options"], row["clock"], row["rated"],
            {challenger_seat: row["challenger_id"], seat: me.id},
        )  # fmt: skip
        await self._tell_paired(row["challenger_id"], live, challenger_seat)
        return live, seat

    async def decline_challenge(self, me: Me, challenge_id: str) -> ChallengeInfo:
        return await self.challenges.decline(me, challenge_id)

    async def cancel_challenge(self, me: Me, challenge_id: str) -> ChallengeInfo:
        return await self.challenges.cancel(me, challenge_id)

    async def pair(self, me: Me, message: Pair) -> None:
        await self.quick.wait(me, message)

    async def unpair(self, me: Me) -> None:
        await self.quick.unwait(me.id)

    async def tick(self, now: float | None = None) -> None:
        """One round: show renamed players' games, lapse old seeks and those of players who
        left, pair who can be paired."""
        now = self.clock() if now is None else now
        self.show_renamed()
        await self.seeks.lapse(now)
        await self.challenges.lapse()
        if self.bus.shared:
            await self.processes.shared_round(now)
        pairs = self.lobby.pair(now, await self.quick.apart())
        log.debug("pairing round: %d pairs, %d left waiting", len(pairs), len(self.lobby.waiting))
        for a, b in pairs:
            if not await self.quick.claim(a, b):
                continue
            seats = game_class(a.game)().num_players
            first = secrets.randbelow(seats)
            second = (first + 1) % seats
            try:
                live = await self.start_game(
                    a.game, {}, a.clock, a.rated, {first: a.player, second: b.player}
                )
            except ProtocolError as error:
                log.error("quick pairing could not make a game: %s", error.message)
                continue
            await self._tell_paired(a.player, live, first)
            await self._tell_paired(b.player, live, second)

    async def _ticker(self) -> None:
        assert self.tick_every
        while True:
            await asyncio.sleep(self.tick_every)
            try:
                await self.tick()
            except Exception:
                log.exception("the lobby's round failed")

    # --- games ---

    async def start_game(
        self,
        game: str,
        options: dict[str, Any],
        clock: str | None,
        rated: bool,
        players: dict[int, str],
    ) -> LiveGame:
        """A new online game with each seat's player seated (``players``: seat → player)."""
        (first_seat, first), *others = sorted(players.items())
        live, _ = await self.hub.create(
            game_name=game, options=options, mode="online", seat=first_seat, level="easy",
            player_id=first, clock=clock,
        )  # fmt: skip
        for seat, player in others:
            await self.db(self.hub.store.add_holding, player, live.id, seat)
            live.hold(player, seat)
        await self.db(self.store.mark_game, live.id, rated, clock)
        await self.loaded(live)
        # A hall game aborts itself if a side does not make its first move in time: it is
        # loaded again after a restart to watch that, and its timer is armed now.
        await self.db(self.hub.store.set_pending, live.id, True)
        await self.hub.resume(live)
        live.broadcast_state(self.hub.clock.now())
        self.changed()
        return live

    async def _tell_paired(self, player: str, live: LiveGame, seat: int) -> None:
        info = live.hall or {}
        url = f"/game/{live.id}"  # the seat is held on the server: no invite needed
        message = PairedMessage(
            id=live.id, url=url, rated=bool(info.get("rated")), clock=info.get("clock")
        )
        self.room.tell(player, message)
        await self.processes.paired(player, message)

    # hub listener: a game was loaded or made
    async def loaded(self, live: LiveGame) -> None:
        live.set_holders(await self.db(self.hub.store.holders, live.id))  # merged, or joined
        seats = await self.db(self.store.seat_players, live.id)
        live.player_ids = {seat: pid for seat, (pid, _) in seats.items()}
        live.players = {seat: name for seat, (_, name) in seats.items()}
        bots = await self.bots.among(live.players.values())
        live.bots = frozenset(seat for seat, name in live.players.items() if name in bots)
        info = await self.db(self.store.hall_game, live.id)
        live.hall = {"rated": info[0], "clock": info[1]} if info is not None else None
        await self._show_table(live, info)

    async def _show_table(self, live: LiveGame, info: tuple[bool, str | None, bool] | None) -> None:
        """What the room shows of how the hall made the game: rated or casual, the clock, the
        players' ratings (and their changes once the result counted)."""
        if info is None:
            live.table = None
            return
        rated, clock, counted = info
        table = await self.standings.table(live, rated, clock, counted)
        live.table = table.model_dump()

    async def seats_changed(self, live: LiveGame) -> None:
        """Someone took a seat (an invite link): show their name."""
        await self.loaded(live)
        live.broadcast_state(self.hub.clock.now())
        self.changed()

    # hub listener: a game ended
    async def finished(self, live: LiveGame) -> None:
        """Rate a rated game that ended, once (see :meth:`Standings.rate`); once the result is
        in the store, the room is shown each side's change, and the lobby the new ratings."""
        self.changed()
        await self.standings.rate(live)
        info = await self.db(self.store.hall_game, live.id)
        if info is None or not info[0]:
            return
        await self._show_table(live, info)
        live.broadcast_state(self.hub.clock.now())
        await self._rerate_lobby(live)

    async def _rerate_lobby(self, live: LiveGame) -> None:
        """The players' seeks and quick-pairing waits for the same game carry their ratings
        as they are now (a seek made before a rated game ended shows the rating after it)."""
        game = live.game.name
        for player in set(live.player_ids.values()):
            rating = await self.standings.rating(player, game)
            for seek in list(self.lobby.seeks.values()):
                if seek.player == player and seek.game == game and seek.rating is not None:
                    self.lobby.seeks[seek.id] = dataclasses.replace(
                        seek, rating=rating.rating, deviation=rating.deviation
                    )
            waiting = self.lobby.waiting.get(player)
            if waiting is not None and waiting.game == game:
                self.lobby.waiting[player] = dataclasses.replace(waiting, rating=rating.rating)
        self.changed()

    # --- the lobby's clients ---

    async def attach(self, me: Me, connection: Connection) -> None:
        self.room.attach(me, connection)
        await self.processes.watching(me.id)  # for a seek made where no page of theirs is

    async def detach(self, me: Me, connection: Connection) -> None:
        if await self.room.leave(me, connection):
            await self.quick.unwait(me.id)  # a wait ends with the page

    async def receive(self, me: Me, connection: Connection, text: str | bytes) -> None:
        """Handle one message of a lobby page (within ``messages_per_second``, as a game's)."""

        def refuse(error: ProtocolError) -> None:
            connection.send(LobbyError(code=error.code, message=error.message))

        if connection.closed:  # its session ended, or it broke a limit: it acts no more
            return
        if not connection.within_rate(self.hub.settings.messages_per_second, refuse):
            return
        try:
            message = parse_lobby_message(text)
            if isinstance(message, LobbyHello):
                await self.room.hello(me, connection)
                if connection not in self._challenged:  # once a page: then as they change
                    self._challenged.add(connection)
                    connection.send(await self.challenges.message(me.id))
            elif isinstance(message, LobbyPing):
                connection.send(LobbyPong())
            elif isinstance(message, Pair):
                await self.pair(me, message)
            elif isinstance(message, Unpair):
                await self.unpair(me)
        except ProtocolError as error:
            connection.send(LobbyError(code=error.code, message=error.message))

    def changed(self) -> None:
        """The lobby changed: every lobby client hears of it (soon, once for many changes)."""
        self.room.changed()

    def seek_info(self, seek: Seek, reader: Me | None) -> SeekInfo:
        return self.room.seek_info(seek, reader)

    def live_games(self) -> list[LiveInfo]:
        return self.room.live_games()

    async def lobby_message(self, me: Me) -> LobbyMessage:
        return await self.room.lobby_message(me)

    # --- ratings shown ---

    async def ratings(self, player_id: str) -> list[RatingInfo]:
        return await self.standings.ratings(player_id)

    async def leaderboard(self, game: str) -> LeaderboardAnswer:
        """The game's leaderboard: people and bots in one list, bots tagged (docs/bots.md)."""
        answer = await self.standings.leaderboard(game)
        bots = await self.bots.among(row.name for row in answer.players)
        players = [row.model_copy(update={"bot": row.name in bots}) for row in answer.players]
        return answer.model_copy(update={"players": players})


__all__ = [
    "LEADERBOARD_MAX_DEVIATION",
    "LEADERBOARD_MIN_GAMES",
    "LIVE_EVERY",
    "LIVE_GAMES_SHOWN",
    "MAX_NOTED",
    "PROVISIONAL_DEVIATION",
    "TICK",
    "WAIT_LEASE",
    "WAIT_PREFIX",
    "Hall",
    "Me",
    "address_key",
    "refused",
    "wait_id",
]
