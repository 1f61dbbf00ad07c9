"""A game's history keeps each action's words and chapter (round or turn, and a round's result)
as it grows and when a takeback shortens it: what the state messages send."""

from __future__ import annotations

import random

from gamehall.core import find_game
from gamehall.core.words import move_chapters, move_words
from gamehall.web.play.history import Played

NINE_DISCS = "RT:BS,RS:BC,RC:BT,BT:YS,BS:YC,BC:YT,YT:RS,YS:RC,YC:RT"


def test_words_and_chapters_follow_the_actions_through_takebacks():
    game = find_game("acadmu", discs=NINE_DISCS, target=3)
    played = Played(game, [game.new_initial_state()])
    rng = random.Random(7)
    taken_back = False
    while not played.state.is_terminal():
        state = played.state
        chance = state.is_chance_node()
        action = state.sample_chance(rng) if chance else rng.choice(state.legal_actions())
        played.play(state.apply(action), str(action), -1 if chance else state.current_player)
        if not taken_back and any(played.ends):  # once a round has ended, undo across it
            played.take_back(3)
            taken_back = True
    assert taken_back
    states = played.states
    chapters = move_chapters(states)
    assert played.chapters == [c.heading for c in chapters]
    assert played.ends == [c.end for c in chapters]
    assert played.words == [
        move_words(before, before.parse_action(text))
        for before, text in zip(states, played.actions, strict=False)
    ]
    assert played.chapters[0] == "Who goes first" and "Round 1" in played.chapters
    assert played.ends[-1].startswith("Round ")
