"""Shared helpers for the Akros tests: boards from TOML text, positions, random games, and
Hypothesis strategies for games and positions that shrink."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from hypothesis import strategies as st

from gamehall.games.akros import AkrosGame
from gamehall.games.akros.board import board_from_toml
from gamehall.games.akros.game import AkrosState

# The rulebook's examples B and C take place on a picture we do not have. This small board is built
# so that both examples hold exactly as the rulebook tells them (regions 1-6 are Mountains):
#
#   1 - 5, 11      2 - 4        3 - 5, 12     5 - 1, 3, 7, 10     6 - 11     7 - 5, 13
#   8 - 11, 12     9 - 12, 13   10 - 5, 14    11 - 1, 6, 8        12 - 3, 8, 9
#   13 - 7, 9      14 - 10
EXAMPLE_ENVIRONMENTS = "MMMMMMFSSSFSFF"
EXAMPLE_NEIGHBOURS = {
    1: [5, 11],
    2: [4],
    3: [5, 12],
    4: [2],
    5: [1, 3, 7, 10],
    6: [11],
    7: [5, 13],
    8: [11, 12],
    9: [12, 13],
    10: [5, 14],
    11: [1, 6, 8],
    12: [3, 8, 9],
    13: [7, 9],
    14: [10],
}


def example_toml(start_ifrit=(10, 11, 12, 13), start_jinn=(1, 2, 3, 14)) -> str:
    lines = ['name = "examples"', "[start]", f"ifrit = {list(start_ifrit)}"]
    lines.append(f"jinn = {list(start_jinn)}")
    for region, environment in enumerate(EXAMPLE_ENVIRONMENTS, 1):
        lines += [
            "[[region]]",
            f"id = {region}",
            f'environment = "{environment}"',
            "row = 0",
            f"col = {2 * region}",
            f"neighbours = {EXAMPLE_NEIGHBOURS[region]}",
        ]
    return "\n".join(lines) + "\n"


def example_game() -> AkrosGame:
    return AkrosGame(board=board_from_toml(example_toml(), name="examples"))


def position(game: AkrosGame, **changes) -> AkrosState:
    """The initial state with some fields changed (no consistency check: for rule tests)."""
    return replace(game.new_initial_state(), **changes)


def random_game(seed: int, game: AkrosGame | None = None) -> tuple[list[AkrosState], list]:
    """Every state and action of a game of random legal decisions and sampled chance."""
    game = game or AkrosGame()
    rng = random.Random(seed)
    state = game.new_initial_state()
    states, actions = [state], []
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.sample_chance(rng)
        else:
            action = rng.choice(state.legal_actions())
        state = state.apply(action)
        states.append(state)
        actions.append(action)
    return states, actions


def _choose(draw: Any, options: tuple[Any, ...]) -> Any:
    """One of ``options``, chosen by Hypothesis (shrinking towards the first)."""
    if len(options) == 1:
        return options[0]
    return options[draw(st.integers(0, len(options) - 1))]


def _next(draw: Any, state: AkrosState) -> Any:
    """The action taken at ``state``: a legal action, or at a chance node one of its outcomes
    (each outcome as likely as the next, so rare draws come up as often as common ones)."""
    if state.is_chance_node():
        return _choose(draw, tuple(outcome for outcome, _ in state.chance_outcomes()))
    return _choose(draw, state.legal_actions())


@st.composite
def games(draw: Any, game: AkrosGame | None = None) -> tuple[list[AkrosState], list]:
    """Every state and action of a whole game whose every choice Hypothesis draws, chance
    included: a failing game shrinks towards taking the first legal action and the first outcome
    at every step, so the example it reports differs from that line only where it must."""
    state = (game or AkrosGame()).new_initial_state()
    states, actions = [state], []
    while not state.is_terminal():
        action = _next(draw, state)
        state = state.apply(action)
        states.append(state)
        actions.append(action)
    return states, actions


@st.composite
def positions(draw: Any, game: AkrosGame | None = None, max_steps: int = 60) -> AkrosState:
    """A position reached from the start by a drawn number of drawn choices (shrinking towards
    the start and towards the first choices)."""
    state = (game or AkrosGame()).new_initial_state()
    for _ in range(draw(st.integers(0, max_steps))):
        if state.is_terminal():
            break
        state = state.apply(_next(draw, state))
    return state
