"""Nim broken on purpose, for the shipped checks (gamehall.testing, ``gamehall check-game``) to
catch: dense indices shifted by one, and facts that deny the deal."""

from __future__ import annotations

from dataclasses import replace

from gamehall.core import Action, Game, GamePlugin
from gamehall.core.encoding import GameFacts
from tests.nim.game import NimGame
from tests.nim.plugin import PLUGIN


class OffByOneNim(NimGame):
    """Nim whose dense indices are shifted by one: index_action(i) is the action of i + 1."""

    name = "off_by_one"
    title = "Off-by-one Nim"

    def index_action(self, index: int) -> Action:
        if not 0 <= index < self.num_distinct_actions:
            raise ValueError(f"action index {index} is outside the game")
        return super().index_action((index + 1) % self.num_distinct_actions)


def no_chance_facts(game: Game) -> GameFacts:
    """Facts that say Nim has no chance (it deals its heaps by chance)."""
    return GameFacts(-1.0, 1.0, max_chance_outcomes=0, max_game_length=100)


OFF_BY_ONE = GamePlugin(game=OffByOneNim)
NO_CHANCE = replace(PLUGIN, facts="tests.nim.broken:no_chance_facts", playthrough=None)
"""Nim whose plugin declares facts without chance."""
