"""Golden playthroughs are a part of each game's plugin: a file in its package, declared by its
record, written and checked by the shipped kit (gamehall.testing.playthrough).

Every game that declares one is checked against it by the conformance suite
(``tests/core/test_core_protocol.py`` for the installed games, ``tests/nim`` for Nim); here, the
machinery: the games in this tree declare theirs and the files ship in their packages, a change
shows as a diff, regenerating writes the file in the game's own package, and a game installed
from elsewhere without one is no failure of gamehall's suite.
"""

from __future__ import annotations

from dataclasses import replace
from importlib import resources
from pathlib import Path

import pytest

from gamehall.core import GamePlugin, Playthrough, Playthroughs, find_plugin, plugins
from gamehall.testing import ConformanceError, check_game, registered
from gamehall.testing.playthrough import (
    check_playthrough,
    playthrough_checks,
    playthrough_text,
    write_playthrough,
)
from tests.nim.game import NimGame
from tests.nim.plugin import FIXED, PLUGIN, registered_test_only_games
from tests.playthroughs import main, with_playthroughs
from tests.playthroughs.outside import outside_game

HERE = Path(__file__).resolve().parent
GAMES = Path(__file__).resolve().parents[2] / "src" / "gamehall" / "games"


def test_every_game_in_the_tree_declares_a_playthrough_that_ships_in_its_package():
    in_tree = {path.name for path in GAMES.iterdir() if (path / "__init__.py").is_file()}
    declared = {name for name in with_playthroughs() if name in in_tree}
    assert declared == in_tree
    for name in sorted(declared):
        plugin = find_plugin(name)
        assert plugin.playthrough is not None
        entry = resources.files(plugin.package).joinpath(plugin.playthrough.file)
        assert entry.is_file(), f"{plugin.package} has no {plugin.playthrough.file}"
        assert plugin.playthrough_text() == entry.read_text(encoding="utf-8")
        assert plugin.playthrough_text().startswith(f"# Golden playthroughs of {name}: ")


def test_no_golden_file_is_left_in_the_host_suite():
    """The files live with their games; this folder holds only the machinery's tests."""
    assert sorted(HERE.glob("*.txt")) == []
    assert resources.files(PLUGIN.package).joinpath("playthroughs.txt").is_file()  # tests/nim


def test_the_host_tool_finds_every_declared_playthrough_and_they_all_match(capsys):
    assert {"nim", *[n for n, p in plugins().items() if p.playthrough]} <= set(with_playthroughs())
    assert "fixed_nim" not in with_playthroughs()  # it declares none
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "nim: unchanged" in out


def test_a_change_shows_as_a_diff_and_says_how_to_regenerate():
    """The comparison is not vacuous: another seed is another text, and the failure shows the
    difference."""
    golden = PLUGIN.playthrough_text()
    assert golden is not None and PLUGIN.playthrough is not None
    first, *rest = PLUGIN.playthrough.games
    reseeded = (Playthrough(first.seed + 1, first.options), *rest)
    with registered_test_only_games():
        assert playthrough_text("nim", reseeded) != golden
    changed = replace(PLUGIN, playthrough=replace(PLUGIN.playthrough, games=reseeded))
    with registered(changed) as name, pytest.raises(ConformanceError) as info:
        check_playthrough(name)
    message = str(info.value)
    assert message.startswith("nim no longer plays as its golden playthrough says:\n")
    assert "--- playthroughs.txt\n+++ now\n@@ " in message
    assert "regenerate with `gamehall check-game nim --regen`" in message


def test_a_game_without_a_playthrough_is_no_failure():
    """A third-party game need not bring one (OpenSpiel: playthroughs are optional)."""
    with registered(FIXED) as name:
        assert playthrough_checks(name) == []
        assert "fixed_nim" not in with_playthroughs()
    bare = GamePlugin(game=NimGame)
    assert with_playthroughs({"nim": bare}) == []


def test_an_outside_game_writes_and_checks_its_playthrough_in_its_own_package(tmp_path):
    with outside_game(tmp_path) as plugin, registered(plugin) as name:
        golden = Path(str(resources.files(plugin.package).joinpath("golden.txt")))
        with pytest.raises(ConformanceError, match=r"golden\.txt is missing from outside_"):
            check_playthrough(name)
        path, changed = write_playthrough(name)
        assert (path, changed) == (golden, True)
        assert golden.read_text(encoding="utf-8").startswith(
            "# Golden playthroughs of pebbles: seeded random play. Made by gamehall.testing;\n"
            "# regenerate with `gamehall check-game pebbles --regen` and read the diff.\n"
        )
        assert "## Playthrough 2: seed 8, heaps=2" in golden.read_text(encoding="utf-8")
        assert write_playthrough(name) == (golden, False)
        check_game(plugin)  # conformance and the playthrough, from the installed kit alone
        golden.write_text(golden.read_text(encoding="utf-8").replace("take", "grab", 1))
        with pytest.raises(ConformanceError, match="pebbles no longer plays"):
            check_playthrough(name)
    assert "pebbles" not in plugins()


def test_a_playthrough_declaration_is_a_value():
    declared = Playthroughs("p.txt")
    assert declared.games == (Playthrough(1), Playthrough(2))
    assert Playthrough(3, {"heaps": 2}).options == {"heaps": 2}
