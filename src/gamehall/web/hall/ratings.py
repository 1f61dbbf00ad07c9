"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013), as a pure function.

A :class:`Rating` is the triple the paper keeps per player: the rating ``r`` and rating
deviation ``RD`` on the Glicko scale (1500 and 350 for a newcomer) and the volatility ``σ``.
:func:`update` is the paper's steps 2–8 for one rating period: the player's new triple from the
games of the period, each an opponent's rating before the period and the player's score (1, ½ or
0). The server runs one period per rated game (as lichess does), so a rating moves as soon as a
game ends; a player with no games in a period only has their deviation grow (step 6), which
:func:`idle` gives.

Internally the paper works on the Glicko-2 scale: μ = (r − 1500)/173.7178, φ = RD/173.7178.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko → Glicko-2: μ = (r − 1500)/SCALE, φ = RD/SCALE."""

TAU = 0.5
"""The system constant τ: how much volatility may change in one period (the paper suggests
0.3 to 1.2; 0.5 is its example's and lichess's choice)."""

EPSILON = 1e-6
"""Convergence tolerance of the volatility iteration (step 5)."""

NEW_RATING = 1500.0
NEW_DEVIATION = 350.0
NEW_VOLATILITY = 0.06
MAX_DEVIATION = 350.0
"""A deviation never grows past a newcomer's."""
MIN_DEVIATION = 30.0
"""A floor, so a very active player's rating still moves (lichess keeps 45; the paper none)."""


@dataclass(frozen=True)
class Rating:
    """A player's Glicko-2 rating: rating, deviation and volatility (Glicko scale)."""

    rating: float = NEW_RATING
    deviation: float = NEW_DEVIATION
    volatility: float = NEW_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - NEW_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE

    @classmethod
    def from_glicko2(cls, mu: float, phi: float, volatility: float) -> Rating:
        return cls(mu * SCALE + NEW_RATING, phi * SCALE, volatility)


@dataclass(frozen=True)
class Result:
    """One game of a rating period: the opponent's rating before the period and the score."""

    opponent: Rating
    score: float  # 1 win, 0.5 draw, 0 loss

    def __post_init__(self) -> None:
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"a score is between 0 and 1, not {self.score}")


def g(phi: float) -> float:
    """Step 3: the weight of an opponent's result by the opponent's deviation."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """Step 3: the expected score against an opponent."""
    return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))


def new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, the root of the paper's f(x) by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, results: Sequence[Result], *, tau: float = TAU) -> Rating:
    """Steps 2–8: the player's rating after a period with these games (none: :func:`idle`)."""
    if not results:
        return idle(player)
    mu, phi, sigma = player.mu, player.phi, player.volatility
    # Step 3: the estimated variance v of the rating from the game outcomes alone.
    inverse_v = 0.0
    # Step 4: the estimated improvement Δ, as v times the sum below.
    improvement = 0.0
    for result in results:
        mu_j, phi_j = result.opponent.mu, result.opponent.phi
        e = expected(mu, mu_j, phi_j)
        inverse_v += g(phi_j) ** 2 * e * (1.0 - e)
        improvement += g(phi_j) * (result.score - e)
    v = 1.0 / inverse_v
    delta = v * improvement
    sigma_new = new_volatility(sigma, phi, v, delta, tau)
    # Step 6: the pre-period deviation φ*; step 7: the new φ′ and μ′.
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return _bounded(Rating.from_glicko2(mu_new, phi_new, sigma_new))


def idle(player: Rating) -> Rating:
    """A period without games: only the deviation grows, φ′ = √(φ² + σ²) (step 6)."""
    phi = math.sqrt(player.phi**2 + player.volatility**2)
    return _bounded(Rating.from_glicko2(player.mu, phi, player.volatility))


def _bounded(rating: Rating) -> Rating:
    deviation = min(MAX_DEVIATION, max(MIN_DEVIATION, rating.deviation))
    return Rating(rating.rating, deviation, rating.volatility)


def rate_game(first: Rating, second: Rating, first_score: float) -> tuple[Rating, Rating]:
    """Both players' new ratings after one game between them (one period each)."""
    return (
        update(first, [Result(second, first_score)]),
        update(second, [Result(first, 1.0 - first_score)]),
    )


def rate_triples(
    first: tuple[float, float, float], second: tuple[float, float, float], first_score: float
) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """:func:`rate_game` on stored (rating, deviation, volatility) triples: a puzzle attempt is
    one game between the player and the puzzle (:mod:`gamehall.store.puzzles`)."""
    a, b = rate_game(Rating(*first), Rating(*second), first_score)
    return (a.rating, a.deviation, a.volatility), (b.rating, b.deviation, b.volatility)


__all__ = [
    "NEW_DEVIATION",
    "NEW_RATING",
    "NEW_VOLATILITY",
    "TAU",
    "Rating",
    "Result",
    "expected",
    "g",
    "idle",
    "new_volatility",
    "rate_game",
    "rate_triples",
    "update",
]
