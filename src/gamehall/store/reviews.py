"""A game's review and the players' answers to puzzles (a mixin of
:class:`~gamehall.store.db.Store`, on its engine)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from gamehall.store.rows import ReviewRow, StoreError, now_text
from gamehall.store.tables import REVIEW_STATUSES, puzzle_attempts_table, reviews_table

if TYPE_CHECKING:
    from sqlalchemy import Engine


def _row_to_review(row: Any) -> ReviewRow:
    return ReviewRow(
        game_id=row.game_id,
        status=row.status,
        budget=json.loads(row.budget),
        result=row.result,
        error=row.error,
        requested=row.requested,
        updated=row.updated,
    )


class ReviewRows:
    """Reviews and puzzle attempts in the store."""

    engine: Engine

    def get_review(self, game_id: str) -> ReviewRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(reviews_table).where(reviews_table.c.game_id == game_id)
            ).first()
        return _row_to_review(row) if row is not None else None

    def claim_review(self, game_id: str, budget: dict[str, Any]) -> tuple[ReviewRow, bool]:
        """The game's review row, and whether this call claimed it (stored it ``queued``, or
        took a ``failed`` one back to ``queued``): only the claimer computes it, so a review
        asked for twice, even by two servers on one database, is computed once."""
        at = now_text()
        values = {"status": "queued", "budget": json.dumps(budget, sort_keys=True)}
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(reviews_table).values(
                        game_id=game_id, result=None, error=None, requested=at, updated=at, **values
                    )
                )
            claimed = True
        except IntegrityError:
            with self.engine.begin() as conn:
                claimed = (
                    conn.execute(
                        update(reviews_table)
                        .where(
                            reviews_table.c.game_id == game_id, reviews_table.c.status == "failed"
                        )
                        .values(error=None, requested=at, updated=at, **values)
                    ).rowcount
                    == 1
                )
        found = self.get_review(game_id)
        assert found is not None
        return found, claimed

    def set_review(
        self,
        game_id: str,
        status: str,
        *,
        result: str | None = None,
        error: str | None = None,
    ) -> None:
        """Move a review on: ``running``, ``done`` with its result (JSON text), ``failed`` with
        the reason, or back to ``queued`` (a server restarting a review it did not finish)."""
        if status not in REVIEW_STATUSES:
            raise StoreError(f"no review status {status!r}; the statuses are {REVIEW_STATUSES}")
        with self.engine.begin() as conn:
            conn.execute(
                update(reviews_table)
                .where(reviews_table.c.game_id == game_id)
                .values(status=status, result=result, error=error, updated=now_text())
            )

    def unfinished_reviews(self) -> list[str]:
        """The games whose review was asked for and is not done or failed (to carry on)."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(reviews_table.c.game_id)
                    .where(reviews_table.c.status.in_(("queued", "running")))
                    .order_by(reviews_table.c.requested)
                ).scalars()
            )

    # --- puzzles ---

    def record_attempt(
        self, player_id: str, game: str, puzzle_id: str, solved: bool, move: str
    ) -> bool:
        """Remember a player's answer to a puzzle; only the first answer counts (a puzzle once
        failed stays failed). Whether this was the first."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(puzzle_attempts_table).values(
                        player_id=player_id,
                        puzzle_id=puzzle_id,
                        game=game,
                        solved=solved,
                        move=move,
                        at=now_text(),
                    )
                )
        except IntegrityError:
            return False
        return True

    def attempts(self, player_id: str, game: str) -> dict[str, bool]:
        """A player's puzzles of ``game``: puzzle id → solved (at the first answer)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(puzzle_attempts_table.c.puzzle_id, puzzle_attempts_table.c.solved).where(
                    puzzle_attempts_table.c.player_id == player_id,
                    puzzle_attempts_table.c.game == game,
                )
            ).all()
        return {r.puzzle_id: bool(r.solved) for r in rows}
