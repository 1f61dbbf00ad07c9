"""Day-one training: PPO with action masking (PyTorch) on the batched Akros games, against `easy`.

One small network plays both seats: half of the batch learns as the Jinn, half as the Ifrit, each
row against the hall's `easy` level (greedy one move ahead by the game's evaluation), which runs
inside the compiled batch (`gamehall.vector.VectorGame`). The observation says whose it is, and
illegal moves are masked out of the policy, so every game is played to its end.

After training, the agent (its most likely legal move) plays 1,000 seeded games through the core
protocol against `gamehall.ai.make_agent("easy", seed)`, the very player the web hall seats,
half as the Jinn and half as the Ifrit, and so does a random agent on the same seeds::

    pip install -e '.[train]'   # torch==2.13.0 (CPU)
    python examples/train_akros.py --minutes 30 --plot /tmp/curve.png

prints the curve as it goes, then a JSON summary; ``--plot`` writes the learning curve.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from torch import nn

from gamehall.ai import make_agent
from gamehall.core import Action, Agent, State, find_game, find_plugin, play_game
from gamehall.vector import VectorGame


class Policy(nn.Module):
    """An MLP with a policy head (one logit per dense action) and a value head."""

    def __init__(self, observations: int, actions: int, scale: np.ndarray, hidden: int) -> None:
        super().__init__()
        self.register_buffer("scale", torch.as_tensor(scale, dtype=torch.float32))
        self.body = nn.Sequential(
            nn.Linear(observations, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh()
        )
        self.logits = nn.Linear(hidden, actions)
        self.value = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.logits.weight, 0.01)
        nn.init.zeros_(self.logits.bias)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(obs / self.scale)
        logits = self.logits(h).masked_fill(~mask, -1e9)  # the mask: illegal moves never sampled
        return logits, self.value(h).squeeze(-1)


@dataclass
class Settings:
    minutes: float = 30.0
    max_steps: int = 0  # 0: only the time limit
    envs: int = 512  # half as the Jinn, half as the Ifrit
    rollout: int = 64
    epochs: int = 4
    minibatch: int = 4096
    lr: float = 3e-4
    gamma: float = 1.0  # the reward comes once, at the end of a game
    lam: float = 0.95
    clip: float = 0.2
    entropy: float = 0.01
    hidden: int = 256
    opponent: str = "easy"
    seed: int = 1


def train(
    cfg: Settings, weights: dict[str, Any] | None = None
) -> tuple[Policy, list[dict[str, Any]]]:
    """PPO against ``cfg.opponent`` in both seats, from ``weights`` if given (else from scratch);
    returns the policy and the learning curve."""
    start = time.monotonic()  # the time limit counts from here, the batch's making included
    torch.manual_seed(cfg.seed)
    half = cfg.envs // 2
    seats = [VectorGame("akros", half, opponent=cfg.opponent, side=s) for s in (0, 1)]
    steps = [g.reset(seed=cfg.seed * 2 + s) for s, g in enumerate(seats)]
    high = np.broadcast_to(seats[0].encoding.high, seats[0].observation_shape)
    net = Policy(
        seats[0].observation_shape[0], seats[0].num_actions, np.maximum(high, 1), cfg.hidden
    )
    if weights is not None:
        net.load_state_dict(weights)
    optimizer = torch.optim.Adam(net.parameters(), lr=cfg.lr, eps=1e-5)
    T, N = cfg.rollout, 2 * half
    obs = torch.zeros((T, N, seats[0].observation_shape[0]))
    masks = torch.zeros((T, N, seats[0].num_actions), dtype=torch.bool)
    actions, logps, values, rewards, dones = (torch.zeros((T, N)) for _ in range(5))
    seat_of_row = np.repeat([0, 1], half)
    curve: list[dict[str, Any]] = []
    done_steps, update_seconds = 0, 0.0
    while True:  # one update a round; none that the last one's length says would pass the time
        began = time.monotonic()
        if began - start + update_seconds > cfg.minutes * 60 or (
            cfg.max_steps and done_steps >= cfg.max_steps
        ):
            break
        wins, games = np.zeros(2), np.zeros(2)
        for t in range(T):  # collect T moves in every row
            obs[t] = torch.from_numpy(np.concatenate([s.observation for s in steps]))
            masks[t] = torch.from_numpy(np.concatenate([s.action_mask for s in steps]))
            with torch.no_grad():
                logits, values[t] = net(obs[t], masks[t])
            dist = torch.distributions.Categorical(logits=logits)
            actions[t] = dist.sample()
            logps[t] = dist.log_prob(actions[t])
            chosen = actions[t].long().numpy()
            steps = [g.step(chosen[s * half : (s + 1) * half]) for s, g in enumerate(seats)]
            reward = np.concatenate([st.reward[:, s] for s, st in enumerate(steps)])
            ended = np.concatenate([st.terminated for st in steps])
            rewards[t], dones[t] = (
                torch.from_numpy(reward),
                torch.from_numpy(ended.astype(np.float32)),
            )
            for s in (0, 1):
                rows = ended & (seat_of_row == s)
                games[s] += rows.sum()
                wins[s] += (reward[rows] > 0).sum()
        with torch.no_grad():  # advantages by GAE; a game's end cuts the bootstrap
            next_obs = torch.from_numpy(np.concatenate([s.observation for s in steps]))
            next_mask = torch.from_numpy(np.concatenate([s.action_mask for s in steps]))
            next_value = net(next_obs, next_mask)[1]
            advantages = torch.zeros((T, N))
            gae = torch.zeros(N)
            for t in reversed(range(T)):
                alive = 1.0 - dones[t]
                following = next_value if t == T - 1 else values[t + 1]
                delta = rewards[t] + cfg.gamma * following * alive - values[t]
                gae = delta + cfg.gamma * cfg.lam * alive * gae
                advantages[t] = gae
            returns = advantages + values
        b_obs, b_masks = obs.reshape(T * N, -1), masks.reshape(T * N, -1)
        b_act, b_logp = actions.reshape(-1).long(), logps.reshape(-1)
        b_adv, b_ret = advantages.reshape(-1), returns.reshape(-1)
        for _ in range(cfg.epochs):  # the clipped PPO update
            for idx in torch.randperm(T * N).split(cfg.minibatch):
                logits, value = net(b_obs[idx], b_masks[idx])
                dist = torch.distributions.Categorical(logits=logits)
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                adv = b_adv[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                policy_loss = -torch.min(
                    ratio * adv, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * adv
                ).mean()
                value_loss = 0.5 * (value - b_ret[idx]).pow(2).mean()
                loss = policy_loss + 0.5 * value_loss - cfg.entropy * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                optimizer.step()
        done_steps += T * N
        update_seconds = time.monotonic() - began
        rates = [round(float(w / g), 4) if g else None for w, g in zip(wins, games, strict=True)]
        point = {
            "minutes": round((time.monotonic() - start) / 60, 3),
            "steps": done_steps,
            "jinn": rates[0],  # the share of this update's finished games won, per seat
            "ifrit": rates[1],
            "games": int(games.sum()),
        }
        curve.append(point)
        print(json.dumps(point), flush=True)
    return net, curve


class PolicyAgent(Agent):
    """The trained network as a player of the core protocol: its most likely legal move."""

    name = "ppo"

    def __init__(self, net: Policy) -> None:
        game = find_game("akros")
        self.encoding = find_plugin("akros").load_encoding()(game)
        self.net = net

    def choose(self, state: State) -> Action:
        me = state.current_player
        obs = torch.as_tensor(np.asarray(self.encoding.encode(state, me), dtype=np.float32))
        mask = torch.as_tensor(state.legal_action_mask())
        with torch.no_grad():
            logits, _ = self.net(obs[None], mask[None])
        return state.game.index_action(int(logits.argmax()))


def evaluate(agent: Agent | None, games: int, seed: int) -> dict[str, float]:
    """Win rates over ``games`` seeded games against the hall's ``easy``: the first half as the
    Jinn, the second as the Ifrit (game ``i``: chance and ``easy`` seeded from ``seed + i``).
    ``agent`` None is a random agent (the hall's ``beginner``) on the same games."""
    akros = find_game("akros")
    wins = [0, 0]
    for i in range(games):
        seat = 0 if i < games // 2 else 1
        me = agent if agent is not None else make_agent("beginner", seed + i + 10**6)
        players = [make_agent("easy", seed + i), make_agent("easy", seed + i)]
        players[seat] = me
        final = play_game(akros, players, seed=seed + i).final
        wins[seat] += final.returns()[seat] > 0
    half = [games // 2, games - games // 2]
    return {
        "jinn": wins[0] / half[0],
        "ifrit": wins[1] / half[1],
        "both": (wins[0] + wins[1]) / games,
    }


def plot(curve: list[dict[str, Any]], path: str, result: dict[str, Any]) -> None:
    """The learning curve: the share of training games won per seat, and the evaluation."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    kept = [p for p in curve if p["jinn"] is not None and p["ifrit"] is not None]
    minutes = [p["minutes"] for p in kept]
    for seat, name in (("jinn", "as the Jinn"), ("ifrit", "as the Ifrit")):
        ax.plot(minutes, [p[seat] for p in kept], label=f"training games {name}")
    mean = [(p["jinn"] + p["ifrit"]) / 2 for p in kept]
    ax.plot(minutes, mean, color="black", label="both seats")
    agent, rand = result["agent"], result["random"]
    ax.axhline(0.55, color="grey", linestyle=":", label="55%")
    ax.axhline(rand["both"], color="grey", linestyle="--", label="a random agent, both seats")
    ax.set_xlabel("minutes of training")
    ax.set_ylabel("share of games won against easy")
    ax.set_ylim(0, 1)
    ax.set_title(
        f"PPO on Akros against easy: {agent['both']:.1%} of {result['games']:,} games won"
        f" (Jinn {agent['jinn']:.1%}, Ifrit {agent['ifrit']:.1%})",
        fontsize=10,
    )
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="training time (wall clock)")
    parser.add_argument("--max-steps", type=int, default=0, help="stop after this many moves")
    parser.add_argument("--envs", type=int, default=512, help="games in the batch")
    parser.add_argument("--rollout", type=int, default=64, help="moves per row per update")
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--eval-seed", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--plot", help="write the learning curve (PNG) here")
    parser.add_argument("--save", help="write the network's weights here")
    parser.add_argument("--load", help="start from these weights (--minutes 0: only evaluate)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    random.seed(args.seed)
    cfg = Settings(
        minutes=args.minutes,
        max_steps=args.max_steps,
        envs=args.envs,
        rollout=args.rollout,
        minibatch=min(4096, args.envs * args.rollout),
        seed=args.seed,
    )
    start = time.monotonic()
    net, curve = train(cfg, torch.load(args.load) if args.load else None)
    trained = time.monotonic() - start
    if args.save:
        torch.save(net.state_dict(), args.save)
    result = {
        "train_minutes": round(trained / 60, 2),
        "train_steps": curve[-1]["steps"] if curve else 0,
        "games": args.eval_games,
        "agent": evaluate(PolicyAgent(net), args.eval_games, args.eval_seed),
        "random": evaluate(None, args.eval_games, args.eval_seed),
    }
    print(json.dumps(result), flush=True)
    if args.plot:
        plot(curve, args.plot, result)
    return result


if __name__ == "__main__":
    main()
