"""The batched games as a ``gymnasium.vector.VectorEnv``::

    import gymnasium
    import gamehall.adapters.gymnasium  # registers gamehall/<Title>-v0 for every game
    envs = gymnasium.make_vec("gamehall/<Title>-v0", num_envs=4096,
                              vectorization_mode="vector_entry_point", opponent="easy")
    observations, infos = envs.reset(seed=1)
    observations, rewards, terminations, truncations, infos = envs.step(actions)

The same seat against the same computer levels as the single environment
(:class:`gamehall.adapters.gymnasium.GamehallEnv`: ``side``, ``opponent``, ``illegal_reward``;
the opponents that run compiled: ``beginner``, ``easy`` and ``mcts:N``),
the same observations, with every game in compiled code (:class:`gamehall.vector.VectorGame`).
Games reset in the step that ends them (``metadata["autoreset_mode"]`` is ``SAME_STEP``): the
observation returned is the new game's, the ended game's is in ``infos["final_obs"]`` (rows
where ``infos["_final_obs"]``). ``infos["action_mask"]`` (bool, one row per game) is the mask,
also given by :meth:`GamehallVectorEnv.action_masks`. ``opponent=None`` is self-play: each row
asks for a move of the player in ``infos["to_move"]``, the reward is the mover's and
``infos["rewards"]`` holds both players'. ``copy=False`` hands out the batch's own buffers
(overwritten by the next step) instead of copies.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from gamehall.core import Game
from gamehall.vector.core import Step, VectorGame


class GamehallVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of one game against a computer level, compiled (module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        game: str | Game,
        num_envs: int = 1,
        *,
        opponent: str | None = "beginner",
        side: int | str = 0,
        illegal_reward: float = -1.0,
        events: int = 0,
        copy: bool = True,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if render_mode is not None:
            raise ValueError("the batched environment draws nothing: render_mode is None")
        self.games = VectorGame(
            game,
            num_envs,
            opponent=opponent,
            side=side,
            illegal_reward=illegal_reward,
            events=events,
            **options,
        )
        self.num_envs = num_envs
        self.copy = copy
        self.render_mode = None
        encoding = self.games.encoding
        self.single_observation_space = spaces.Box(
            0.0, encoding.high, shape=self.games.observation_shape, dtype=np.float32
        )
        self.single_action_space = spaces.Discrete(self.games.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rows = np.arange(num_envs)
        self._movers = np.zeros(num_envs, dtype=np.int64)

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _infos(self, step: Step) -> dict[str, Any]:
        infos: dict[str, Any] = {
            "action_mask": self._out(step.action_mask),
            "to_move": self._out(step.to_move),
        }
        if step.events is not None and step.event_count is not None:
            infos["events"] = self._out(step.events)
            infos["event_count"] = self._out(step.event_count)
        return infos

    def reset(
        self,
        *,
        seed: int | list[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a game in every row (row ``g`` seeded from (``seed``, ``g``))."""
        step = self.games.reset(seed)
        self._movers[:] = step.to_move
        return self._out(step.observation), self._infos(step)

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        step = self.games.step(actions)
        seat = self._movers if self.games.self_play else self.games.side
        rewards = step.reward[self._rows, seat].astype(np.float64)
        self._movers[:] = step.to_move
        infos = self._infos(step)
        infos["illegal"] = self._out(step.illegal)
        infos["rewards"] = self._out(step.reward)
        infos["final_obs"] = self._out(step.final_observation)
        infos["_final_obs"] = self._out(step.terminated)
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        return self._out(step.observation), rewards, self._out(step.terminated), truncations, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every row (sb3-contrib's convention), bool ``(N, actions)``."""
        return self._out(self.games.current().action_mask)


def make_vector_env(num_envs: int = 1, *, game: str | Game, **kwargs: Any) -> GamehallVectorEnv:
    """The ``vector_entry_point`` of every ``gamehall/<Title>-v0``: ``gymnasium.make_vec``
    calls it with ``num_envs`` and the id's keyword arguments (``game``) and the caller's."""
    if kwargs.pop("max_episode_steps", None) is not None:
        raise ValueError("a game ends by its rules: the batched games are never truncated")
    return GamehallVectorEnv(game, num_envs, **kwargs)


__all__ = ["GamehallVectorEnv", "make_vector_env"]
