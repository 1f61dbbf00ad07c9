"""Computer seats' agents, kept between moves and told of every action (:class:`AgentCache`).

An agent that keeps a search tree (MCTS) reuses the subtree of what really happened, as long as
the same agent object is told of every action (:meth:`Agent.observe`: its own, the opponent's
and chance) and asked again. Agents live in an :class:`AgentCache`, keyed by game id and seat.
The cache is lazy: an agent catches up when it is next asked to move, observing every action
stored since it last moved (so a computer seat costs nothing while a person thinks); an agent
that is missing (a restart, an eviction, another worker) is made afresh and catches up from the
game's start the same way. Its seed comes from the game's secret seed and the seat.

The cache is bounded (least recently used agents go first) and a finished game's agents are
dropped. The server keeps one in thread mode; each worker process keeps its own
(:mod:`gamehall.web.compute.worker`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from gamehall.ai import make_agent
from gamehall.core import Agent, Game, State
from gamehall.web.base.engine import start_state

AgentFactory = Callable[[str, int | None], Agent]
"""Makes the computer player for a level and a seed (default: :func:`gamehall.ai.make_agent`)."""

SeatKey = tuple[str, int]
"""A computer seat: (game id, seat index)."""

CACHE_LIMIT = 64
"""Agents kept per cache (per worker process): an MCTS tree of a strong level is a few MB."""


@dataclass
class _SeatAgent:
    agent: Agent
    level: str
    state: State
    seen: list[str] = field(default_factory=list)
    """The actions the agent has been told of, in order (``state`` is the state after them)."""


class AgentCache:
    """The agents of computer seats, one per (game id, seat), told of every action."""

    def __init__(self, factory: AgentFactory = make_agent, limit: int = CACHE_LIMIT) -> None:
        self.factory = factory
        self.limit = limit
        self._agents: OrderedDict[SeatKey, _SeatAgent] = OrderedDict()
        self._lock = threading.Lock()
        self.made = 0
        """How many agents were made (a test can see that one agent serves a whole game)."""

    def catch_up(
        self,
        key: SeatKey,
        game: Game,
        actions: Sequence[str],
        level: str,
        seed: int,
        setup: str | None = None,
    ) -> tuple[_SeatAgent, State]:
        """The seat's agent, taken out of the cache (it serves one move at a time) and told of
        every action since it last moved, and the state after ``actions`` (from the game's
        ``setup`` position, if it has one)."""
        with self._lock:
            entry = self._agents.pop(key, None)
        if (
            entry is None
            or entry.level != level
            or entry.state.game != game
            or len(entry.seen) > len(actions)
            or list(actions[: len(entry.seen)]) != entry.seen
        ):
            entry = _SeatAgent(self.factory(level, seed), level, start_state(game, setup))
            self.made += 1
        state = entry.state
        for text in actions[len(entry.seen) :]:
            action = game.parse_action(text)  # stored actions were checked when played
            entry.agent.observe(state, action)
            state = state.apply_trusted(action)
            entry.seen.append(text)
        entry.state = state
        return entry, state

    def keep(self, key: SeatKey, entry: _SeatAgent) -> None:
        """Put an agent back after its move (the least recently used go past the limit)."""
        with self._lock:
            self._agents[key] = entry
            while len(self._agents) > self.limit:
                self._agents.popitem(last=False)

    def drop(self, key: SeatKey) -> None:
        """Forget one seat's agent (its search was stopped: its tree may be half made)."""
        with self._lock:
            self._agents.pop(key, None)

    def choose(
        self,
        key: SeatKey,
        game: Game,
        actions: Sequence[str],
        level: str,
        seed: int,
        setup: str | None = None,
    ) -> str:
        """The move of seat ``key`` after ``actions`` (the game's every action so far)."""
        entry, state = self.catch_up(key, game, actions, level, seed, setup)
        chosen = str(entry.agent.choose(state))
        self.keep(key, entry)
        return chosen

    def forget(self, game_id: str) -> None:
        """Drop a game's agents (it is over)."""
        with self._lock:
            for key in [k for k in self._agents if k[0] == game_id]:
                del self._agents[key]

    def __contains__(self, key: SeatKey) -> bool:
        return key in self._agents

    def __len__(self) -> int:
        return len(self._agents)


__all__ = ["CACHE_LIMIT", "AgentCache", "AgentFactory", "SeatKey"]
