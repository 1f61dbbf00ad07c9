"""The compiled simulator's front door: many games in one call, results as NumPy arrays.

Each game that offers a compiled simulator names it in its plugin (``simulator``); this module
finds it there, so it works for any such game::

    from gamehall import fast
    sim = fast.simulate(name, 100_000, seed=1)                    # random against random
    sim.returns.mean(axis=0), sim.winners()
    sim = fast.simulate(name, 1_000, seed=1, policy=("greedy", "random"))
    weights = np.ones(game.num_distinct_actions); fast.simulate(game, 10, 1, policy=weights)

The games are the engine's games, played exactly: the same legal actions, the same chance law,
the same results (the tests compare them on thousands of positions and games). Game ``i`` of a
call is decided by (``seed``, ``first_index + i``) alone, so a batch is reproducible and any
game of it can be played again on its own (:func:`play`).

Big runs stream: :func:`simulate_chunks` yields a run as :class:`Simulation` chunks of at most
``chunk`` games (memory stays that of one chunk: about 90 bytes a game), and :func:`tally` sums a
run into counts (wins per player, draws, the mean returns); both take ``workers=`` to use that
many processes (every core: ``workers=os.cpu_count()``). The results do not depend on the
chunk size or the number of workers: game ``i`` is still decided by (``seed``, ``i``) alone.
:func:`warm_up` compiles (or loads from the on-disk cache) a game's simulator kernels, as
``gamehall warm-up`` does, so the first call does not wait for the compiler::

    for part in fast.simulate_chunks(name, 10**7, seed=1, chunk=10**6, workers=2): ...
    counts = fast.tally(name, 10**7, seed=1, workers=2); counts.wins / counts.games
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from gamehall.core import (
    Action,
    Game,
    GamehallError,
    State,
    UnknownGameError,
    find_game,
    find_plugin,
)
from gamehall.kernels.simulator import POLICY_NAMES, PolicySpec, Simulation, Simulator


def _game(game: Game | str) -> Game:
    return find_game(game) if isinstance(game, str) else game


def simulator_for(game: Game | str) -> Simulator | None:
    """The game's compiled simulator, or None when it has none (or not for this variant, or
    the game is not registered)."""
    game = _game(game)
    try:
        plugin = find_plugin(game.name)
    except UnknownGameError:
        return None
    simulator = plugin.load_simulator()
    if simulator is None or simulator.unsupported(game):
        return None
    return simulator


def _required(game: Game) -> Simulator:
    simulator = find_plugin(game.name).load_simulator()
    if simulator is None:
        raise GamehallError(f"{game.name} has no compiled simulator")
    simulator.check(game)
    return simulator


def simulate(
    game: Game | str,
    games: int,
    seed: int = 0,
    policy: PolicySpec | Sequence[PolicySpec] = "random",
    *,
    start: State | None = None,
    horizon: bool = False,
    per_decision: bool = False,
    first_index: int = 0,
    max_actions: int = 1_000_000,
) -> Simulation:
    """Play ``games`` games in compiled code and return them as arrays (:class:`Simulation`).

    ``policy``: ``"random"`` (``beginner``), ``"greedy"`` (``easy``), or a weight per dense
    action index; one for every player or a sequence of one per player. ``start``: a state to
    play on from (default: the initial state). ``horizon``: stop each game at its first resting
    point (e.g. a round's end inside a match) and return the game's estimate there.
    ``per_decision``: also return one entry per decision (game, player, options, action).
    """
    game = _game(game)
    return _required(game).simulate(
        game,
        games,
        seed,
        policy,
        start=start,
        horizon=horizon,
        per_decision=per_decision,
        first_index=first_index,
        max_actions=max_actions,
    )


def play(
    game: Game | str,
    seed: int,
    policy: PolicySpec | Sequence[PolicySpec] = "random",
    *,
    index: int = 0,
) -> list[Action] | None:
    """Game ``index`` of a :func:`simulate` call with this seed and policy, as the engine's
    actions, each checked by the engine (None: longer than the simulator keeps)."""
    game = _game(game)
    return _required(game).play(game, seed, policy, index=index)


CHUNK = 250_000
"""Games per chunk by default: about 22 MB of results."""


def _chunks(games: int, chunk: int) -> list[tuple[int, int]]:
    if games < 0:
        raise GamehallError(f"the number of games is at least 0, not {games}")
    if chunk < 1:
        raise GamehallError(f"a chunk holds at least one game, not {chunk}")
    return [(first, min(chunk, games - first)) for first in range(0, games, chunk)]


_Job = tuple[Game, int, int, int, PolicySpec | Sequence[PolicySpec]]
"""One chunk of a run: (game, first game's index, games, seed, policy)."""
_Part = TypeVar("_Part")


def _simulate_part(job: _Job) -> Simulation:
    game, first, size, seed, policy = job
    return simulate(game, size, seed, policy, first_index=first)


def _tally_part(job: _Job) -> Tally:
    return Tally.of(_simulate_part(job))


def _run(
    part: Callable[[_Job], _Part],
    game: Game | str,
    games: int,
    seed: int,
    policy: PolicySpec | Sequence[PolicySpec],
    chunk: int,
    workers: int,
) -> Iterator[_Part]:
    """``part`` over the chunks of a run, in order, in this process or ``workers`` others:
    the one chunk loop of :func:`simulate_chunks` and :func:`tally`."""
    game = _game(game)
    _required(game)
    if workers < 1:
        raise GamehallError(f"workers is at least 1, not {workers}")
    jobs: list[_Job] = [(game, first, size, seed, policy) for first, size in _chunks(games, chunk)]
    if workers == 1 or len(jobs) <= 1:
        yield from map(part, jobs)
        return
    # spawn, not fork: numba's threads and the caller's do not survive a fork safely
    with multiprocessing.get_context("spawn").Pool(min(workers, len(jobs))) as pool:
        yield from pool.imap(part, jobs)


def simulate_chunks(
    game: Game | str,
    games: int,
    seed: int = 0,
    policy: PolicySpec | Sequence[PolicySpec] = "random",
    *,
    chunk: int = CHUNK,
    workers: int = 1,
) -> Iterator[Simulation]:
    """:func:`simulate` of ``games`` games as chunks of at most ``chunk`` games, in order (chunk
    ``k`` holds games ``k * chunk`` onwards), played in ``workers`` processes."""
    yield from _run(_simulate_part, game, games, seed, policy, chunk, workers)


@dataclass(frozen=True)
class Tally:
    """A run summed up: how many games, each player's wins (the higher return), the games
    with equal returns, and each player's summed returns."""

    games: int
    wins: np.ndarray
    draws: int
    return_sums: np.ndarray

    @classmethod
    def of(cls, simulation: Simulation) -> Tally:
        winners = simulation.winners()
        players = simulation.returns.shape[1]
        return cls(
            simulation.games,
            np.bincount(winners[winners >= 0], minlength=players),
            int((winners < 0).sum()),
            simulation.returns.sum(axis=0),
        )

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.games + other.games,
            self.wins + other.wins,
            self.draws + other.draws,
            self.return_sums + other.return_sums,
        )

    @property
    def mean_returns(self) -> np.ndarray:
        return self.return_sums / max(1, self.games)


def tally(
    game: Game | str,
    games: int,
    seed: int = 0,
    policy: PolicySpec | Sequence[PolicySpec] = "random",
    *,
    chunk: int = CHUNK,
    workers: int = 1,
) -> Tally:
    """A run of ``games`` games summed into counts (:class:`Tally`): only counts cross process
    boundaries, so ten million games take the memory of one chunk."""
    players = _game(game).num_players
    total = Tally(0, np.zeros(players, dtype=np.int64), 0, np.zeros(players))
    for part in _run(_tally_part, game, games, seed, policy, chunk, workers):
        total = total + part
    return total


def warm_up(game: Game | str) -> bool:
    """Compile (or load from the on-disk cache) the game's simulator kernels: a few games under
    each kind of policy and one replayed game. Whether the game has a simulator."""
    game = _game(game)
    if simulator_for(game) is None:
        return False
    weights = np.ones(game.num_distinct_actions)
    for policy in ("random", "greedy", weights):
        simulate(game, 2, 0, policy)
    play(game, 0)
    return True


def plays_itself(name: str) -> bool:
    """Whether a player name is one a compiled simulator plays itself (random, greedy and their
    level names ``beginner`` and ``easy``)."""
    return name.strip().lower() in POLICY_NAMES


__all__ = [
    "CHUNK",
    "Simulation",
    "Simulator",
    "Tally",
    "play",
    "plays_itself",
    "simulate",
    "simulate_chunks",
    "simulator_for",
    "tally",
    "warm_up",
]
