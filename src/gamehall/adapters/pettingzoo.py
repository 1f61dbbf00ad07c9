"""Every registered game as a PettingZoo AEC environment.

    from gamehall.adapters.pettingzoo import env
    e = env(name, render_mode="ansi")             # env(name, episode="round"): one round
    e.reset(seed=1)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        mask = observation["action_mask"]
        e.step(None if termination or truncation else int(np.flatnonzero(mask)[0]))

Agents are the game's player names (``jinn``/``ifrit``, ``dark``/``light``). An observation is
a dict: ``observation``, the game's encoding for that agent (a ``float32`` array whose layout
the game documents, see its plugin's ``encoding``), and ``action_mask`` (``int8``, one entry per
dense action index; all zero for an agent not to move). Chance is resolved inside ``step`` (and
``reset``) with the environment's generator, seeded by ``reset(seed=...)``. Rewards come at the
end: the game's returns (±1, or a single round's score where the game offers that episode). An illegal action
ends the game with ``illegal_reward`` for the agent who played it (PettingZoo's
``TerminateIllegalWrapper``, as its classic games do). ``action_masks()`` gives the mask for
the agent to move (a ``bool`` array; sb3-contrib's convention), and ``infos[agent]["action_mask"]``
the same as the observation's. ``render_mode``: ``"ansi"`` (the terminal view as text),
``"rgb_array"`` (the board as an ``H x W x 3`` ``uint8`` image) or ``"human"`` (that image in a
window; the text view printed where there is no display). The engine state is ``position``;
``state()`` is PettingZoo's global state: the game's encoding from the first agent's side
(the games have perfect information, so it holds everything either agent sees).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from gamehall.adapters._common import (
    MATCH,
    RENDER_MODES,
    HumanWindow,
    Research,
    ascii_title,
    check_render_mode,
    render_rgb,
)
from gamehall.core import Action, Game, State


def env(
    game: str | Game,
    *,
    episode: str = MATCH,
    render_mode: str | None = None,
    illegal_reward: float = -1.0,
    **options: Any,
) -> AECEnv:
    """The game as a wrapped AEC environment (illegal moves end the game, actions checked)."""
    raw = raw_env(game, episode=episode, render_mode=render_mode, **options)
    wrapped: AECEnv = wrappers.TerminateIllegalWrapper(raw, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):
    """The unwrapped AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": RENDER_MODES,
        "name": "gamehall",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | Game,
        *,
        episode: str = MATCH,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.research = Research.of(game, episode, options)
        self.game = self.research.game
        check_render_mode(render_mode)
        self.render_mode = render_mode
        self.window = HumanWindow()
        self.metadata = {  # type: ignore[misc]  # each game's own name, as PettingZoo shows it
            **type(self).metadata,
            "name": f"gamehall_{ascii_title(self.game).lower()}_v{self.research.facts.env_version}",
        }
        self.possible_agents = list(self.game.player_names)
        self.agents = self.possible_agents[:]
        actions = self.game.num_distinct_actions
        shape = self.research.encoding.shape
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        0.0, self.research.encoding.high, shape=shape, dtype=np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self.state_space = spaces.Box(
            0.0, self.research.encoding.high, shape=shape, dtype=np.float32
        )
        self.rng = random.Random()
        # not ``state``: that name is AECEnv.state(), the global state
        self.position: State = self.game.new_initial_state()
        self.last_action: Action | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _mask(self, agent: str) -> np.ndarray:
        mask = np.zeros(self.game.num_distinct_actions, dtype=bool)
        if self.position.current_player == self.possible_agents.index(agent):
            mask[:] = self.position.legal_action_mask()
        return mask

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent to move (a ``bool`` array; all false at the end)."""
        return self._mask(self.agent_selection)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {
            "observation": self.research.encoding.encode(
                self.position, self.possible_agents.index(agent)
            ),
            "action_mask": self._mask(agent).astype(np.int8),
        }

    def state(self) -> np.ndarray:
        """The global state: the game's encoding from the first agent's side."""
        return self.research.encoding.encode(self.position, 0)

    def _update_infos(self) -> None:
        for agent in self.agents:
            self.infos[agent]["action_mask"] = self._mask(agent).astype(np.int8)

    def _resolve_chance(self) -> None:
        """Chance moves until a player is to move (or the game is over)."""
        while self.position.is_chance_node():
            outcome = self.position.sample_chance(self.rng)
            self.position = self.position.apply_trusted(outcome)
            self.last_action = outcome

    def _settle(self) -> None:
        """After a move: resolve chance, then hand the turn on or end the game."""
        self._resolve_chance()
        if self.position.is_terminal():
            returns = self.position.returns()
            for index, agent in enumerate(self.possible_agents):
                self.rewards[agent] = float(returns[index])
                self.terminations[agent] = True
        else:
            self.agent_selection = self.possible_agents[self.position.current_player]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.rng = random.Random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.position = self.research.start(self.rng)
        self.last_action = None
        self._resolve_chance()
        self.agent_selection = self.possible_agents[max(0, self.position.current_player)]
        self._update_infos()
        if self.render_mode == "human":
            self.render()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        move = self.game.index_action(int(action))
        self.position = self.position.apply(move)  # the checked door
        self.last_action = move
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._settle()
        self._update_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode == "ansi":
            return self.research.render_text(self.position, self.last_action)
        if self.render_mode == "rgb_array":
            return render_rgb(self.research, self.position, self.last_action)
        if self.render_mode == "human":
            self.window.show(self.research, self.position, self.last_action)
        return None

    def close(self) -> None:
        self.window.close()


__all__ = ["env", "raw_env"]
