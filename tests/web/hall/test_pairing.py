"""The lobby's rules: seeks, their limits, quick pairing's widening window, time controls."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gamehall.web.hall.pairing import (
    MAX_SEEKS_PER_ADDRESS,
    MAX_SEEKS_PER_PLAYER,
    WINDOW_MAX,
    WINDOW_START,
    Lobby,
    LobbyError,
    Seek,
    Waiting,
    can_pair,
    check_clock,
    seat_of_creator,
)


def seek(seek_id: str, player: str = "p1", expires: float = 100.0) -> Seek:
    return Seek(seek_id, player, player, None, "nim", {}, "5+3", False, "random", 0.0, expires)


def waiting(player: str, rating: float, since: float = 0.0, clock: str = "5+3") -> Waiting:
    return Waiting(player, player, rating, "nim", clock, True, since)


@pytest.mark.parametrize(
    ("text", "normal"),
    [("5+3", "5+3"), ("0.5+0", "0.5+0"), ("10.0+5", "10+5"), ("d3", "d3"), ("d03", "d3"),
     (None, None), ("", None)],
)  # fmt: skip
def test_time_controls_in_their_normal_form(text, normal):
    assert check_clock(text) == normal


@pytest.mark.parametrize("text", ["5", "0+3", "181+0", "5+181", "d0", "d15", "5 + 3", "x", "5+-1"])
def test_a_bad_time_control_says_what_is_allowed(text):
    with pytest.raises(LobbyError, match="M\\+S") as error:
        check_clock(text)
    assert error.value.reason == "bad_clock"


def test_a_player_has_a_limited_number_of_seeks():
    lobby = Lobby()
    for i in range(MAX_SEEKS_PER_PLAYER):
        lobby.add(seek(f"s{i}"))
    with pytest.raises(LobbyError) as error:
        lobby.add(seek("one-more"))
    assert error.value.reason == "too_many_seeks"
    assert "one-more" not in lobby.seeks
    lobby.add(seek("another-player", player="p2"))  # others still may


def test_one_address_cannot_fill_the_lobby_with_new_identities():
    lobby = Lobby()
    from_one = [
        replace(seek(f"s{i}", player=f"p{i}"), address="10.0.0.1")
        for i in range(MAX_SEEKS_PER_ADDRESS)
    ]
    for each in from_one:
        lobby.add(each)
    with pytest.raises(LobbyError, match="network address") as error:
        lobby.add(replace(seek("one-more", player="fresh"), address="10.0.0.1"))
    assert error.value.reason == "too_many_seeks" and "one-more" not in lobby.seeks
    lobby.add(replace(seek("elsewhere", player="fresh"), address="10.0.0.2"))


def test_only_the_creator_cancels_and_nobody_accepts_their_own():
    lobby = Lobby()
    lobby.add(seek("s1"))
    with pytest.raises(LobbyError) as error:
        lobby.cancel("s1", "p2")
    assert error.value.reason == "not_your_seek"
    with pytest.raises(LobbyError) as error:
        lobby.check_accept("s1", "p1")
    assert error.value.reason == "own_seek"
    assert "s1" in lobby.seeks
    assert lobby.check_accept("s1", "p2").id == "s1"
    assert lobby.cancel("s1", "p1").id == "s1"
    with pytest.raises(LobbyError) as error:
        lobby.check_accept("s1", "p2")
    assert error.value.reason == "unknown_seek"


def test_seeks_lapse_and_leave_with_their_creator():
    lobby = Lobby()
    lobby.add(seek("early", expires=10))
    lobby.add(seek("late", expires=50))
    lobby.add(seek("other", player="p2", expires=50))
    assert [s.id for s in lobby.expire(now=20)] == ["early"]
    gone, _ = lobby.leave("p1")
    assert [s.id for s in gone] == ["late"]
    assert list(lobby.seeks) == ["other"]


def test_the_window_widens_while_waiting_up_to_its_limit():
    entry = waiting("a", 1500, since=10)
    assert entry.window(10) == WINDOW_START
    assert entry.window(15) > WINDOW_START
    assert entry.window(10_000) == WINDOW_MAX


def test_far_ratings_pair_only_after_waiting():
    lobby = Lobby()
    lobby.wait(waiting("a", 1500, since=0))
    lobby.wait(waiting("b", 1800, since=0))
    assert lobby.pair(now=1) == []
    assert len(lobby.waiting) == 2
    (pair,) = lobby.pair(now=60)
    assert {pair[0].player, pair[1].player} == {"a", "b"}
    assert lobby.waiting == {}


def test_both_windows_must_hold_the_gap():
    old, new = waiting("a", 1500, since=0), waiting("b", 1800, since=100)
    assert old.window(100) >= 300 > new.window(100)
    assert not can_pair(old, new, now=100)


def test_pools_do_not_mix_and_nobody_pairs_with_themselves():
    lobby = Lobby()
    lobby.wait(waiting("a", 1500, clock="5+3"))
    lobby.wait(waiting("b", 1500, clock="3+2"))
    assert lobby.pair(now=100) == []
    lobby.wait(waiting("a", 1500, clock="3+2"))  # moving pool: one wait per player
    assert len(lobby.waiting) == 2
    (pair,) = lobby.pair(now=100)
    assert {pair[0].player, pair[1].player} == {"a", "b"}


def test_the_longest_waiting_player_gets_the_closest_rating():
    lobby = Lobby()
    lobby.wait(waiting("first", 1500, since=0))
    lobby.wait(waiting("far", 1580, since=1))
    lobby.wait(waiting("near", 1510, since=2))
    (pair,) = lobby.pair(now=2)
    assert (pair[0].player, pair[1].player) == ("first", "near")
    assert list(lobby.waiting) == ["far"]


def test_asking_again_keeps_ones_place():
    lobby = Lobby()
    lobby.wait(waiting("a", 1500, since=0))
    lobby.wait(waiting("a", 1500, since=50))
    assert lobby.waiting["a"].since == 0


def test_the_creators_seat():
    assert seat_of_creator(1, 2, coin=0) == 1
    assert seat_of_creator("random", 2, coin=3) == 1


def test_two_players_of_one_browser_never_meet_in_a_rated_game():
    """One person with two accounts: a browser on both sides of a rated seek or pool."""
    lobby = Lobby()
    laptop, phone = frozenset({"laptop"}), frozenset({"laptop", "phone"})
    rated = replace(seek("s1", "ada"), rated=True, browsers=laptop)
    casual = replace(seek("s2", "ada"), browsers=laptop)
    lobby.add(rated), lobby.add(casual)
    with pytest.raises(LobbyError, match="needs two people") as refused:
        lobby.check_accept("s1", "bob", phone)
    assert refused.value.reason == "self_pairing"
    assert lobby.check_accept("s2", "bob", phone) == casual  # casual: anyone
    assert lobby.check_accept("s1", "carol", frozenset({"home"})) == rated
    ada, bob = (
        replace(waiting("ada", 1500), browsers=laptop),
        replace(waiting("bob", 1500), browsers=phone),
    )
    assert not can_pair(ada, bob, 0.0)
    assert can_pair(replace(ada, rated=False), replace(bob, rated=False), 0.0)
    lobby.wait(ada)
    with pytest.raises(LobbyError, match="ada, an account used in this browser") as refused:
        lobby.wait(bob)
    assert refused.value.reason == "self_pairing" and "bob" not in lobby.waiting
    lobby.wait(replace(bob, clock="3+2"))  # another pool: no game between them can come of it
    lobby.waiting["ada"] = replace(bob, player="ada", name="ada", clock="3+2")  # as if both got in
    assert lobby.pair(100.0) == []
