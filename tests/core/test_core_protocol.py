"""The conformance suite over every registered game, plus options and records on the core protocol.

Games are found only through the registry, so a new game is covered as soon as it registers; a
game whose plugin does not load fails ``test_every_installed_game_loads`` rather than vanishing.
The suite is the shipped one (:class:`gamehall.testing.GameConformance`), the same a game's
author runs on their game.
"""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest

from gamehall.core import (
    GamehallError,
    IllegalActionError,
    InvalidOptionError,
    Record,
    RecordError,
    UnknownGameError,
    find_game,
    game_class,
    game_names,
)
from gamehall.core.registry import ENTRY_POINT_GROUP
from gamehall.testing import GameConformance


def test_the_registry_has_acadmu():
    assert "acadmu" in game_names()
    assert game_class("Tokens") is game_class("acadmu")
    assert game_class("Äcädmü") is game_class("acadmu")
    with pytest.raises(UnknownGameError, match="nope"):
        find_game("nope")


def test_every_installed_game_loads():
    """A plugin that fails to load is logged and left out of the registry; here it fails."""
    installed = {entry.name for entry in entry_points(group=ENTRY_POINT_GROUP)}
    assert installed, "no game is installed: is gamehall installed (pip install -e .)?"
    assert installed <= set(game_names())


class TestEveryRegisteredGame(GameConformance):
    """The conformance suite (gamehall.testing) for each game registered at collection, its
    golden playthrough included where it declares one."""

    @pytest.fixture(params=game_names())
    def name(self, request: pytest.FixtureRequest) -> str:
        return request.param


def test_variant_text_round_trips():
    game = find_game("acadmu", target="18", shape_capture_takes_one_if_last="yes")
    assert game.options["target"] == 18
    assert game.options["shape_capture_takes_one_if_last"] is True
    text = game.variant_text()
    assert "target=18" in text
    assert type(game).from_variant_text(text) == game
    with pytest.raises(InvalidOptionError):
        type(game).from_variant_text("target")


# --- records ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('[Game "acadmu"\n\n1. pass\n', "line 1"),
        ("[Game acadmu]\n\n1. pass\n", "header tag"),
        ('[Game "acadmu"]\n\n1. draw RT:BS/YC:RT\n3. pass\n', "expected move number 2, found 3"),
        ('[Game "acadmu"]\n\n2. draw RT:BS/YC:RT\n', "expected move number 1"),
        ('[Game "acadmu"]\n\n1 draw RT:BS/YC:RT\n', "numbered action"),
        ('[Game "acadmu"]\n\n1. draw RT:BS/YC:RT\n[Seed "3"]\n', "line 4"),
        ('[Seed "3"]\n\n1. draw RT:BS/YC:RT\n', "Game"),
        ("", "Game"),
    ],
)
def test_bad_record_text(text, fragment):
    with pytest.raises(RecordError, match=fragment):
        Record.parse(text)


def test_record_comments_and_escapes():
    text = '# a comment\n[Game "acadmu"]\n[Dark "the \\"best\\""]\n\n# moves\n1. draw RT:BS/YC:RT\n'
    record = Record.parse(text)
    assert record.tags["Dark"] == 'the "best"'
    assert record.actions == ["draw RT:BS/YC:RT"]
    assert Record.parse(str(record)) == record


def test_replay_rejects_unparsable_actions_and_bad_setup():
    record = Record.parse('[Game "acadmu"]\n\n1. draw RT:BS/YC:RT\n2. gibberish\n')
    with pytest.raises(RecordError, match=r"^move 2: ") as info:
        record.replay()
    assert info.value.move_number == 2
    with pytest.raises(RecordError, match="SetUp"):
        Record.parse('[Game "acadmu"]\n[SetUp "nonsense"]\n').replay()
    with pytest.raises(RecordError, match="header"):
        Record.parse('[Game "acadmu"]\n[Variant "target=0"]\n').replay()
    with pytest.raises(UnknownGameError):
        Record.parse('[Game "nope"]\n').replay()


def test_replay_from_setup():
    record = Record.parse(
        '[Game "acadmu"]\n[SetUp "0,0,0,0,2,0,0,0,0/3,0,0,0,0,0,0,0,0 d -"]\n[Result "0-1"]\n\n'
        "1. pass\n2. RTxBS\n3. RTxBS\n"
    )
    states = record.replay()
    assert str(states[-1]) == "0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 l d"
    assert states[-1].is_terminal()


def test_errors_are_value_errors():
    for error in (IllegalActionError, InvalidOptionError, RecordError, UnknownGameError):
        assert issubclass(error, GamehallError)
        assert issubclass(error, ValueError)


def test_an_unknown_game_is_refused_naming_the_games_by_title():
    from gamehall.core import UnknownGameError, find_game

    with pytest.raises(UnknownGameError) as refused:
        find_game("chess")
    message = str(refused.value)
    assert message.startswith("unknown game 'chess': the games are ")
    assert "Äcädmü (acadmu)" in message and "Akros (akros)" in message
