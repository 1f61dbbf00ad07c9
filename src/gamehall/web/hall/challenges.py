"""Challenges: one player asks a named other to play a game (options, clock, rated or not, a
side), and the other accepts (the game is made, both are taken to it) or declines.

The rules, each refusal a specific error that changes nothing:

- a player is challenged by name (``unknown_player`` if there is none), never oneself
  (``self_challenge``);
- a player has at most :data:`MAX_OUTGOING` open challenges and one at a time to each opponent
  (``too_many_challenges``, ``challenge_open``); one network address at most
  :data:`MAX_PER_ADDRESS` (as seeks are counted), a player at most :data:`MAX_INCOMING` waiting,
  the hall at most :data:`MAX_CHALLENGES` (``too_many_challenges``);
- the game, options and clock are checked as a seek's are (``unknown_game``, ``bad_option``,
  ``bad_clock``, ``bad_seat``);
- rated challenges are between two accounts (``account_needed``), of two people
  (``self_pairing``) who have not played their day's rated games with each other
  (``rated_limit``), checked when sent and again when accepted;
- a guest may be challenged to a casual game, online or not: it sees the challenge in its
  lobby and header while its browser is the one it plays from, until it lapses;
- a challenge lapses :data:`LIFETIME` seconds after it was sent (:data:`SLOW_LIFETIME` for a
  correspondence game);
- only the challenged player accepts or declines, only the challenger cancels
  (``not_your_challenge``); the one act whose delete removed the stored row wins, on any
  process (``unknown_challenge`` for the others).

The challenges live in the store only (every process reads the same rows). Whenever a player's
challenges change, their lobby pages are sent a ``challenges`` message: here directly, and on the
other processes through a ``challenges`` event on the bus naming the players.
"""

from __future__ import annotations

import datetime
import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gamehall.core import game_class
from gamehall.protocol import ErrorCode, ProtocolError
from gamehall.protocol.challenges import (
    ChallengeInfo,
    ChallengeList,
    ChallengesMessage,
    CreateChallenge,
)
from gamehall.store.bus import Event
from gamehall.web.hall.names import name_key
from gamehall.web.hall.pairing import LobbyError, check_clock, one_browser, seat_of_creator
from gamehall.web.hall.players import Me, Players
from gamehall.web.hall.seeks import checked_game, refused
from gamehall.web.hall.stored import address_key

if TYPE_CHECKING:  # the store is built by the transport layer and injected
    from gamehall.store.hall import HallStore

log = logging.getLogger("gamehall.web.hall")

MAX_OUTGOING = 5
"""Open challenges one player may have sent."""
MAX_INCOMING = 20
"""Open challenges one player may have waiting (so many identities cannot flood one player)."""
MAX_PER_ADDRESS = 4 * MAX_OUTGOING
"""Open challenges sent from one network address (several people may share one)."""
MAX_CHALLENGES = 2000
"""Open challenges in the whole hall."""
LIFETIME = 30 * 60.0
"""Seconds a challenge stays open (a game with a clock, or none)."""
SLOW_LIFETIME = 24 * 3600.0
"""Seconds a challenge to a correspondence game stays open."""


def _wall_text(moment: datetime.datetime) -> str:
    return moment.isoformat(timespec="milliseconds")


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


class Challenges:
    """Challenges sent, listed, accepted, declined, cancelled and lapsed (see the module
    docstring). ``wall`` is the wall clock the challenges' times count on (tests move it)."""

    def __init__(
        self,
        hub: Any,
        store: HallStore,
        *,
        players: Players,
        tell: Callable[[str, Any], None],
        check_rated_limit: Callable[[str, str, str], Any],
        wall: Callable[[], datetime.datetime] = _now,
    ) -> None:
        self.hub = hub
        self.store = store
        self.players = players
        self._tell = tell
        self._check_rated_limit = check_rated_limit
        self.wall = wall

    async def db(self, function: Callable[..., Any], *args: Any) -> Any:
        return await self.hub.db(function, *args)

    # --- what a player sees ---

    async def names(self, rows: list[dict[str, Any]]) -> dict[str, str]:
        ids = {r["challenger_id"] for r in rows} | {r["challenged_id"] for r in rows}
        names = {}
        for player_id in ids:
            row = await self.db(self.store.player, player_id)
            names[player_id] = row.name if row is not None else "someone"
        return names

    def info(self, row: dict[str, Any], names: dict[str, str], reader: str) -> ChallengeInfo:
        side = row["side"]
        left = datetime.datetime.fromisoformat(row["expires"]) - self.wall()
        return ChallengeInfo(
            id=row["id"],
            game=row["game"],
            options=row["options"],
            clock=row["clock"],
            rated=row["rated"],
            side="random" if side == "random" else int(side),
            challenger=names[row["challenger_id"]],
            challenged=names[row["challenged_id"]],
            mine=row["challenger_id"] == reader,
            expires_in=max(0, round(left.total_seconds())),
        )

    async def listing(self, player: str) -> ChallengeList:
        """A player's open challenges: those sent to them and those they sent."""
        rows = await self.db(self.store.challenges_of, player, _wall_text(self.wall()))
        names = await self.names(rows)
        infos = [self.info(r, names, player) for r in rows]
        return ChallengeList(
            incoming=[i for i, r in zip(infos, rows, strict=True) if r["challenged_id"] == player],
            outgoing=[i for i, r in zip(infos, rows, strict=True) if r["challenger_id"] == player],
        )

    async def message(self, player: str, note: str | None = None) -> ChallengesMessage:
        listing = await self.listing(player)
        return ChallengesMessage(incoming=listing.incoming, outgoing=listing.outgoing, note=note)

    async def tell(self, players: dict[str, str | None]) -> None:
        """Send each player (id → a note, or None) their challenges: their lobby pages here,
        and (a ``challenges`` event) those on the other processes."""
        await self.tell_here(players)
        bus = self.hub.bus
        if bus.shared:
            notes = [[player, note] for player, note in players.items()]
            try:
                await bus.publish(bus.event("challenges", "", players=notes))
            except Exception:  # they see them at their next hello or look
                log.exception("cannot tell the other processes of a challenge")

    async def tell_here(self, players: dict[str, str | None]) -> None:
        for player, note in players.items():
            self._tell(player, await self.message(player, note))

    async def on_event(self, event: Event) -> None:
        """A ``challenges`` event of another process: tell the players connected here."""
        notes = event.get("players")
        if not isinstance(notes, list):
            return
        told: dict[str, str | None] = {}
        for item in notes[:10]:
            if isinstance(item, list) and len(item) == 2 and isinstance(item[0], str):
                told[item[0]] = item[1] if isinstance(item[1], str) else None
        await self.tell_here(told)

    # --- acts ---

    async def create(
        self, me: Me, body: CreateChallenge, address: str | None = None
    ) -> ChallengeInfo:
        """Send a challenge (see the module docstring for the rules)."""
        other = await self.db(self.store.player_by_name, name_key(body.name[:64]))
        if other is None or other.merged_into is not None:
            raise ProtocolError(ErrorCode.UNKNOWN_PLAYER, f"there is no player {body.name!r}")
        if other.id == me.id:
            raise ProtocolError(ErrorCode.SELF_CHALLENGE, "you cannot challenge yourself")
        try:
            clock = check_clock(body.clock)
        except LobbyError as error:
            raise refused(error) from None
        if body.rated and not me.signed_in:
            raise ProtocolError(
                ErrorCode.ACCOUNT_NEEDED, "rated games need an account: sign in to send one"
            )
        if body.rated and not other.account:
            raise ProtocolError(
                ErrorCode.ACCOUNT_NEEDED,
                f"{other.name} plays as a guest: rated games are between two accounts; "
                "challenge them to a casual game",
            )
        name, options = checked_game(body.game, dict(body.options), body.rated, self.hub.settings)
        seats = game_class(name)(**options).num_players
        if seats != 2:
            raise ProtocolError(
                ErrorCode.BAD_OPTION, f"a challenge is for a game of two; {name} has {seats} seats"
            )
        if body.side != "random" and not 0 <= body.side < seats:
            raise ProtocolError(
                ErrorCode.BAD_SEAT, f"seat {body.side} does not exist; {name} has 0 to {seats - 1}"
            )
        if body.rated:
            mine = await self.players.browsers_of(me)
            theirs = await self.players.browsers_of_account(other)
            if one_browser(True, mine, theirs):
                raise ProtocolError(
                    ErrorCode.SELF_PAIRING,
                    f"{other.name} is an account used in this browser too, or a bot of the same "
                    "person; a rated game needs two people",
                )
            await self._check_rated_limit(me.id, other.id, other.name)
        me = await self.players.keep(me)  # a guest's first challenge stores it
        hashed = address_key(address) if address is not None else None
        now = self.wall()
        counts = await self.db(
            self.store.challenge_counts, me.id, other.id, hashed, _wall_text(now)
        )
        self._check_room(counts, other.name, hashed is not None)
        lifetime = SLOW_LIFETIME if clock is not None and clock.startswith("d") else LIFETIME
        row = {
            "id": "c_" + secrets.token_urlsafe(8),
            "challenger_id": me.id,
            "challenged_id": other.id,
            "game": name,
            "options": options,
            "clock": clock,
            "rated": body.rated,
            "side": body.side,
            "created": _wall_text(now),
            "expires": _wall_text(now + datetime.timedelta(seconds=lifetime)),
            "address": hashed,
        }
        await self.db(self.store.add_challenge, row)
        await self.tell({me.id: None, other.id: None})
        return self.info(row, {me.id: me.player.name, other.id: other.name}, me.id)

    @staticmethod
    def _check_room(counts: dict[str, int], name: str, by_address: bool) -> None:
        if counts["pair"]:
            raise ProtocolError(
                ErrorCode.CHALLENGE_OPEN,
                f"you have challenged {name} already; cancel that challenge to send another",
            )
        if counts["out"] >= MAX_OUTGOING:
            raise ProtocolError(
                ErrorCode.TOO_MANY_CHALLENGES,
                f"you have {MAX_OUTGOING} open challenges, the most one player may have; "
                "cancel one first",
            )
        if counts["in"] >= MAX_INCOMING:
            raise ProtocolError(
                ErrorCode.TOO_MANY_CHALLENGES,
                f"{name} has {MAX_INCOMING} challenges waiting, the most one player may have; "
                "try later",
            )
        if by_address and counts["address"] >= MAX_PER_ADDRESS:
            raise ProtocolError(
                ErrorCode.TOO_MANY_CHALLENGES,
                f"{counts['address']} challenges are open from your network address, the most "
                "one address may have; cancel one or wait for answers",
            )
        if counts["all"] >= MAX_CHALLENGES:
            raise ProtocolError(
                ErrorCode.TOO_MANY_CHALLENGES,
                f"the hall holds {MAX_CHALLENGES} open challenges; try later",
            )

    async def _open(self, challenge_id: str) -> dict[str, Any]:
        row = await self.db(self.store.challenge, challenge_id, _wall_text(self.wall()))
        if row is None:
            raise ProtocolError(
                ErrorCode.UNKNOWN_CHALLENGE,
                f"there is no open challenge {challenge_id!r} (accepted, declined, cancelled "
                "or lapsed)",
            )
        return row

    async def _take(self, row: dict[str, Any]) -> None:
        if not await self.db(self.store.take_challenge, row["id"]):
            raise ProtocolError(
                ErrorCode.UNKNOWN_CHALLENGE,
                f"the challenge {row['id']!r} was just answered or cancelled",
            )

    async def take(self, me: Me, challenge_id: str) -> tuple[dict[str, Any], int, int]:
        """Take a challenge for its challenged player, who accepts it (its row deleted here, or
        refused); returns it, the challenger's seat and the accepter's."""
        row = await self._open(challenge_id)
        if row["challenged_id"] != me.id:
            raise ProtocolError(
                ErrorCode.NOT_YOUR_CHALLENGE, "only the challenged player may accept a challenge"
            )
        if row["rated"]:
            challenger = await self.db(self.store.player, row["challenger_id"])
            name = challenger.name if challenger is not None else "your opponent"
            if not me.signed_in:
                raise ProtocolError(
                    ErrorCode.ACCOUNT_NEEDED, "a rated challenge needs an account: sign in"
                )
            theirs = (
                await self.players.browsers_of_account(challenger)
                if challenger is not None
                else frozenset()
            )
            if one_browser(True, await self.players.browsers_of(me), theirs):
                raise ProtocolError(
                    ErrorCode.SELF_PAIRING,
                    f"{name} is an account used in this browser too, or a bot of the same "
                    "person; a rated game needs two people",
                )
            await self._check_rated_limit(me.id, row["challenger_id"], name)
        side = row["side"]
        creator_seat = seat_of_creator(
            "random" if side == "random" else int(side), 2, secrets.randbelow(2)
        )
        await self._take(row)
        await self.tell({row["challenger_id"]: None, me.id: None})
        return row, creator_seat, 1 - creator_seat

    async def decline(self, me: Me, challenge_id: str) -> ChallengeInfo:
        row = await self._open(challenge_id)
        if row["challenged_id"] != me.id:
            raise ProtocolError(
                ErrorCode.NOT_YOUR_CHALLENGE, "only the challenged player may decline a challenge"
            )
        await self._take(row)
        names = await self.names([row])
        info = self.info(row, names, me.id)
        note = f"{info.challenged} declined your challenge to {info.game}"
        await self.tell({row["challenger_id"]: note, me.id: None})
        return info

    async def cancel(self, me: Me, challenge_id: str) -> ChallengeInfo:
        row = await self._open(challenge_id)
        if row["challenger_id"] != me.id:
            raise ProtocolError(
                ErrorCode.NOT_YOUR_CHALLENGE, "only the challenger may cancel a challenge"
            )
        await self._take(row)
        names = await self.names([row])
        info = self.info(row, names, me.id)
        note = f"{info.challenger} cancelled their challenge to {info.game}"
        await self.tell({me.id: None, row["challenged_id"]: note})
        return info

    async def lapse(self) -> int:
        """Of a lobby round: the challenges whose time is up lapse, and their players are told
        (by the process whose delete removed each). Returns how many lapsed here."""
        rows = await self.db(self.store.lapsed_challenges, _wall_text(self.wall()))
        lapsed = 0
        for row in rows:
            if not await self.db(self.store.take_challenge, row["id"]):
                continue  # another process took it
            lapsed += 1
            names = await self.names([row])
            by, to, game = names[row["challenger_id"]], names[row["challenged_id"]], row["game"]
            await self.tell(
                {
                    row["challenger_id"]: f"your challenge to {to} ({game}) lapsed unanswered",
                    row["challenged_id"]: f"{by}'s challenge ({game}) lapsed",
                }
            )
        return lapsed


__all__ = [
    "LIFETIME",
    "MAX_CHALLENGES",
    "MAX_INCOMING",
    "MAX_OUTGOING",
    "MAX_PER_ADDRESS",
    "SLOW_LIFETIME",
    "Challenges",
]
