"""The hall's tables on SQLite and PostgreSQL: players and unique names, accounts, sessions,
merging an anonymous player's games, ratings counted once, the leaderboard."""

from __future__ import annotations

import itertools

import pytest

from gamehall.store import GameRow, HallStore, NameTaken, RatedResult, Seat, Store, now_text


def _game(game_id: str) -> GameRow:
    now = now_text()
    return GameRow(
        id=game_id,
        game="nim",
        rules_version="1",
        options={},
        mode="online",
        seed="abc",
        seats=[Seat("human", "t0"), Seat("human", "t1")],
        created=now,
        updated=now,
    )


@pytest.fixture
def hall(store_url):
    store = Store(store_url)
    yield HallStore(store)
    store.dispose()


def test_players_get_a_name_once_and_names_are_unique(hall):
    drawn = iter(["Taken1", "Taken1", "Fresh2"])
    first = hall.ensure_player("p1", lambda: (n := next(drawn), n.casefold()))
    second = hall.ensure_player("p2", lambda: (n := next(drawn), n.casefold()))
    assert (first.name, second.name) == ("Taken1", "Fresh2")  # a clash is drawn again
    assert hall.ensure_player("p1", lambda: ("Other", "other")).name == "Taken1"
    with pytest.raises(NameTaken):
        hall.rename("p2", "TAKEN1", "taken1")
    hall.rename("p2", "Ada", "ada")
    assert hall.player_by_name("ada").id == "p2"
    assert hall.names_of(["p1", "p2", "nobody"]) == {"p1": "Taken1", "p2": "Ada"}


def test_names_are_rekeyed_when_the_look_alike_rule_changes(hall):
    """Names stored under an older rule's key get the new key (and their account's username
    key too); a name that now looks like an older one keeps its old key."""
    hall.ensure_player("p1", lambda: ("Alice", "alice"))
    hall.ensure_player("p2", lambda: ("AIice", "aiice"))  # allowed by the old rule
    hall.ensure_player("b3", lambda: ("Zed", "zed"))
    hall.create_account("p3", "Bob", "bob", "hash", browser="b3")

    def key(name: str) -> str:
        return name.casefold().replace("i", "l")

    assert hall.rekey_names(key) == ["AIice"]
    assert hall.player_by_name("allce").id == "p1"
    assert hall.player_by_name("aiice").id == "p2"
    assert hall.account("bob") is not None  # unchanged keys stay
    assert hall.rekey_names(lambda name: key(name).upper()) == ["AIice"]
    assert hall.account("BOB") is not None and hall.account("bob") is None
    assert hall.player_by_name("ALLCE").id == "p1"  # the older name has the new key
    assert hall.player_by_name("aiice").id == "p2"


def test_accounts_sessions_and_signing_out_everywhere(hall):
    hall.ensure_player("b1", lambda: ("Ada", "ada"))  # the browser was called Ada already
    hall.create_account("p1", "Ada", "ada", "hash", browser="b1")
    assert hall.player("p1").account and hall.player("p1").name == "Ada"
    assert hall.account("ada") == ("p1", "hash")
    hall.ensure_player("b2", lambda: ("Anon2", "anon2"))
    with pytest.raises(NameTaken):
        hall.create_account("p2", "ADA", "ada", "hash", browser="b2")
    assert hall.player("p2") is None and hall.player("b2").name == "Anon2"
    for token in ("s1", "s2", "s3"):
        hall.add_session(token, "p1", now=now_text(), keep=10, idle_since="2000-01-01")
    hall.end_session("s1")
    assert hall.session_player("s1") is None and hall.session_player("s2") == "p1"
    assert sorted(hall.end_sessions("p1")) == ["s2", "s3"]
    assert hall.sessions_of("p1") == 0


def _at(day: int) -> str:
    return f"2030-01-{day:02d}T00:00:00.000+00:00"


def test_sessions_are_capped_per_account_and_expire_unused(hall):
    """An account keeps its most recently used sessions; one unused since the cut-off is
    refused and removed; a used one has its last use moved on (issue 33, point 10)."""
    hall.create_account("p1", "Ada", "ada", "hash", browser="b1")
    for day, token in enumerate(("s1", "s2", "s3"), start=1):
        assert hall.add_session(token, "p1", now=_at(day), keep=3, idle_since=_at(1)) == []
    assert hall.session_player("s1", now=_at(4), idle_since=_at(1), touch_before=_at(4)) == "p1"
    assert hall.add_session("s4", "p1", now=_at(5), keep=3, idle_since=_at(1)) == ["s2"]
    assert hall.sessions_of("p1") == 3  # s2 was the least recently used (s1 was used on day 4)
    assert hall.session_player("s3", idle_since=_at(4)) is None  # last used on day 3: expired
    assert hall.session_player("s3") is None and hall.sessions_of("p1") == 2  # and removed
    ended = hall.add_session("s5", "p1", now=_at(20), keep=3, idle_since=_at(10))
    assert sorted(ended) == ["s1", "s4"]  # every session unused since the cut-off is purged
    assert hall.sessions_of("p1") == 1


def test_a_browser_with_a_full_length_id_signs_up_and_gives_its_name_up(hall):
    browser = "b" * 64  # as long as a browser's identity
    hall.ensure_player(browser, lambda: ("Ada", "ada"))
    hall.create_account("acct", "Ada", "ada", "hash", browser=browser)
    hall.merge(browser, "acct")
    assert hall.player_by_name("ada").id == "acct"
    assert hall.player(browser).merged_into == "acct"


def test_merging_moves_an_anonymous_players_seats(hall):
    hall.store.create_game(_game("g_one"), [("anon", 0)])
    hall.store.create_game(_game("g_two"), [("anon", 1), ("acct", 0)])
    for pid in ("anon", "acct"):
        hall.ensure_player(pid, lambda pid=pid: (pid + "x", pid + "x"))
    hall.create_account("acct2", "Acct", "acct", "hash", browser="acct")
    assert hall.merge("acct", "acct2") == 1
    assert hall.merge("anon", "acct2") == 2
    assert {g.id for g in hall.store.games_of("acct2")} == {"g_one", "g_two"}
    assert hall.store.games_of("anon") == []
    assert hall.player("anon").merged_into == "acct2"
    assert hall.player_by_name("anonx") is None  # the merged player gave its name up
    assert hall.merge("acct2", "anon") == 0  # an account is never merged away


def test_a_rated_result_counts_once(hall):
    hall.store.create_game(_game("g_rated"), [("a", 0), ("b", 1)])
    for pid in ("a", "b"):
        hall.ensure_player(pid, lambda pid=pid: (pid * 3, pid * 3))
    hall.mark_game("g_rated", True, "5+3")
    assert hall.hall_game("g_rated") == (True, "5+3", False)
    results = [
        RatedResult("a", 0, 1.0, 1662.3, 290.3, 0.06),
        RatedResult("b", 1, 0.0, 1337.7, 290.3, 0.06),
    ]
    assert hall.count_rated("g_rated", "nim", results)
    assert not hall.count_rated("g_rated", "nim", results)
    assert hall.rating("a", "nim").games == 1
    assert [h.score for h in hall.history("a")] == [1.0]
    assert hall.hall_game("g_rated")[2] is True


def test_the_leaderboard_needs_games_and_a_small_deviation(hall):
    numbers = itertools.count()
    for pid, rating, deviation, games in [
        ("top", 1900, 60, 12), ("mid", 1700, 70, 12), ("new", 2100, 60, 2), ("vague", 2000, 200, 20),
    ]:  # fmt: skip
        hall.ensure_player(pid, lambda pid=pid: (pid.title() + "x", pid + "x"))
        for _ in range(games):
            game_id = f"g_{next(numbers)}"
            hall.store.create_game(_game(game_id), [(pid, 0)])
            hall.mark_game(game_id, True, None)
            hall.count_rated(game_id, "nim", [RatedResult(pid, 0, 1, rating, deviation, 0.06)])
    board = hall.leaderboard("nim", min_games=10, max_deviation=100)
    assert [name for name, _ in board] == ["Topx", "Midx"]
