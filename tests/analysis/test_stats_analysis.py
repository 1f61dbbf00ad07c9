"""Statistics against known values: Wilson intervals, means, Bradley–Terry / Elo."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gamehall.analysis.stats import (
    bradley_terry,
    elo_difference,
    mean_interval,
    proportion,
    score_table,
    wilson_interval,
    z_value,
)


def test_z_value_95():
    assert z_value(0.95) == pytest.approx(1.959964, abs=1e-6)


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        (8, 10, 0.4902, 0.9433),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (5, 10, 0.2366, 0.7634),
        (50, 100, 0.4038, 0.5962),
        (1, 3, 0.0615, 0.7923),
    ],
)
def test_wilson_known_values(successes, trials, low, high):
    got = wilson_interval(successes, trials)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_edges_and_errors():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(3.5, 10)[0] < 0.35 < wilson_interval(3.5, 10)[1]  # draws count half
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    rate = proportion(8, 10)
    assert rate.rate == 0.8
    assert "80.0%" in str(rate)


def test_mean_interval():
    mean = mean_interval([1, 2, 3, 4, 5])
    assert mean.mean == 3
    half = 1.959964 * math.sqrt(2.5) / math.sqrt(5)
    assert (mean.low, mean.high) == pytest.approx((3 - half, 3 + half), abs=1e-5)
    assert mean_interval([]).n == 0


def test_bradley_terry_two_players_75_percent():
    # A beats B in 75 of 100 games: the Elo gap is 400·log10(3) ≈ 190.8.
    ratings = bradley_terry(np.array([[0, 75], [25, 0]]), ["A", "B"])
    gap = ratings.elo[0] - ratings.elo[1]
    assert gap == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert gap == pytest.approx(190.85, abs=0.01)
    assert gap == pytest.approx(elo_difference(0.75))
    # Fisher information: var(θA − θB) = 1 / (n p q); each rating carries half the gap's variance.
    se_gap = 1 / math.sqrt(100 * 0.75 * 0.25) * 400 / math.log(10)
    assert ratings.elo_se[0] == pytest.approx(se_gap / 2, rel=1e-6)
    assert ratings.order() == [0, 1]


def test_bradley_terry_recovers_known_strengths_with_draws():
    # Strengths 4 : 2 : 1 → expected scores; the fit must give them back exactly.
    strengths = np.array([4.0, 2.0, 1.0])
    n = 1000
    expected = n * strengths[:, None] / (strengths[:, None] + strengths[None, :])
    np.fill_diagonal(expected, 0)
    # Give the same scores as wins plus draws (each draw half to each side).
    draws = np.full((3, 3), 100.0)
    np.fill_diagonal(draws, 0)
    wins = expected - 0.5 * draws
    ratings = bradley_terry(score_table(wins, draws), ["a", "b", "c"])
    elo = np.array(ratings.elo)
    truth = 400 * np.log10(strengths)
    assert elo - elo.mean() == pytest.approx(truth - truth.mean(), abs=1e-4)
    assert sum(ratings.elo) == pytest.approx(0, abs=1e-6)


def test_bradley_terry_clean_sweep_needs_prior():
    table = np.array([[0, 10], [0, 0]])
    ratings = bradley_terry(table, prior_draws=1.0)
    # With one virtual draw: 10.5 of 11 → 400·log10(10.5/0.5).
    assert ratings.elo[0] - ratings.elo[1] == pytest.approx(400 * math.log10(21), abs=1e-6)
    assert all(math.isfinite(x) for x in ratings.elo_se)


def test_rate_difference_matches_newcombes_published_example():
    """Newcombe (1998), Statistics in Medicine 17:873, table II, method 10: 56/70 against 48/80
    gives 0.2000 with the interval 0.0524 to 0.3339; 9/10 against 3/10, 0.1705 to 0.8090."""
    from gamehall.analysis.stats import proportion, rate_difference

    diff = rate_difference(proportion(56, 70), proportion(48, 80))
    assert round(diff.difference, 4) == 0.2
    assert (round(diff.low, 4), round(diff.high, 4)) == (0.0524, 0.3339)
    assert diff.significant
    diff = rate_difference(proportion(9, 10), proportion(3, 10))
    assert (round(diff.low, 4), round(diff.high, 4)) == (0.1705, 0.8090)
    same = rate_difference(proportion(5, 10), proportion(5, 10))
    assert same.difference == 0 and not same.significant
