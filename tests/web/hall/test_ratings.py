"""Glicko-2 against the worked example of Glickman's paper, and its invariants."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamehall.web.hall.ratings import Rating, Result, idle, rate_game, update


def test_glickmans_worked_example():
    """1500/200/0.06 against 1400/30, 1550/100, 1700/300 with 1, 0, 0 (the paper's example)."""
    player = Rating(1500, 200, 0.06)
    results = [
        Result(Rating(1400, 30), 1),
        Result(Rating(1550, 100), 0),
        Result(Rating(1700, 300), 0),
    ]
    new = update(player, results)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_period_without_games_only_widens_the_deviation():
    player = Rating(1600, 100, 0.06)
    after = idle(player)
    assert after.rating == player.rating
    assert after.deviation > player.deviation
    assert update(player, []) == after


def test_the_deviation_never_exceeds_a_newcomers():
    assert idle(Rating()).deviation == 350


def test_a_score_outside_zero_to_one_is_refused():
    with pytest.raises(ValueError, match="between 0 and 1"):
        Result(Rating(), 2)


def test_an_upset_moves_more_than_an_expected_win():
    strong, weak = Rating(1800, 80), Rating(1400, 80)
    strong_won, _ = rate_game(strong, weak, 1.0)
    _, weak_won = rate_game(strong, weak, 0.0)
    assert weak_won.rating - weak.rating > strong_won.rating - strong.rating > 0


ratings = st.builds(
    Rating,
    st.floats(800, 2800),
    st.floats(30, 350),
    st.floats(0.03, 0.1),
)


@given(ratings, ratings, st.sampled_from([0.0, 0.5, 1.0]))
def test_a_game_moves_the_winner_up_and_the_loser_down(first, second, score):
    new_first, new_second = rate_game(first, second, score)
    if score == 1.0:
        assert new_first.rating > first.rating and new_second.rating < second.rating
    elif score == 0.0:
        assert new_first.rating < first.rating and new_second.rating > second.rating
    assert 30 <= new_first.deviation <= 350 and 30 <= new_second.deviation <= 350
    # against a close opponent known as well or better, one game narrows the deviation
    close = abs(first.rating - second.rating) < 200
    if close and second.deviation <= first.deviation and first.deviation > 100:
        assert new_first.deviation < first.deviation
