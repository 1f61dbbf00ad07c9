"""``gamehall check-game NAME``: the shipped checks on any registered game, one line per check,
status 1 and a one-line error when one fails, 2 for bad input; ``--regen`` writes the golden
playthrough in the game's own package."""

from __future__ import annotations

import json
from pathlib import Path

from test_cli import assert_one_line_error, run

from gamehall.core import GamePlugin, game_names
from gamehall.testing import registered
from tests.nim.broken import NO_CHANCE, OFF_BY_ONE
from tests.nim.game import NimGame
from tests.nim.plugin import PLUGIN
from tests.playthroughs.outside import outside_game


def test_an_installed_game_passes_every_check(capsys):
    code, out, err = run(capsys, "check-game", "akros")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "ok    conformance  random play conforms, seed 0"
    assert "ok    playthrough  plays as its golden playthrough playthroughs.txt" in lines
    assert "ok    research     PettingZoo api_test" in lines
    assert "ok    research     OpenSpiel's game type says what the facts declare" in lines
    assert lines[-1] == f"akros: all {len(lines) - 1} checks passed"


def test_a_test_only_game_runs_the_research_checks_on_each_of_its_parts(capsys):
    with registered(PLUGIN):
        code, out, err = run(capsys, "check-game", "nim", "--json")
    assert code == 0, err
    payload = json.loads(out)
    assert payload["game"] == "nim" and payload["ok"] and payload["failed"] == 0
    kinds = {check["kind"] for check in payload["checks"]}
    assert kinds == {"conformance", "playthrough", "research"}
    assert all(check["status"] == "ok" for check in payload["checks"])


def test_a_broken_game_fails_with_the_checks_named_and_status_1(capsys):
    with registered(OFF_BY_ONE):
        code, out, err = run(capsys, "check-game", "off_by_one")
    assert code == 1
    assert (
        "FAIL  conformance  actions have dense indices: off_by_one: index_action(0) is "
        "'take 2 from 1', whose action_index is 1"
    ) in out
    assert "ok    conformance  an unknown option is refused" in out
    assert "skip  research     research adapters: off_by_one offers no research adapters" in out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    assert lines[0].startswith("error: off_by_one fails ")
    assert "conformance: actions have dense indices" in lines[0]


def test_facts_that_deny_chance_fail_two_checks_and_crash_nothing(capsys):
    with registered(NO_CHANCE):
        code, out, err = run(capsys, "check-game", "nim")
    assert code == 1
    failed = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert [line.split(":")[0] for line in failed] == [
        "FAIL  conformance  the declared facts hold",
        "FAIL  research     OpenSpiel random_sim_test",
    ]
    assert "ok    research     PettingZoo api_test" in out
    assert err.startswith("error: nim fails 2 of ") and len(err.strip().splitlines()) == 1


def test_an_unknown_game_is_one_line_and_status_2(capsys):
    code, _, err = run(capsys, "check-game", "no-such-game")
    assert_one_line_error(code, err, "unknown game 'no-such-game'", "akros")


def test_regen_needs_a_declared_playthrough(capsys):
    with registered(GamePlugin(game=NimGame)):
        code, _, err = run(capsys, "check-game", "nim", "--regen")
    assert_one_line_error(code, err, "nim declares no golden playthrough")


def test_regen_writes_the_file_in_the_games_own_package(capsys, tmp_path):
    with outside_game(tmp_path) as plugin, registered(plugin):
        golden = Path(tmp_path / plugin.package / "golden.txt")
        code, out, _ = run(capsys, "check-game", "pebbles", "--no-research")
        assert code == 1
        assert "FAIL  playthrough  plays as its golden playthrough golden.txt: pebbles's" in out
        code, out, err = run(capsys, "check-game", "pebbles", "--regen", "--no-research")
        assert code == 0, err
        assert out.splitlines()[0] == f"{golden}: rewritten"
        assert golden.is_file()
        code, out, _ = run(capsys, "check-game", "pebbles", "--regen", "--no-research", "--json")
        assert code == 0
        assert json.loads(out)["regenerated"] == {"file": str(golden), "changed": False}
    assert "pebbles" not in game_names()
