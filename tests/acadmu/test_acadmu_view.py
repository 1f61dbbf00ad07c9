"""What Äcädmü tells front ends in its own words: why the first player was drawn, why a round
ended and who scored, and that a finished round of a match is a pause before the next pour."""

from __future__ import annotations

import random

import pytest

from gamehall.core import CHANCE, find_game


@pytest.mark.parametrize(
    ("draw", "first", "reason"),
    [
        ("draw BS:RT/RS:BC", "light", "Red beats Blue"),
        ("draw RT:BS/RS:BC", "dark", "both Red: Triangle beats Square"),
        ("draw RT:BS/RT:YC", "dark", "both Red Triangle; flipped, Blue beats Yellow"),
        (
            "draw YC:RT/YC:RS",
            "dark",
            "both Yellow Circle; flipped, both Red: Triangle beats Square",
        ),
        ("draw RT:BS/RT:BS", None, "both Red Triangle; flipped, both Blue Square too: draw again"),
    ],
)
def test_the_draw_says_who_goes_first_and_why(draw, first, reason):
    game = find_game("acadmu")
    parts = game.action_parts(game.parse_action(draw))
    assert (parts["first"], parts["reason"]) == (first, reason)
    after = game.new_initial_state().apply(game.parse_action(draw))
    if first is None:
        assert after.phase == "draw"  # draw again
    else:
        assert after.to_move == game.player_names.index(first)


def test_a_finished_round_of_a_match_pauses_and_says_why_it_ended():
    game = find_game("acadmu")
    state = game.parse_state("0,0,2,0,0,0,0,0,0/0,0,1,0,0,0,0,0,0 d - 3-4 l")
    assert state.current_player == CHANCE  # the next pour is chance
    assert state.pause() == "Round over: neither side has a capture. Dark scores 1 point."
    assert state.view()["round_end"] == {
        "reason": "neither side has a capture",
        "result": "Dark scores 1 point",
        "counts": [2, 1],
        "points": [1, 0],
        "match_score": [4, 4],
    }
    poured = state.apply(state.sample_chance(random.Random(1)))
    assert poured.pause() is None and poured.view()["round_end"] is None


def test_a_round_that_ends_after_a_pass_says_so_and_the_end_of_the_match_does_not_pause():
    game = find_game("acadmu", target=5)
    state = game.parse_state("0,0,2,0,0,0,0,0,0/0,0,1,0,0,0,0,1,0 d - 4-4 l")
    state = state.apply(state.parse_action("pass")).apply(state.game.parse_action("YSxRC+RC"))
    assert state.is_terminal() and state.pause() is None  # the match is over: its end is shown
    end = state.view()["round_end"]
    assert end["reason"] == "Dark passed, and now Light has no capture either"
    assert end["result"] == "Light scores 1 point" and end["match_score"] == [4, 5]
    bare = game.parse_state("0,0,1,0,0,0,0,0,0/0,0,1,0,0,0,0,0,0 d -")
    assert bare.is_terminal() and bare.pause() is None
    assert bare.view()["round_end"]["result"] == "Equal counts: nobody scores"
    assert bare.view()["round_end"]["match_score"] is None


def test_positions_in_play_do_not_pause():
    game = find_game("acadmu")
    for text in ("draw", "pour d 0-0", "3,4,1,0,1,0,2,4,1/1,0,1,3,3,4,2,0,5 d - 0-0 d"):
        assert game.parse_state(text).pause() is None
