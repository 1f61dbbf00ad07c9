"""The review's evaluation graph (``gamehall.web.compute.review.series``): a band never turns over.

An estimate's band is its 95% interval moved inside the proven bounds; an interval lying wholly
outside the bounds (the search hoped for more than is proven) becomes the bound it overshot.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from gamehall.ai.evaluation import Evaluation
from gamehall.core.search import ValueKind
from gamehall.web.compute.review import series


def _review(before: Evaluation, after: Evaluation, player: int = 0) -> SimpleNamespace:
    move = SimpleNamespace(number=1, before=before, after=after, player=player)
    return SimpleNamespace(game=SimpleNamespace(num_players=2), kind=before.kind, moves=[move])


def test_an_interval_above_the_proven_bounds_becomes_the_upper_bound():
    hopeful = Evaluation(ValueKind.POINTS, lower=-2, upper=3, estimate=6.0, interval=(5.0, 7.0))
    point = series(_review(hopeful, hopeful))[0]
    assert point == {"number": 1, "value": 3.0, "low": 3.0, "high": 3.0, "exact": False}


def test_an_interval_below_the_proven_bounds_seen_from_the_other_seat_becomes_the_bound():
    gloomy = Evaluation(
        ValueKind.PROBABILITY, lower=0.5, upper=1, estimate=0.2, interval=(0.1, 0.3)
    )
    point = series(_review(gloomy, gloomy, player=1))[0]
    # From the first seat's side: 1 - 0.5.
    assert (point["low"], point["value"], point["high"]) == (0.5, 0.5, 0.5)


finite = st.floats(min_value=-50, max_value=50, allow_nan=False)


@given(finite, finite, finite, st.floats(min_value=0, max_value=20), st.integers(0, 1))
def test_every_band_is_ordered_holds_its_point_and_lies_within_the_bounds(
    a: float, b: float, estimate: float, width: float, player: int
):
    lower, upper = min(a, b), max(a, b)
    evaluation = Evaluation(
        ValueKind.POINTS,
        lower=lower,
        upper=upper,
        estimate=estimate,
        interval=(estimate - width, estimate + width),
    )
    point = series(_review(evaluation, evaluation, player))[0]
    low, value, high = point["low"], point["value"], point["high"]
    assert low is not None and high is not None and value is not None
    assert low <= value <= high
    seen = (lower, upper) if player == 0 else (-upper, -lower)
    assert seen[0] <= low and high <= seen[1]
    assert not math.isnan(value)
