"""What a game's compiled simulator offers (the plugin's ``simulator``), and what it returns.

A :class:`Simulator` plays the game's exact rules in compiled code (see
:mod:`gamehall.kernels` for the kernel functions it is made of) over a flat integer state
vector. It knows how to turn an engine state into that vector and back, how to turn a recorded
chance outcome back into the engine's action, and it runs batches of games under simple policies.
Generic layers reach it only through :mod:`gamehall.fast` and the plugin; a game without one is
simply played by its engine.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from gamehall.core.errors import GamehallError
from gamehall.core.game import CHANCE, Action, Game, State
from gamehall.kernels import POLICY_GREEDY, POLICY_RANDOM, POLICY_WEIGHTS

POLICY_NAMES: dict[str, int] = {
    "random": POLICY_RANDOM,
    "beginner": POLICY_RANDOM,
    "greedy": POLICY_GREEDY,
    "easy": POLICY_GREEDY,
}
"""The players a simulator plays itself: uniform random (``beginner``) and greedy (``easy``)."""

PolicySpec = str | Sequence[float] | np.ndarray
"""A seat's policy: ``"random"``/``"beginner"``, ``"greedy"``/``"easy"``, or one non-negative
weight per dense action index (a legal action is chosen with probability proportional to its
weight; uniformly when every legal weight is 0)."""


@dataclass(frozen=True)
class Simulation:
    """A batch of simulated games, as arrays (one row per game, one column per player).

    ``returns`` are the final returns (or, with ``horizon``, the estimate at the first resting
    point); ``scores`` the game's ``scores()`` where each game stopped; ``actions`` every action
    played, chance included (-1: the game passed ``max_actions`` and was stopped);
    ``decisions``, ``forced`` and ``options`` count each player's decisions, those with a single
    legal action, and the legal actions summed over the decisions. When asked for, the
    per-decision arrays hold one entry per decision of the whole batch, in play order.
    """

    returns: np.ndarray
    scores: np.ndarray
    actions: np.ndarray
    decisions: np.ndarray
    forced: np.ndarray
    options: np.ndarray
    decision_game: np.ndarray | None = None
    decision_player: np.ndarray | None = None
    decision_options: np.ndarray | None = None
    decision_action: np.ndarray | None = None

    @property
    def games(self) -> int:
        return int(self.returns.shape[0])

    def winners(self) -> np.ndarray:
        """Per game: the player with the higher return, or -1 when they are equal."""
        diff = self.returns[:, 0] - self.returns[:, 1]
        return np.where(diff > 0, 0, np.where(diff < 0, 1, -1))


class Simulator(ABC):
    """A game's compiled simulator. Subclasses implement the encodings and call their kernels.

    ``chance_width`` is how many integers a chance outcome takes in a trajectory.
    """

    chance_width: ClassVar[int] = 1

    # --- what the game provides ---

    def unsupported(self, game: Game) -> str | None:
        """Why this game (its variant) cannot be simulated, or None when it can."""
        return None

    @abstractmethod
    def table(self, game: Game) -> np.ndarray:
        """The game's constant table for the kernels (int64)."""

    @abstractmethod
    def encode(self, state: State) -> np.ndarray:
        """The engine state as the kernels' state vector (int64)."""

    @abstractmethod
    def decode(self, game: Game, vector: np.ndarray) -> State:
        """The engine state a state vector stands for."""

    @abstractmethod
    def chance_action(self, state: State, outcome: np.ndarray) -> Action:
        """The engine's chance outcome a kernel wrote (``chance_width`` integers) at ``state``."""

    @abstractmethod
    def kernels(self) -> Any:
        """The module (or namespace) holding the game's compiled kernels: ``player``, ``legal``,
        ``apply``, ``chance``, ``returns``, ``horizon``, ``evaluate``, ``scores``, and the cached
        instantiations ``simulate`` and ``search`` of the generic loops."""

    # --- what every simulator does with them ---

    def check(self, game: Game) -> None:
        problem = self.unsupported(game)
        if problem:
            raise GamehallError(f"{game.name}: no compiled simulator for this variant: {problem}")

    def policies(
        self, game: Game, policy: PolicySpec | Sequence[PolicySpec]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Policy kinds per player and their weight rows, from one spec or one per player."""
        players = game.num_players
        actions = game.num_distinct_actions
        specs = _per_player(policy, players)
        kinds = np.zeros(players, dtype=np.int64)
        weights = np.zeros((players, actions), dtype=np.float64)
        for seat, spec in enumerate(specs):
            if isinstance(spec, str):
                key = spec.strip().lower()
                if key not in POLICY_NAMES:
                    raise GamehallError(
                        f"unknown simulator policy {spec!r}; use one of "
                        f"{', '.join(POLICY_NAMES)} or a weight per action"
                    )
                kinds[seat] = POLICY_NAMES[key]
                continue
            row = np.asarray(spec, dtype=np.float64)
            if row.shape != (actions,):
                raise GamehallError(
                    f"a weight policy has one weight per action ({actions}), not shape {row.shape}"
                )
            if not np.all(np.isfinite(row)) or np.any(row < 0):
                raise GamehallError("action weights must be finite and non-negative")
            kinds[seat] = POLICY_WEIGHTS
            weights[seat] = row
        return kinds, weights

    def simulate(
        self,
        game: Game,
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
        """Play ``games`` games (game ``i`` from the random stream (``seed``, ``first_index + i``))
        from ``start`` (default: the initial state); see :class:`Simulation`."""
        self.check(game)
        if games < 0:
            raise GamehallError(f"the number of games is at least 0, not {games}")
        if seed < 0 or first_index < 0:
            raise GamehallError("seeds and game indices are non-negative")
        kinds, weights = self.policies(game, policy)
        origin = start if start is not None else game.new_initial_state()
        players = game.num_players
        returns = np.zeros((games, players))
        scores = np.zeros((games, players))
        actions = np.zeros(games, dtype=np.int64)
        decisions = np.zeros((games, players), dtype=np.int64)
        forced = np.zeros((games, players), dtype=np.int64)
        options = np.zeros((games, players), dtype=np.int64)
        counted = np.zeros(1, dtype=np.int64)
        room = 0
        if per_decision:
            # Decisions are not known in advance: size from a short run, then grow if needed.
            probe = self.simulate(game, min(games, 64), seed, policy, start=start, horizon=horizon)
            mean = probe.decisions.sum() / max(1, probe.games)
            room = int(mean * games * 1.3) + 1024
        while True:
            dec = [np.zeros(room, dtype=np.int32) for _ in range(4)]
            counted[0] = 0
            self.kernels().simulate(
                self.encode(origin), self.table(game), seed, first_index, kinds, weights,
                horizon, max_actions, returns, scores, actions, decisions, forced, options,
                counted, dec[0], dec[1], dec[2], dec[3],
                _NO_TRAJ, _NO_TRAJ_LEN,
            )  # fmt: skip
            if not per_decision or counted[0] < room:
                break
            room *= 2
            decisions[:], forced[:], options[:] = 0, 0, 0
        used = int(counted[0])
        return Simulation(
            returns,
            scores,
            actions,
            decisions,
            forced,
            options,
            *((d[:used] for d in dec) if per_decision else (None,) * 4),
        )

    def trajectory(
        self,
        game: Game,
        seed: int,
        policy: PolicySpec | Sequence[PolicySpec],
        *,
        index: int = 0,
        max_actions: int = 100_000,
    ) -> list[Action] | None:
        """One game (random stream (``seed``, ``index``)) as the engine's actions, in order, or
        None when it is longer than ``max_actions``. Not yet checked: see :meth:`play`."""
        self.check(game)
        kinds, weights = self.policies(game, policy)
        players = game.num_players
        traj = np.zeros((1, max_actions, 1 + max(1, self.chance_width)), dtype=np.int64)
        traj_len = np.zeros(1, dtype=np.int64)
        zeros = [np.zeros((1, players), dtype=np.int64) for _ in range(3)]
        self.kernels().simulate(
            self.encode(game.new_initial_state()), self.table(game), seed, index, kinds, weights,
            False, max_actions, np.zeros((1, players)), np.zeros((1, players)),
            np.zeros(1, dtype=np.int64), *zeros, np.zeros(1, dtype=np.int64),
            *(np.zeros(0, dtype=np.int32) for _ in range(4)), traj, traj_len,
        )  # fmt: skip
        length = int(traj_len[0])
        if length < 0:
            return None
        state = game.new_initial_state()
        actions: list[Action] = []
        for row in traj[0, :length]:
            if int(row[0]) == CHANCE:
                action = self.chance_action(state, row[1:])
            else:
                action = game.index_action(int(row[1]))
            state = state.apply_trusted(action)
            actions.append(action)
        return actions

    def play(
        self,
        game: Game,
        seed: int,
        policy: PolicySpec | Sequence[PolicySpec],
        *,
        index: int = 0,
        max_actions: int = 100_000,
    ) -> list[Action] | None:
        """:meth:`trajectory`, with every action checked by the engine as it is replayed
        (:meth:`State.apply`), so what comes back is a real game of the rules."""
        actions = self.trajectory(game, seed, policy, index=index, max_actions=max_actions)
        if actions is None:
            return None
        state = game.new_initial_state()
        for action in actions:
            state = state.apply(action)
        if not state.is_terminal():
            raise GamehallError(f"{game.name}: a simulated game stopped before its end")
        return actions


def _per_player(policy: PolicySpec | Sequence[PolicySpec], players: int) -> list[Any]:
    """One policy spec per player, from one spec for all or a sequence of them."""
    if isinstance(policy, str):
        return [policy] * players
    if isinstance(policy, np.ndarray):
        return [policy] * players if policy.ndim == 1 else list(policy)
    items = list(policy)
    if items and all(isinstance(item, str | Sequence | np.ndarray) for item in items):
        if len(items) != players:
            raise GamehallError(f"give one policy, or one per player ({players}), not {len(items)}")
        return items
    return [items] * players


_NO_TRAJ = np.zeros((0, 0, 2), dtype=np.int64)
_NO_TRAJ_LEN = np.zeros(0, dtype=np.int64)


__all__ = ["POLICY_NAMES", "PolicySpec", "Simulation", "Simulator"]
