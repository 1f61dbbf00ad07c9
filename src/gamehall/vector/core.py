"""The plain array API: :class:`VectorGame`, N games of one game stepped together in compiled code.

It knows no game: the game's plugin names its compiled batched step (``vector``, a
:class:`~gamehall.kernels.batch.BatchKernels`) and its simulator (the state vector, the table,
chance outcomes back to the engine's actions); this module holds the arrays and the checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from gamehall.core import Action, Game, GamehallError, State, find_game, find_plugin
from gamehall.kernels import CHANCE, POLICY_GREEDY, POLICY_RANDOM
from gamehall.kernels.batch import ILLEGAL, NEW_GAME, POLICY_MCTS, ROOM, START, WHOLE_GAME
from gamehall.kernels.tree import META, VALUE_COLUMNS

OPPONENTS: dict[str, int] = {
    "beginner": POLICY_RANDOM,
    "random": POLICY_RANDOM,
    "easy": POLICY_GREEDY,
    "greedy": POLICY_GREEDY,
}
"""The computer players that run inside the batch: uniform random (the level ``beginner``) and
greedy one move ahead by the game's evaluation (the level ``easy``); and ``"mcts:N"``, the
compiled MCTS at N simulations a move (the MCTS agent's ``c`` 1 and ``widening`` 8)."""
MAX_SIMULATIONS = 100_000


def _opponent(opponent: str) -> tuple[int, int]:
    """The opponent's policy kind and simulations, from its name."""
    key = opponent.strip().lower()
    if key in OPPONENTS:
        return OPPONENTS[key], 0
    name, sep, count = key.partition(":")
    if name == "mcts" and sep and count.isdigit() and 1 <= int(count) <= MAX_SIMULATIONS:
        return POLICY_MCTS, int(count)
    raise GamehallError(
        f"unknown opponent {opponent!r}; in the batch: {', '.join(OPPONENTS)}, "
        f"mcts:N (N simulations a move, 1 to {MAX_SIMULATIONS:,}), or None for self-play"
    )


@dataclass(frozen=True)
class Step:
    """What :meth:`VectorGame.reset` and :meth:`VectorGame.step` give: one row per game.

    The arrays are the batch's own buffers, overwritten by the next call: copy what you keep
    (``torch.from_numpy`` and ``jax.numpy.asarray`` take them as they are).
    """

    observation: np.ndarray
    """``float32 (N, *shape)``: the game's observation encoding, for the learner's seat (in
    self-play, for the player to move)."""
    action_mask: np.ndarray
    """``bool (N, actions)``: the legal dense action indices of the player to move."""
    to_move: np.ndarray
    """``int64 (N,)``: the player to move (the learner's seat, unless in self-play)."""
    reward: np.ndarray
    """``float32 (N, players)``: each player's return when a game ended at this step, else 0
    (the refused player gets ``illegal_reward`` after an illegal action)."""
    terminated: np.ndarray
    """``bool (N,)``: a game ended at this step (a new one has started in its row)."""
    illegal: np.ndarray
    """``bool (N,)``: the action given was not legal (the game ended there)."""
    final_observation: np.ndarray
    """``float32 (N, *shape)``: where ``terminated``, the ended game's last observation."""
    events: np.ndarray | None
    """With ``events=ROOM``: ``int64 (N, ROOM, 1 + chance width)``, what happened in each
    row this step (see :mod:`gamehall.kernels.batch`); None otherwise."""
    event_count: np.ndarray | None
    """With ``events``: ``int64 (N,)``, how many event rows (above ``ROOM``: some were lost)."""


class VectorGame:
    """``num_envs`` games of ``game`` in compiled code, stepped together.

    ``opponent``: the computer player of the other seat (``"beginner"``/``"random"``,
    ``"easy"``/``"greedy"`` or ``"mcts:N"``), with the learner at ``side`` (0 or 1); or None for self-play: the
    learner plays both seats, ``to_move`` says whose move each row wants. Chance and the
    opponent play inside, each row from its own seeded stream. ``events``: rows of room per
    game and step for what happened (the chance outcomes drawn, the opponent's moves), so the
    engine can play the very same games; 0 keeps none (the fastest). ``episode``: whole games
    (``"game"``, the adapters' default), or another episode of the adapters' that the game
    plays batched, such as a single ``"round"`` of a game of rounds (every game starts at the
    round's chance, drawn inside like all chance); other ``options`` are the game's.
    """

    def __init__(
        self,
        game: str | Game,
        num_envs: int,
        *,
        opponent: str | None = "beginner",
        side: int | str = 0,
        illegal_reward: float = -1.0,
        events: int = 0,
        episode: str = "game",
        **options: Any,
    ) -> None:
        self.game = find_game(game, **options) if isinstance(game, str) else game
        if num_envs < 1:
            raise GamehallError(f"num_envs is at least 1, not {num_envs}")
        if self.game.num_players != 2:
            raise GamehallError(f"the batched games are two-player games, not {self.game.name}")
        plugin = find_plugin(self.game.name)
        kernels = plugin.load_vector()
        simulator = plugin.load_simulator()
        make_encoding = plugin.load_encoding()
        if kernels is None or simulator is None or make_encoding is None:
            raise GamehallError(f"{self.game.name} has no compiled batched step (gamehall.vector)")
        simulator.check(self.game)
        offered = dict(kernels.episodes or {})
        if episode != "game" and episode not in offered:
            raise GamehallError(
                f"{self.game.name}'s batched games play the episodes "
                f"{', '.join(['game', *offered])}, not {episode!r}"
            )
        self.episode = episode
        self._episode = offered.get(episode)
        if isinstance(side, str):
            side = self.game.player_index(side)
        if side not in (0, 1):
            raise GamehallError(f"side is 0 or 1, not {side}")
        kind, simulations = (POLICY_RANDOM, 0) if opponent is None else _opponent(opponent)
        if events < 0:
            raise GamehallError(f"events is a number of rows, at least 0, not {events}")
        self.kernels = kernels
        self.simulator = simulator
        self.encoding = make_encoding(self.game)
        self.num_envs = num_envs
        self.side = side
        self.opponent = opponent
        self.illegal_reward = float(illegal_reward)
        self.num_actions = self.game.num_distinct_actions
        self.observation_shape: tuple[int, ...] = tuple(self.encoding.shape)
        start_width = self._episode.width if self._episode is not None else 0
        self.chance_width = max(1, simulator.chance_width, start_width)
        self._tab = simulator.table(self.game)
        self._start = simulator.encode(self.game.new_initial_state())
        self._config = np.array(
            [
                -1 if opponent is None else side,
                kind,
                events,
                simulations,
                WHOLE_GAME if self._episode is None else self._episode.code,
            ],
            dtype=np.int64,
        )
        # the search's arrays, one tree for every search (room for the budget: a search that
        # runs out stops early, with what it has)
        nodes = 4 * simulations + 64
        moves = self.num_actions + 1
        self._tree = (
            np.zeros((nodes, META), dtype=np.int64),
            np.zeros((nodes, VALUE_COLUMNS)),
            np.zeros((nodes, self._start.shape[0]), dtype=np.int64),
            np.zeros((nodes, max(1, simulator.chance_width)), dtype=np.int64),
            np.zeros((2 * simulations + 8) * moves, dtype=np.int64),
            np.zeros(2, dtype=np.int64),
            np.array([np.inf, -np.inf]),
            np.zeros(moves, dtype=np.int64),
            np.zeros(1, dtype=np.int64),
            np.array([1.0, 8.0]),  # the MCTS agent's c and widening
        )
        self._weights = np.zeros((2, self.num_actions), dtype=np.float64)
        n, width = num_envs, self.chance_width
        self._states = np.zeros((n, self._start.shape[0]), dtype=np.int64)
        self._rngs = np.zeros(n, dtype=np.uint64)
        flat = int(np.prod(self.observation_shape))
        self._obs = np.zeros((n, flat), dtype=np.float32)
        self._final = np.zeros((n, flat), dtype=np.float32)
        self._mask = np.zeros((n, self.num_actions), dtype=np.bool_)
        small = np.int16 if self.num_actions <= np.iinfo(np.int16).max else np.int32
        room = self.num_actions
        if kernels.legal_room is not None:
            room = max(1, min(room, int(kernels.legal_room(self._tab, self._start))))
        self.legal_room = room
        self._legal = np.zeros((n, room), dtype=small)
        self._row_base = np.arange(n, dtype=np.int64) * room
        self._legal_count = np.zeros(n, dtype=np.int64)
        self._to_move = np.zeros(n, dtype=np.int64)
        self._rewards = np.zeros((n, 2), dtype=np.float32)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._illegal = np.zeros(n, dtype=np.bool_)
        self._events = np.zeros((n, events, 1 + width), dtype=np.int64)
        self._event_count = np.zeros(n, dtype=np.int64)
        self._started = False

    @property
    def self_play(self) -> bool:
        return self.opponent is None

    def current(self) -> Step:
        """The batch's arrays as they are now (what the last reset or step gave)."""
        shape = (self.num_envs, *self.observation_shape)
        keep = self._config[ROOM] > 0
        return Step(
            self._obs.reshape(shape),
            self._mask,
            self._to_move,
            self._rewards,
            self._terminated,
            self._illegal,
            self._final.reshape(shape),
            self._events if keep else None,
            self._event_count if keep else None,
        )

    def reset(self, seed: int | np.ndarray | list[int] | None = None) -> Step:
        """Start a game in every row. Row ``g`` is seeded from (``seed``, ``g``), or from
        (``seed[g]``, ``g``) given one seed per row; None draws a seed."""
        if seed is None:
            seeds = np.full(self.num_envs, np.random.SeedSequence().entropy % 2**62)
        else:
            seeds = np.broadcast_to(np.asarray(seed, dtype=np.int64), (self.num_envs,)).copy()
        if np.any(seeds < 0):
            raise GamehallError("seeds are non-negative")
        self._legal_count[:] = 0
        self._mask[:] = False
        self._rewards[:] = 0.0
        self._terminated[:] = False
        self._illegal[:] = False
        self.kernels.reset(
            self._states, self._rngs, self._start, self._tab, seeds, self._config,
            self._weights, self._obs, self._mask, self._legal, self._legal_count,
            self._to_move, self._events, self._event_count, self._tree,
        )  # fmt: skip
        self._started = True
        return self.current()

    def step(self, actions: np.ndarray | list[int]) -> Step:
        """Play one action in every row (a dense action index for the player to move there).
        An action that is not legal ends that row's game (``illegal``, ``illegal_reward``)."""
        if not self._started:
            raise GamehallError("call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise GamehallError(
                f"step takes one action per game: shape ({self.num_envs},), not {chosen.shape}"
            )
        if chosen.dtype != np.int64:
            if not np.issubdtype(chosen.dtype, np.integer):
                raise GamehallError(f"actions are integers, not {chosen.dtype}")
            chosen = chosen.astype(np.int64)
        self.kernels.step(
            self._states, self._rngs, self._start, self._tab, chosen, self._config,
            self._weights, self.illegal_reward, self._obs, self._mask, self._legal,
            self._legal_count, self._to_move, self._rewards, self._terminated, self._illegal,
            self._final, self._events, self._event_count, self._tree,
        )  # fmt: skip
        return self.current()

    def legal_actions(self) -> tuple[np.ndarray, np.ndarray]:
        """The legal actions as lists: ``int16 (N, room)`` (``int32`` for a game of more
        than 32,767 actions) whose row ``g`` starts with its ``count[g]`` legal actions
        (ascending; the rest is stale), and ``count``; ``room`` (:attr:`legal_room`) is the
        most legal actions a position of the game can have (for some games far fewer than
        the number of actions), or the number of actions. Picking a random legal action from
        them is O(N), not O(N × actions)."""
        return self._legal, self._legal_count

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal action per row, chosen with NumPy from :meth:`legal_actions`."""
        pick = (rng.random(self.num_envs) * self._legal_count).astype(np.int64)
        pick += self._row_base
        return self._legal.reshape(-1)[pick].astype(np.int64)

    def state(self, row: int) -> State:
        """The engine's state of row ``row`` (for inspection; slow)."""
        return self.simulator.decode(self.game, self._states[row])

    def replay(self, state: State | None, events: np.ndarray, count: int) -> list[Any]:
        """Drive the engine through one row's events of one step, from ``state`` (None: before
        the row's first game). Returns what happened, in order: ``("new", state)`` (for an
        episode such as a round: its random start, already drawn), ``("move",
        player, action, state_after)``, ``("chance", action, state_after)``, ``("illegal",
        index)``. Every move is checked by the engine (:meth:`State.apply`)."""
        if count > events.shape[0]:
            raise GamehallError(f"{count} events, only room for {events.shape[0]}: raise events")
        happened: list[Any] = []
        for row in events[:count]:
            who = int(row[0])
            if who == NEW_GAME:
                state = self.game.new_initial_state()
                if self._episode is None:
                    happened.append(("new", state))
                continue
            if who == START:
                if self._episode is None:
                    raise GamehallError("an episode's start in a batch of whole games")
                state = self._episode.state(self.game, row[1:])
                happened.append(("new", state))
                continue
            if who == ILLEGAL:
                happened.append(("illegal", int(row[1])))
                continue
            if state is None:
                raise GamehallError("events before the first game")
            action: Action
            if who == CHANCE:
                action = self.simulator.chance_action(state, row[1:])
                state = state.apply_trusted(action)
                happened.append(("chance", action, state))
            else:
                if state.current_player != who:
                    raise GamehallError(f"event for player {who}, but {state.current_player} moves")
                action = self.game.index_action(int(row[1]))
                state = state.apply(action)
                happened.append(("move", who, int(row[1]), state))
        return happened


def warm_up(game: str | Game) -> bool:
    """Compile (or load from numba's on-disk cache) the game's batched kernels: a small batch
    reset and stepped once (one compiled reset and step serve every opponent, seat and room for
    events). Whether the game has them (``gamehall warm-up`` runs this for every game)."""
    found = find_game(game) if isinstance(game, str) else game
    if find_plugin(found.name).vector is None or found.num_players != 2:
        return False
    games = VectorGame(found, 2, opponent="beginner", events=4)
    games.reset(0)
    games.step(games.random_actions(np.random.default_rng(0)))
    return True


__all__ = ["OPPONENTS", "Step", "VectorGame", "warm_up"]
