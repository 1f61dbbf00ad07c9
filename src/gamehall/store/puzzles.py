"""Puzzle ratings: each puzzle's and each player's Glicko-2 rating per game (a mixin of
:class:`~gamehall.store.db.Store`, on its engine). Tables::

    puzzle_ratings(game, puzzle_id, rating, deviation, volatility, attempts, updated)
    puzzle_player_ratings(player_id, game, rating, deviation, volatility, attempts, updated)

A player's first answer to a puzzle is one rated game between the player and the puzzle
(solved: the player won), as on lichess; later answers change nothing. The attempt row
(``puzzle_attempts``) and both ratings are written in one transaction, the attempt first (its
primary key makes a second answer fail before any rating is read), and the rating rows are read
``FOR UPDATE`` on PostgreSQL, so two players answering one puzzle at once both count. The rules
that compute a new rating are the caller's (:mod:`gamehall.web.hall.ratings`); the store hands
them the rows it holds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import Column, Float, Integer, String, Table, insert, select, update
from sqlalchemy.exc import IntegrityError

from gamehall.store.rows import now_text
from gamehall.store.tables import metadata, puzzle_attempts_table

if TYPE_CHECKING:
    from sqlalchemy import Engine

Triple = tuple[float, float, float]
"""A Glicko-2 rating as stored: rating, deviation, volatility."""
Rate = Callable[[Triple, Triple, float], tuple[Triple, Triple]]
"""``rate(player, puzzle, player_score)`` → both new triples."""

puzzle_ratings_table = Table(
    "puzzle_ratings",
    metadata,
    Column("game", String(64), primary_key=True),
    Column("puzzle_id", String(64), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("updated", String(40), nullable=False),
)

puzzle_player_ratings_table = Table(
    "puzzle_player_ratings",
    metadata,
    Column("player_id", String(64), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("updated", String(40), nullable=False),
)


def _triple(row: Any) -> Triple:
    return (float(row.rating), float(row.deviation), float(row.volatility))


class PuzzleRows:
    """Puzzle attempts rated: the player's and the puzzles' Glicko-2 ratings."""

    engine: Engine

    def puzzle_player_rating(self, player_id: str, game: str) -> tuple[Triple, int] | None:
        """The player's puzzle rating in ``game`` and how many puzzles it counts (None: none)."""
        table = puzzle_player_ratings_table
        with self.engine.connect() as conn:
            row = conn.execute(
                select(table).where(table.c.player_id == player_id, table.c.game == game)
            ).first()
        return None if row is None else (_triple(row), int(row.attempts))

    def puzzle_ratings(self, game: str) -> dict[str, Triple]:
        """Every rated puzzle of ``game``: id → its rating (puzzles never answered: absent)."""
        table = puzzle_ratings_table
        with self.engine.connect() as conn:
            rows = conn.execute(select(table).where(table.c.game == game)).all()
        return {row.puzzle_id: _triple(row) for row in rows}

    def rate_puzzle_attempt(
        self,
        player_id: str,
        game: str,
        puzzle_id: str,
        solved: bool,
        move: str,
        *,
        newcomer: Triple,
        puzzle_start: Triple,
        rate: Rate,
    ) -> tuple[Triple, Triple] | None:
        """Remember a player's answer; when it is their first to this puzzle, rate it (a newcomer
        starts at ``newcomer``, a puzzle never answered at ``puzzle_start``) and return the
        player's and the puzzle's ratings before it; None when it was not the first."""
        players, puzzles = puzzle_player_ratings_table, puzzle_ratings_table
        at = now_text()
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(puzzle_attempts_table).values(
                        player_id=player_id,
                        puzzle_id=puzzle_id,
                        game=game,
                        solved=solved,
                        move=move,
                        at=at,
                    )
                )
                mine = conn.execute(
                    select(players)
                    .where(players.c.player_id == player_id, players.c.game == game)
                    .with_for_update()
                ).first()
                its = conn.execute(
                    select(puzzles)
                    .where(puzzles.c.game == game, puzzles.c.puzzle_id == puzzle_id)
                    .with_for_update()
                ).first()
                before_me = newcomer if mine is None else _triple(mine)
                before_it = puzzle_start if its is None else _triple(its)
                after_me, after_it = rate(before_me, before_it, 1.0 if solved else 0.0)
                for row, table, key, after in (
                    (mine, players, {"player_id": player_id, "game": game}, after_me),
                    (its, puzzles, {"game": game, "puzzle_id": puzzle_id}, after_it),
                ):
                    values = {
                        "rating": after[0],
                        "deviation": after[1],
                        "volatility": after[2],
                        "updated": at,
                    }
                    if row is None:
                        conn.execute(insert(table).values(**key, **values, attempts=1))
                    else:
                        where = [table.c[name] == value for name, value in key.items()]
                        conn.execute(
                            update(table)
                            .where(*where)
                            .values(**values, attempts=int(row.attempts) + 1)
                        )
        except IntegrityError:
            return None
        return before_me, before_it


__all__ = ["PuzzleRows", "Rate", "Triple", "puzzle_player_ratings_table", "puzzle_ratings_table"]
