"""The lobby's rule for a day's rated games between two players (issue 33, point 2): quick
pairing never pairs two players ``apart`` in a rated pool, and pairs each with someone else;
the leaderboard's opponents never ask for more than its games."""

from __future__ import annotations

from gamehall.web.hall.pairing import Lobby, Waiting
from gamehall.web.hall.standings import LEADERBOARD_MIN_OPPONENTS, Standings


def _wait(player: str, rated: bool = True, since: float = 0.0) -> Waiting:
    return Waiting(player, player.title(), 1500.0, "nim", "5+3", rated, since)


def test_quick_pairing_keeps_two_players_apart_once_they_played_their_rated_games():
    lobby = Lobby()
    lobby.wait(_wait("ada"))
    lobby.wait(_wait("bob", since=1.0))
    apart = frozenset({frozenset({"ada", "bob"})})
    assert lobby.pair(2.0, apart) == []
    assert set(lobby.waiting) == {"ada", "bob"}  # both still wait
    lobby.wait(_wait("carol", since=2.0))
    ((first, second),) = lobby.pair(3.0, apart)
    assert (first.player, second.player) == ("ada", "carol")  # the longest waiting first
    assert set(lobby.waiting) == {"bob"}


def test_casual_pools_are_not_limited():
    lobby = Lobby()
    lobby.wait(_wait("ada", rated=False))
    lobby.wait(_wait("bob", rated=False))
    assert len(lobby.pair(1.0, frozenset({frozenset({"ada", "bob"})}))) == 1


def test_the_leaderboard_never_asks_for_more_opponents_than_games():
    assert Standings(None, None).min_opponents == LEADERBOARD_MIN_OPPONENTS  # type: ignore[arg-type]
    assert Standings(None, None, min_games=1).min_opponents == 1  # type: ignore[arg-type]
