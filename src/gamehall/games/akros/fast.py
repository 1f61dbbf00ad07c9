"""Akros's compiled simulator: the entry points numba caches (the generic loops of
:mod:`gamehall.kernels` over the rules of :mod:`.compiled_rules`, and :mod:`.random_games` for
random against random), and the bridge to the engine (:class:`AkrosSimulator`: a state to its
vector and back, a draw's outcome to the engine's action). The state vector, the table and the
actions are described in :mod:`.compiled_rules`.
"""

# ruff: noqa: ANN001, ANN201
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
from numba import njit

from gamehall.core.game import Action, Game, State
from gamehall.games.akros.compiled_rules import (
    BAG,
    DRAFT,
    IM,
    IT,
    JM,
    JT,
    MAX_REGIONS,
    REMOVED,
    STACKS,
    STEP,
    TEMPLE,
    TURN,
    _contested,
    apply,
    chance,
    evaluate,
    horizon,
    legal,
    player,
    returns,
    scores,
)
from gamehall.games.akros.game import AkrosGame, AkrosState
from gamehall.games.akros.random_games import random_games
from gamehall.games.akros.rules import Draw
from gamehall.kernels import POLICY_RANDOM, simulate_games
from gamehall.kernels.simulator import Simulator
from gamehall.kernels.tree import tree_root, tree_search

__all__ = [  # the layout and the kernels, as before the rules moved to their own module
    "BAG", "DRAFT", "IM", "IT", "JM", "JT", "KERNELS", "MAX_REGIONS", "REMOVED", "SIMULATOR",
    "STACKS", "STEP", "TEMPLE", "TURN", "AkrosSimulator", "_contested", "apply", "chance",
    "evaluate", "horizon", "legal", "new_tree", "player", "random_games", "returns", "scores",
    "search", "simulate", "simulate_generic",
]  # fmt: skip


@njit(cache=True)
def simulate_generic(
    start, tab, seed, first_index, kinds, weights, stop_at_horizon, max_actions,
    out_returns, out_scores, out_actions, out_decisions, out_forced, out_options,
    dec_count, dec_game, dec_player, dec_options, dec_action, traj, traj_len,
):  # fmt: skip
    """The generic loop (:func:`gamehall.kernels.simulate_games`) over this game's kernels."""
    simulate_games(
        start, tab, seed, first_index, kinds, weights, stop_at_horizon, max_actions,
        out_returns, out_scores, out_actions, out_decisions, out_forced, out_options,
        dec_count, dec_game, dec_player, dec_options, dec_action, traj, traj_len,
        player, legal, apply, chance, returns, horizon, evaluate, scores,
    )  # fmt: skip


@njit(cache=True)
def simulate(
    start, tab, seed, first_index, kinds, weights, stop_at_horizon, max_actions,
    out_returns, out_scores, out_actions, out_decisions, out_forced, out_options,
    dec_count, dec_game, dec_player, dec_options, dec_action, traj, traj_len,
):  # fmt: skip
    """Random against random without trajectories runs :func:`random_games`; anything else the
    generic loop. Akros has no resting point before its end, so ``stop_at_horizon`` changes
    nothing."""
    if traj.shape[0] == 0 and kinds[0] == POLICY_RANDOM and kinds[1] == POLICY_RANDOM:
        random_games(
            start, tab, seed, first_index, max_actions, out_returns, out_scores, out_actions,
            out_decisions, out_forced, out_options, dec_count, dec_game, dec_player,
            dec_options, dec_action,
        )  # fmt: skip
    else:
        simulate_generic(
            start, tab, seed, first_index, kinds, weights, stop_at_horizon, max_actions,
            out_returns, out_scores, out_actions, out_decisions, out_forced, out_options,
            dec_count, dec_game, dec_player, dec_options, dec_action, traj, traj_len,
        )  # fmt: skip


@njit(cache=True)
def search(
    meta, value, states, outcome, pool, sizes, bounds, root, simulations, tab, rng,
    c, widening, use_horizon, done, moves,
):  # fmt: skip
    return tree_search(
        meta, value, states, outcome, pool, sizes, bounds, root, simulations, tab, rng,
        c, widening, use_horizon, done, moves,
        player, legal, apply, chance, returns, horizon,
    )  # fmt: skip


@njit(cache=True)
def new_tree(meta, value, states, sizes, s, use_horizon, tab):
    return tree_root(meta, value, states, sizes, s, use_horizon, tab, player, returns, horizon)


KERNELS = SimpleNamespace(
    player=player,
    legal=legal,
    apply=apply,
    chance=chance,
    returns=returns,
    horizon=horizon,
    evaluate=evaluate,
    scores=scores,
    simulate=simulate,
    simulate_generic=simulate_generic,
    random_games=random_games,
    search=search,
    new_tree=new_tree,
)


class AkrosSimulator(Simulator):
    """Akros in compiled code, on any board of up to 62 regions."""

    chance_width = 3

    def unsupported(self, game: Game) -> str | None:
        assert isinstance(game, AkrosGame)
        if game.board.size > MAX_REGIONS:
            return (
                f"the board has {game.board.size} regions; the kernel takes at most {MAX_REGIONS}"
            )
        return None

    def table(self, game: Game) -> np.ndarray:
        assert isinstance(game, AkrosGame)
        cached = game.__dict__.get("_fast_table")
        if cached is not None:
            return cached
        board = game.board
        n = board.size
        tab = np.zeros(6 + 2 * n, dtype=np.int64)
        tab[0] = n
        tab[1:4] = board.environment_masks
        tab[4 : 5 + n] = board.neighbour_masks
        tab[5 + n : 6 + 2 * n] = board.environments
        game.__dict__["_fast_table"] = tab
        return tab

    def encode(self, state: State) -> np.ndarray:
        assert isinstance(state, AkrosState)
        s = np.zeros(STACKS + 1 + state.game.board.size, dtype=np.int64)
        s[TURN] = state.turn
        s[STEP] = state.step
        s[BAG : BAG + 3] = state.bag
        for tile in state.draft:
            s[DRAFT + tile] += 1
        s[JT] = -1 if state.jinn_tile is None else state.jinn_tile
        s[IT] = -1 if state.ifrit_tile is None else state.ifrit_tile
        s[REMOVED : REMOVED + 3] = state.removed
        s[JM] = sum(1 << r for r in state.jinn)
        s[IM] = sum(1 << r for r in state.ifrit)
        for pile, tiles in enumerate(state.temple):
            for tile in tiles:
                s[TEMPLE + 3 * pile + tile] += 1
        s[STACKS + 1 :] = state.stacks
        return s

    def decode(self, game: Game, vector: np.ndarray) -> AkrosState:
        assert isinstance(game, AkrosGame)
        v = [int(x) for x in vector]
        n = game.board.size

        def tiles(counts: list[int]) -> tuple[int, ...]:
            return tuple(e for e in range(3) for _ in range(counts[e]))

        def regions(mask: int) -> tuple[int, ...]:
            return tuple(r for r in range(1, n + 1) if mask >> r & 1)

        return AkrosState(
            game, v[TURN], v[STEP], (v[BAG], v[BAG + 1], v[BAG + 2]),
            tuple(tiles(v[TEMPLE + 3 * p : TEMPLE + 3 * p + 3]) for p in range(3)),  # type: ignore[arg-type]
            tiles(v[DRAFT : DRAFT + 3]), None if v[JT] < 0 else v[JT], None if v[IT] < 0 else v[IT],
            (v[REMOVED], v[REMOVED + 1], v[REMOVED + 2]), tuple(v[STACKS + 1 : STACKS + 1 + n]),
            regions(v[JM]), regions(v[IM]),
        )  # fmt: skip

    def chance_action(self, state: State, outcome: np.ndarray) -> Action:
        counts = [int(x) for x in outcome[:3]]
        return Draw(tuple(e for e in range(3) for _ in range(counts[e])))

    def kernels(self) -> Any:
        return KERNELS


SIMULATOR = AkrosSimulator()
