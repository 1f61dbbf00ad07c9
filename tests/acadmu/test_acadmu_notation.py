"""Äcädmü notation: positions, moves and chance outcomes read back what they write; bad text and
impossible positions are told apart; every move has a dense index."""

from __future__ import annotations

import random
from importlib import resources

import pytest

from gamehall.ai import RandomAgent
from gamehall.core import (
    InvalidStateError,
    NotationError,
    Record,
    find_game,
    make_record,
    play_game,
)
from gamehall.games.acadmu import DARK, LIGHT, PASS, AcadmuGame, Draw, Move, Pour
from gamehall.games.acadmu.game import NO_ONE

EXAMPLE = "3,0,2,2,1,1,2,2,1/1,0,1,1,1,2,2,1,5 d -"


@pytest.fixture
def game() -> AcadmuGame:
    return find_game("acadmu")


@pytest.mark.parametrize(
    "text",
    [
        EXAMPLE,
        "3,0,2,2,1,1,2,2,1/1,0,1,1,1,2,2,1,5 l -",
        "0,0,0,0,2,0,0,0,0/3,0,0,0,0,0,0,0,0 l d",
        "0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 d -",
        "3,3,3,3,3,0,0,0,0/1,0,1,1,1,2,2,1,5 d -",
        f"{EXAMPLE} 4-7 l",
        f"{EXAMPLE} 0-11 d",
        "draw",
        "pour d 0-0",
        "pour l 11-3",
    ],
)
def test_positions_round_trip(game, text):
    state = game.parse_state(text)
    assert str(state) == text
    again = game.parse_state(str(state))
    assert again == state
    assert hash(again) == hash(state)


def test_the_example_position(game):
    state = game.parse_state(EXAMPLE)
    assert state.dark == (3, 0, 2, 2, 1, 1, 2, 2, 1)
    assert state.light == (1, 0, 1, 1, 1, 2, 2, 1, 5)
    assert (state.to_move, state.passed, state.first) == (DARK, NO_ONE, None)
    assert state.current_player == DARK
    assert state.position() == EXAMPLE
    in_match = game.parse_state(f"{EXAMPLE} 4-7 l")
    assert (in_match.match_score, in_match.first) == ((4, 7), LIGHT)
    assert in_match.position() == EXAMPLE
    assert in_match != state  # the match around the round is part of the state


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("RTxBS", Move(0, (4,))),
        ("RTxRS+YS", Move(0, (1, 7))),
        ("YCxRT+RT", Move(8, (0, 0))),
        ("pass", PASS),
    ],
)
def test_moves_round_trip(game, text, move):
    assert game.parse_action(text) == move
    assert str(move) == text
    assert Move.parse(str(move)) == move
    assert eval(repr(move), {"Move": Move}) == move


def test_move_reading_is_lenient_about_case_and_order(game):
    assert game.parse_action("rtxys+rs") == game.parse_action("RTxRS+YS")
    assert str(game.parse_action(" RTxYS+RS ")) == "RTxRS+YS"
    assert game.parse_action("PASS") == PASS


def test_chance_actions_round_trip(game):
    draw = game.parse_action("draw RT:BS/YC:RT")
    assert draw == Draw((0, 4), (8, 0))
    assert str(draw) == "draw RT:BS/YC:RT"
    pour = game.parse_state("pour d 0-0").sample_chance(random.Random(3))
    assert game.parse_action(str(pour)) == pour
    assert str(pour).startswith("pour ")
    assert isinstance(pour, Pour)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "Äcädmü position"),
        ("3,0,2/1,0,1 d -", "nine comma-separated counts"),
        ("3,0,2,2,1,1,2,2,1 d -", "<dark counts>/<light counts>"),
        ("3,0,2,2,1,1,2,2,x/1,0,1,1,1,2,2,1,5 d -", "nine comma-separated counts"),
        ("3,0,2,2,1,1,2,2,-1/1,0,1,1,1,2,2,1,5 d -", "nine comma-separated counts"),
        (f"{EXAMPLE.replace(' d ', ' x ')}", "d (dark) or l (light)"),
        (f"{EXAMPLE[:-1]}q", "d (dark) or l (light)"),
        (f"{EXAMPLE} 4-7", "Äcädmü position"),
        (f"{EXAMPLE} 4:7 l", "<dark score>-<light score>"),
        (f"{EXAMPLE} 4-7 x", "d (dark) or l (light)"),
        ("pour d", "pour <d|l>"),
        ("pour x 0-0", "d (dark) or l (light)"),
        ("pour d zero", "<dark score>-<light score>"),
        ("draw now", "Äcädmü position"),
    ],
)
def test_bad_position_text_is_a_notation_error(game, text, expected):
    with pytest.raises(NotationError) as info:
        game.parse_state(text)
    message = str(info.value)
    assert "expected" in message
    assert expected in message
    assert info.value.text in text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "'pass'"),
        ("RT", "RTxBS"),
        ("RTxBQ", "RTxBS"),
        ("RTxBS+YS+RS", "RTxRS\\+YS"),
        ("RT x BS", "RTxBS"),
        ("passs", "'pass'"),
        ("draw RT/BS", "RT:BS/YC:RT"),
        ("draw RT:BS/YC:QQ", "RT:BS/YC:RT"),
        ("pour 1,2,3", "<dark counts>/<light counts>"),
        ("pour", "pour <dark counts>/<light counts>"),
    ],
)
def test_bad_action_text_is_a_notation_error(game, text, expected):
    with pytest.raises(NotationError, match=f"expected .*{expected}"):
        game.parse_action(text)


def test_unicode_digits_are_a_notation_error(game):
    with pytest.raises(NotationError):
        game.parse_state("²,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 d -")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        # the side that passed cannot be the side to move
        ("0,0,0,0,2,0,0,0,0/3,0,0,0,0,0,0,0,0 d d", "passed"),
        # Light is marked as passed but RT can take a Blue Square
        ("0,0,0,0,2,0,0,0,0/3,0,0,0,0,0,0,0,0 d l", "passed"),
        # seven Red Triangles, but only six faces show one
        ("7,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 d -", "7 RT"),
        ("0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,7 d -", "7 YC"),
        # 28 tokens, each pairing within its faces
        ("4,4,4,4,4,4,4,0,0/0,0,0,0,0,0,0,0,0 d -", "28 tokens"),
        ("6,6,6,6,3,0,0,0,1/0,0,0,0,0,0,0,0,0 l -", "28 tokens"),
        # the match is already over before this round
        (f"{EXAMPLE} 12-3 d", "target"),
        ("pour d 3-12", "target"),
    ],
)
def test_impossible_positions_are_invalid(game, text, fragment):
    with pytest.raises(InvalidStateError, match=fragment):
        game.parse_state(text)


def test_target_bounds_depend_on_the_variant():
    assert str(find_game("acadmu", target=18).parse_state(f"{EXAMPLE} 12-3 d")).endswith("12-3 d")


def test_custom_disc_set_bounds_positions():
    small = find_game("acadmu", discs="RT:BS,RS:BT,YC:BS")
    assert str(small.parse_state("1,1,0,0,1,0,0,0,0/0,0,0,0,1,0,0,0,1 l -")).startswith("1,1")
    with pytest.raises(InvalidStateError, match="owns only 3"):
        small.parse_state("1,1,0,1,1,0,0,0,0/0,0,0,0,0,0,0,0,0 d -")


def test_tokens_that_need_more_discs_than_exist_are_invalid(game):
    with pytest.raises(InvalidStateError):
        game.parse_state("6,0,0,6,0,0,0,0,0/0,0,0,0,0,0,0,0,0 d -")


def test_a_disc_shows_only_one_face_up():
    game = find_game("acadmu", discs="RT:RT,BS:BT")
    with pytest.raises(InvalidStateError):
        game.parse_state("2,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 d -")


# --- dense action indices --------------------------------------------------------------------------


def test_every_index_round_trips(game):
    assert game.num_distinct_actions == 136
    seen = set()
    for index in range(136):
        action = game.index_action(index)
        assert game.action_index(action) == index
        assert game.parse_action(str(action)) == action
        seen.add(action)
    assert len(seen) == 136
    assert game.index_action(135) == PASS
    for bad in (-1, 136):
        with pytest.raises(ValueError):
            game.index_action(bad)


def test_every_legal_move_has_an_index(game):
    rng = random.Random(9)
    for _ in range(300):
        d = tuple(rng.randint(0, 3) for _ in range(9))
        l_ = tuple(rng.randint(0, 3) for _ in range(9))
        state = game.round_state(d, l_, rng.randrange(2))
        mask = state.legal_action_mask()
        assert len(mask) == 136
        legal = set(state.legal_actions())
        assert sum(mask) == len(legal)
        for index, allowed in enumerate(mask):
            assert allowed == (game.index_action(index) in legal)


def test_variant_lone_shape_takes_have_indices():
    game = find_game("acadmu", shape_capture_takes_one_if_last=True)
    state = game.parse_state("0,0,0,1,0,0,0,0,0/0,1,1,0,0,0,0,0,0 d -")
    (move,) = state.legal_actions()
    assert str(move) == "BTxRS"
    assert move.by_shape
    assert game.index_action(game.action_index(move)) == move


def test_chance_outcomes_have_no_index(game):
    with pytest.raises(ValueError):
        game.action_index(game.parse_action("draw RT:BS/YC:RT"))


def test_action_index_never_names_another_move(game):
    move = game.parse_action("RTxRC+YC")
    try:
        index = game.action_index(move)
    except ValueError:
        return
    assert game.index_action(index) == move


# --- records carry the disc set --------------------------------------------------------------------


def short_record(game: AcadmuGame) -> Record:
    played = play_game(game, [RandomAgent(1), RandomAgent(2)], seed=1, max_actions=20_000)
    assert played.final.is_terminal()
    return make_record(game, played.actions, final=played.final)


def test_a_disc_set_from_a_file_travels_inline(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('discs = [["RT", "BS"], ["YC", "RT"], ["BS", "BT"]]\n')
    game = find_game("acadmu", discs_file=str(path), target=3)
    record = short_record(game)
    assert str(path) not in str(record)
    path.unlink()  # the record must replay without the file
    replayed = Record.parse(str(record)).replay()
    assert replayed[-1].is_terminal()
    assert Record.parse(str(record)).game().disc_set.discs == game.disc_set.discs


def test_a_one_disc_set_can_be_recorded():
    game = find_game("acadmu", discs="RT:BT,")
    state = game.new_initial_state()
    draw = state.chance_outcomes()[0][0]
    record = make_record(game, [draw])
    assert Record.parse(str(record)).replay()[1] == state.apply(draw)


def test_a_file_holding_the_default_set_is_not_named_in_records(tmp_path):
    path = tmp_path / "copy.toml"
    path.write_text(
        (resources.files("gamehall.games.acadmu") / "data/default_discs.toml").read_text()
    )
    game = find_game("acadmu", discs_file=str(path))
    assert str(path) not in game.record_tags().get("Variant", "")


def test_match_positions_must_come_from_a_full_pour(game):
    with pytest.raises(InvalidStateError):
        game.parse_state("3,3,3,3,3,3,3,3,3/0,0,0,0,0,0,0,0,0 d - 0-0 d")
