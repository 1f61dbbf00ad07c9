"""The hall's tables: players and their names, accounts, sessions, seeks, ratings.

They live in the game store's database (same :data:`~gamehall.store.db.metadata`, created and
migrated with it; schema version 3 added them). Tables::

    players(id, name, name_key, created, merged_into)   a player: a browser, or an account
    accounts(player_id, username_key, password_hash, created, bot_owner)
                                                        bot_owner: who made a bot account
    sessions(token_hash, player_id, created, used)      signed-in browsers (store/sessions.py)
    account_browsers(player_id, browser, seen)        browsers seen holding an account's session
    seeks(id, player_id, game, options, clock, rated, side, created, expires, browsers, address)
    challenges(...)                                     one player asks another (store/challenges.py)

and the rating tables of :mod:`gamehall.store.ratings` (``hall_games``, ``ratings``,
``rating_history``), whose methods :class:`HallStore` has too.

An anonymous player's id is the browser's identity (the ``gh_player`` cookie); an account has
a player of its own. Signing up or in moves the browser's anonymous games to the account's
player (``merged_into`` remembers it, and the merged player gives its name up). Session tokens are stored only as their
SHA-256 (a stolen database holds no usable session); passwords only as argon2 hashes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sqlalchemy import (
    Column,
    ForeignKey,
    String,
    Table,
    Text,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from gamehall.store.challenges import ChallengeRows, challenges_table
from gamehall.store.db import Store
from gamehall.store.offers import offer_columns, offer_terms, offer_values
from gamehall.store.ratings import (
    RatingRows,
    hall_games_table,
    rating_history_table,
    ratings_table,
)
from gamehall.store.rows import (
    HistoryRow,
    NameTaken,
    PlayerRow,
    RatedResult,
    RatingRow,
    StoreError,
    now_text,
)
from gamehall.store.sessions import SessionStore
from gamehall.store.tables import games_table, holdings_table, metadata

players_table = Table(
    "players",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("name_key", String(64), nullable=False, unique=True),
    Column("created", String(40), nullable=False),
    Column("merged_into", String(64), nullable=True),
)

accounts_table = Table(
    "accounts",
    metadata,
    Column("player_id", String(64), ForeignKey("players.id"), primary_key=True),
    Column("username_key", String(64), nullable=False, unique=True),
    Column("password_hash", String(255), nullable=False),
    Column("created", String(40), nullable=False),
    Column("bot_owner", String(64), nullable=True),  # schema 11: a bot's owner (NULL: a person)
)

account_browsers_table = Table(
    "account_browsers",
    metadata,
    Column("player_id", String(64), ForeignKey("players.id"), primary_key=True),
    Column("browser", String(64), primary_key=True),
    Column("seen", String(40), nullable=False),
)
"""Every browser (identity key) seen holding a session of an account, kept by every process
of the hall: two accounts sharing one are one person as far as rated games go."""

MAX_BROWSERS_PER_ACCOUNT = 20
"""The most browsers remembered per account (a shared computer can add any number)."""

seeks_table = Table(
    "seeks",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("player_id", String(64), nullable=False),
    *offer_columns(),
    Column("browsers", Text, nullable=True),  # JSON list: the creator's browsers (rated)
    Column("address", String(32), nullable=True),  # a hash of the creator's network address
)


MAX_DRAWS = 40
"""Names drawn for a new player before giving up (the hall's draws widen as they clash, and
its last ones cannot clash in practice)."""


class HallStore(SessionStore, RatingRows, ChallengeRows):
    """The hall's part of the store: the same engine, called from the store thread (its
    sessions' methods are :class:`~gamehall.store.sessions.SessionStore`'s, its ratings'
    :class:`~gamehall.store.ratings.RatingRows`')."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    # --- players and names ---

    def player(self, player_id: str) -> PlayerRow | None:
        with self.engine.connect() as conn:
            return self._player(conn, players_table.c.id == player_id)

    def note_browser(self, account: str, browser: str) -> None:
        """Remember that ``browser`` holds a session of ``account`` (up to
        :data:`MAX_BROWSERS_PER_ACCOUNT` browsers an account)."""
        query = select(account_browsers_table.c.browser).where(
            account_browsers_table.c.player_id == account
        )
        try:
            with self.engine.begin() as conn:
                known = list(conn.execute(query).scalars())
                if browser in known or len(known) >= MAX_BROWSERS_PER_ACCOUNT:
                    return
                conn.execute(
                    insert(account_browsers_table).values(
                        player_id=account, browser=browser, seen=now_text()
                    )
                )
        except IntegrityError:  # another process noted the same browser at the same moment
            pass

    def browsers_of(self, account: str) -> list[str]:
        """The browsers an account is known by: those seen holding its sessions and those whose
        anonymous player moved to it."""
        with self.engine.connect() as conn:
            seen = (
                conn.execute(
                    select(account_browsers_table.c.browser).where(
                        account_browsers_table.c.player_id == account
                    )
                )
                .scalars()
                .all()
            )
            merged = (
                conn.execute(
                    select(players_table.c.id).where(players_table.c.merged_into == account)
                )
                .scalars()
                .all()
            )
        return sorted({*seen, *merged})

    def merged_into(self, account: str) -> list[str]:
        """The anonymous players (browsers) whose games moved to this account."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(players_table.c.id).where(players_table.c.merged_into == account)
                ).scalars()
            )

    def rekey_names(self, key: Callable[[str], str]) -> list[str]:
        """Bring every stored name's key (and its account's username key) to ``key(name)``,
        for when the rule of what looks alike changes; a name whose new key is another's
        keeps its old one (both names were allowed; neither is taken away). Returns the
        names that kept their old key."""
        kept = []
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(players_table.c.id, players_table.c.name, players_table.c.name_key)
                .where(players_table.c.merged_into.is_(None))
                .order_by(players_table.c.created, players_table.c.id)
            ).all()
        for player_id, name, old in rows:
            new = key(name)
            if new == old or old.startswith("~"):
                continue
            try:
                with self.engine.begin() as conn:
                    conn.execute(
                        update(players_table)
                        .where(players_table.c.id == player_id)
                        .values(name_key=new)
                    )
                    conn.execute(
                        update(accounts_table)
                        .where(accounts_table.c.player_id == player_id)
                        .values(username_key=new)
                    )
            except IntegrityError:
                kept.append(name)
        return kept

    def player_by_name(self, name_key: str) -> PlayerRow | None:
        with self.engine.connect() as conn:
            return self._player(conn, players_table.c.name_key == name_key)

    @staticmethod
    def _player(conn: Any, where: Any) -> PlayerRow | None:
        row = conn.execute(
            select(
                players_table,
                accounts_table.c.player_id.label("account"),
                accounts_table.c.bot_owner,
            )
            .outerjoin(accounts_table, accounts_table.c.player_id == players_table.c.id)
            .where(where)
        ).first()
        if row is None:
            return None
        return PlayerRow(
            row.id,
            row.name,
            row.created,
            row.account is not None,
            row.merged_into,
            bot_owner=row.bot_owner,
        )

    def ensure_player(self, player_id: str, draw: Callable[[], tuple[str, str]]) -> PlayerRow:
        """The player ``player_id``, made with a fresh name if new: ``draw()`` gives a name and
        its key (a name that clashes is drawn again)."""
        found = self.player(player_id)
        if found is not None:
            return found
        for _ in range(MAX_DRAWS):
            name, key = draw()
            try:
                with self.engine.begin() as conn:
                    conn.execute(
                        insert(players_table).values(
                            id=player_id, name=name, name_key=key, created=now_text()
                        )
                    )
            except IntegrityError:
                found = self.player(player_id)
                if found is not None:  # another request made this player meanwhile
                    return found
                continue  # the name was taken: draw another
            return PlayerRow(player_id, name, now_text(), False)
        raise StoreError("no free name could be drawn for a new player")

    def rename(self, player_id: str, name: str, key: str) -> None:
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    update(players_table)
                    .where(players_table.c.id == player_id)
                    .values(name=name, name_key=key)
                )
        except IntegrityError:
            raise NameTaken(f"the name {name!r} is taken") from None

    def names_of(self, player_ids: list[str]) -> dict[str, str]:
        if not player_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(players_table.c.id, players_table.c.name).where(
                    players_table.c.id.in_(player_ids)
                )
            ).all()
        return {r.id: r.name for r in rows}

    def seat_players(self, game_id: str) -> dict[int, tuple[str, str]]:
        """Each held seat of a game: its player's id and name (the first holder of a seat)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(holdings_table.c.seat, holdings_table.c.player_id, players_table.c.name)
                .outerjoin(players_table, players_table.c.id == holdings_table.c.player_id)
                .where(holdings_table.c.game_id == game_id)
                .order_by(holdings_table.c.seat, holdings_table.c.player_id)
            ).all()
        seats: dict[int, tuple[str, str]] = {}
        for row in rows:
            seats.setdefault(row.seat, (row.player_id, row.name or "anonymous"))
        return seats

    # --- accounts and sessions ---

    def create_account(
        self,
        account_id: str,
        name: str,
        key: str,
        password_hash: str,
        *,
        browser: str,
        bot_owner: str | None = None,
    ) -> None:
        """A new account player named ``name``; the browser's anonymous player, if it was
        called so, gives the name up (it is merged into the account next). With ``bot_owner``
        (a person's account), a bot account of that person's."""
        now = now_text()
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    update(players_table)
                    .where(players_table.c.id == browser, players_table.c.name_key == key)
                    .values(name_key=_released_key(browser))
                )
                conn.execute(
                    insert(players_table).values(
                        id=account_id, name=name, name_key=key, created=now
                    )
                )
                conn.execute(
                    insert(accounts_table).values(
                        player_id=account_id,
                        username_key=key,
                        password_hash=password_hash,
                        created=now,
                        bot_owner=bot_owner,
                    )
                )
        except IntegrityError:
            raise NameTaken(f"the name {name!r} is taken") from None

    def bots_of(self, owner: str) -> list[str]:
        """The names of the bot accounts a person's account made, oldest first."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(players_table.c.name)
                    .join(accounts_table, accounts_table.c.player_id == players_table.c.id)
                    .where(accounts_table.c.bot_owner == owner)
                    .order_by(accounts_table.c.created, players_table.c.id)
                ).scalars()
            )

    def bot_names(self, names: list[str]) -> set[str]:
        """Those of these player names that are bot accounts' (docs/bots.md)."""
        if not names:
            return set()
        with self.engine.connect() as conn:
            return set(
                conn.execute(
                    select(players_table.c.name)
                    .join(accounts_table, accounts_table.c.player_id == players_table.c.id)
                    .where(players_table.c.name.in_(names), accounts_table.c.bot_owner.is_not(None))
                ).scalars()
            )

    def account(self, username_key: str) -> tuple[str, str] | None:
        """The player id and password hash of an account."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(accounts_table.c.player_id, accounts_table.c.password_hash).where(
                    accounts_table.c.username_key == username_key
                )
            ).first()
        return (row.player_id, row.password_hash) if row is not None else None

    def set_password_hash(self, player_id: str, password_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts_table)
                .where(accounts_table.c.player_id == player_id)
                .values(password_hash=password_hash)
            )

    def merge(self, anonymous_id: str, into_id: str) -> int:
        """Move an anonymous player's seats to the account ``into_id``; returns how many games
        moved. An account's own player is never merged."""
        if anonymous_id == into_id:
            return 0
        with self.engine.begin() as conn:
            if conn.execute(
                select(accounts_table.c.player_id).where(accounts_table.c.player_id == anonymous_id)
            ).first():
                return 0
            held = conn.execute(
                select(holdings_table.c.game_id, holdings_table.c.seat).where(
                    holdings_table.c.player_id == anonymous_id
                )
            ).all()
            mine = set(
                conn.execute(
                    select(holdings_table.c.game_id, holdings_table.c.seat).where(
                        holdings_table.c.player_id == into_id
                    )
                ).all()
            )
            for game_id, seat in held:
                if (game_id, seat) not in mine:
                    conn.execute(
                        insert(holdings_table).values(player_id=into_id, game_id=game_id, seat=seat)
                    )
            conn.execute(delete(holdings_table).where(holdings_table.c.player_id == anonymous_id))
            # The merged player gives its name up (its key no longer a name's).
            conn.execute(
                update(players_table)
                .where(players_table.c.id == anonymous_id)
                .values(merged_into=into_id, name_key=_released_key(anonymous_id))
            )
        return len({game_id for game_id, _ in held})

    # --- seeks (each process's lobby keeps them in memory; the store holds them for every
    # process of the hall, and is the one that says which accept takes a seek) ---

    def add_seek(self, seek: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(seeks_table).values(**_seek_row(seek)))

    def remove_seeks(self, seek_ids: list[str]) -> None:
        if seek_ids:
            with self.engine.begin() as conn:
                conn.execute(delete(seeks_table).where(seeks_table.c.id.in_(seek_ids)))

    def take_seek(self, seek_id: str) -> bool:
        """Remove a seek to accept it: True for the one caller (of any process) that removed
        it, False if it was gone already (taken, cancelled or lapsed)."""
        with self.engine.begin() as conn:
            return (
                conn.execute(delete(seeks_table).where(seeks_table.c.id == seek_id)).rowcount == 1
            )

    # Quick pairing's waits are rows of the same table, their ids starting with ``w_``
    # (:func:`wait_id`): the pools are the store's, so two players waiting on different
    # processes can be paired, and :meth:`take_pair` says which process pairs them.

    def add_wait(self, wait: dict[str, Any]) -> None:
        """A player waits in a pool (replacing any wait of theirs)."""
        with self.engine.begin() as conn:
            conn.execute(delete(seeks_table).where(seeks_table.c.id == wait["id"]))
            conn.execute(insert(seeks_table).values(**_seek_row(wait)))

    def take_pair(self, first: str, second: str) -> bool:
        """Remove two waits to pair their players: True for the one caller (of any process)
        that removed both; if either was gone already, nothing changes (False)."""
        with self.engine.begin() as conn:
            gone = conn.execute(delete(seeks_table).where(seeks_table.c.id.in_([first, second])))
            if gone.rowcount == 2:
                return True
            conn.rollback()
            return False

    def renew(self, ids: list[str], expires: str) -> None:
        """Move the lapse of these seeks or waits on (those of a live process)."""
        if ids:
            with self.engine.begin() as conn:
                conn.execute(
                    update(seeks_table).where(seeks_table.c.id.in_(ids)).values(expires=expires)
                )

    def live_games(self, limit: int) -> list[dict[str, Any]]:
        """The ongoing online games of the whole hall, most entries first (at most ``limit``),
        each with its hall facts and each held seat's player name."""
        query = (
            select(
                games_table.c.id,
                games_table.c.game,
                games_table.c.seats,
                games_table.c.version,
                hall_games_table.c.rated,
                hall_games_table.c.clock,
            )
            .outerjoin(hall_games_table, hall_games_table.c.game_id == games_table.c.id)
            .where(
                games_table.c.mode == "online",
                games_table.c.status == "ongoing",
                games_table.c.problem.is_(None),
            )
            .order_by(games_table.c.version.desc(), games_table.c.id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            ids = [r.id for r in rows]
            names = conn.execute(
                select(holdings_table.c.game_id, holdings_table.c.seat, players_table.c.name)
                .outerjoin(players_table, players_table.c.id == holdings_table.c.player_id)
                .where(holdings_table.c.game_id.in_(ids))
                .order_by(holdings_table.c.seat, holdings_table.c.player_id)
            ).all()
        seated: dict[str, dict[int, str]] = {}
        for name in names:
            seated.setdefault(name.game_id, {}).setdefault(name.seat, name.name or "anonymous")
        return [
            {
                "id": r.id,
                "game": r.game,
                "seats": len(json.loads(r.seats)),
                "version": r.version,
                "rated": bool(r.rated),
                "clock": r.clock,
                "players": seated.get(r.id, {}),
            }
            for r in rows
        ]

    def remove_lapsed_seeks(self) -> None:
        """Remove the seeks whose time is up (those of a process that died with them)."""
        with self.engine.begin() as conn:
            conn.execute(delete(seeks_table).where(seeks_table.c.expires <= now_text()))

    def open_seeks(self) -> list[dict[str, Any]]:
        """The stored seeks, oldest first, each with its creator's ``name`` and (for a rated
        seek) ``rating`` and its ``deviation`` in its game (None if they have none yet)."""
        query = (
            select(
                seeks_table,
                players_table.c.name,
                ratings_table.c.rating,
                ratings_table.c.deviation,
            )
            .join(players_table, players_table.c.id == seeks_table.c.player_id)
            .outerjoin(
                ratings_table,
                (ratings_table.c.player_id == seeks_table.c.player_id)
                & (ratings_table.c.game == seeks_table.c.game),
            )
            .order_by(seeks_table.c.created, seeks_table.c.id)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            {
                "id": r.id,
                "player_id": r.player_id,
                "name": r.name,
                "rating": r.rating,
                "deviation": r.deviation,
                **offer_terms(r),
                "browsers": json.loads(r.browsers) if r.browsers else [],
                "address": r.address,
            }
            for r in rows
        ]

    def clear_seeks(self) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(seeks_table))

    def stored_seeks(self) -> list[str]:
        with self.engine.connect() as conn:
            return list(conn.execute(select(seeks_table.c.id)).scalars())


def _released_key(player_id: str) -> str:
    """The ``name_key`` of a player who gave its name up: no name's (names have no "~"), unique
    (a player id's first 63 characters), and within the column's 64 (a browser's id is 64 hex
    characters; PostgreSQL refuses a longer value even for an update that matches no row)."""
    return "~" + player_id[:63]


def _seek_row(seek: dict[str, Any]) -> dict[str, Any]:
    """A seek or wait as its row: options and browsers as JSON, the side as text."""
    browsers = sorted(seek.get("browsers") or ())
    return {**offer_values(seek), "browsers": json.dumps(browsers) if browsers else None}


__all__ = [
    "HallStore",
    "HistoryRow",
    "NameTaken",
    "PlayerRow",
    "RatedResult",
    "RatingRow",
    "challenges_table",
    "hall_games_table",
    "rating_history_table",
    "ratings_table",
]
