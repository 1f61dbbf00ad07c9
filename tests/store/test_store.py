"""The store on SQLite and PostgreSQL alike: schema versions and migrations, guarded appends,
concurrent writers, and the longest values the web server writes."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

import pytest
from sqlalchemy import Inspector, create_engine, inspect, text, update
from sqlalchemy.exc import IntegrityError

from gamehall.store import (
    SCHEMA_VERSION,
    GameRow,
    Seat,
    Store,
    StoreError,
    VersionConflict,
    now_text,
    player_key,
)
from gamehall.store.tables import schema_version_table

GAME = "g_0123456789"
ASSIST = {"reviews", "puzzle_attempts", "puzzle_ratings", "puzzle_player_ratings"}
"""The tables schema 6 added: reviews and puzzle answers."""


def _row(game_id: str = GAME) -> GameRow:
    now = now_text()
    return GameRow(
        id=game_id,
        game="acadmu",
        rules_version="1",
        options={"target": 1},
        mode="online",
        seed="abc",
        seats=[Seat("human", "t0"), Seat("computer", "", "easy")],
        created=now,
        updated=now,
    )


@contextlib.contextmanager
def _inspector(url: str) -> Iterator[Inspector]:
    """The database at ``url``, looked at without opening a Store (so without migrating it)."""
    engine = create_engine(url)
    try:
        yield inspect(engine)
    finally:
        engine.dispose()


def _tables(url: str) -> set[str]:
    """The tables in the database, looked at without migrating it."""
    with _inspector(url) as inspector:
        return set(inspector.get_table_names())


def test_the_store_runs_on_each_backend(store_url):
    store = Store(store_url)
    try:
        backend = store_url.split(":", 1)[0].split("+")[0]
        assert store.engine.dialect.name == backend
        assert store.is_sqlite == (backend == "sqlite")
        if backend == "postgresql":
            assert store.engine.dialect.driver == "psycopg"
    finally:
        store.dispose()


def test_schema_is_created_then_opened_again_and_migrated(store_url):
    assert _tables(store_url) == set()
    store = Store(store_url)
    assert _tables(store_url) == {
        "schema_version",
        "games",
        "actions",
        "chat",
        "holdings",
        *HALL,
        *ASSIST,
        *BROWSERS,
        *CHALLENGES,
    }
    assert store.schema_version() == SCHEMA_VERSION
    assert _holdings_by_game(store_url)
    store.dispose()

    again = Store(store_url)  # a second start on an existing schema
    assert again.schema_version() == SCHEMA_VERSION
    # An older version number is brought up to date on start (the steps see what is there)...
    with again.engine.begin() as conn:
        conn.execute(update(schema_version_table).values(version=1))
    again.dispose()
    migrated = Store(store_url)
    assert migrated.schema_version() == SCHEMA_VERSION
    # ... and a newer one refused.
    with migrated.engine.begin() as conn:
        conn.execute(update(schema_version_table).values(version=SCHEMA_VERSION + 1))
    migrated.dispose()
    with pytest.raises(StoreError, match="newer"):
        Store(store_url)


def _holdings_by_game(url: str) -> bool:
    """Whether the holdings table has an index led by the game (schema 8)."""
    with _inspector(url) as inspector:
        indexes = inspector.get_indexes("holdings")
    return any(index["column_names"][:1] == ["game_id"] for index in indexes)


def test_a_games_holders_are_found_through_the_index(tmp_path):
    """SQLite's plan for the holders of one game searches the index instead of scanning the
    whole table (whose key starts with the player)."""
    url = f"sqlite:///{tmp_path / 'plan.sqlite3'}"
    Store(url).dispose()
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            plan = conn.execute(
                text("EXPLAIN QUERY PLAN SELECT player_id, seat FROM holdings WHERE game_id = 'g'")
            ).all()
    finally:
        engine.dispose()
    details = " ".join(str(row[-1]) for row in plan)
    assert "USING COVERING INDEX holdings_game" in details or "USING INDEX holdings_game" in (
        details
    ), details
    assert "SCAN" not in details, details


HALL = {"players", "accounts", "sessions", "seeks", "hall_games", "ratings", "rating_history"}
"""The tables schema 3 added (gamehall.store.hall)."""
BROWSERS = {"account_browsers"}
"""The table schema 7 added: which browsers hold which accounts' sessions."""
CHALLENGES = {"challenges"}
"""The table schema 10 added: one player asks a named other to play."""

# The schema as version 1 wrote it (before games had a rules version).
_SCHEMA_1 = [
    "CREATE TABLE schema_version (version INTEGER NOT NULL PRIMARY KEY)",
    """CREATE TABLE games (
        id VARCHAR(32) NOT NULL PRIMARY KEY, game VARCHAR(64) NOT NULL, options TEXT NOT NULL,
        mode VARCHAR(16) NOT NULL, seed VARCHAR(64) NOT NULL, seats TEXT NOT NULL,
        created VARCHAR(40) NOT NULL, updated VARCHAR(40) NOT NULL, version INTEGER NOT NULL,
        status VARCHAR(16) NOT NULL, result TEXT, pending BOOLEAN NOT NULL,
        rematch_of VARCHAR(32), rematch VARCHAR(32))""",
    """CREATE TABLE actions (
        game_id VARCHAR(32) NOT NULL REFERENCES games (id), number INTEGER NOT NULL,
        text TEXT NOT NULL, mover INTEGER NOT NULL, at VARCHAR(40) NOT NULL,
        PRIMARY KEY (game_id, number))""",
    """CREATE TABLE holdings (
        player_id VARCHAR(64) NOT NULL, game_id VARCHAR(32) NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL, PRIMARY KEY (player_id, game_id, seat))""",
    "INSERT INTO schema_version (version) VALUES (1)",
    f"""INSERT INTO games VALUES ('{GAME}', 'acadmu', '{{"target": 1}}', 'hotseat', 'abc',
        '[{{"kind": "human", "token": "t0"}}, {{"kind": "human", "token": "t1"}}]',
        '2026-01-01T00:00:00.000+00:00', '2026-01-01T00:00:00.000+00:00', 1, 'ongoing', NULL,
        FALSE, NULL, NULL)""",
    f"""INSERT INTO actions VALUES ('{GAME}', 1, 'draw RS:BS/RC:BS', -1,
        '2026-01-01T00:00:00.000+00:00')""",
]


def test_a_version_1_store_is_migrated_and_its_games_keep_their_rules_version(store_url):
    engine = create_engine(store_url)
    with engine.begin() as conn:
        for statement in _SCHEMA_1:
            conn.execute(text(statement))
    engine.dispose()

    store = Store(store_url)
    try:
        assert store.schema_version() == SCHEMA_VERSION == 11
        # Schema 8: a game's holders are found through an index, not by reading the table.
        assert _holdings_by_game(store_url)
        # Schema 4 added the hall's tables; the old game's holders are there to be named.
        assert _tables(store_url) >= HALL
        row = store.get_game(GAME)
        # Games stored before schema 2 were made under every game's first rules version.
        assert row is not None and row.rules_version == "1" and row.version == 1
        assert [a.text for a in store.actions(GAME)] == ["draw RS:BS/RC:BS"]
        # Schema 3: every entry stored before is a game action, with no clock; chat is empty.
        (entry,) = store.actions(GAME)
        assert (entry.kind, entry.clock) == ("action", None) and row.clock is None
        assert store.chat(GAME, "players") == []
        store.add_chat(GAME, "players", 0, "hello")
        assert [c.text for c in store.chat(GAME, "players")] == ["hello"]
        assert store.add_chat(GAME, "players", 0, "full", most=1) is None  # bounded per room
        assert store.add_chat(GAME, "spectators", None, "first", most=1) is not None
        assert store.add_chat(GAME, "spectators", None, "then", most=1, roll=True) is not None
        assert [c.text for c in store.chat(GAME, "spectators")] == ["then"]  # the oldest went
        assert [c.text for c in store.chat(GAME, "players")] == ["hello"]
        new = _row("g_newgame000")
        new.rules_version = "7"
        store.create_game(new)
        assert store.get_game("g_newgame000").rules_version == "7"
    finally:
        store.dispose()
    again = Store(store_url)  # migrating is done once
    try:
        assert again.get_game(GAME).rules_version == "1"
    finally:
        again.dispose()


def test_a_version_2_store_keeps_no_identity_cookies_and_can_quarantine(store_url):
    """Schema 3: the stored browser ids become their hashes (the cookie still finds its games,
    and a copy of the database holds no cookie), and games gain a quarantine mark."""
    engine = create_engine(store_url)
    with engine.begin() as conn:
        for statement in _SCHEMA_1:
            conn.execute(text(statement))
        conn.execute(text("ALTER TABLE games ADD COLUMN rules_version VARCHAR(32) DEFAULT '1'"))
        conn.execute(text("UPDATE schema_version SET version = 2"))
        conn.execute(text(f"INSERT INTO holdings VALUES ('oldcookie1234567', '{GAME}', 0)"))
    engine.dispose()
    store = Store(store_url)
    try:
        assert store.schema_version() == SCHEMA_VERSION  # and on to the hall
        assert store.holders(GAME) == [(player_key("oldcookie1234567"), 0)]
        assert [g.id for g in store.games_of(player_key("oldcookie1234567"))] == [GAME]
        assert store.get_game(GAME).problem is None and store.pending_games() == []
        store.set_pending(GAME, True)
        assert store.pending_games() == [GAME]
        store.quarantine(GAME, "it does not replay")
        assert store.get_game(GAME).problem == "it does not replay"
        assert store.pending_games() == []  # a quarantined game is not resumed
    finally:
        store.dispose()


# From schema 1 to what schema 5 wrote: the columns of steps 2, 3 and 5 (the hall's tables of
# step 4, and the chat table of step 5, are new tables, which opening the store creates).
_TO_SCHEMA_5 = [
    "ALTER TABLE games ADD COLUMN rules_version VARCHAR(32) NOT NULL DEFAULT '1'",
    "ALTER TABLE games ADD COLUMN problem TEXT",
    "ALTER TABLE actions ADD COLUMN kind VARCHAR(16) NOT NULL DEFAULT 'action'",
    "ALTER TABLE actions ADD COLUMN clock TEXT",
    "ALTER TABLE games ADD COLUMN clock VARCHAR(32)",
    "UPDATE schema_version SET version = 5",
]


def test_a_version_5_store_gains_reviews_puzzle_answers_and_set_up_games(store_url):
    """Schema 6: ``games.setup`` (NULL for every game stored before: it starts from the
    game's initial state) and the ``reviews`` and ``puzzle_attempts`` tables."""
    engine = create_engine(store_url)
    with engine.begin() as conn:
        for statement in _SCHEMA_1 + _TO_SCHEMA_5:
            conn.execute(text(statement))
    engine.dispose()
    assert not _tables(store_url) & ASSIST
    store = Store(store_url)
    try:
        assert store.schema_version() == SCHEMA_VERSION == 11
        assert _tables(store_url) >= ASSIST | HALL
        row = store.get_game(GAME)
        assert row is not None and row.setup is None and row.clock is None
        assert [a.text for a in store.actions(GAME)] == ["draw RS:BS/RC:BS"]
        assert store.get_review(GAME) is None
        review, claimed = store.claim_review(GAME, {"seconds": 1})
        assert claimed and review.status == "queued"
        assert store.claim_review(GAME, {"seconds": 1})[1] is False  # computed once
        assert store.record_attempt("someone", "acadmu", "p1", True, "YTxBS")
        assert store.attempts("someone", "acadmu") == {"p1": True}
        started = _row("g_setupgame0")
        started.setup = "a position's text"
        store.create_game(started)
        assert store.get_game("g_setupgame0").setup == "a position's text"
    finally:
        store.dispose()
    again = Store(store_url)  # migrating is done once: what was stored stays
    try:
        assert again.schema_version() == SCHEMA_VERSION and again.get_review(GAME) is not None
    finally:
        again.dispose()


def test_a_version_6_store_gains_the_browsers_of_seeks_and_accounts(store_url):
    """Schema 7: ``seeks.browsers`` and ``seeks.address`` (NULL for the seeks stored before: no
    browser or address known) and the ``account_browsers`` table."""
    from gamehall.store import HallStore

    store = Store(store_url)
    hall = HallStore(store)
    hall.ensure_player("ada-browser", lambda: ("Ada", "ada"))
    with store.engine.begin() as conn:  # back to what schema 6 wrote
        conn.execute(text("DROP TABLE account_browsers"))
        conn.execute(text("ALTER TABLE seeks DROP COLUMN browsers"))
        conn.execute(text("ALTER TABLE seeks DROP COLUMN address"))
        conn.execute(text(
            "INSERT INTO seeks VALUES ('s_old', 'ada-browser', 'acadmu', '{}', NULL, FALSE, "
            "'random', '2026-01-01T00:00:00.000+00:00', '2999-01-01T00:00:00.000+00:00')"
        ))  # fmt: skip
        conn.execute(update(schema_version_table).values(version=6))
    store.dispose()
    assert not _tables(store_url) & BROWSERS
    store = Store(store_url)
    try:
        hall = HallStore(store)
        assert store.schema_version() == SCHEMA_VERSION == 11
        assert [(r["id"], r["browsers"], r["address"]) for r in hall.open_seeks()] == [
            ("s_old", [], None)
        ]
        hall.note_browser("ada-browser", "laptop")
        hall.note_browser("ada-browser", "laptop")  # once
        assert hall.browsers_of("ada-browser") == ["laptop"]
    finally:
        store.dispose()


def test_an_account_remembers_a_bounded_number_of_browsers(store_url):
    from gamehall.store import HallStore
    from gamehall.store.hall import MAX_BROWSERS_PER_ACCOUNT

    store = Store(store_url)
    try:
        hall = HallStore(store)
        hall.ensure_player("someone", lambda: ("Someone", "someone"))
        for n in range(MAX_BROWSERS_PER_ACCOUNT + 5):
            hall.note_browser("someone", f"browser-{n:02d}")
        assert len(hall.browsers_of("someone")) == MAX_BROWSERS_PER_ACCOUNT
    finally:
        store.dispose()


def test_a_seat_is_claimed_once(store_url):
    store = Store(store_url)
    try:
        store.create_game(_row(), holders=[("creator", 0)])
        assert store.claim_seat("guest", GAME, 1)
        assert store.claim_seat("guest", GAME, 1)  # again: still theirs
        assert not store.claim_seat("stranger", GAME, 1)
        assert sorted(store.holders(GAME)) == [("creator", 0), ("guest", 1)]
        assert store.ongoing_count("guest", "online") == 1
        assert store.ongoing_count("guest", "computer") == 0
    finally:
        store.dispose()


def test_appends_are_guarded_by_version(store_url):
    store = Store(store_url)
    try:
        store.create_game(_row(), holders=[("me", 0)])
        store.append_action(
            GAME, 1, "draw RT:BS/YC:RT", -1, status="ongoing", result=None, pending=True
        )
        for number, text_ in ((1, "again"), (3, "gap")):
            with pytest.raises(VersionConflict):
                store.append_action(
                    GAME, number, text_, -1, status="ongoing", result=None, pending=True
                )
        row = store.get_game(GAME)
        assert row.version == 1 and row.pending is True and row.seats[1].level == "easy"
        assert row.rules_version == "1"
        assert [a.text for a in store.actions(GAME)] == ["draw RT:BS/YC:RT"]
        assert store.pending_games() == [GAME]
        store.set_pending(GAME, False)
        assert store.pending_games() == []
        assert [g.id for g in store.games_of("me")] == [GAME]
        assert store.games_of("someone else") == []
    finally:
        store.dispose()


def test_concurrent_writers_one_wins_and_holdings_are_idempotent(store_url):
    """The web server uses several store threads on PostgreSQL (one on SQLite, but another
    server may share the file): two appends of the same action number, or two adds of the same
    holding, race for real here."""
    store = Store(store_url)
    try:
        store.create_game(_row(), holders=[("me", 0)])
        for number in (1, 2, 3):
            barrier = threading.Barrier(4)
            outcomes: list[str] = []

            def append(i, number=number, barrier=barrier, outcomes=outcomes):
                barrier.wait(10)
                try:
                    store.append_action(
                        GAME, number, f"a{number}.{i}", 0, status="ongoing", result=None,
                        pending=False,
                    )  # fmt: skip
                    outcomes.append("ok")
                except VersionConflict:
                    outcomes.append("conflict")
                except Exception as error:
                    outcomes.append(repr(error))

            threads = [threading.Thread(target=append, args=(i,)) for i in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(30)
            assert sorted(outcomes) == ["conflict"] * 3 + ["ok"], outcomes
        assert store.get_game(GAME).version == 3
        assert [a.number for a in store.actions(GAME)] == [1, 2, 3]

        barrier = threading.Barrier(4)
        errors: list[BaseException] = []

        def hold() -> None:
            barrier.wait(10)
            try:
                for _ in range(10):
                    store.add_holding("guest", GAME, 1)
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=hold) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert errors == []
        assert sorted(store.holders(GAME)) == [("guest", 1), ("me", 0)]
        with pytest.raises(IntegrityError):  # holding a game that does not exist: still an error
            store.add_holding("guest", "g_missing0000", 0)
    finally:
        store.dispose()


def test_long_values_the_web_server_may_store_fit(store_url):
    """PostgreSQL enforces String(n) lengths (SQLite does not): the longest ids, player cookies
    and times the server accepts or writes must fit."""
    store = Store(store_url)
    try:
        row = _row("g_" + "x" * 30)  # the column takes ids up to 32 characters
        row.seed = "f" * 64
        row.rules_version = "r" * 32
        row.created = row.updated = "2024-12-31T23:59:59.999+00:00"
        store.create_game(row, holders=[(player_key("p"), 0)])  # a browser's key: 64 hex
        store.append_action(row.id, 1, "t" * 5000, -1, status="ongoing", result=None, pending=False)
        assert store.get_game(row.id).seed == "f" * 64
        assert [g.id for g in store.games_of(player_key("p"))] == [row.id]
        store.quarantine(row.id, "a reason " * 1000)  # kept, cut to a bound
        assert store.get_game(row.id).problem.startswith("a reason")
    finally:
        store.dispose()


def test_a_version_10_store_gains_the_bot_owner_of_accounts(store_url):
    """Schema 11: ``accounts.bot_owner`` (NULL for every account before: people's)."""
    from gamehall.store import HallStore

    store = Store(store_url)
    hall = HallStore(store)
    hall.ensure_player("b1", lambda: ("Guest", "guest"))
    hall.create_account("ada", "Ada", "ada", "hash", browser="b1")
    with store.engine.begin() as conn:
        conn.execute(text("ALTER TABLE accounts DROP COLUMN bot_owner"))
        conn.execute(update(schema_version_table).values(version=10))
    store.dispose()
    store = Store(store_url)
    try:
        hall = HallStore(store)
        assert store.schema_version() == SCHEMA_VERSION == 11
        assert hall.player("ada").account and not hall.player("ada").bot
        hall.create_account("robo", "Robo", "robo", "hash", browser="robo", bot_owner="ada")
        assert hall.player("robo").bot and hall.player("robo").bot_owner == "ada"
        assert hall.bots_of("ada") == ["Robo"]
        assert hall.bot_names(["Ada", "Robo", "Nobody"]) == {"Robo"}
    finally:
        store.dispose()
