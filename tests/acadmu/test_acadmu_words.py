"""Äcädmü's moves in words: every kind of action told as the rules say it, and a match's
actions grouped by round with each round's result (gamehall.games.acadmu.words)."""

from __future__ import annotations

import random
import re

import pytest

from gamehall.core import find_game
from gamehall.core.words import move_chapters, move_words
from gamehall.games.acadmu import AcadmuGame
from gamehall.games.acadmu.tokens import PAIRINGS

NINE_DISCS = "RT:BS,RS:BC,RC:BT,BT:YS,BS:YC,BC:YT,YT:RS,YS:RC,YC:RT"


def position(dark: dict[str, int], light: dict[str, int], to_move: str = "d", passed: str = "-"):
    def side(tokens: dict[str, int]) -> str:
        return ",".join(str(tokens.get(p, 0)) for p in PAIRINGS)

    return AcadmuGame().parse_state(f"{side(dark)}/{side(light)} {to_move} {passed}")


def told(state, notation: str) -> str:
    return move_words(state, state.parse_action(notation))


@pytest.mark.parametrize(
    ("dark", "light", "move", "words"),
    [
        ({"RC": 1}, {"RT": 2}, "RCxRT+RT", "Dark's Red Circle takes two Red Triangles, by shape"),
        (
            {"YT": 1},
            {"RS": 1, "BS": 1},
            "YTxRS+BS",
            "Dark's Yellow Triangle takes a Red Square and a Blue Square, by shape",
        ),
        ({"RT": 1}, {"BS": 1}, "RTxBS", "Dark's Red Triangle takes a Blue Square, by colour"),
    ],
)
def test_captures_name_the_tokens_and_the_rule(dark, light, move, words):
    assert told(position(dark, light), move) == words


def test_the_lone_shape_capture_of_the_variant_says_it_is_the_last():
    game = AcadmuGame(shape_capture_takes_one_if_last=True)
    state = game.parse_state("0,0,1,0,0,0,0,0,0/0,0,0,0,0,0,1,0,0 d -")  # RC against one YT
    assert told(state, "RCxYT") == (
        "Dark's Red Circle takes the last Triangle, a Yellow Triangle, by shape"
    )


def test_a_pass_says_the_other_plays_on_alone():
    # Light has nothing to capture with; Dark can still take by colour.
    state = position({"RT": 1, "BT": 1}, {"BS": 1}, to_move="l")
    assert told(state, "pass") == "Light has no capture and passes; Dark plays on alone"


def test_the_draw_tells_who_goes_first_and_why():
    start = AcadmuGame().new_initial_state()
    assert told(start, "draw RT:BS/BT:YS") == (
        "Draw for first: Dark shows a Red Triangle, Light a Blue Triangle; "
        "Red beats Blue, so Dark goes first"
    )
    assert told(start, "draw BT:YS/BC:YS") == (
        "Draw for first: Dark shows a Blue Triangle, Light a Blue Circle; "
        "both Blue: Circle beats Triangle, so Light goes first"
    )
    tie = told(start, "draw RT:BS/RT:BS")
    assert tie.startswith("Draw for first: Dark shows a Red Triangle, Light a Red Triangle;")
    assert tie.endswith("draw again")


def test_the_pour_tells_who_starts_the_round_and_why():
    game = AcadmuGame(discs=NINE_DISCS, target=3)
    rng = random.Random(2)
    state = game.new_initial_state().apply(game.parse_action("draw RT:BS/BT:YS"))
    assert move_words(state, state.sample_chance(rng)) == (
        "Both pour their discs; Dark goes first, having won the draw"
    )
    state = game.parse_state("0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 d - 0-0 d")  # Light +1
    assert state.is_chance_node()
    assert move_words(state, state.sample_chance(rng)) == (
        "Both pour their discs; Light goes first, as Dark went first last round"
    )


def test_a_match_is_grouped_by_round_and_keeps_each_rounds_result():
    game = find_game("acadmu", discs=NINE_DISCS, target=3)
    rng = random.Random(5)
    state = game.new_initial_state()
    states = [state]
    while not state.is_terminal():
        chance = state.is_chance_node()
        state = state.apply(
            state.sample_chance(rng) if chance else rng.choice(state.legal_actions())
        )
        states.append(state)
    chapters = move_chapters(states)
    headings = [c.heading for c in chapters]
    assert headings[0] == "Who goes first"
    rounds = [h for h in dict.fromkeys(headings) if h != "Who goes first"]
    assert rounds == [f"Round {n}" for n in range(1, len(rounds) + 1)]
    ends = [c.end for c in chapters if c.end]
    assert len(ends) == len(rounds), "one result per round, the last one included"
    for number, end in enumerate(ends, 1):
        assert re.fullmatch(
            rf"Round {number}: ((Dark|Light) \+\d+|equal counts, nobody scores), match \d+–\d+", end
        )
    dark, light = states[-1].scores()
    assert ends[-1].endswith(f"match {dark:.0f}–{light:.0f}")
    # The result follows the round's last move, and the next round starts with its pour.
    for index, chapter in enumerate(chapters):
        if chapter.end and index + 1 < len(chapters):
            assert states[index + 1].is_chance_node()
            assert chapters[index + 1].heading != chapter.heading


def test_a_game_set_up_mid_match_counts_rounds_from_there():
    game = AcadmuGame(discs=NINE_DISCS, target=3)
    start = game.parse_state("2,0,0,0,0,0,0,0,0/0,0,0,0,1,0,0,0,0 d - 0-0 d")
    after = start.apply(start.parse_action("RTxBS"))
    (chapter,) = move_chapters([start, after])
    assert chapter.heading == "This round"
    assert chapter.end == "This round: Dark +1, match 1–0"
