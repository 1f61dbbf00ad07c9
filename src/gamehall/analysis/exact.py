"""The perfect-play value of random Äcädmü deals: how much moving first is worth.

A deal is one round's start: both sides pour their discs (27 tokens a side with the default set)
and Dark moves first. With ``tokens=K`` below the full count, each side keeps a uniformly random
K of its poured tokens (the pour, then random tokens dropped without replacement) — a smaller
round of the same kind, for tests and quick looks, since the exact search grows fast with K.

Deal ``i`` of a run seeded ``S`` uses ``random.Random(game_seed(S, i))``: the same deals on any
number of workers. The exact solver, ``gamehall.ai.solvers.acadmu.solve(state, time_limit)``, is
imported only when needed; the value is the round score for the player to move (the first
player) under perfect play by both.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gamehall.analysis.selfplay import game_seed
from gamehall.core import GamehallError, find_game, game_class

SOLVER = "gamehall.ai.solvers.acadmu:solve"


class SolverMissingError(GamehallError):
    """The exact solver is not part of this build."""


def load_solver(path: str | None = None) -> Callable[..., Any]:
    """The solve function named by ``module:function`` (default :data:`SOLVER`; raises
    SolverMissingError)."""
    module_name, _, function = (path or SOLVER).partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name and module_name.startswith(error.name):
            raise SolverMissingError(
                f"the exact solver {module_name} is not available in this build; --exact needs it"
            ) from None
        raise
    solve = getattr(module, function, None)
    if solve is None:
        raise SolverMissingError(f"{module_name} has no {function}()")
    return solve


def deal_counts(
    pour: Callable[[random.Random], tuple[int, ...]], rng: random.Random, tokens: int | None
) -> tuple[int, ...]:
    """One side's counts: a pour, then (if ``tokens`` is fewer) a random ``tokens`` of them kept."""
    counts = pour(rng)
    if tokens is None or tokens >= sum(counts):
        return counts
    pool = [pairing for pairing, n in enumerate(counts) for _ in range(n)]
    kept = [0] * 9
    for pairing in rng.sample(pool, tokens):
        kept[pairing] += 1
    return tuple(kept)


@dataclass(frozen=True)
class ExactSpec:
    """What decides a run of exact values (small and picklable for workers)."""

    seed: int
    tokens: int | None = None
    game_tags: tuple[tuple[str, str], ...] = ()
    time_limit: float | None = None
    solver: str | None = None
    """``module:function`` of the solver (None: :data:`SOLVER`)."""

    def game(self) -> Any:
        return game_class("acadmu").from_record_tags(dict(self.game_tags))

    def deal(self, index: int) -> Any:
        """The bare one-round position of deal ``index`` (Dark to move)."""
        game = self.game()
        rng = random.Random(game_seed(self.seed, index))
        pour = game.disc_set.sample_pour
        dark = deal_counts(pour, rng, self.tokens)
        light = deal_counts(pour, rng, self.tokens)
        return game.round_state(dark, light)

    def parameters(self) -> dict[str, Any]:
        return {
            "game": "acadmu",
            "mode": "exact",
            "game_tags": dict(self.game_tags),
            "seed": self.seed,
            "tokens": self.tokens,
            "time_limit": self.time_limit,
        }


def solve_one(
    spec: ExactSpec, index: int, solve: Callable[..., Any] | None = None
) -> dict[str, Any]:
    """Solve deal ``index`` and return its row."""
    solve = solve or load_solver(spec.solver)
    state = spec.deal(index)
    try:  # the value is all the analysis needs: one optimal move is much cheaper than all
        result = solve(state, time_limit=spec.time_limit, all_best=False)
    except TypeError:  # a solver without that option
        result = solve(state, time_limit=spec.time_limit)
    value = result.value
    if value is None:  # stopped by the time limit: the middle of the proved bounds
        value = (result.lower + result.upper) / 2
    best = result.best
    if isinstance(best, tuple):
        best = " ".join(str(move) for move in best)
    return {
        "deal_index": index,
        "seed": game_seed(spec.seed, index),
        "tokens": sum(state.dark),
        "position": str(state),
        "value": float(value),
        "best": None if best is None else str(best),
        "nodes": int(getattr(result, "nodes", 0) or 0),
        "seconds": float(getattr(result, "seconds", 0.0) or 0.0),
        "exact": int(bool(getattr(result, "exact", True))),
    }


def solve_batch(spec: ExactSpec, indices: Sequence[int]) -> list[dict[str, Any]]:
    solve = load_solver(spec.solver)
    return [solve_one(spec, index, solve) for index in indices]


def make_spec(
    seed: int, tokens: int | None, variants: dict[str, Any], time_limit: float | None
) -> ExactSpec:
    """Check the options and build the spec (the solver is checked too, before any work)."""
    game = find_game("acadmu", **variants)
    full = len(game.disc_set)
    if tokens is not None and not 1 <= tokens <= full:
        raise GamehallError(f"--tokens must be between 1 and {full}, not {tokens}")
    return ExactSpec(
        seed=seed,
        tokens=None if tokens == full else tokens,
        game_tags=tuple(sorted(game.record_tags().items())),
        time_limit=time_limit,
    )
