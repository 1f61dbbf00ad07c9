"""Akros tells front ends the end-of-game count as the rulebook counts it: per environment, each
player's servants on it and the tiles stacked under them, whose sum is the score."""

from __future__ import annotations

import random

from gamehall.core import find_game


def test_each_environment_is_counted_as_servants_plus_tiles_under_them():
    game = find_game("akros")
    for seed in range(30):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while True:
            for env in state.view()["environments"]:
                for player in ("jinn", "ifrit"):
                    servants, tiles = env[f"{player}_servants"], env[f"{player}_tiles"]
                    assert env[player] == servants + tiles
            if state.is_terminal():
                break
            actions = state.legal_actions()
            action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(actions)
            state = state.apply(action)
        assert sum(env["jinn_servants"] for env in state.view()["environments"]) == 4


def test_the_view_names_the_temple_pile_of_this_turns_discard():
    game = find_game("akros")
    start = "bag=F6S6M7 temple=-/-/- draft=- jinn=- ifrit=- out=- regions=0,0J,0,0,0I,0,0J,0,0,0I,0I,0,0J,0I,0,0,0,0J,0"
    assert game.parse_state(f"turn=1 step=draw {start}").view()["discard_pile"] == "7"
    end = "turn=9 step=jinn-place bag=F0S0M0 temple=-/-/- draft=- jinn=M ifrit=- out=FSSM regions=1I,0,0,2I,1,0,0,1,1,0I,2I,1J,0J,0,1,2J,0,0,2J"
    assert game.parse_state(end).view()["discard_pile"] is None
