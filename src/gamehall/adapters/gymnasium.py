"""Every registered game as a Gymnasium environment: one seat against a computer level.

    import gymnasium
    import gamehall.adapters.gymnasium  # registers gamehall/<Title>-v0 for every game
    e = gymnasium.make(env_id(name), opponent="hard", side=seat)   # gamehall/<Title>-v0
    observation, info = e.reset(seed=1)
    action = int(np.flatnonzero(info["action_mask"])[0])
    observation, reward, terminated, truncated, info = e.step(action)

The agent plays ``side`` (default: the first seat) and the other seat is played by a computer
level or player (``opponent``, default ``beginner``), seeded from ``reset(seed=...)`` like chance.
Observations are the game's encoding for the agent's side (its plugin's ``encoding``: a
``float32`` array with a documented layout); actions are dense action indices, with the legal
ones in ``info["action_mask"]`` and from ``action_masks()`` (sb3-contrib's convention, so
``MaskablePPO`` needs no mask function). The reward comes at the end: the game's return for the agent
(±1 for a won or lost game; for an episode such as a single round, its score). An illegal action ends the
episode with ``illegal_reward`` and ``info["illegal"]`` set, so a learner that ignores the mask
is told, never crashed; the episode is then over until ``reset()``: a further ``step`` raises
:class:`~gamehall.core.GamehallError` (as after any terminated episode; Gymnasium leaves
stepping a finished episode undefined). ``render_mode``: ``"ansi"`` (the terminal view as
text), ``"rgb_array"`` (the board as an ``H x W x 3`` ``uint8`` image) or ``"human"`` (that
image in a window; the text view printed where there is no display).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from gamehall.adapters._common import (
    MATCH,
    RENDER_MODES,
    HumanWindow,
    Research,
    check_render_mode,
    render_rgb,
)
from gamehall.adapters._common import env_id as environment_id
from gamehall.ai import make_agent
from gamehall.core import Action, Agent, Game, GamehallError, State, find_plugin, game_names


class GamehallEnv(gymnasium.Env):
    """One seat of a game against a computer player (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": RENDER_MODES, "render_fps": 1}

    def __init__(
        self,
        game: str | Game,
        *,
        opponent: str = "beginner",
        side: str | int | None = None,
        episode: str = MATCH,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.research = Research.of(game, episode, options)
        self.game = self.research.game
        if self.game.num_players != 2:
            raise GamehallError(
                f"the Gymnasium adapter plays two-player games, not {self.game.name}"
            )
        check_render_mode(render_mode)
        self.render_mode = render_mode
        self.window = HumanWindow()
        if side is None:
            self.player = 0
        elif isinstance(side, int):
            if side not in range(self.game.num_players):
                raise GamehallError(f"side is 0 or 1, not {side}")
            self.player = side
        else:
            self.player = self.game.player_index(side)
        make_agent(opponent)  # a bad name fails here, with the list of players
        self.opponent_name = opponent
        self.illegal_reward = illegal_reward
        self.observation_space = spaces.Box(
            0.0, self.research.encoding.high, shape=self.research.encoding.shape, dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self.rng = random.Random()
        self.opponent: Agent = make_agent(opponent, 0)
        self.state: State = self.game.new_initial_state()
        self.last_action: Action | None = None
        self.over = False
        """The episode has ended (the game's end, or an illegal action): step needs reset()."""

    def action_masks(self) -> np.ndarray:
        """Which actions are legal now (a ``bool`` array over the action space; sb3-contrib's
        ``MaskablePPO`` calls this). All false once the episode is over."""
        mask = np.zeros(self.game.num_distinct_actions, dtype=bool)
        if not self.over and self.state.current_player == self.player:
            mask[:] = self.state.legal_action_mask()
        return mask

    def _observation(self) -> np.ndarray:
        return self.research.encoding.encode(self.state, self.player)

    def _info(self, **extra: Any) -> dict[str, Any]:
        mask = self.action_masks().astype(np.int8)
        return {"action_mask": mask, "to_move": self.state.player_name(), **extra}

    def _apply(self, action: Action) -> None:
        self.opponent.observe(self.state, action)
        self.state = self.state.apply_trusted(action)
        self.last_action = action

    def _advance(self) -> None:
        """Chance and the opponent's moves, until the agent is to move or the game is over."""
        while not self.state.is_terminal() and self.state.current_player != self.player:
            if self.state.is_chance_node():
                self._apply(self.state.sample_chance(self.rng))
            else:
                move = self.opponent.choose(self.state)
                self.state.apply(move)  # the opponent is checked too
                self._apply(move)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.rng = random.Random(seed)
        self.opponent = make_agent(self.opponent_name, self.rng.getrandbits(32))
        self.state = self.research.start(self.rng)
        self.last_action = None
        self.over = False
        self._advance()
        self.over = self.state.is_terminal()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.over:
            raise GamehallError(
                "the episode is over (the game ended or a move was illegal): call reset()"
            )
        index = int(action)
        legal = (
            0 <= index < self.game.num_distinct_actions and self.state.legal_action_mask()[index]
        )
        if not legal:
            self.over = True
            return (
                self._observation(),
                float(self.illegal_reward),
                True,
                False,
                self._info(illegal=True),
            )
        self._apply(self.game.index_action(index))
        self._advance()
        terminated = self.over = self.state.is_terminal()
        if self.render_mode == "human":
            self.render()
        reward = float(self.state.returns()[self.player]) if terminated else 0.0
        return self._observation(), reward, terminated, False, self._info()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode == "ansi":
            return self.research.render_text(self.state, self.last_action)
        if self.render_mode == "rgb_array":
            return render_rgb(self.research, self.state, self.last_action)
        if self.render_mode == "human":
            self.window.show(self.research, self.state, self.last_action)
        return None

    def close(self) -> None:
        self.window.close()


def env_id(game: str | Game) -> str:
    """The registered id of a game's environment: ``gamehall/<Title>-v<N>``, ``N`` the game's
    environment version (its facts' ``env_version``: 0 until its observation or rules change)."""
    return environment_id(Research.of(game))


def register_all() -> list[str]:
    """Register ``gamehall/<Title>-v<N>`` for every game that has an encoding; return the ids."""
    ids = []
    for name in game_names():
        try:
            identifier = env_id(name)
        except GamehallError:
            continue
        if identifier not in gymnasium.registry:
            gymnasium.register(
                identifier, entry_point=f"{__name__}:GamehallEnv", kwargs={"game": name},
                vector_entry_point="gamehall.vector.gym:make_vector_env" if find_plugin(name).vector else None,
            )  # fmt: skip
        ids.append(identifier)
    return ids


ENV_IDS = register_all()

__all__ = ["ENV_IDS", "GamehallEnv", "env_id", "register_all"]
