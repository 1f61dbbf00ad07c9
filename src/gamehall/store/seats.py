"""The rows around a stored game: who holds its seats, and its two chat rooms (a mixin of
:class:`~gamehall.store.db.Store`, on its engine)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from gamehall.store.rows import ChatRow, GameRow, StoreError, now_text
from gamehall.store.tables import NOTIFY, chat_table, game_row, games_table, holdings_table

if TYPE_CHECKING:
    from sqlalchemy import Engine


class SeatRows:
    """Seats held and chat lines of the games in the store."""

    engine: Engine
    is_postgresql: bool

    def add_chat(
        self,
        game_id: str,
        room: str,
        seat: int | None,
        text: str,
        most: int | None = None,
        notify: Callable[[ChatRow], str | None] | None = None,
        *,
        roll: bool = False,
    ) -> ChatRow | None:
        """Store a chat message, numbered after the game's last one (in one transaction). When
        the game's ``room`` holds ``most`` messages already: None (and nothing stored), or with
        ``roll`` its oldest give way. On PostgreSQL, ``notify`` gives the bus payload for the
        stored message, sent in the same transaction (delivered if and only if the message is
        committed)."""
        in_room = (chat_table.c.game_id == game_id) & (chat_table.c.room == room)
        for _ in range(5):  # two writers may take the same number: the key refuses one
            try:
                with self.engine.begin() as conn:
                    last = conn.execute(
                        select(func.max(chat_table.c.number)).where(chat_table.c.game_id == game_id)
                    ).scalar()
                    if most is not None:
                        held = conn.execute(select(func.count()).where(in_room)).scalar() or 0
                        if held >= most and not roll:
                            return None
                        if held >= most:  # the oldest give way: the room keeps ``most``
                            oldest = (
                                select(chat_table.c.number)
                                .where(in_room)
                                .order_by(chat_table.c.number)
                                .limit(held - most + 1)
                            )
                            numbers = list(conn.execute(oldest).scalars())
                            conn.execute(
                                delete(chat_table).where(in_room, chat_table.c.number.in_(numbers))
                            )
                    row = ChatRow((last or 0) + 1, room, seat, text, now_text())
                    conn.execute(
                        insert(chat_table).values(
                            game_id=game_id,
                            number=row.number,
                            room=room,
                            seat=seat,
                            text=text,
                            at=row.at,
                        )
                    )
                    payload = notify(row) if notify is not None else None
                    if payload is not None and self.is_postgresql:
                        conn.execute(NOTIFY, {"channel": "gamehall", "payload": payload})
                return row
            except IntegrityError:
                continue
        raise StoreError(f"game {game_id}: could not number a chat message")

    def chat(self, game_id: str, room: str, limit: int = 200) -> list[ChatRow]:
        """The last ``limit`` messages of a game's chat ``room``, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(chat_table)
                .where(chat_table.c.game_id == game_id, chat_table.c.room == room)
                .order_by(chat_table.c.number.desc())
                .limit(limit)
            ).all()
        return [ChatRow(r.number, r.room, r.seat, r.text, r.at) for r in reversed(rows)]

    # --- who holds what ---

    def add_holding(self, player_id: str, game_id: str, seat: int) -> None:
        """Record that ``player_id`` holds ``seat`` (nothing to do if it already does)."""
        try:
            with self.engine.begin() as conn:
                if not self._holds(conn, player_id, game_id, seat):
                    conn.execute(
                        insert(holdings_table).values(
                            player_id=player_id, game_id=game_id, seat=seat
                        )
                    )
        except IntegrityError:
            # With several store threads (or servers) on one database, another may have added the
            # same holding between the look and the insert: that is the outcome wanted.
            with self.engine.connect() as conn:
                if not self._holds(conn, player_id, game_id, seat):
                    raise

    @staticmethod
    def _holds(conn: Any, player_id: str, game_id: str, seat: int) -> bool:
        found = conn.execute(
            select(holdings_table.c.seat).where(
                holdings_table.c.player_id == player_id,
                holdings_table.c.game_id == game_id,
                holdings_table.c.seat == seat,
            )
        ).first()
        return found is not None

    def claim_seat(self, player_id: str, game_id: str, seat: int) -> bool:
        """Give ``seat`` to ``player_id`` if no one holds it yet (True), else change nothing
        (False, unless ``player_id`` holds it already: True). Claims on one game are
        serialised by a lock on its row."""
        with self.engine.begin() as conn:
            # The game's row is locked (PostgreSQL) for the claim, so servers on one database
            # cannot both give the same seat away.
            conn.execute(
                select(games_table.c.id).where(games_table.c.id == game_id).with_for_update()
            )
            holders = (
                conn.execute(
                    select(holdings_table.c.player_id).where(
                        holdings_table.c.game_id == game_id, holdings_table.c.seat == seat
                    )
                )
                .scalars()
                .all()
            )
            if holders:
                return player_id in holders
            conn.execute(
                insert(holdings_table).values(player_id=player_id, game_id=game_id, seat=seat)
            )
            return True

    def ongoing_count(self, player_id: str, mode: str) -> int:
        """How many ongoing games of ``mode`` the browser ``player_id`` holds a seat in."""
        with self.engine.connect() as conn:
            ids = (
                select(holdings_table.c.game_id)
                .where(holdings_table.c.player_id == player_id)
                .distinct()
            )
            found = conn.execute(
                select(games_table.c.id).where(
                    games_table.c.id.in_(ids),
                    games_table.c.mode == mode,
                    games_table.c.status == "ongoing",
                    games_table.c.problem.is_(None),
                )
            ).all()
        return len(found)

    def holders(self, game_id: str) -> list[tuple[str, int]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(holdings_table.c.player_id, holdings_table.c.seat).where(
                    holdings_table.c.game_id == game_id
                )
            ).all()
        return [(r.player_id, r.seat) for r in rows]

    def ongoing_held(self, player_id: str, limit: int) -> list[tuple[GameRow, frozenset[int]]]:
        """The ongoing games (hot-seat ones left out, and those set aside) the browser or account
        ``player_id`` holds a seat in, each with the seats it holds: the ``limit`` most recently
        updated, those first (where it may be that player's move)."""
        with self.engine.connect() as conn:
            held = conn.execute(
                select(holdings_table.c.game_id, holdings_table.c.seat)
                .join(games_table, games_table.c.id == holdings_table.c.game_id)
                .where(
                    holdings_table.c.player_id == player_id,
                    games_table.c.status == "ongoing",
                    games_table.c.mode != "hotseat",
                    games_table.c.problem.is_(None),
                )
            ).all()
            seats: dict[str, set[int]] = {}
            for row in held:
                seats.setdefault(row.game_id, set()).add(row.seat)
            if not seats:
                return []
            rows = conn.execute(
                select(games_table)
                .where(games_table.c.id.in_(list(seats)))
                .order_by(games_table.c.updated.desc())
                .limit(limit)
            ).all()
        return [(game_row(r), frozenset(seats[r.id])) for r in rows]

    def games_of(self, player_id: str, limit: int = 200) -> list[GameRow]:
        """The games a browser holds a seat in, most recently updated first."""
        with self.engine.connect() as conn:
            ids = (
                select(holdings_table.c.game_id)
                .where(holdings_table.c.player_id == player_id)
                .distinct()
            )
            rows = conn.execute(
                select(games_table)
                .where(games_table.c.id.in_(ids))
                .order_by(games_table.c.updated.desc())
                .limit(limit)
            ).all()
        return [game_row(r) for r in rows]

    # --- reviews ---
