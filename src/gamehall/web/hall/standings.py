"""Ratings: a rated game rated once when it ends, and the ratings and leaderboards shown.

The rating rules are :mod:`~gamehall.web.hall.ratings` (Glicko-2); this module reads and writes
them in the store. A rated game is rated once however many processes hear that it ended: the
rating update claims the game's ``counted`` flag in its own transaction, and computes the new
ratings there from the rows that transaction holds (so two results of one player at once both
count: :meth:`~gamehall.store.ratings.RatingRows.rate_game`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from gamehall.core import GamehallError, UnknownGameError, game_class
from gamehall.protocol import ErrorCode, ProtocolError, RatingShown, SeatRating, TableInfo
from gamehall.protocol.hall import (
    HistoryPoint,
    LeaderboardAnswer,
    LeaderRow,
    RatingInfo,
    SeatScore,
)
from gamehall.store.rows import RatedResult, RatingRow
from gamehall.web.hall.ratings import NEW_DEVIATION, NEW_RATING, Rating, rate_game
from gamehall.web.play.live import LiveGame

if TYPE_CHECKING:  # the store is built by the transport layer and injected
    from gamehall.store.hall import HallStore

log = logging.getLogger("gamehall.web.hall")

PROVISIONAL_DEVIATION = 110.0
"""A rating whose deviation is above this is shown as provisional (with a "?")."""
LEADERBOARD_MIN_GAMES = 10
LEADERBOARD_MAX_DEVIATION = 150.0
LEADERBOARD_MIN_OPPONENTS = 5
"""Different opponents a player needs among their rated games to be listed (never more than
the games needed), so wins over a few accounts of one's own do not make a leader. Accounts used
in one browser count as one opponent (:func:`gamehall.store.ratings.opponents_by_person`)."""


def shown(rating: float, deviation: float) -> RatingShown:
    """A rating as every page shows it: rounded, provisional (a "?") while its deviation is
    above :data:`PROVISIONAL_DEVIATION`. A player with no rated game yet has a newcomer's
    rating (1500, provisional)."""
    return RatingShown(rating=round(rating), provisional=deviation > PROVISIONAL_DEVIATION)


def rating_text(rating: RatingShown) -> str:
    """The rating as text: ``"1662?"`` while provisional, else ``"1662"``."""
    return f"{rating.rating}{'?' if rating.provisional else ''}"


class Standings:
    """The players' ratings in the store: rating ended games, showing ratings and leaders.
    A leaderboard shows the players with at least ``min_games`` rated games, against at least
    ``min_opponents`` different players (at most ``min_games``), and a deviation of at most
    ``max_deviation``."""

    def __init__(
        self,
        db: Callable[..., Awaitable[Any]],
        store: HallStore,
        *,
        min_games: int = LEADERBOARD_MIN_GAMES,
        max_deviation: float = LEADERBOARD_MAX_DEVIATION,
        min_opponents: int = LEADERBOARD_MIN_OPPONENTS,
    ) -> None:
        self.db = db
        self.store = store
        self.min_games = min_games
        self.max_deviation = max_deviation
        self.min_opponents = min(min_opponents, min_games)

    async def rating(self, player_id: str, game: str) -> Rating:
        return _of(await self.db(self.store.rating, player_id, game))

    async def rate(self, live: LiveGame) -> None:
        """Rate a rated game that ended, once: by the rules, or as the game room ended it (a
        resignation, a loss on time, a claimed win). An aborted game has no result: it is
        marked counted and changes no rating."""
        info = await self.db(self.store.hall_game, live.id)
        if info is None or not info[0]:
            return
        if info[2]:
            log.info("rated game %s: counted already", live.id)
            return
        ended = live.played.ended
        if ended is not None and ended.kind == "abort":
            await self.db(self.store.count_rated, live.id, live.game.name, [])
            return
        outcome = live.played.outcome()
        seats = await self.db(self.store.seat_players, live.id)
        if outcome is None or sorted(seats) != [0, 1] or seats[0][0] == seats[1][0]:
            log.error("rated game %s cannot be rated (seats %s)", live.id, sorted(seats))
            return
        (first, _), (second, _) = seats[0], seats[1]
        score = 0.5 if outcome.winner is None else (1.0 if outcome.winner == 0 else 0.0)

        def rate(rows: list[RatingRow | None]) -> list[RatedResult]:
            # Computed in the store's transaction, from the rows it holds (see rate_game).
            new_first, new_second = rate_game(_of(rows[0]), _of(rows[1]), score)
            return [
                RatedResult(first, 0, score, *_triple(new_first)),
                RatedResult(second, 1, 1.0 - score, *_triple(new_second)),
            ]

        counted = await self.db(
            self.store.rate_game, live.id, live.game.name, [first, second], rate
        )
        log.info("rated game %s: %s", live.id, "counted" if counted else "counted already")

    async def shown_rating(self, player_id: str, game: str) -> RatingShown:
        """A player's rating in a game as shown (a newcomer's if they have none)."""
        rating = await self.rating(player_id, game)
        return shown(rating.rating, rating.deviation)

    async def table(
        self, live: LiveGame, rated: bool, clock: str | None, counted: bool
    ) -> TableInfo:
        """How the hall made a game, as its room shows it: in a rated game, each seated
        player's rating (their rating now, until the result counted; then the rating before
        the game, after it and the change)."""
        if not rated:
            return TableInfo(rated=False, clock=clock)
        changes = await self.db(self.store.game_ratings, live.id) if counted else []
        if changes:
            ratings = []
            for seat, before, after in changes:
                was = shown(*before) if before is not None else shown(NEW_RATING, NEW_DEVIATION)
                now = shown(*after)
                ratings.append(
                    SeatRating(seat=seat, rating=was, after=now, change=now.rating - was.rating)
                )
            return TableInfo(rated=True, clock=clock, ratings=ratings)
        ratings = [
            SeatRating(seat=seat, rating=await self.shown_rating(player, live.game.name))
            for seat, player in sorted(live.player_ids.items())
        ]
        return TableInfo(rated=True, clock=clock, ratings=ratings)

    async def ratings(self, player_id: str) -> list[RatingInfo]:
        """A player's ratings as their profile shows them: each game's rating, its history
        and the player's results by seat."""
        infos = []
        for row in await self.db(self.store.ratings_of, player_id):
            try:
                seat_names = game_class(row.game).player_names
            except GamehallError:
                continue
            history = await self.db(self.store.history, player_id, row.game, 10_000)
            tally: dict[int, list[int]] = {}
            for point in history:
                counts = tally.setdefault(point.seat, [0, 0, 0])
                counts[0 if point.score == 1 else 1 if point.score == 0.5 else 2] += 1
            infos.append(
                RatingInfo(
                    game=row.game,
                    rating=shown(row.rating, row.deviation).rating,
                    deviation=round(row.deviation),
                    games=row.games,
                    provisional=shown(row.rating, row.deviation).provisional,
                    history=[
                        HistoryPoint(
                            at=p.at,
                            rating=round(p.rating),
                            deviation=round(p.deviation),
                            game_id=p.game_id,
                        )
                        for p in history[-100:]
                    ],
                    seats=[
                        SeatScore(
                            seat=seat,
                            name=seat_names[seat],
                            wins=w,
                            draws=d,
                            losses=l_,
                        )
                        for seat, (w, d, l_) in sorted(tally.items())
                    ],
                )
            )
        return infos

    async def leaderboard(self, game: str) -> LeaderboardAnswer:
        try:
            name = game_class(game).name
        except UnknownGameError as error:
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, str(error)) from None
        rows = await self.db(
            self.store.leaderboard,
            name,
            min_games=self.min_games,
            max_deviation=self.max_deviation,
            min_opponents=self.min_opponents,
        )
        return LeaderboardAnswer(
            game=name,
            min_games=self.min_games,
            min_opponents=self.min_opponents,
            max_deviation=round(self.max_deviation),
            players=[
                LeaderRow(
                    rank=rank,
                    name=player,
                    rating=shown(r.rating, r.deviation).rating,
                    provisional=shown(r.rating, r.deviation).provisional,
                    deviation=round(r.deviation),
                    games=r.games,
                )
                for rank, (player, r) in enumerate(rows, start=1)
            ],
        )


def _of(row: RatingRow | None) -> Rating:
    """A stored rating as the rules' value (a newcomer's if none)."""
    return Rating(row.rating, row.deviation, row.volatility) if row is not None else Rating()


def _triple(rating: Rating) -> tuple[float, float, float]:
    return rating.rating, rating.deviation, rating.volatility


__all__ = [
    "LEADERBOARD_MAX_DEVIATION",
    "LEADERBOARD_MIN_GAMES",
    "LEADERBOARD_MIN_OPPONENTS",
    "PROVISIONAL_DEVIATION",
    "Standings",
    "rating_text",
    "shown",
]
