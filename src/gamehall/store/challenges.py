"""The hall's challenges: one player asks a named other to play. Table::

    challenges(id, challenger_id, challenged_id, game, options, clock, rated, side, created,
               expires, address)

Every process of a hall reads and writes the same rows (no process keeps a copy), so a
challenge made on one process is seen, accepted, declined or cancelled on any other. Taking a
challenge (to accept, decline or cancel it) deletes its row: the one caller whose delete removed
it acts on it (:meth:`ChallengeRows.take_challenge`). Times are wall-clock UTC ISO texts, as the
store's others; ``address`` is a hash of the challenger's network address (for the limit per
address), never the address.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Column, Index, String, Table, delete, func, insert, select

from gamehall.store.offers import offer_columns, offer_terms, offer_values
from gamehall.store.tables import metadata

challenges_table = Table(
    "challenges",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("challenger_id", String(64), nullable=False),
    Column("challenged_id", String(64), nullable=False),
    *offer_columns(),
    Column("address", String(32), nullable=True),
    Index("challenges_challenged", "challenged_id"),
    Index("challenges_challenger", "challenger_id"),
)


def _row(row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "challenger_id": row.challenger_id,
        "challenged_id": row.challenged_id,
        **offer_terms(row),
        "address": row.address,
    }


class ChallengeRows:
    """The challenges' part of the hall's store (mixed into
    :class:`~gamehall.store.hall.HallStore`, which has the engine)."""

    engine: Any

    def add_challenge(self, challenge: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(challenges_table).values(**offer_values(challenge)))

    def challenge(self, challenge_id: str, now: str) -> dict[str, Any] | None:
        """An open challenge (not lapsed at ``now``), or None."""
        query = select(challenges_table).where(
            challenges_table.c.id == challenge_id, challenges_table.c.expires > now
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return _row(row) if row is not None else None

    def challenges_of(self, player_id: str, now: str) -> list[dict[str, Any]]:
        """The open challenges ``player_id`` sent or was sent, oldest first."""
        table = challenges_table
        query = (
            select(table)
            .where(
                (table.c.challenger_id == player_id) | (table.c.challenged_id == player_id),
                table.c.expires > now,
            )
            .order_by(table.c.created, table.c.id)
        )
        with self.engine.connect() as conn:
            return [_row(r) for r in conn.execute(query).all()]

    def challenge_counts(
        self, challenger: str, challenged: str, address: str | None, now: str
    ) -> dict[str, int]:
        """How many open challenges the challenger has sent (``out``), to this challenged
        player (``pair``), the challenged player has waiting (``in``), the address has sent
        (``address``) and the hall holds (``all``)."""
        table = challenges_table
        open_ = table.c.expires > now

        def count(*where: Any) -> Any:
            return select(func.count()).select_from(table).where(open_, *where).scalar_subquery()

        query = select(
            count(table.c.challenger_id == challenger).label("out"),
            count(table.c.challenger_id == challenger, table.c.challenged_id == challenged).label(
                "pair"
            ),
            count(table.c.challenged_id == challenged).label("in_"),
            count(table.c.address == (address or "")).label("address"),
            count().label("all"),
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).one()
        return {
            "out": row.out,
            "pair": row.pair,
            "in": row.in_,
            "address": row.address,
            "all": row.all,
        }

    def take_challenge(self, challenge_id: str) -> bool:
        """Remove a challenge to act on it: True for the one caller (of any process) that
        removed it, False if it was gone already."""
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(challenges_table).where(challenges_table.c.id == challenge_id)
            )
            return gone.rowcount == 1

    def lapsed_challenges(self, now: str, limit: int = 200) -> list[dict[str, Any]]:
        """Challenges whose time is up at ``now`` (at most ``limit``), to be taken and told."""
        query = (
            select(challenges_table)
            .where(challenges_table.c.expires <= now)
            .order_by(challenges_table.c.expires)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [_row(r) for r in conn.execute(query).all()]


__all__ = ["ChallengeRows", "challenges_table"]
