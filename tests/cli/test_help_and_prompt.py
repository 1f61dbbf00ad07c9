"""What a player reads first: ``gamehall --help`` in the order a player needs its commands, with
whole descriptions; ``play -h`` with every seat option; the prompt's ``?`` in columns that fit the
terminal; no line with trailing spaces; every error starting "error:"."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from gamehall.cli.app import SECTIONS, app, summary
from gamehall.cli.human import QuitGame, move_columns, read_move
from gamehall.core import find_game, find_plugin, game_names
from tests.cli.test_cli import EXAMPLE, assert_one_line_error, run


def _commands(out: str) -> list[str]:
    """The command names of ``--help``, in the order listed (two spaces, a name, two spaces)."""
    return re.findall(r"^  ([a-z][a-z-]*)  ", out, flags=re.MULTILINE)


def test_help_lists_play_tui_serve_first_in_sections_with_whole_descriptions(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    code, out, err = run(capsys, "--help")
    assert code == 0 and err == ""
    listed = _commands(out.split("Play:", 1)[1])
    assert listed[:3] == ["play", "tui", "serve"]
    sections = [title for title, _ in SECTIONS]
    assert [out.index(f"\n{title}:\n") for title in sections] == sorted(
        out.index(f"\n{title}:\n") for title in sections
    )
    research = out.split("Research and game design:", 1)[1]
    assert "analyze" in _commands(research) and "analyze" not in _commands(
        out.split("Research and game design:", 1)[0]
    )
    # Whole descriptions: nothing cut with "...", each summary there in full (wrapped).
    assert "..." not in out.split("Options:", 1)[1]
    flat = "".join(out.split())  # Click wraps lines, at a hyphen too
    group = app_group()
    for name in listed:
        assert "".join(summary(group.commands[name]).split()) in flat, name
    assert all(line == line.rstrip() for line in out.splitlines())


def app_group():
    import typer.main

    return typer.main.get_group(app)


def test_play_help_lists_every_seat_option(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    code, out, err = run(capsys, "play", "-h")
    assert code == 0 and err == ""
    seats = out.split("Seat options", 1)[1]
    for name in game_names():
        game = find_plugin(name).game
        for seat in game.player_names:
            assert re.search(rf"^  --{seat} PLAYER +{re.escape(game.title)}", seats, re.M), seat
    assert all(line == line.rstrip() for line in out.splitlines())


def _prompt(width: int, *typed: str, position: str = EXAMPLE) -> list[str]:
    """What the play prompt prints for the lines ``typed`` (then quit), on a terminal of
    ``width`` columns."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, force_terminal=True, color_system=None)
    state = find_game("acadmu").parse_state(position)
    answers = iter([*typed, "quit"])
    with pytest.raises(QuitGame):
        read_move(console, lambda prompt: next(answers), state)
    return buffer.getvalue().splitlines()


@pytest.mark.parametrize("width", [60, 80, 160, 240, 400])
def test_question_mark_prints_the_moves_in_columns_that_fit_the_terminal(width):
    state = find_game("acadmu").parse_state(EXAMPLE)
    legal = state.legal_actions()
    lines = _prompt(width, "?")
    assert lines and all(line == line.rstrip() for line in lines)
    # One move a line (width 0): the widest line is the indent and the widest move.
    widest = max(len(line.plain) for line in move_columns(state, legal, 0))
    # Every line fits (unless a single move is wider than the terminal).
    assert all(len(line) <= max(width, widest) for line in lines)
    numbers = [int(n) for line in lines for n in re.findall(r"(?:^|\s)(\d+)\. ", line)]
    assert sorted(numbers) == list(range(1, len(legal) + 1))
    columns = max(1, (width + 3 - 2) // (widest - 2 + 3))  # a gap of 3, an indent of 2
    assert len(lines) == -(-len(legal) // columns)
    if width >= 2 * widest + 3:
        assert len(lines) < len(legal), "a wide terminal shows the moves in columns"


def test_the_columns_are_numbered_down_each_column():
    state = find_game("acadmu").parse_state(EXAMPLE)
    legal = state.legal_actions()
    lines = [line.plain for line in move_columns(state, legal, 240)]
    rows = len(lines)
    firsts = [int(n) for n in re.findall(r"(?:^|\s)(\d+)\. ", lines[0])]
    assert firsts == list(range(1, len(legal) + 1, rows))


def test_the_prompts_hint_and_the_hint_command_have_no_trailing_spaces(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    lines = _prompt(80, "hint")
    assert any("best" in line.lower() or "wins" in line.lower() for line in lines), lines
    assert all(line == line.rstrip() for line in lines)
    code, out, _ = run(capsys, "hint", "acadmu", EXAMPLE, "--seconds", "1")
    assert code == 0 and out.strip()
    assert all(line == line.rstrip() for line in out.splitlines())


@pytest.mark.parametrize(
    "argv",
    [
        ["frobnicate"],
        ["play"],
        ["play", "nosuchgame"],
        ["play", "acadmu", "--purple", "hard"],
        ["play", "acadmu", "--dark", "grandmaster"],
        ["moves", "acadmu", "not a position"],
        ["hint", "acadmu", EXAMPLE, "--count", "0"],
        ["serve", "--port", "0"],
        ["replay", "/nonexistent/record.txt"],
        ["games", "--bogus"],
        ["warm-up", "extra"],
    ],
)
def test_every_error_starts_with_error(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert_one_line_error(code, err)
