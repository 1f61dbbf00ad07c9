"""The exact-analysis commands: hint and solve speak from the mover's side and keep stdout clean,
warm-up readies every solver."""

from __future__ import annotations

import json
import re

from gamehall.cli.app import main

LATE_AKROS = (
    "turn=9 step=jinn-keep bag=F0S0M0 temple=-/-/- draft=FM jinn=- ifrit=- out=FS "
    "regions=2I,0,0,1,1,1J,0,0,1J,1,2I,1I,1J,0,1,1,1I,0,1J"
)
SMALL_ROUND = "1,0,0,4,0,0,0,0,2/0,2,2,1,1,0,2,0,0 d -"


def test_hint_speaks_from_the_movers_side_and_shows_the_line(capsys):
    main(["hint", "acadmu", SMALL_ROUND, "--count", "2"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Dark to move. With best play ")
    text = "\n".join(out)
    assert out[1].startswith("1. Best: ") and "(exact; " in text
    assert "   Perfect play after it: " in text
    assert "Not every move is settled" not in text


def test_hint_json_has_values_lines_and_proof(capsys):
    main(["hint", "akros", LATE_AKROS, "--json", "--count", "5"])
    payload = json.loads(capsys.readouterr().out)
    assert payload["to_move"] == "jinn" and payload["proven"]
    assert payload["value"]["exact"]
    for hint in payload["hints"]:
        assert hint["exact"] and hint["method"] == "exact"
        assert hint["value"]["value"] in (0, 1)
        assert "Jinn (you)" in hint["evaluation"]


def test_solve_and_hint_print_nothing_but_the_answer(capsys):
    main(["solve", "akros", LATE_AKROS, "--json"])
    captured = capsys.readouterr()
    assert json.loads(captured.out)["exact"]
    assert captured.err == ""  # the status line is drawn only on a terminal


def test_warm_up_readies_every_solver(capsys):
    main(["warm-up"])
    out = capsys.readouterr().out
    # Each step on a line of its own as it ends, numbered: [step/steps] what: ready in N s.
    lines = out.splitlines()
    steps = [line for line in lines if line.startswith("[")]
    total = len(steps)
    assert [line.split("]")[0] for line in steps] == [f"[{n}/{total}" for n in range(1, total + 1)]
    for told in (
        "Äcädmü solver",
        "Äcädmü compiled search",
        "Äcädmü simulator",
        "Akros solver",
        "Akros compiled search",
        "Akros simulator",
        "Äcädmü batched games",
        "Akros batched games",
    ):
        assert any(re.search(rf"\] {told}: ready in [0-9.]+ s$", line) for line in steps), told
    assert lines[-1].startswith("Warm-up done in ")
