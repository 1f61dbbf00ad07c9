"""Odd input found in review: every one ends in one line and exit status 2, never a traceback."""

from __future__ import annotations

import pytest

from gamehall.cli.app import main
from gamehall.cli.human import HumanAgent
from gamehall.core import find_game, make_record


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        main(list(argv))
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    captured = capsys.readouterr()
    return code, captured.out, captured.err


START = (
    "turn=1 step=draw bag=F6S6M7 temple=-/-/- draft=- jinn=- ifrit=- out=- "
    "regions=0,0J,0,0,0I,0,0J,0,0,0I,0I,0,0J,0I,0,0,0,0J,0"
)


@pytest.mark.parametrize(
    "argv",
    [
        ("moves", "akros", START.replace("turn=1", "turn=²")),
        ("moves", "akros", START.replace("bag=F6", "bag=F" + "6" * 5000)),
        ("apply", "akros", START, "M" + "1" * 5000 + "<1"),
        ("moves", "acadmu", "1" * 5000 + ",0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 d -"),
        ("solve", "acadmu", "draw"),
        ("solve", "acadmu", "pour d 0-0"),
    ],
)
def test_one_line_errors(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert err.startswith("error: ")


def test_record_tags_are_not_markup(capsys, tmp_path):
    game = find_game("acadmu")
    state = game.new_initial_state()
    draw = state.chance_outcomes()[0][0]
    path = tmp_path / "game.txt"
    path.write_text(str(make_record(game, [draw], players=["[/x]", "[bold]"])))
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0, err
    assert "[/x]" in out


def test_a_large_inline_disc_set_can_be_recorded():
    discs = ",".join(["RT:BT", "RS:BS", "RC:BC"] * 30)  # 90 discs: far past a file name's length
    game = find_game("acadmu", discs=discs)
    record = make_record(game, [])
    assert "discs=" in record.tags["Variant"]


def test_markup_typed_at_the_prompt_is_just_a_bad_move(capsys):
    from rich.console import Console

    state = find_game("acadmu").parse_state("3,0,2,2,1,1,2,2,1/1,0,1,1,1,2,2,1,5 d -")
    answers = iter(["[/x]", "1"])
    agent = HumanAgent(Console(), lambda *a: "", read=lambda prompt: next(answers))
    assert agent.choose(state) == state.legal_actions()[0]
