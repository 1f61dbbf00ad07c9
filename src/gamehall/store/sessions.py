"""Account sessions in the store: made, looked up (touching their last use), capped per
account, expired when unused, ended.

``sessions(token_hash, player_id, created, used)``: a signed-in browser, kept only as the
SHA-256 of its token. Times are ISO-8601 UTC text (sortable as text); the caller gives "now"
and the cut-offs, so the rules (how many, how long) are the hall's
(:mod:`gamehall.web.hall.accounts`) and tests move time by hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import Column, ForeignKey, String, Table, delete, func, insert, select, update

from gamehall.store.tables import metadata

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

sessions_table = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("player_id", String(64), ForeignKey("players.id"), nullable=False, index=True),
    Column("created", String(40), nullable=False),
    Column("used", String(40), nullable=False),
)


class SessionStore:
    """The sessions' part of :class:`~gamehall.store.hall.HallStore` (called on a store
    thread)."""

    engine: Engine

    def add_session(
        self, token_hash: str, player_id: str, *, now: str, keep: int, idle_since: str
    ) -> list[str]:
        """A new session of ``player_id``; the account keeps its ``keep`` most recently used
        sessions, and every session unused since ``idle_since`` is purged. Returns the hashes
        of the sessions that ended so (their sockets are to close)."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(sessions_table).values(
                    token_hash=token_hash, player_id=player_id, created=now, used=now
                )
            )
            mine = conn.execute(
                select(sessions_table.c.token_hash)
                .where(sessions_table.c.player_id == player_id)
                .order_by(sessions_table.c.used.desc(), sessions_table.c.created.desc())
            ).scalars()
            dropped = [h for i, h in enumerate(mine) if i >= keep and h != token_hash]
            idle = list(
                conn.execute(
                    select(sessions_table.c.token_hash).where(sessions_table.c.used < idle_since)
                ).scalars()
            )
            ended = dropped + [h for h in idle if h not in dropped]
            if ended:
                conn.execute(delete(sessions_table).where(sessions_table.c.token_hash.in_(ended)))
        return ended

    def session_player(
        self,
        token_hash: str,
        *,
        now: str | None = None,
        idle_since: str | None = None,
        touch_before: str | None = None,
    ) -> str | None:
        """The account a session token signs in as, or None. A session unused since
        ``idle_since`` has expired: it is refused and removed. One last used before
        ``touch_before`` has its last use moved to ``now`` (so a busy session is not written
        on every request)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(sessions_table.c.player_id, sessions_table.c.used).where(
                    sessions_table.c.token_hash == token_hash
                )
            ).first()
        if row is None:
            return None
        if idle_since is not None and row.used < idle_since:
            self.end_session(token_hash)
            return None
        if now is not None and touch_before is not None and row.used < touch_before:
            with self.engine.begin() as conn:
                conn.execute(
                    update(sessions_table)
                    .where(sessions_table.c.token_hash == token_hash)
                    .values(used=now)
                )
        return str(row.player_id)

    def sessions_of(self, player_id: str) -> int:
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count())
                    .select_from(sessions_table)
                    .where(sessions_table.c.player_id == player_id)
                ).scalar_one()
            )

    def end_session(self, token_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(sessions_table).where(sessions_table.c.token_hash == token_hash))

    def end_sessions(self, player_id: str) -> list[str]:
        """Sign the player out everywhere; returns the hashes of the sessions that ended."""
        with self.engine.begin() as conn:
            ended = list(
                conn.execute(
                    select(sessions_table.c.token_hash).where(
                        sessions_table.c.player_id == player_id
                    )
                ).scalars()
            )
            conn.execute(delete(sessions_table).where(sessions_table.c.player_id == player_id))
        return ended


__all__ = ["SessionStore", "sessions_table"]
