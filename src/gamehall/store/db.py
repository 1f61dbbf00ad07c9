"""The game store: every game, its seats and every action, in SQL (SQLAlchemy 2.x, portable types).

The store is the truth: a game's state is the replay of its stored log, so a server that is
killed and restarted resumes every game exactly where it was. Tables::

    schema_version(version)                        one row: the schema this database has
    games(id, game, rules_version, options, mode, seed, seats, created, updated, version,
          status, result, pending, rematch_of, rematch, problem, clock, setup)
    actions(game_id, number, kind, text, mover, at, clock)
                                                   the game's log: number = 1, 2, …
    chat(game_id, number, room, seat, text, at)    the players' and the spectators' chat
    holdings(player_id, game_id, seat)             which browser holds which seat: player_id is
                                                   the SHA-256 of its identity cookie
                                                   (:func:`player_key`), never the cookie
    reviews(game_id, status, budget, result, error, requested, updated)   a game's review, once
    puzzle_attempts(player_id, puzzle_id, game, solved, move, at)    a player's first answer
    puzzle_ratings, puzzle_player_ratings          puzzles' and players' puzzle ratings
                                                   (:mod:`gamehall.store.puzzles`)

A game with a ``problem`` (it no longer replays, or takes too long to load) is *quarantined*:
the server does not load it again, and says why when asked for it.

The ``actions`` table is the game's log, append-only: an entry of kind ``action`` is a game
action (``mover`` a seat index, or -1 for chance); the other kinds are what happens around the
game's actions (a takeback, a resignation, a flag fall; see :mod:`gamehall.web.play.history`), each
stored like a move so a restart shows the same game. ``clock`` is each seat's remaining time after
the entry (JSON, milliseconds; null when the game has no clock).

Types are kept portable (strings, integers, booleans, text; times as ISO-8601 UTC strings, which
sort as text), so the same code runs on SQLite and PostgreSQL. Appending an action is one
transaction that also moves ``games.version`` on, guarded by the version it expects: two writers
can never both append action N (the primary key ``(game_id, number)`` says so too). Concurrent
appends of different games may share one transaction (group commit, :meth:`Store.append_actions`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Engine,
    create_engine,
    event,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url

from gamehall.store.puzzles import PuzzleRows
from gamehall.store.reviews import ReviewRows
from gamehall.store.rows import (
    ActionRow,
    Append,
    GameRow,
    StoreError,
    VersionConflict,
    now_text,
    player_key,
)
from gamehall.store.seats import SeatRows
from gamehall.store.tables import (
    actions_table,
    game_row,
    games_table,
    holdings_by_game,
    holdings_table,
    metadata,
    schema_version_table,
)

SCHEMA_VERSION = 11
"""The schema this code writes; older databases are migrated on start, one step at a time:

1 → 2: ``games.rules_version``, the rules version of the game's engine when the game was made
(a game is only replayed by an engine with the same rules version). Games stored before had no
rules version: they were made when every game was at its first, ``"1"``.

2 → 3: ``games.problem``, why a game is quarantined (null for every game until then); and
``holdings.player_id`` becomes the SHA-256 of the identity cookie (:func:`player_key`) instead of
the cookie itself, so the store holds no credential: each stored id is replaced by its hash.

3 → 4: the hall's tables (players, accounts, sessions, seeks, hall_games, ratings,
rating_history: :mod:`gamehall.store.hall`), new tables only, made by ``create_all``; players
of earlier games get their row (and a name) when they are first seen.

4 → 5: the log around the actions and the clocks: ``actions.kind`` (every entry stored before is
a game action), ``actions.clock`` and ``games.clock`` (no game had a clock), and the ``chat``
table (new, made by ``create_all``).

5 → 6: ``games.setup``, the position a game starts from (NULL: the game's initial state; a game
started from a position of another game has its text), and the tables ``reviews`` (a finished
game's review, computed once) and ``puzzle_attempts`` (each player's first answer to a puzzle).

6 → 7: ``seeks.browsers``, the browsers of a rated seek's or wait's creator (NULL: none known),
``seeks.address``, a hash of its creator's network address (NULL: not known), and the table ``account_browsers`` (new, made by ``create_all``), so that every process of a hall
knows which accounts share a browser.

7 → 8: the index ``holdings_game`` on ``holdings (game_id, seat)``. The table's key starts with
the player, so finding a game's holders (every time a game is loaded, joined or rated) read the
whole table: with tens of thousands of games stored that was a quarter of a busy server's time.

8 → 9: the tables ``puzzle_ratings`` and ``puzzle_player_ratings`` (each puzzle's and each
player's puzzle rating, :mod:`gamehall.store.puzzles`), new tables only, made by ``create_all``.

9 → 10: the table ``challenges`` (one player asks a named other to play,
:mod:`gamehall.store.challenges`), new, made by ``create_all``.

10 → 11: ``accounts.bot_owner``, the account of the person who made a bot account (NULL: a
person's account; every account stored before is one). Bots are marked and never rated against
their owner (docs/bots.md).
"""

_SCHEMA_LOCK = 0x67616D6568616C6C  # "gamehall": the PostgreSQL advisory lock taken to migrate


def default_url() -> str:
    """SQLite in the user's data directory (platformdirs ``user_data_dir("gamehall")``)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("gamehall"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'gamehall.sqlite3'}"


def _row_to_entry(row: Any) -> ActionRow:
    clock = tuple(json.loads(row.clock)) if row.clock else None
    return ActionRow(row.number, row.text, row.mover, row.at, row.kind, clock)


def _result_text(result: dict[str, Any] | None) -> str | None:
    return json.dumps(result) if result is not None else None


def _move_on_params(item: Append, at: str) -> dict[str, Any]:
    """The bound values of ``_MOVE_ON`` for one appended action (SQLAlchemy's or the driver's)."""
    return {
        "key": item.game_id,
        "expected": item.number - 1,
        "version": item.number,
        "updated": at,
        "status": item.status,
        "result": _result_text(item.result),
        "pending": item.pending,
    }


def _action_params(item: Append, at: str) -> dict[str, Any]:
    """The bound values of ``_ADD_ACTION`` for one appended action."""
    return {
        "game_id": item.game_id,
        "number": item.number,
        "kind": item.kind,
        "text": item.text,
        "mover": item.mover,
        "at": at,
        "clock": _clock_text(item.clock),
    }


def _clock_text(clock: Sequence[int | None] | None) -> str | None:
    return json.dumps(list(clock)) if clock is not None else None


_MOVE_ON = text(
    "UPDATE games SET version = :version, updated = :updated, status = :status, "
    "result = :result, pending = :pending WHERE id = :key AND version = :expected"
)
_ADD_ACTION = text(
    "INSERT INTO actions (game_id, number, kind, text, mover, at, clock) "
    "VALUES (:game_id, :number, :kind, :text, :mover, :at, :clock)"
)
_APPEND_PG = text(
    "WITH moved AS ("
    " UPDATE games SET version = :number, updated = :updated, status = :status,"
    " result = :result, pending = :pending"
    " WHERE id = :key AND version = :expected RETURNING id),"
    " added AS (INSERT INTO actions (game_id, number, kind, text, mover, at, clock)"
    " SELECT id, :number, :kind, :text, :mover, :updated, :clock FROM moved RETURNING number)"
    " SELECT count(*), max(CASE WHEN :notify THEN pg_notify(:channel, :payload)::text END)"
    " FROM added"
)
"""Appending an entry on PostgreSQL in one statement: the version check, the insert and the
bus notification (only when the insert happened)."""
"""A bus notification sent in the transaction of what it tells of (PostgreSQL)."""


class Store(SeatRows, ReviewRows, PuzzleRows):
    """Synchronous access to the game store. The web server calls it from one worker thread
    (SQLite) or a few (other databases), never from its event loop."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        parsed = make_url(self.url)
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        if self.is_sqlite and parsed.database and parsed.database != ":memory:":
            Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        self.is_postgresql = parsed.get_backend_name() == "postgresql"
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            # A database server may close pooled connections under us (a restart, a failover, an
            # idle timeout): test each one as it is taken from the pool, reconnecting if need be.
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self.migrate()

    # --- schema ---

    def migrate(self) -> None:
        """Create the tables, then bring an older schema up to :data:`SCHEMA_VERSION`.

        On PostgreSQL several servers may start on one database at once: the whole migration is
        one transaction (DDL is transactional there) under an advisory lock, so they take turns
        instead of racing to create the same tables and version row."""
        if not self.is_postgresql:
            metadata.create_all(self.engine)
        with self.engine.begin() as conn:
            if self.is_postgresql:
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _SCHEMA_LOCK})
                metadata.create_all(conn)
            found = conn.execute(select(schema_version_table.c.version)).scalars().all()
            if not found:
                conn.execute(insert(schema_version_table).values(version=SCHEMA_VERSION))
                return
            stored = max(found)
            if stored > SCHEMA_VERSION:
                raise StoreError(
                    f"the database has schema version {stored}, newer than this gamehall "
                    f"understands ({SCHEMA_VERSION}); upgrade gamehall"
                )
            # Migrations from older versions, one step at a time (each looks at what is there,
            # so a step that was done but not recorded is not done twice):
            if stored < 2 and "rules_version" not in _columns(conn, "games"):
                conn.execute(
                    text(
                        "ALTER TABLE games ADD COLUMN rules_version VARCHAR(32) "
                        "NOT NULL DEFAULT '1'"
                    )
                )
            if stored < 3:
                if "problem" not in _columns(conn, "games"):
                    conn.execute(text("ALTER TABLE games ADD COLUMN problem TEXT"))
                _hash_player_ids(conn)
            if stored < 5:
                actions = _columns(conn, "actions")
                if "kind" not in actions:
                    conn.execute(
                        text(
                            "ALTER TABLE actions ADD COLUMN kind VARCHAR(16) "
                            "NOT NULL DEFAULT 'action'"
                        )
                    )
                if "clock" not in actions:
                    conn.execute(text("ALTER TABLE actions ADD COLUMN clock TEXT"))
                if "clock" not in _columns(conn, "games"):
                    conn.execute(text("ALTER TABLE games ADD COLUMN clock VARCHAR(32)"))
                # The chat table is new: create_all above has made it.
            if stored < 6 and "setup" not in _columns(conn, "games"):
                conn.execute(text("ALTER TABLE games ADD COLUMN setup TEXT"))
            if stored < 7:
                seeks = _columns(conn, "seeks")
                if "browsers" not in seeks:
                    conn.execute(text("ALTER TABLE seeks ADD COLUMN browsers TEXT"))
                if "address" not in seeks:
                    conn.execute(text("ALTER TABLE seeks ADD COLUMN address VARCHAR(32)"))
            if stored < 8:
                holdings_by_game.create(conn, checkfirst=True)
            if stored < 11 and "bot_owner" not in _columns(conn, "accounts"):
                conn.execute(text("ALTER TABLE accounts ADD COLUMN bot_owner VARCHAR(64)"))
            if stored < SCHEMA_VERSION:
                conn.execute(update(schema_version_table).values(version=SCHEMA_VERSION))

    def schema_version(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(schema_version_table.c.version)).scalar_one())

    def dispose(self) -> None:
        self.engine.dispose()

    # --- games ---

    def create_game(self, row: GameRow, holders: Sequence[tuple[str, int]] = ()) -> None:
        """Store a new game (no actions yet) and the browsers that hold its seats."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(games_table).values(
                    id=row.id,
                    game=row.game,
                    rules_version=row.rules_version,
                    options=json.dumps(row.options, sort_keys=True),
                    mode=row.mode,
                    seed=row.seed,
                    seats=json.dumps([s.to_json() for s in row.seats]),
                    created=row.created,
                    updated=row.updated,
                    version=0,
                    status=row.status,
                    result=None,
                    pending=row.pending,
                    rematch_of=row.rematch_of,
                    rematch=None,
                    clock=row.clock,
                    setup=row.setup,
                )
            )
            if row.rematch_of:
                conn.execute(
                    update(games_table)
                    .where(games_table.c.id == row.rematch_of)
                    .values(rematch=row.id)
                )
            for player_id, seat in holders:
                conn.execute(
                    insert(holdings_table).values(player_id=player_id, game_id=row.id, seat=seat)
                )

    def get_game(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
        return game_row(row) if row is not None else None

    def actions(self, game_id: str) -> list[ActionRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(actions_table)
                .where(actions_table.c.game_id == game_id)
                .order_by(actions_table.c.number)
            ).all()
        return [_row_to_entry(r) for r in rows]

    def append_action(
        self,
        game_id: str,
        number: int,
        text: str,
        mover: int,
        *,
        status: str,
        result: dict[str, Any] | None,
        pending: bool,
        notify: str | None = None,
        kind: str = "action",
        clock: Sequence[int | None] | None = None,
    ) -> None:
        """Commit entry ``number`` of the game's log (the game must be at version
        ``number - 1``, else VersionConflict and nothing changes): a game action, or, by
        ``kind``, what happened around them. On PostgreSQL, ``notify`` is a payload sent on
        the bus channel (``pg_notify``) in the same transaction: delivered if and only if the
        entry is committed (see gamehall.store.bus); elsewhere it is ignored."""
        self.append_actions(
            [Append(game_id, number, text, mover, status, result, pending, notify, kind, clock)]
        )

    def append_actions(self, appends: Sequence[Append]) -> list[bool]:
        """Commit several entries (of different games) together: group commit, one transaction
        for them all, each still guarded by its expected version. Returns, per append, whether
        it was committed; one append alone that conflicts raises VersionConflict."""
        if not appends:
            return []
        at = now_text()
        # Rows are locked in the order of their game ids, so two servers' groups that share games
        # wait for each other instead of deadlocking.
        order = sorted(range(len(appends)), key=lambda i: appends[i].game_id)
        ordered = [appends[i] for i in order]
        if self.is_postgresql:
            found = self._append_postgresql(ordered, at)
        elif self.is_sqlite:
            found = self._append_sqlite(ordered, at)
        else:
            found = self._append_portable(ordered, at)
        done = [False] * len(appends)
        for position, index in enumerate(order):
            done[index] = found[position]
        if len(appends) == 1 and not done[0]:
            only = appends[0]
            raise VersionConflict(f"game {only.game_id}: not at version {only.number - 1}")
        return done

    def _append_portable(self, appends: Sequence[Append], at: str) -> list[bool]:
        done: list[bool] = []
        with self.engine.begin() as conn:
            for item in appends:
                changed = conn.execute(_MOVE_ON, _move_on_params(item, at)).rowcount
                if changed == 1:  # else nothing of it is written: the others still commit
                    conn.execute(_ADD_ACTION, _action_params(item, at))
                done.append(changed == 1)
        return done

    def _append_sqlite(self, appends: Sequence[Append], at: str) -> list[bool]:
        # The statements of _append_portable on the driver's own cursor, in SQLAlchemy's
        # transaction: this runs on every move, and binding and running each statement through
        # SQLAlchemy cost several times SQLite's own work.
        done: list[bool] = []
        with self.engine.begin() as conn:
            cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
            try:
                for item in appends:
                    cursor.execute(_MOVE_ON.text, _move_on_params(item, at))
                    moved = cursor.rowcount == 1
                    if moved:  # else nothing of it is written: the others still commit
                        cursor.execute(_ADD_ACTION.text, _action_params(item, at))
                    done.append(moved)
            finally:
                cursor.close()
        return done

    def _append_postgresql(self, appends: Sequence[Append], at: str) -> list[bool]:
        # One statement per action (move the version on, insert the action, notify), in one
        # transaction for the whole group: a round trip per action and one commit.
        done: list[bool] = []
        with self.engine.begin() as conn:
            for item in appends:
                row = conn.execute(
                    _APPEND_PG,
                    {
                        "key": item.game_id,
                        "expected": item.number - 1,
                        "number": item.number,
                        "updated": at,
                        "status": item.status,
                        "result": _result_text(item.result),
                        "pending": item.pending,
                        "kind": item.kind,
                        "text": item.text,
                        "mover": item.mover,
                        "clock": _clock_text(item.clock),
                        "channel": "gamehall",
                        "payload": item.notify or "",
                        "notify": item.notify is not None,
                    },
                ).first()
                done.append(row is not None and row[0] == 1)
        return done

    def since(
        self, game_id: str, version: int
    ) -> tuple[GameRow, list[tuple[str, int]], list[ActionRow]] | None:
        """A game's row, its holders and its actions after ``version``, read together (what a
        server that holds the game in memory loads to catch up with other servers); None if
        there is no such game."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if row is None:
                return None
            holders = conn.execute(
                select(holdings_table.c.player_id, holdings_table.c.seat).where(
                    holdings_table.c.game_id == game_id
                )
            ).all()
            actions = conn.execute(
                select(actions_table)
                .where(actions_table.c.game_id == game_id, actions_table.c.number > version)
                .order_by(actions_table.c.number)
            ).all()
        return (
            game_row(row),
            [(h.player_id, h.seat) for h in holders],
            [_row_to_entry(a) for a in actions],
        )

    def quarantine(self, game_id: str, problem: str) -> None:
        """Mark a game that cannot be loaded, saying why (it is no longer resumed)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(games_table)
                .where(games_table.c.id == game_id)
                .values(problem=problem[:2000], pending=False)
            )

    def set_pending(self, game_id: str, pending: bool) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(games_table).where(games_table.c.id == game_id).values(pending=pending)
            )

    def pending_games(self) -> list[str]:
        """Ongoing games whose next action is the server's (chance or a computer seat)."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(games_table.c.id).where(
                        games_table.c.pending.is_(True),
                        games_table.c.status == "ongoing",
                        games_table.c.problem.is_(None),
                    )
                ).scalars()
            )

    # --- chat ---


def _hash_player_ids(conn: Any) -> None:
    """Schema 3: every stored browser id becomes its hash (:func:`player_key`)."""
    ids = conn.execute(select(holdings_table.c.player_id).distinct()).scalars().all()
    for old in ids:  # one transaction with the version's update: never hashed twice
        conn.execute(
            update(holdings_table)
            .where(holdings_table.c.player_id == old)
            .values(player_id=player_key(old))
        )


def _columns(conn: Any, table: str) -> set[str]:
    return {column["name"] for column in inspect(conn).get_columns(table)}


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers run beside the writer; synchronous=NORMAL in WAL mode keeps every committed
    # transaction across a killed process (only a power cut may lose the last few).
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


# The hall's tables join this metadata (so create_all and the migration include them).
from gamehall.store import hall as _hall  # noqa: E402, F401
