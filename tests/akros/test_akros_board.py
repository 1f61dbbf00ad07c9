"""Boards as data: the packaged Dawn board, the board option, validation errors, records."""

from __future__ import annotations

import re

import pytest
from akros_helpers import example_toml, random_game

from gamehall.core import InvalidOptionError, Record, find_game, make_record
from gamehall.games.akros import AkrosGame, BoardError, load_board
from gamehall.games.akros.board import board_from_toml, hex_neighbours

DAWN_NEIGHBOURS = """1: 2 4 5 · 2: 1 3 5 6 · 3: 2 6 7 · 4: 1 5 8 9 · 5: 1 2 4 6 9 10 · 6: 2 3 5 7 10 11 ·
7: 3 6 11 12 · 8: 4 9 13 · 9: 4 5 8 10 13 14 · 10: 5 6 9 11 14 15 · 11: 6 7 10 12 15 16 · 12: 7 11 16 ·
13: 8 9 14 17 · 14: 9 10 13 15 17 18 · 15: 10 11 14 16 18 19 · 16: 11 12 15 19 · 17: 13 14 18 ·
18: 14 15 17 19 · 19: 15 16 18"""


def test_dawn_is_the_board_of_the_rules():
    board = load_board("dawn")
    published = {
        int(key): tuple(int(n) for n in value.split())
        for key, value in re.findall(
            r"(\d+): ([\d ]+?)\s*(?:·|$)", DAWN_NEIGHBOURS.replace("\n", " ")
        )
    }
    assert {r.id: r.neighbours for r in board.regions} == published
    assert hex_neighbours(board) == published
    assert "".join("FSM"[r.environment] for r in board.regions) == "MSMFFSFMSMFMSFSSMFM"
    assert board.ifrit_start == (5, 10, 11, 14) and board.jinn_start == (2, 7, 13, 18)
    assert board.bag == (6, 6, 7) and board.servants == 4


def test_board_option_takes_a_path(tmp_path):
    path = tmp_path / "mini.toml"
    path.write_text(example_toml())
    game = find_game("akros", board_file=str(path))
    assert game.board.size == 14 and game.board.name == "examples"
    assert game != AkrosGame() and game == AkrosGame(board_file=str(path))


def test_adjacency_derived_from_positions_when_no_lists():
    text = load_board_text().replace("neighbours", "#neighbours")
    assert board_from_toml(text) == load_board("dawn")


def load_board_text() -> str:
    from importlib import resources

    return resources.files("gamehall.games.akros").joinpath("boards/dawn.toml").read_text()


def test_unknown_board_is_an_option_error():
    with pytest.raises(InvalidOptionError, match="not a packaged board"):
        AkrosGame(board_file="no-such-board.toml")


def broken(old: str, new: str, count: int = 1) -> str:
    text = load_board_text()
    assert old in text
    return text.replace(old, new, count)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (broken('id = 4\nenvironment = "F"', 'id = 4\nenvironment = "Q"'),
         r"region 4: unknown environment 'Q'"),
        (broken("neighbours = [1, 5, 8, 9]", "neighbours = [1, 5, 8]"),
         r"region 9 lists 4 as a neighbour but region 4 does not list 9"),
        (broken("neighbours = [1, 5, 8, 9]", "neighbours = [1, 4, 5, 8, 9]"),
         r"region 4 is listed as its own neighbour"),
        (broken("neighbours = [1, 5, 8, 9]", "neighbours = [1, 5, 8, 9, 30]"),
         r"region 4: neighbour 30 is not a region"),
        (broken("ifrit = [5, 10, 11, 14]", "ifrit = [5, 10, 11, 24]"),
         r"Ifrit servant on region 24, which is not a region"),
        (broken("ifrit = [5, 10, 11, 14]", "ifrit = [5, 10, 11, 13]"),
         r"region 13 is taken twice \(Jinn and Ifrit\)"),
        (broken("jinn = [2, 7, 13, 18]", "jinn = [2, 7, 7, 18]"),
         r"region 7 is taken twice \(Jinn and Jinn\)"),
        (broken("ifrit = [5, 10, 11, 14]", "ifrit = [5, 10, 11]"),
         r"3 Ifrit servants, expected 4"),
        (broken("jinn = [2, 7, 13, 18]", "jinn = [2, 7, 13, 18, 19]"),
         r"5 Jinn servants, expected 4"),
        (broken("id = 19", "id = 18"), r"region 18 is listed twice"),
        (broken("id = 19", "id = 20"), r"region 20: ids must run from 1 to 19"),
        (broken("M = 7", "M = 5"), r"bag holds 17 tiles"),
        (broken("[bag]\nF = 6", "[bag]\nQ = 6"), r"bag: unknown environment 'Q'"),
        (broken("row = 4\ncol = 6", "row = 4\ncol = 4"), r"region 19 has the same row/col as region 18"),
        (broken("neighbours = [15, 16, 18]", ""), r"region 19 has no neighbours list"),
        (broken('name = "dawn"', 'name = "dawn"\ncolour = "red"'), r"unknown key 'colour'"),
        ("this is = not toml [", r"not valid TOML"),
    ],
)  # fmt: skip
def test_board_validation_names_the_fault(text, message):
    with pytest.raises(BoardError, match=message):
        board_from_toml(text, source="test")


def test_board_errors_are_option_errors(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(broken('id = 4\nenvironment = "F"', 'id = 4\nenvironment = "Q"'))
    with pytest.raises(InvalidOptionError, match="region 4"):
        AkrosGame(board_file=str(path))


def test_default_board_records_need_no_board_tag():
    assert AkrosGame().record_tags() == {}


def test_records_carry_a_custom_board(tmp_path):
    path = tmp_path / "mini.toml"
    path.write_text(example_toml())
    game = AkrosGame(board_file=str(path))
    states, actions = random_game(5, game)
    record = make_record(game, actions, players=("random", "random"), final=states[-1])
    tags = record.tags
    assert tags["Board"] == "examples" and "\n" not in tags["BoardData"]
    assert tags["Jinn"] == "random" and tags["Ifrit"] == "random"
    path.unlink()  # another machine: the file is not there
    replayed = Record.parse(str(record)).replay()
    assert replayed[0].game == game
    assert [str(s) for s in replayed] == [str(s) for s in states]
    assert replayed[-1] == states[-1]
