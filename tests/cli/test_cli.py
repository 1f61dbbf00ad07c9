"""The ``gamehall`` command line, run in-process through its entry point ``main``.

Every bad input must end with exit status 2 and one line on stderr, never a traceback.
"""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console
from rich.text import Text

from gamehall.cli.app import main
from gamehall.cli.human import HumanAgent, QuitGame
from gamehall.core import Record, find_game

EXAMPLE = "3,0,2,2,1,1,2,2,1/1,0,1,1,1,2,2,1,5 d -"
OVER = "4,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 d -"  # nobody can capture: the round is over


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Run the CLI; return (exit status, stdout, stderr)."""
    try:
        main(list(argv))
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    assert code == 2
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0]


# --- moves and apply -------------------------------------------------------------------------------


def test_moves_lists_one_per_line(capsys):
    code, out, err = run(capsys, "moves", "acadmu", EXAMPLE)
    assert code == 0 and err == ""
    expected = [str(a) for a in find_game("acadmu").parse_state(EXAMPLE).legal_actions()]
    assert out.splitlines() == expected
    assert "RTxBS" in expected and "RTxYS" not in expected


def test_moves_prints_nothing_when_the_round_is_over(capsys):
    code, out, err = run(capsys, "moves", "acadmu", OVER)
    assert (code, out, err) == (0, "", "")


def test_moves_json(capsys):
    code, out, _ = run(capsys, "moves", "acadmu", EXAMPLE, "--json")
    assert code == 0
    payload = json.loads(out)
    assert payload["moves"][:2] == ["RTxBT", "RTxBS"]
    assert payload["over"] is False
    assert payload["to_move"] == "dark"
    assert payload["score"] == {"dark": 0.0, "light": 0.0}
    code, out, _ = run(capsys, "moves", "acadmu", OVER, "--json")
    payload = json.loads(out)
    assert payload["moves"] == []
    assert payload["over"] is True
    assert payload["score"] == {"dark": 3.0, "light": 0.0}
    assert payload["winner"] == "dark"


def test_moves_with_a_variant(capsys):
    lone = "0,0,0,1,0,0,0,0,0/0,1,1,0,0,0,0,0,0 d -"
    assert run(capsys, "moves", "acadmu", lone)[1].split() == ["pass"]
    code, out, _ = run(
        capsys, "moves", "acadmu", lone, "-V", "shape_capture_takes_one_if_last=true"
    )
    assert (code, out.split()) == (0, ["BTxRS"])


def test_apply_prints_the_resulting_position(capsys):
    code, out, err = run(capsys, "apply", "acadmu", EXAMPLE, "RTxBS")
    assert code == 0 and err == ""
    assert out.strip() == "2,0,2,2,1,1,2,2,1/1,0,1,1,0,2,2,1,5 l -"
    code, out, _ = run(capsys, "apply", "acadmu", EXAMPLE, "RTxBS", "RTxBT")
    assert out.strip() == "2,0,2,1,1,1,2,2,1/0,0,1,1,0,2,2,1,5 d -"


def test_apply_chance_in_a_match(capsys):
    code, out, _ = run(capsys, "apply", "acadmu", "draw", "draw RT:BT/RS:BS")
    assert (code, out.strip()) == (0, "pour d 0-0")


def test_illegal_move_is_one_line(capsys):
    code, _, err = run(capsys, "apply", "acadmu", EXAMPLE, "RTxBS", "RTxYS")
    assert_one_line_error(code, err, "move 2", "RTxYS", "Red does not beat Yellow")


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["moves", "acadmu", "bad position"], "expected"),
        (["moves", "acadmu", "7,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 d -"], "7 RT"),
        (["apply", "acadmu", EXAMPLE, "RTxQQ"], "move 1"),
        (["moves", "chess", EXAMPLE], "unknown game"),
        (["moves", "acadmu", EXAMPLE, "-V", "colour=red"], "unknown option"),
        (["moves", "acadmu", EXAMPLE, "-V", "target"], "NAME=VALUE"),
        (["moves", "acadmu", EXAMPLE, "-V", "target=0"], "target"),
        (["play", "acadmu", "--auto", "--target", "-3"], "target"),
        (["play", "acadmu", "--auto", "--jinn", "random"], "--jinn"),
        (["play", "acadmu", "--auto", "--dark", "wizard"], "unknown player"),
        (["moves", "acadmu"], "Missing argument"),
        (["apply", "acadmu", EXAMPLE], "Missing argument"),
        (["frobnicate"], "No such command"),
        (["moves", "acadmu", EXAMPLE, "--nope"], "No such option"),
        (["replay", "/no/such/record.txt"], "cannot read"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, fragment):
    code, _out, err = run(capsys, *argv)
    assert_one_line_error(code, err, fragment)


def test_unicode_digit_position_is_one_line(capsys):
    code, _, err = run(capsys, "moves", "acadmu", "²,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 d -")
    assert_one_line_error(code, err, "expected")


def test_unwritable_save_path_is_one_line(capsys, tmp_path):
    code, _, err = run(
        capsys, "play", "acadmu", "--auto", "--seed", "3", "--save", str(tmp_path / "no" / "x")
    )
    assert_one_line_error(code, err)


def test_non_utf8_record_is_one_line(capsys, tmp_path):
    path = tmp_path / "game.txt"
    path.write_bytes(b'[Game "acadmu"]\n[Dark "Jos\xe9"]\n')
    code, _, err = run(capsys, "replay", str(path))
    assert_one_line_error(code, err)


def test_no_arguments_shows_help_without_an_empty_error(capsys):
    _, out, err = run(capsys)
    assert "Usage" in out + err
    assert "error: \n" not in err and err.strip() != "error:"


def test_help_exits_0(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "moves" in out and "replay" in out


# --- play, save and replay -------------------------------------------------------------------------


def test_auto_play_saves_a_record_that_replays(capsys, tmp_path):
    path = tmp_path / "game.txt"
    code, out, err = run(capsys, "play", "acadmu", "--auto", "--seed", "3", "--save", str(path))
    assert code == 0 and err == ""
    assert "Result" in out
    record = Record.parse(path.read_text(encoding="utf-8"))
    assert record.tags["Game"] == "acadmu"
    assert record.tags["Seed"] == "3"
    states = record.replay()
    final = states[-1]
    assert final.is_terminal()
    assert record.tags["Result"] == final.outcome().result_tag()
    code, out, err = run(capsys, "replay", str(path), "--final")
    assert (code, out.strip(), err) == (0, str(final), "")


def test_play_with_a_target_records_the_variant(capsys, tmp_path):
    path = tmp_path / "short.txt"
    code, *_ = run(
        capsys, "play", "acadmu", "--auto", "--seed", "1", "--target", "3", "--save", str(path)
    )
    assert code == 0
    record = Record.parse(path.read_text())
    assert record.tags["Variant"] == "target=3"
    final = record.replay()[-1]
    assert max(final.outcome().scores) >= 3
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert out.strip().endswith(f"{len(record.actions)} moves checked; final position: {final}")
    # The same seed plays the same game.
    again = tmp_path / "again.txt"
    run(capsys, "play", "acadmu", "--auto", "--seed", "1", "--target", "3", "--save", str(again))
    assert Record.parse(again.read_text()).actions == record.actions


def test_tampered_record_names_the_move(capsys, tmp_path):
    path = tmp_path / "game.txt"
    run(capsys, "play", "acadmu", "--auto", "--seed", "3", "--save", str(path))
    record = Record.parse(path.read_text())
    number = next(
        i for i, text in enumerate(record.actions, 1) if not text.startswith(("draw", "pour"))
    )
    record.actions[number - 1] = "RTxRT"  # same colour, same shape: never legal
    path.write_text(str(record))
    code, _, err = run(capsys, "replay", str(path), "--final")
    assert_one_line_error(code, err, f"move {number}", "RTxRT")


# --- a person at the terminal ----------------------------------------------------------------------


def scripted(*lines: str):
    remaining = list(lines)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if not remaining:
            raise EOFError
        return remaining.pop(0)

    read.prompts = prompts  # type: ignore[attr-defined]
    return read


def human(*lines: str) -> tuple[HumanAgent, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    agent = HumanAgent(
        console, lambda state, last=None: Text(str(state)), seat_name="dark", read=scripted(*lines)
    )
    return agent, out


def test_human_lists_moves_and_picks_by_number():
    state = find_game("acadmu").parse_state(EXAMPLE)
    agent, out = human("?", "2")
    assert agent.choose(state) == state.legal_actions()[1]
    shown = out.getvalue()
    # Each in words, the notation beside it.
    assert "1. Dark's Red Triangle takes a Blue Triangle, by colour  RTxBT" in shown
    assert "2. Dark's Red Triangle takes a Blue Square, by colour  RTxBS" in shown
    assert agent.seat == 0


def test_human_bad_move_is_explained_and_asked_again():
    state = find_game("acadmu").parse_state(EXAMPLE)
    agent, out = human("RTxYS", "nonsense", "", "999", "RTxBS+YS")
    assert str(agent.choose(state)) == "RTxBS+YS"
    shown = out.getvalue()
    assert "Red does not beat Yellow" in shown
    assert "expected" in shown
    assert len(agent.read.prompts) == 5


@pytest.mark.parametrize("word", ["quit", "q", "EXIT"])
def test_human_quit(word):
    agent, _ = human(word)
    with pytest.raises(QuitGame):
        agent.choose(find_game("acadmu").parse_state(EXAMPLE))


def test_human_end_of_input_quits():
    agent, _ = human()
    with pytest.raises(QuitGame):
        agent.choose(find_game("acadmu").parse_state(EXAMPLE))


def test_human_superscript_digit_is_asked_again():
    state = find_game("acadmu").parse_state(EXAMPLE)
    agent, _ = human("²", "1")
    assert agent.choose(state) == state.legal_actions()[0]


def test_quit_then_resume(capsys, tmp_path, monkeypatch):
    path = tmp_path / "game.txt"
    # Dark is the person: take the first listed move twice, then quit.
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\nquit\n"))
    code, out, err = run(
        capsys,
        "play",
        "acadmu",
        "--dark",
        "human",
        "--light",
        "random",
        "--seed",
        "8",
        "--save",
        str(path),
    )
    assert code == 0, err
    assert "Game stopped" in out
    partial = Record.parse(path.read_text())
    assert partial.tags["Result"] == "*"
    states = partial.replay()
    assert not states[-1].is_terminal()
    assert len(partial.actions) >= 3
    code, out, err = run(capsys, "play", "acadmu", "--resume", str(path), "--auto")
    assert code == 0, err
    assert "Result" in out
    finished = Record.parse(path.read_text())
    assert finished.actions[: len(partial.actions)] == partial.actions
    assert len(finished.actions) > len(partial.actions)
    final = finished.replay()[-1]
    assert final.is_terminal()
    assert finished.tags["Result"] == final.outcome().result_tag()
    # A finished game cannot be resumed.
    code, _, err = run(capsys, "play", "acadmu", "--resume", str(path), "--auto")
    assert_one_line_error(code, err, "already over")


def test_resume_a_hand_written_partial_record(capsys, tmp_path):
    path = tmp_path / "partial.txt"
    path.write_text(
        '[Game "acadmu"]\n[Variant "target=2"]\n[Seed "5"]\n[Result "*"]\n\n1. draw RT:BT/RS:BS\n'
    )
    code, _out, err = run(capsys, "play", "acadmu", "--resume", str(path), "--auto")
    assert code == 0, err
    record = Record.parse(path.read_text())
    assert record.actions[0] == "draw RT:BT/RS:BS"
    assert record.tags["Variant"] == "target=2"
    assert record.replay()[-1].is_terminal()
    code, _, err = run(capsys, "play", "akros", "--resume", str(path), "--auto")
    assert_one_line_error(code, err)
