"""Playing a game to the end: agents choose, chance is drawn from a seeded generator."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from gamehall.core.agent import Agent
from gamehall.core.errors import GamehallError
from gamehall.core.game import Action, Game, State


@dataclass
class PlayedGame:
    """A finished (or stopped) game: every state and every action, in order."""

    game: Game
    states: list[State]
    actions: list[Action] = field(default_factory=list)

    @property
    def final(self) -> State:
        return self.states[-1]


def play_game(
    game: Game,
    agents: Sequence[Agent],
    *,
    seed: int | None = None,
    start: State | None = None,
    on_action: Callable[[State, Action, State], None] | None = None,
    max_actions: int | None = None,
) -> PlayedGame:
    """Play from ``start`` (default: the initial state) until the game ends.

    Chance outcomes are drawn with ``random.Random(seed)``, so a seed and deterministic agents
    reproduce a game. Every agent observes every action. An agent that returns an illegal action
    raises :class:`~gamehall.core.errors.IllegalActionError`; the game so far is not lost.
    """
    if len(agents) != game.num_players:
        raise GamehallError(f"{game.name} needs {game.num_players} players, got {len(agents)}")
    rng = random.Random(seed)
    state = start if start is not None else game.new_initial_state()
    played = PlayedGame(game, [state])
    while not state.is_terminal():
        if max_actions is not None and len(played.actions) >= max_actions:
            break
        if state.is_chance_node():
            action = state.sample_chance(rng)
            next_state = state.apply_trusted(action)
        else:
            action = agents[state.current_player].choose(state)
            next_state = state.apply(action)
        for agent in agents:
            agent.observe(state, action)
        if on_action is not None:
            on_action(state, action, next_state)
        played.actions.append(action)
        played.states.append(next_state)
        state = next_state
    return played
