"""A learning smoke test: a tabular policy-gradient agent, trained through the Gymnasium adapter
for about a minute, raises its win rate against ``beginner`` in Akros.

The agent is REINFORCE over a table of logits indexed by (turn, step, dense action), a softmax
over the legal actions (from ``info["action_mask"]``), with a running-mean baseline. Its win rate
as the Jinn is measured on the same 300 seeded games before and after training (random play wins
about 38% as the Jinn).
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import gamehall.adapters.gymnasium  # noqa: F401 - registers the environments


class TabularReinforce:
    def __init__(self, actions: int, seed: int, rate: float = 0.3) -> None:
        self.logits = np.zeros((9, 6, actions))
        self.rng = np.random.default_rng(seed)
        self.rate = rate
        self.baseline = 0.0

    def play(self, env: gymnasium.Env, seed: int, learn: bool) -> float:
        observation, info = env.reset(seed=seed)
        steps = []
        while True:
            turn, step = int(np.argmax(observation[:9])), int(np.argmax(observation[9:15]))
            legal = np.flatnonzero(info["action_mask"])
            z = self.logits[turn, step, legal]
            p = np.exp(z - z.max())
            p /= p.sum()
            pick = int(self.rng.choice(len(legal), p=p))
            steps.append((turn, step, legal, p, pick))
            observation, reward, terminated, truncated, info = env.step(int(legal[pick]))
            if terminated or truncated:
                break
        if learn:
            advantage = reward - self.baseline
            for turn, step, legal, p, pick in steps:
                gradient = -p
                gradient[pick] += 1.0
                self.logits[turn, step, legal] += self.rate * advantage * gradient
            self.baseline += 0.01 * (reward - self.baseline)
        return reward


@pytest.mark.slow
def test_a_tabular_policy_gradient_agent_learns_to_beat_beginner():
    env = gymnasium.make("gamehall/Akros-v0", opponent="beginner", side="jinn")
    agent = TabularReinforce(env.unwrapped.game.num_distinct_actions, seed=0)

    def win_rate() -> float:
        return float(np.mean([agent.play(env, 10**6 + k, learn=False) > 0 for k in range(300)]))

    before = win_rate()
    for episode in range(3000):
        agent.play(env, episode, learn=True)
    after = win_rate()
    assert before < 0.5
    assert after > before + 0.15, (before, after)
