"""Statistics for self-play results: proportions, means, and Bradley–Terry / Elo ratings.

Pure functions over numbers (numpy only), no I/O. Every interval is two-sided at ``level``
(default 95%).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

ELO_PER_NATURAL_UNIT = 400.0 / math.log(10.0)
"""Elo points per unit of the Bradley–Terry log-strength (a ratio of 10 is 400 Elo)."""


def z_value(level: float = 0.95) -> float:
    """The standard normal quantile for a two-sided interval at ``level`` (1.96 for 95%)."""
    if not 0 < level < 1:
        raise ValueError(f"confidence level must be in (0, 1), not {level!r}")
    return NormalDist().inv_cdf(0.5 + level / 2)


@dataclass(frozen=True)
class Proportion:
    """``successes`` out of ``trials`` with its Wilson score interval."""

    successes: float
    trials: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.successes / self.trials if self.trials else math.nan

    def __str__(self) -> str:
        if not self.trials:
            return "n/a (no games)"
        return (
            f"{self.rate:.1%} [{self.low:.1%}, {self.high:.1%}] ({self.successes:g}/{self.trials})"
        )


def wilson_interval(successes: float, trials: int, level: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (sound at 0 and n, unlike Wald).

    ``successes`` may be fractional (draws counted half). With no trials the interval is [0, 1].
    """
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes}/{trials}")
    if trials == 0:
        return (0.0, 1.0)
    z = z_value(level)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def proportion(successes: float, trials: int, level: float = 0.95) -> Proportion:
    """A :class:`Proportion` with its Wilson interval."""
    low, high = wilson_interval(successes, trials, level)
    return Proportion(successes, trials, low, high)


@dataclass(frozen=True)
class Difference:
    """The difference of two rates, ``a - b``, with Newcombe's hybrid score interval (built
    from each rate's Wilson interval; sound near 0 and 1, unlike the Wald interval)."""

    difference: float
    low: float
    high: float

    @property
    def significant(self) -> bool:
        """Whether the interval leaves out zero (the rates differ at the interval's level)."""
        return self.low > 0 or self.high < 0

    def __str__(self) -> str:
        return f"{self.difference:+.1%} [{self.low:+.1%}, {self.high:+.1%}]"


def rate_difference(a: Proportion, b: Proportion) -> Difference:
    """``a.rate - b.rate`` with the Newcombe (1998, method 10) interval at the rates' level."""
    if not a.trials or not b.trials:
        return Difference(math.nan, -1.0, 1.0)
    d = a.rate - b.rate
    low = d - math.sqrt((a.rate - a.low) ** 2 + (b.high - b.rate) ** 2)
    high = d + math.sqrt((a.high - a.rate) ** 2 + (b.rate - b.low) ** 2)
    return Difference(d, max(-1.0, low), min(1.0, high))


@dataclass(frozen=True)
class Mean:
    """A sample mean with a normal-approximation interval (t would differ only for tiny n)."""

    mean: float
    low: float
    high: float
    n: int
    sd: float

    def __str__(self) -> str:
        if not self.n:
            return "n/a (no data)"
        return f"{self.mean:.3f} [{self.low:.3f}, {self.high:.3f}] (n={self.n}, sd={self.sd:.3f})"


def mean_interval(values: Sequence[float], level: float = 0.95) -> Mean:
    """The mean of ``values`` with mean ± z·sd/√n."""
    data = np.asarray(values, dtype=float)
    n = int(data.size)
    if n == 0:
        return Mean(math.nan, math.nan, math.nan, 0, math.nan)
    mean = float(data.mean())
    sd = float(data.std(ddof=1)) if n > 1 else 0.0
    half = z_value(level) * sd / math.sqrt(n) if n > 1 else math.inf
    return Mean(mean, mean - half, mean + half, n, sd)


# --- Bradley–Terry and Elo ----------------------------------------------------------------------


@dataclass(frozen=True)
class Ratings:
    """A Bradley–Terry fit: Elo ratings centred on 0 (mean of all players) with standard errors
    from the Fisher information, and the fitted log-strengths."""

    names: tuple[str, ...]
    elo: tuple[float, ...]
    elo_se: tuple[float, ...]
    theta: tuple[float, ...]
    iterations: int
    level: float = 0.95

    def interval(self, index: int) -> tuple[float, float]:
        half = z_value(self.level) * self.elo_se[index]
        return (self.elo[index] - half, self.elo[index] + half)

    def order(self) -> list[int]:
        """Player indices, strongest first."""
        return sorted(range(len(self.names)), key=lambda i: -self.elo[i])


def score_table(wins: np.ndarray, draws: np.ndarray | None = None) -> np.ndarray:
    """Turn a win table and a (symmetric) draw table into scores: ``s[i, j]`` is what ``i``
    scored against ``j``, a draw counting half to each."""
    scores = np.asarray(wins, dtype=float).copy()
    if draws is not None:
        scores += 0.5 * np.asarray(draws, dtype=float)
    np.fill_diagonal(scores, 0.0)
    return scores


def bradley_terry(
    scores: np.ndarray,
    names: Sequence[str] | None = None,
    *,
    prior_draws: float = 0.0,
    level: float = 0.95,
    tolerance: float = 1e-10,
    max_iterations: int = 100_000,
) -> Ratings:
    """Fit Bradley–Terry strengths ``p_i`` (P(i beats j) = p_i / (p_i + p_j)) by Hunter's MM
    iteration ``p_i ← W_i / Σ_j n_ij / (p_i + p_j)`` on a score table (see :func:`score_table`).

    ``prior_draws`` adds that many virtual draws to every pair that met, so a player who won or
    lost every game still gets a finite rating (0 gives the plain maximum-likelihood fit). Standard
    errors come from the inverse Fisher information under the constraint Σθ = 0 (a pseudo-inverse
    of the weighted graph Laplacian); a player cut off from the others gets an infinite one.
    """
    s = np.asarray(scores, dtype=float).copy()
    k = s.shape[0]
    if s.shape != (k, k):
        raise ValueError("the score table must be square")
    names = tuple(names) if names is not None else tuple(f"P{i + 1}" for i in range(k))
    games = s + s.T
    if prior_draws:
        met = games > 0
        s = s + 0.5 * prior_draws * met
        games = s + s.T
    np.fill_diagonal(games, 0.0)
    won = s.sum(axis=1)
    p = np.ones(k)
    iterations = 0
    for iterations in range(1, max_iterations + 1):  # noqa: B007 - reported in the result
        denominator = (games / (p[:, None] + p[None, :])).sum(axis=1)
        new = np.where(denominator > 0, won / np.where(denominator > 0, denominator, 1), p)
        # A player with no score at all drifts to 0 (rating -inf); keep it tiny but positive.
        new = np.maximum(new, 1e-300)
        new /= math.exp(np.log(new).mean())
        change = np.max(np.abs(np.log(new) - np.log(p)))
        p = new
        if change < tolerance:
            break
    theta = np.log(p)
    theta -= theta.mean()
    p = np.exp(theta)
    weight = games * (p[:, None] * p[None, :]) / (p[:, None] + p[None, :]) ** 2
    information = np.diag(weight.sum(axis=1)) - weight
    covariance = np.linalg.pinv(information, rcond=1e-12)
    variance = np.clip(np.diag(covariance), 0.0, None)
    connected = _connected(games)
    se = np.where(connected, np.sqrt(variance), np.inf)
    return Ratings(
        names=names,
        elo=tuple(float(x) for x in theta * ELO_PER_NATURAL_UNIT),
        elo_se=tuple(float(x) for x in se * ELO_PER_NATURAL_UNIT),
        theta=tuple(float(x) for x in theta),
        iterations=iterations,
        level=level,
    )


def _connected(games: np.ndarray) -> np.ndarray:
    """Whether each player is in the same comparison graph component as player 0 (and the
    graph has more than one player)."""
    k = games.shape[0]
    seen = {0}
    frontier = [0]
    while frontier:
        i = frontier.pop()
        for j in np.flatnonzero(games[i] > 0):
            if int(j) not in seen:
                seen.add(int(j))
                frontier.append(int(j))
    if len(seen) == k:
        return np.ones(k, dtype=bool)
    return np.zeros(k, dtype=bool)


def elo_difference(win_rate: float) -> float:
    """The Elo difference that gives ``win_rate`` in expectation: 400·log10(p / (1 − p))."""
    if not 0 < win_rate < 1:
        return math.copysign(math.inf, win_rate - 0.5)
    return 400.0 * math.log10(win_rate / (1 - win_rate))
