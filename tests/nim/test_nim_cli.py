"""Nim through the command line, in-process: moves, apply, play (people and computers), replay
and analyze, all with the generic parts (the plain terminal view, no solver, no collector)."""

from __future__ import annotations

import io
import json
import sqlite3

import pytest

from gamehall.cli.app import main
from gamehall.cli.views import plain_view, view_for
from gamehall.core import Record, find_game
from gamehall.tui.session import Session


@pytest.fixture(autouse=True)
def _registered(nim):
    return nim


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Run the CLI; return (exit status, stdout, stderr)."""
    try:
        main(list(argv))
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_moves_lists_the_deal_with_its_probabilities_and_then_the_takes(capsys):
    code, out, _ = run(capsys, "moves", "nim", "?,?,? f", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["chance"] and payload["to_move"] == "chance"
    assert payload["probabilities"] == {f"deal {n}": "1/5" for n in range(1, 6)}
    code, out, _ = run(capsys, "moves", "nim", "2,0,1 s")
    assert (code, out.splitlines()) == (0, ["take 1 from 1", "take 2 from 1", "take 1 from 3"])
    code, out, _ = run(capsys, "moves", "nim", "0,0,0 f", "--json")
    assert json.loads(out)["over"] and json.loads(out)["winner"] == "second"


def test_apply_deals_and_takes(capsys):
    moves = ["deal 3", "deal 1", "deal 2", "take 1 from 1", "take 2 from 3"]
    code, out, err = run(capsys, "apply", "nim", "?,?,? f", *moves)
    assert (code, out, err) == (0, "2,1,0 f\n", "")
    code, out, err = run(capsys, "apply", "nim", "2,1,0 f", "take 1 from 3")
    assert code == 2 and out == ""
    assert "move 1 (take 1 from 3)" in err and "heap 3 has 0 objects" in err


def test_auto_play_with_a_variant_saves_a_record_that_replays(capsys, tmp_path):
    path = tmp_path / "nim.txt"
    argv = ["play", "nim", "--auto", "--seed", "3", "--variant", "misere=true"]
    code, out, _ = run(
        capsys, *argv, "--first", "medium", "--second", "random", "--save", str(path)
    )
    assert code == 0 and "Result " in out and "(misère)" in out
    record = Record.parse(path.read_text())
    assert record.tags["Variant"] == "misere=true"
    assert (record.tags["First"], record.tags["Second"]) == ("medium", "random")
    final = record.replay()[-1]
    assert final.is_terminal() and record.tags["Result"] == final.outcome().result_tag()
    code, out, _ = run(capsys, "replay", str(path), "--final")
    assert (code, out) == (0, f"{final}\n")


def test_a_person_plays_through_the_plain_view(capsys, monkeypatch):
    # The first player types a listed number, a move in notation, a bad move, then stops.
    monkeypatch.setattr("sys.stdin", io.StringIO("?\n1\ntake 9 from 1\nquit\n"))
    code, out, _ = run(capsys, "play", "nim", "--seed", "3", "--second", "random")
    assert code == 0 and "Game stopped" in out and "not saved" in out
    # The position chance deals from seed 3 (one draw per action number), and whose turn.
    dealt = Session(find_game("nim"), ["human", "random"], seed=3)
    while dealt.state.is_chance_node():
        dealt.play_chance()
    assert f"{dealt.state}\n" in out and "First to move" in out
    # ? lists the moves, numbered, in columns that fit the terminal, no line padded at its end
    assert "1. First: take 1 from 1" in out and "7. First: take 2 from 3" in out
    listed = [line for line in out.splitlines() if ". First: " in line]
    assert listed and all(line == line.rstrip() for line in listed)
    assert "illegal action 'take 9 from 1'" in out


def test_the_plain_view_is_the_fallback(nim):
    assert nim.view is None and view_for("nim") is plain_view


def test_analyze_runs_and_reports_without_a_collector(capsys, tmp_path):
    argv = ["analyze", "nim", "--players", "greedy,random", "--games", "12", "--workers", "1"]
    code, out, err = run(capsys, *argv, "--out", str(tmp_path))
    assert code == 0, err
    assert "12 games" in out
    with sqlite3.connect(tmp_path / "games.sqlite") as db:
        assert db.execute("select count(*) from games").fetchone() == (12,)
    report = (tmp_path / "report.md").read_text()
    assert "analyze nim" in report and "Win rates" in report


def test_a_tournament_ranks_the_levels(capsys, tmp_path):
    argv = ["tournament", "nim", "--players", "random,medium", "--games", "4", "--workers", "1"]
    code, out, err = run(capsys, *argv, "--out", str(tmp_path))
    assert code == 0, err
    assert "medium" in out and (tmp_path / "ranking.md").is_file()


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["solve", "nim", "3,4,5 f"], "no exact solver for nim"),
        (["analyze", "nim", "--exact", "--deals", "2", "--workers", "1"], "nim has none"),
        (["play", "nim", "--auto", "--dark", "random"], "nim's seats are --first, --second"),
    ],
)
def test_what_nim_lacks_is_a_clean_error(capsys, tmp_path, argv, fragment):
    code, _, err = run(capsys, *argv, *(["--out", str(tmp_path)] if "analyze" in argv else []))
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1
