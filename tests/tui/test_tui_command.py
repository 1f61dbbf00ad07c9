"""``gamehall tui``'s arguments: which game it opens (new, --resume, --load, --position), and
bad arguments as one line with exit status 2, before any screen opens."""

from __future__ import annotations

import pytest

from gamehall.cli.app import main
from gamehall.core import Record
from gamehall.tui.app import GamehallApp
from gamehall.tui.session import data_dir


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        main(list(argv))
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_line_error(code: int, err: str, fragment: str) -> None:
    assert code == 2 and "Traceback" not in err
    (line,) = err.strip().splitlines()
    assert line.startswith("error: ") and fragment in line, line


@pytest.fixture
def opened(monkeypatch):
    """The sessions the command would show, instead of running the app."""
    sessions = []

    def run_app(self, *args, **kwargs):
        sessions.append(self.session)

    monkeypatch.setattr(GamehallApp, "run", run_app)
    return sessions


def test_a_new_game_is_saved_at_once_and_resumes(capsys, opened):
    code, out, err = run(
        capsys, "tui", "akros", "--jinn", "human", "--ifrit", "hard", "--seed", "4"
    )
    assert code == 0, err
    (session,) = opened
    assert session.players == ["human", "hard"]
    assert session.save_path.parent == data_dir() and session.save_path.is_file()
    assert "--resume" in out
    session.play(session.chance_action())  # the first draw, saved
    code, out, err = run(capsys, "tui", "--resume")
    assert code == 0, err
    resumed = opened[1]
    assert resumed.save_path == session.save_path
    assert resumed.state == session.state and resumed.players == ["human", "hard"]


def test_load_and_position(capsys, opened, tmp_path):
    record = tmp_path / "game.txt"
    record.write_text(str(Record(tags={"Game": "acadmu", "Variant": "target=3", "Seed": "5"})))
    code, _, err = run(capsys, "tui", "--load", str(record), "--dark", "easy")
    assert code == 0, err
    assert opened[0].players == ["easy", "easy"] and opened[0].save_path != record
    position = "3,0,2,2,1,1,2,2,1/1,0,1,1,1,2,2,1,5 d -"
    code, _, err = run(capsys, "tui", "acadmu", "--position", position)
    assert code == 0, err
    assert str(opened[1].state) == position
    assert opened[1].record().tags["SetUp"] == position


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["tui", "--dark", "hard"], "name the game"),  # alone, tui opens the start screen
        (["tui", "--resume"], "no unfinished game"),
        (["tui", "acadmu", "--resume", "--position", "x"], "at most one"),
        (["tui", "acadmu", "--clock", "soon"], "MINUTES"),
        (["tui", "acadmu", "--clock", "0"], "minutes"),
        (["tui", "acadmu", "--dark", "wizard"], "unknown player"),
        (["tui", "acadmu", "--jinn", "human"], "--jinn"),
        (["tui", "acadmu", "--position", "nonsense"], "expected"),
        (["tui", "--connect", "ftp://nowhere"], "game link"),
        (["tui", "--connect", "http://127.0.0.1:9/game/g_x"], "cannot reach"),
        (["tui", "--load", "/no/such/file.txt"], "cannot read"),
    ],
)
def test_bad_arguments_are_one_line(capsys, opened, argv, fragment):
    code, _, err = run(capsys, *argv)
    assert_one_line_error(code, err, fragment)
    assert opened == []
