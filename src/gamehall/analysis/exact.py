"""The perfect-play value of random deals: how much moving first is worth.

A deal is a random position from the game's own ``deal`` hook (for a tokens game, one round's
start after the pour), with ``size`` scaling it down for tests and quick looks, since exact search
grows fast with the size. Each deal is solved exactly by the game's solver; its value is in the
game's own unit, for the player to move first.

Deal ``i`` of a run seeded ``S`` uses ``random.Random(game_seed(S, i))``: the same deals on any
number of workers.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gamehall.analysis.selfplay import game_seed
from gamehall.core import Game, GamehallError, Limit, State, find_plugin, game_class


class SolverMissingError(GamehallError):
    """The game has no exact solver, or no deals to solve."""


def check_exact(game_name: str) -> None:
    """Raise SolverMissingError unless ``game_name`` can be analysed exactly."""
    plugin = find_plugin(game_name)
    if plugin.solver is None or plugin.deal is None:
        missing = "an exact solver" if plugin.solver is None else "random deals to solve"
        raise SolverMissingError(f"--exact needs {missing}, and {plugin.name} has none")


@dataclass(frozen=True)
class ExactSpec:
    """What decides a run of exact values (small and picklable for workers)."""

    game_name: str
    seed: int
    size: int | None = None
    game_tags: tuple[tuple[str, str], ...] = ()
    time_limit: float | None = None

    def game(self) -> Game:
        return game_class(self.game_name).from_record_tags(dict(self.game_tags))

    def deal(self, index: int) -> State:
        """The position of deal ``index``."""
        game = self.game()
        deal = find_plugin(self.game_name).load_deal()
        assert deal is not None
        return deal(game, random.Random(game_seed(self.seed, index)), self.size)

    def parameters(self) -> dict[str, Any]:
        return {
            "game": self.game_name,
            "mode": "exact",
            "game_tags": dict(self.game_tags),
            "seed": self.seed,
            "size": self.size,
            "time_limit": self.time_limit,
        }


def solve_one(spec: ExactSpec, index: int) -> dict[str, Any]:
    """Solve deal ``index`` (its value only: one optimal move is cheaper than all) and return
    its row."""
    solver = find_plugin(spec.game_name).load_solver()
    assert solver is not None
    state = spec.deal(index)
    limit = Limit(seconds=spec.time_limit)
    solution = solver.solve(state, limit, best="one")
    mover = state.current_player if state.current_player >= 0 else 0
    value = solution.value_for(mover)
    if value is None:  # stopped by the time limit: the middle of the proved bounds
        low, high = solution.bounds_for(mover)
        value = (low + high) / 2
    return {
        "deal_index": index,
        "seed": game_seed(spec.seed, index),
        "size": spec.size,
        "position": str(state),
        "value": float(value),
        "best": " ".join(str(move) for move in solution.best) or None,
        "nodes": solution.nodes,
        "seconds": solution.seconds,
        "exact": int(solution.exact),
    }


def solve_batch(spec: ExactSpec, indices: Sequence[int]) -> list[dict[str, Any]]:
    return [solve_one(spec, index) for index in indices]


def make_spec(game: Game, seed: int, size: int | None, time_limit: float | None) -> ExactSpec:
    """Check the options and build the spec (the solver is checked too, before any work)."""
    check_exact(game.name)
    if size is not None and size < 1:
        raise GamehallError(f"--size must be at least 1, not {size}")
    return ExactSpec(
        game_name=game.name,
        seed=seed,
        size=size,
        game_tags=tuple(sorted(game.record_tags().items())),
        time_limit=time_limit,
    )
