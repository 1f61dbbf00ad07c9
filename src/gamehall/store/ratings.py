"""The hall's rating tables: how a game was made in the hall, each player's ratings, and their
history. Tables::

    hall_games(game_id, rated, clock, counted)          how a game was made in the hall
    ratings(player_id, game, rating, deviation, volatility, games, updated)
    rating_history(id, player_id, game, game_id, seat, score, rating, deviation, at)

A rated result is read and written in one transaction that holds the players' rating rows
(:meth:`RatingRows.rate_game`): ``BEGIN IMMEDIATE`` on SQLite (the database's write lock from
the first read) and ``SELECT ... FOR UPDATE`` row locks on PostgreSQL, taken in the order of the
players' ids, so two results of one player at once, on one process or several, both count: the
second is computed from the rating the first wrote. The rules that compute a new rating are the
caller's (:mod:`gamehall.web.hall.ratings`); the store hands them the rows it holds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    and_,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError

from gamehall.store.db import Store
from gamehall.store.rows import HistoryRow, RatedResult, RatingRow, StoreError, now_text
from gamehall.store.tables import games_table, holdings_table, metadata

RATING_ATTEMPTS = 5
"""How often a rated result is tried again when PostgreSQL gives its transaction up (two first
results of one player inserting their rating row at once, or a deadlock): the retry reads the
rows the other wrote."""

hall_games_table = Table(
    "hall_games",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("rated", Boolean, nullable=False),
    Column("clock", String(16), nullable=True),
    Column("counted", Boolean, nullable=False, default=False),  # its result is in the ratings
)

ratings_table = Table(
    "ratings",
    metadata,
    Column("player_id", String(64), ForeignKey("players.id"), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", String(40), nullable=False),
)

rating_history_table = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(64), ForeignKey("players.id"), nullable=False),
    Column("game", String(64), nullable=False),
    Column("game_id", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("score", Float, nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("at", String(40), nullable=False),
)
Index("rating_history_player", rating_history_table.c.player_id, rating_history_table.c.game)

Rate = Callable[[list[RatingRow | None]], Sequence[RatedResult]]
"""What a rated result comes to, given the players' rating rows as the transaction holds them
(None: no rating yet): each player's result and new rating."""


class RatingRows:
    """The rating part of :class:`~gamehall.store.hall.HallStore` (which has ``engine`` and
    ``store``)."""

    engine: Any
    store: Store

    # --- games made in the hall ---

    def mark_game(self, game_id: str, rated: bool, clock: str | None) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(hall_games_table).values(
                    game_id=game_id, rated=rated, clock=clock, counted=False
                )
            )

    def hall_game(self, game_id: str) -> tuple[bool, str | None, bool] | None:
        """(rated, clock, counted) of a game made in the hall, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(hall_games_table).where(hall_games_table.c.game_id == game_id)
            ).first()
        return (bool(row.rated), row.clock, bool(row.counted)) if row is not None else None

    def uncounted_rated_games(self) -> list[str]:
        """Rated games that finished but whose result is not yet in the ratings (a crash
        between the last move and the rating update)."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(hall_games_table.c.game_id)
                    .join(games_table, games_table.c.id == hall_games_table.c.game_id)
                    .where(
                        hall_games_table.c.rated.is_(True),
                        hall_games_table.c.counted.is_(False),
                        games_table.c.status == "finished",
                    )
                ).scalars()
            )

    def rated_between(self, first: str, second: str, since: str) -> int:
        """How many rated games ``first`` and ``second`` have played each other since
        ``since`` (an ISO time): those going on and those with a result (an aborted game, which
        has none, is not one)."""
        query = self._rated_pairs([first, second], since)
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return int(row.games) if row is not None else 0

    def rated_pairs(
        self, players: Sequence[str], since: str, at_least: int
    ) -> list[tuple[str, str]]:
        """The pairs of ``players`` who have played each other at least ``at_least`` rated
        games since ``since`` (counted as :meth:`rated_between` does), each pair once."""
        if len(players) < 2:
            return []
        query = (
            self._rated_pairs(players, since)
            .order_by("first", "second")
            .having(func.count(games_table.c.id.distinct()) >= at_least)
        )
        with self.engine.connect() as conn:
            return [(r.first, r.second) for r in conn.execute(query)]

    @staticmethod
    def _rated_pairs(players: Sequence[str], since: str) -> Any:
        """Each pair of ``players`` (ids in order) with the rated games they played each other
        since ``since``, games going on or with a result. The seats are found through
        ``holdings``' index on the game."""
        mine = holdings_table.alias("mine")
        theirs = holdings_table.alias("theirs")
        counted = (
            select(rating_history_table.c.id)
            .where(
                rating_history_table.c.player_id == mine.c.player_id,
                rating_history_table.c.game == games_table.c.game,
                rating_history_table.c.game_id == games_table.c.id,
            )
            .exists()
        )
        return (
            select(
                mine.c.player_id.label("first"),
                theirs.c.player_id.label("second"),
                func.count(games_table.c.id.distinct()).label("games"),
            )
            .select_from(games_table)
            .join(hall_games_table, hall_games_table.c.game_id == games_table.c.id)
            .join(mine, mine.c.game_id == games_table.c.id)
            .join(theirs, theirs.c.game_id == games_table.c.id)
            .where(
                hall_games_table.c.rated.is_(True),
                games_table.c.created >= since,
                mine.c.player_id.in_(list(players)),
                theirs.c.player_id.in_(list(players)),
                mine.c.player_id < theirs.c.player_id,
                or_(games_table.c.status == "ongoing", counted),
            )
            .group_by(mine.c.player_id, theirs.c.player_id)
        )

    # --- ratings ---

    def rating(self, player_id: str, game: str) -> RatingRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(ratings_table).where(
                    ratings_table.c.player_id == player_id, ratings_table.c.game == game
                )
            ).first()
        return _rating(row) if row is not None else None

    def ratings_of(self, player_id: str) -> list[RatingRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ratings_table)
                .where(ratings_table.c.player_id == player_id)
                .order_by(ratings_table.c.game)
            ).all()
        return [_rating(r) for r in rows]

    def count_rated(self, game_id: str, game: str, results: Sequence[RatedResult]) -> bool:
        """Put a rated game's result, computed already, into the players' ratings, once: False
        if it was counted already. (An aborted game is counted with no results.)"""
        return self.rate_game(game_id, game, [r.player_id for r in results], lambda _: results)

    def rate_game(self, game_id: str, game: str, players: Sequence[str], rate: Rate) -> bool:
        """Rate a game once: in one transaction, claim its ``counted`` flag (False if it was
        counted already), hold the ``players``' rating rows, and write what ``rate`` makes of
        them (given in the order of ``players``). Two results of one player at once both count:
        the later one waits for the earlier and reads what it wrote."""
        for attempt in range(RATING_ATTEMPTS):
            try:
                return self._rate_game(game_id, game, players, rate)
            except (IntegrityError, DBAPIError) as error:
                # PostgreSQL gave the transaction up: two first ratings of one player inserted
                # at once (a unique violation), or a deadlock. SQLite's write lock has neither.
                if not self.store.is_postgresql or attempt == RATING_ATTEMPTS - 1:
                    raise
                if not isinstance(error, IntegrityError) and not _retryable(error):
                    raise
        raise StoreError("unreachable")  # pragma: no cover

    def _rate_game(self, game_id: str, game: str, players: Sequence[str], rate: Rate) -> bool:
        at = now_text()
        with self.engine.begin() as conn:
            if self.store.is_sqlite:
                # The write lock before the first read: no other connection writes a rating
                # between what this one reads and what it writes.
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            claimed = conn.execute(
                update(hall_games_table)
                .where(hall_games_table.c.game_id == game_id, hall_games_table.c.counted.is_(False))
                .values(counted=True)
            ).rowcount
            if claimed != 1:
                return False
            held: dict[str, RatingRow] = {}
            for player in sorted(set(players)):  # one order of locks: no deadlock between two
                row = conn.execute(
                    select(ratings_table)
                    .where(ratings_table.c.player_id == player, ratings_table.c.game == game)
                    .with_for_update()
                ).first()
                if row is not None:
                    held[player] = _rating(row)
            for result in rate([held.get(player) for player in players]):
                values = {
                    "rating": result.rating,
                    "deviation": result.deviation,
                    "volatility": result.volatility,
                    "updated": at,
                }
                if result.player_id in held:
                    conn.execute(
                        update(ratings_table)
                        .where(
                            ratings_table.c.player_id == result.player_id,
                            ratings_table.c.game == game,
                        )
                        .values(**values, games=ratings_table.c.games + 1)
                    )
                else:
                    conn.execute(
                        insert(ratings_table).values(
                            player_id=result.player_id, game=game, games=1, **values
                        )
                    )
                conn.execute(
                    insert(rating_history_table).values(
                        player_id=result.player_id,
                        game=game,
                        game_id=game_id,
                        seat=result.seat,
                        score=result.score,
                        rating=result.rating,
                        deviation=result.deviation,
                        at=at,
                    )
                )
        return True

    def history(
        self, player_id: str, game: str | None = None, limit: int = 200
    ) -> list[HistoryRow]:
        """A player's rated games, oldest first (the last ``limit``)."""
        query = select(rating_history_table).where(rating_history_table.c.player_id == player_id)
        if game is not None:
            query = query.where(rating_history_table.c.game == game)
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(rating_history_table.c.id.desc()).limit(limit)).all()
        return [
            HistoryRow(r.game, r.game_id, r.seat, r.score, r.rating, r.deviation, r.at)
            for r in reversed(rows)
        ]

    def game_ratings(
        self, game_id: str
    ) -> list[tuple[int, tuple[float, float] | None, tuple[float, float]]]:
        """A counted rated game's rating changes, by seat: (seat, the player's (rating,
        deviation) before it (None: it was their first rated game), after it)."""
        h = rating_history_table
        with self.engine.connect() as conn:
            rows = conn.execute(select(h).where(h.c.game_id == game_id).order_by(h.c.seat)).all()
            changes = []
            for row in rows:
                before = conn.execute(
                    select(h.c.rating, h.c.deviation)
                    .where(h.c.player_id == row.player_id, h.c.game == row.game, h.c.id < row.id)
                    .order_by(h.c.id.desc())
                    .limit(1)
                ).first()
                changes.append(
                    (
                        row.seat,
                        (before.rating, before.deviation) if before is not None else None,
                        (row.rating, row.deviation),
                    )
                )
        return changes

    def leaderboard(
        self,
        game: str,
        *,
        min_games: int,
        max_deviation: float,
        min_opponents: int = 0,
        limit: int = 100,
    ) -> list[tuple[str, RatingRow]]:
        """(name, rating) of the players with at least ``min_games`` rated games against at
        least ``min_opponents`` different people and a deviation of at most
        ``max_deviation``, best first. Opponents who share a browser (seen holding both
        accounts' sessions, or its marker: :func:`opponents_by_person`) are one person."""
        players = metadata.tables["players"]  # the hall's (gamehall.store.hall), same metadata
        mine = rating_history_table.alias("mine")
        accounts = (  # different accounts: at least as many as people, and cheap to count
            select(func.count(holdings_table.c.player_id.distinct()))
            .select_from(mine)
            .join(holdings_table, holdings_table.c.game_id == mine.c.game_id)
            .where(
                mine.c.player_id == ratings_table.c.player_id,
                mine.c.game == ratings_table.c.game,
                holdings_table.c.player_id != ratings_table.c.player_id,
            )
            .scalar_subquery()
        )
        query = (
            select(ratings_table, players.c.name)
            .join(players, players.c.id == ratings_table.c.player_id)
            .where(
                and_(
                    ratings_table.c.game == game,
                    ratings_table.c.games >= min_games,
                    ratings_table.c.deviation <= max_deviation,
                    accounts >= min_opponents,
                )
            )
            .order_by(ratings_table.c.rating.desc(), players.c.name_key)
        )
        with self.engine.connect() as conn:
            if min_opponents <= 1:
                rows = conn.execute(query.limit(limit)).all()
                return [(r.name, _rating(r)) for r in rows]
            rows = conn.execute(query).all()
            people = self._people(conn, game, [r.player_id for r in rows])
        kept = [(r.name, _rating(r)) for r in rows if people.get(r.player_id, 0) >= min_opponents]
        return kept[:limit]

    @staticmethod
    def _people(conn: Any, game: str, candidates: list[str]) -> dict[str, int]:
        """How many different people each candidate has played rated games of ``game``
        against (see :func:`opponents_by_person`)."""
        if not candidates:
            return {}
        pairs = conn.execute(
            select(rating_history_table.c.player_id, holdings_table.c.player_id.label("other"))
            .join(holdings_table, holdings_table.c.game_id == rating_history_table.c.game_id)
            .where(
                rating_history_table.c.player_id.in_(candidates),
                rating_history_table.c.game == game,
                holdings_table.c.player_id != rating_history_table.c.player_id,
            )
            .distinct()
        ).all()
        opponents = sorted({other for _, other in pairs})
        browsers_table = metadata.tables["account_browsers"]
        players = metadata.tables["players"]
        seen = conn.execute(
            select(browsers_table.c.player_id, browsers_table.c.browser).where(
                browsers_table.c.player_id.in_(opponents)
            )
        ).all()
        merged = conn.execute(
            select(players.c.merged_into, players.c.id).where(players.c.merged_into.in_(opponents))
        ).all()
        browsers: dict[str, set[str]] = {}
        for account, browser in [*seen, *merged]:
            browsers.setdefault(account, set()).add(browser)
        faced: dict[str, set[str]] = {}
        for player, other in pairs:
            faced.setdefault(player, set()).add(other)
        return {p: opponents_by_person(sorted(o), browsers) for p, o in faced.items()}


def opponents_by_person(opponents: Sequence[str], browsers: dict[str, set[str]]) -> int:
    """How many people ``opponents`` (account ids) are: two accounts that share a browser
    (``browsers``: each account's browsers) are one person, as for rated games."""
    person = {o: o for o in opponents}

    def root(o: str) -> str:
        while person[o] != o:
            person[o] = person[person[o]]
            o = person[o]
        return o

    owner: dict[str, str] = {}
    for o in opponents:
        for browser in browsers.get(o, ()):
            if browser in owner:
                person[root(o)] = root(owner[browser])
            else:
                owner[browser] = o
    return len({root(o) for o in opponents})


def _retryable(error: DBAPIError) -> bool:
    """A PostgreSQL deadlock (40P01) or serialization failure (40001)."""
    return getattr(error.orig, "sqlstate", None) in {"40P01", "40001"}


def _rating(row: Any) -> RatingRow:
    return RatingRow(
        row.player_id,
        row.game,
        row.rating,
        row.deviation,
        row.volatility,
        row.games,
        row.updated,
    )


__all__ = [
    "RATING_ATTEMPTS",
    "Rate",
    "RatingRows",
    "hall_games_table",
    "opponents_by_person",
    "rating_history_table",
    "ratings_table",
]
