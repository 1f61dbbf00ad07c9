"""Akros's moves in words: the draw, the Jinn's keep, the Ifrit's keep and discard with its Temple
pile, placements and removals, and a game grouped by turn (gamehall.games.akros.words)."""

from __future__ import annotations

import random

from gamehall.core.words import move_chapters, move_words
from gamehall.games.akros import AkrosGame
from gamehall.games.akros.words import tiles_words


def told(state, notation: str) -> str:
    return move_words(state, state.parse_action(notation))


def test_tiles_in_words():
    assert tiles_words((0, 1, 2)) == "Forest, Sea and Mountain"
    assert tiles_words((0, 2)) == "Forest and Mountain"
    assert tiles_words((2, 2)) == "two Mountains"
    assert tiles_words((0, 0, 1)) == "two Forests and a Sea"


def test_the_first_turn_told_step_by_step():
    game = AkrosGame()
    state = game.new_initial_state()
    assert told(state, "draw FSM") == "Jinn draws Forest, Sea and Mountain from the bag"
    state = state.apply(state.parse_action("draw FSM"))
    assert told(state, "keep S") == "Jinn keeps the Sea and passes Forest and Mountain"
    state = state.apply(state.parse_action("keep S"))
    # The discard goes to Temple pile 7 on turns 1 to 3.
    assert told(state, "keep M discard F") == (
        "Ifrit keeps the Mountain and discards the Forest to Temple pile 7"
    )
    state = state.apply(state.parse_action("keep M discard F"))
    assert told(state, "M17<14") == "Ifrit: Mountain on 17, servant from 14"
    state = state.apply(state.parse_action("M17<14"))
    place = next(str(a) for a in state.legal_actions())
    tile, rest = place[0], place[1:]
    region, source = rest.split("<")
    name = {"F": "Forest", "S": "Sea", "M": "Mountain"}[tile]
    assert told(state, place) == f"Jinn: {name} on {region}, servant from {source}"


def test_a_double_keeps_one_and_discards_the_other():
    game = AkrosGame()
    state = game.new_initial_state().apply(game.parse_action("draw FMM"))
    assert told(state, "keep F") == "Jinn keeps the Forest and passes two Mountains"
    state = state.apply(state.parse_action("keep F"))
    assert told(state, "keep M discard M") == (
        "Ifrit keeps one Mountain and discards the other to Temple pile 7"
    )


def test_removal_and_the_later_turns_name_their_temple_piles():
    # A whole random game: every removal, the Temple pile the discard goes to, the pile the Jinn
    # takes up on turns 7 to 9, and turn 9's lone keep are told.
    game = AkrosGame()
    seen = {"removed": 0}
    for seed in range(30):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            chance = state.is_chance_node()
            action = state.sample_chance(rng) if chance else rng.choice(state.legal_actions())
            words = move_words(state, action)
            text = str(action)
            if text.startswith("remove"):
                seen["removed"] += 1
                assert words.endswith("has no place and leaves the game")
                assert words.startswith(("Jinn's ", "Ifrit's "))
            if " discard " in text:
                pile = 7 if state.turn <= 3 else 8 if state.turn <= 6 else 9
                assert words.endswith(f"to Temple pile {pile}")
            if state.step_name == "jinn-keep" and state.turn >= 7:
                assert words.startswith(f"Jinn takes up Temple pile {state.turn}, keeps ")
            if state.step_name == "ifrit-keep" and state.turn == 9:
                assert words.endswith("the one tile passed to her")
            state = state.apply(action)
    assert seen["removed"], "thirty random games remove a tile somewhere"


def test_a_game_is_grouped_by_turn_with_the_bag_and_the_count_told():
    game = AkrosGame()
    rng = random.Random(4)
    state = game.new_initial_state()
    states = [state]
    while not state.is_terminal():
        chance = state.is_chance_node()
        state = state.apply(
            state.sample_chance(rng) if chance else rng.choice(state.legal_actions())
        )
        states.append(state)
    chapters = move_chapters(states)
    headings = list(dict.fromkeys(c.heading for c in chapters))
    assert headings == [f"Turn {n}" for n in range(1, 10)]
    ends = [(i, c.end) for i, c in enumerate(chapters) if c.end]
    assert len(ends) == 2
    (six, bag), (last, count) = ends
    assert chapters[six].heading == "Turn 6" and chapters[six + 1].heading == "Turn 7"
    assert bag.startswith("The bag's last tile, a ") and bag.endswith(", leaves the game unseen")
    assert last == len(chapters) - 1
    outcome = states[-1].outcome()
    winner = "Jinn" if outcome.winner == 0 else "Ifrit"
    assert count == f"The count: {outcome.reason}; the {winner} wins"
