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
"""

from __future__ import annotations

from collections.abc import Sequence

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


def plays_itself(name: str) -> bool:
    """Whether a player name is one a compiled simulator plays itself (random, greedy and their
    level names ``beginner`` and ``easy``)."""
    return name.strip().lower() in POLICY_NAMES


__all__ = ["Simulation", "Simulator", "play", "plays_itself", "simulate", "simulator_for"]
