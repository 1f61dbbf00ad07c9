"""Rated results against one player at once, on SQLite and PostgreSQL: each is read and written
in one transaction that holds the player's rating row, so every result counts, in the games
count and in the rating history alike (issue 33, point 6). And the count of rated games between
two players that the hall's daily limit reads."""

from __future__ import annotations

import datetime
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import update

from gamehall.store import GameRow, HallStore, RatedResult, RatingRow, Seat, Store, now_text
from gamehall.store.ratings import opponents_by_person
from gamehall.store.tables import games_table

RESULTS = 8
STEP = 10.0
"""Each result moves the loser down and the winner up by this much (a rule easy to check)."""


def day_before() -> str:
    """The store's time text a day ago."""
    ago = datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=1)
    return ago.isoformat(timespec="milliseconds")


def _game(game_id: str) -> GameRow:
    now = now_text()
    seats = [Seat("human", "t0"), Seat("human", "t1")]
    return GameRow(game_id, "nim", "1", {}, "online", "abc", seats, now, now)


@pytest.fixture
def hall(store_url):
    store = Store(store_url)
    yield HallStore(store)
    store.dispose()


def _rated_game(hall: HallStore, game_id: str, first: str, second: str) -> None:
    hall.store.create_game(_game(game_id), [(first, 0), (second, 1)])
    hall.mark_game(game_id, True, "5+3")


def _players(hall: HallStore, *ids: str) -> None:
    for pid in ids:
        hall.ensure_player(pid, lambda pid=pid: (pid.title(), pid))


def _stepped(players: list[str], scores: list[float]):
    """The rule of these tests: a winner gains :data:`STEP`, a loser loses it, each from the
    rating the store holds now (1500 if none)."""

    def rate(rows: list[RatingRow | None]) -> list[RatedResult]:
        return [
            RatedResult(pid, seat, score, (row.rating if row else 1500.0) + STEP * (2 * score - 1),
                        300.0, 0.06)
            for seat, (pid, score, row) in enumerate(zip(players, scores, rows, strict=True))
        ]  # fmt: skip

    return rate


def test_concurrent_losses_of_one_player_all_count(hall):
    """Eight games of one player end at the same moment (eight store threads, started
    together): the loser's games count is 8, the history has 8 rows, and each rating in it
    was computed from the one before (none read a rating another result was replacing)."""
    opponents = [f"opp{n}" for n in range(RESULTS)]
    _players(hall, "loser", *opponents)
    for n, opponent in enumerate(opponents):
        _rated_game(hall, f"g_{n}", "loser", opponent)
    start = threading.Barrier(RESULTS)

    def result(n: int) -> bool:
        players = ["loser", opponents[n]]
        start.wait()
        return hall.rate_game(f"g_{n}", "nim", players, _stepped(players, [0.0, 1.0]))

    with ThreadPoolExecutor(RESULTS) as pool:
        assert all(pool.map(result, range(RESULTS)))
    loser = hall.rating("loser", "nim")
    assert loser is not None and loser.games == RESULTS
    assert loser.rating == 1500.0 - STEP * RESULTS
    history = hall.history("loser", "nim")
    assert [h.rating for h in history] == [1500.0 - STEP * k for k in range(1, RESULTS + 1)]
    assert sorted(h.game_id for h in history) == sorted(f"g_{n}" for n in range(RESULTS))
    assert all(hall.rating(o, "nim").games == 1 for o in opponents)
    # Each game counts once: again changes nothing.
    assert not hall.rate_game("g_0", "nim", ["loser", "opp0"], _stepped(["loser", "opp0"], [0, 1]))
    assert hall.rating("loser", "nim").games == RESULTS


def test_two_first_results_of_one_player_at_once_both_count(hall):
    """The player has no rating row yet when both results arrive: one inserts it, the other
    (on PostgreSQL, tried again) updates what the first wrote."""
    _players(hall, "new", "x", "y")
    _rated_game(hall, "g_x", "new", "x")
    _rated_game(hall, "g_y", "new", "y")
    start = threading.Barrier(2)

    def result(game_id: str, opponent: str) -> bool:
        start.wait()
        players = ["new", opponent]
        return hall.rate_game(game_id, "nim", players, _stepped(players, [1.0, 0.0]))

    with ThreadPoolExecutor(2) as pool:
        done = [pool.submit(result, "g_x", "x"), pool.submit(result, "g_y", "y")]
        assert all(f.result() for f in done)
    row = hall.rating("new", "nim")
    assert row is not None and (row.games, row.rating) == (2, 1500.0 + 2 * STEP)
    assert [h.rating for h in hall.history("new", "nim")] == [1510.0, 1520.0]


def test_rated_games_between_two_players_are_counted_over_a_day(hall):
    """Games going on and games with a result count, whoever sat where; an aborted one (no
    result) does not, nor a casual one, nor one with someone else, nor one before the window."""
    _players(hall, "a", "b", "c")
    _rated_game(hall, "g_on", "a", "b")
    _rated_game(hall, "g_done", "b", "a")
    _rated_game(hall, "g_aborted", "a", "b")
    _rated_game(hall, "g_other", "a", "c")
    hall.store.create_game(_game("g_casual"), [("a", 0), ("b", 1)])
    hall.mark_game("g_casual", False, None)
    with hall.engine.begin() as conn:
        conn.execute(
            update(games_table)
            .where(games_table.c.id.in_(["g_done", "g_aborted"]))
            .values(status="finished")
        )
    assert hall.rate_game("g_done", "nim", ["b", "a"], _stepped(["b", "a"], [1.0, 0.0]))
    assert hall.count_rated("g_aborted", "nim", [])  # what an abort writes: no result
    assert hall.rated_between("a", "b", day_before()) == 2
    assert hall.rated_between("b", "a", day_before()) == 2
    assert hall.rated_between("a", "c", day_before()) == 1
    assert hall.rated_between("b", "c", day_before()) == 0
    assert hall.rated_between("a", "b", now_text()) == 0  # all made before the window
    assert hall.rated_pairs(["a", "b", "c"], day_before(), 2) == [("a", "b")]
    assert hall.rated_pairs(["a", "b", "c"], day_before(), 1) == [("a", "b"), ("a", "c")]
    assert hall.rated_pairs(["b", "c"], day_before(), 1) == []
    assert hall.rated_pairs(["a"], day_before(), 0) == []


def test_the_leaderboard_asks_for_different_opponents(hall):
    """Twelve wins over one account (a farm) list no one; wins over five players do."""
    opponents = [f"o{n}" for n in range(5)]
    _players(hall, "farmer", "fair", "alt", *opponents)
    for n in range(12):
        _rated_game(hall, f"g_farm{n}", "farmer", "alt")
        _rated_game(hall, f"g_fair{n}", "fair", opponents[n % 5])
        for game_id, player, opponent in (
            (f"g_farm{n}", "farmer", "alt"),
            (f"g_fair{n}", "fair", opponents[n % 5]),
        ):
            players = [player, opponent]
            hall.rate_game(game_id, "nim", players, _stepped(players, [1.0, 0.0]))
    board = hall.leaderboard("nim", min_games=10, max_deviation=350, min_opponents=5)
    assert [name for name, _ in board] == ["Fair"]
    board = hall.leaderboard("nim", min_games=10, max_deviation=350, min_opponents=1)
    assert [name for name, _ in board] == ["Fair", "Farmer", "Alt"]  # equal ratings: by name


def test_opponents_who_share_a_browser_are_one_person_on_the_leaderboard(hall):
    """Wins over five accounts made in one browser (signing out and up: its marker is stored
    with each) count as one opponent; five people are five."""
    alts = [f"alt{n}" for n in range(5)]
    people = [f"person{n}" for n in range(5)]
    _players(hall, "ring", "fair", *alts, *people)
    for n, alt in enumerate(alts):
        hall.note_browser(alt, "one-browser-marker")
        hall.note_browser(alt, f"identity-{n}")  # each signed in under a new identity
    for person in people:
        hall.note_browser(person, f"browser-of-{person}")
    for n in range(10):
        for game_id, player, opponent in (
            (f"g_ring{n}", "ring", alts[n % 5]),
            (f"g_fair{n}", "fair", people[n % 5]),
        ):
            _rated_game(hall, game_id, player, opponent)
            hall.rate_game(game_id, "nim", [player, opponent], _stepped([player, opponent], [1, 0]))
    board = hall.leaderboard("nim", min_games=10, max_deviation=350, min_opponents=5)
    assert [name for name, _ in board] == ["Fair"]
    board = hall.leaderboard("nim", min_games=10, max_deviation=350, min_opponents=1)
    assert [name for name, _ in board] == ["Fair", "Ring"]


def test_accounts_linked_through_browsers_are_one_person():
    browsers = {"a": {"x"}, "b": {"x", "y"}, "c": {"y"}, "d": {"z"}}
    assert opponents_by_person(["a", "b", "c", "d", "e"], browsers) == 3  # a-b-c, d, e
    assert opponents_by_person([], browsers) == 0
