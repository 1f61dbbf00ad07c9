"""The command line's conventions: --version and -h, shell completion, every level in ``play
--help``, --json on every command that prints a result, one board per turn in line-mode play
with its commands (pos, hint, undo, help) and its Ctrl-C, ``serve`` on a busy port, and a
broken pipe."""

from __future__ import annotations

import io
import json
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console
from test_cli import EXAMPLE, assert_one_line_error, run

from gamehall.ai import LEVELS, PLAYERS
from gamehall.cli.human import LinePlay, QuitGame
from gamehall.cli.views import view_for
from gamehall.core import Record, find_game
from gamehall.tui.session import Session

GAMEHALL = Path(sys.executable).with_name("gamehall")


def test_version_and_short_help(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("gamehall ")
    code, out, _ = run(capsys, "-h")
    assert code == 0 and "play" in out and "--install-completion" in out
    code, out, _ = run(capsys, "moves", "-h")
    assert code == 0 and "--variant" in out and "--board" in out and "--json" in out


def test_shell_completion_can_be_shown_and_installed():
    # In a process of its own, as a shell runs it: in-process, Typer's completion answered
    # "not supported" (exit 1) now and then after other tests had run the app.
    # Typer names the shell by the process's parents (a word after the flag is not read), so
    # the command runs under bash, as a user's would; under make's /bin/sh it says "Shell sh not
    # supported". The `; exit` keeps bash from replacing itself with the command.
    shown = subprocess.run(
        ["bash", "-c", '"$0" -m gamehall.cli.app --show-completion; exit $?', sys.executable],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    assert "complete" in shown.stdout and "gamehall" in shown.stdout


def test_play_help_lists_every_level_and_alias(capsys):
    code, out, _ = run(capsys, "play", "--help")
    assert code == 0
    for name in (*LEVELS, *PLAYERS):
        assert name in out, name


@pytest.mark.parametrize("command", ["moves", "apply", "solve", "hint", "tui"])
def test_every_command_on_a_position_takes_variant_and_board(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and "--variant" in out and "--board" in out


@pytest.mark.parametrize(
    "command",
    [
        "moves",
        "apply",
        "solve",
        "hint",
        "replay",
        "play",
        "analyze",
        "compare-boards",
        "tournament",
        "check-game",
    ],
)
def test_every_command_that_prints_a_result_has_json(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and "--json" in out


@pytest.mark.parametrize("command", ["solve", "hint", "analyze"])
def test_every_time_budget_is_seconds(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and "--seconds" in out


# --- --json --------------------------------------------------------------------------------------


def test_apply_json(capsys):
    code, out, _ = run(capsys, "apply", "acadmu", EXAMPLE, "RTxBS", "--json")
    assert code == 0
    payload = json.loads(out)
    assert payload["start"] == EXAMPLE
    assert payload["moves"] == [
        {"action": "RTxBS", "mover": "dark", "position": "2,0,2,2,1,1,2,2,1/1,0,1,1,0,2,2,1,5 l -"}
    ]
    assert payload["position"] == "2,0,2,2,1,1,2,2,1/1,0,1,1,0,2,2,1,5 l -"
    assert payload["to_move"] == "light" and payload["over"] is False


def test_play_auto_json_and_replay_json(capsys, tmp_path):
    path = tmp_path / "game.txt"
    code, out, err = run(
        capsys, "play", "akros", "--auto", "--seed", "2", "--save", str(path), "--json"
    )
    assert code == 0, err
    payload = json.loads(out)
    record = Record.parse(path.read_text())
    final = record.replay()[-1]
    assert payload["result"] == record.tags["Result"] == final.outcome().result_tag()
    assert payload["final"] == str(final)
    assert payload["winner"] in ("jinn", "ifrit")
    assert payload["actions"] == len(record.actions)
    code, out, _ = run(capsys, "replay", str(path), "--json")
    assert code == 0
    replayed = json.loads(out)
    assert [m["action"] for m in replayed["moves"]] == record.actions
    assert replayed["moves"][0]["mover"] == "chance"
    assert replayed["position"] == str(final) and replayed["over"] is True
    assert replayed["tags"]["Game"] == "akros"


def test_json_goes_with_auto(capsys):
    code, _, err = run(capsys, "play", "acadmu", "--json")
    assert_one_line_error(code, err, "--auto")


def test_compare_boards_by_name_with_the_difference(capsys, tmp_path):
    board = Path(__file__).resolve().parents[2] / "src/gamehall/games/akros/boards/dawn.toml"
    code, out, err = run(
        capsys,
        "compare-boards",
        "akros",
        "dawn",
        str(board),
        "--players",
        "random,random",
        "--games",
        "30",
        "--workers",
        "1",
        "--json",
    )
    assert code == 0, err
    payload = json.loads(out)
    first, second = payload["boards"]
    assert first["board"] == "dawn" and first["difference"] is None
    # The same board under the same seeds: the same games, no difference, not significant.
    assert second["wins"] == first["wins"]
    assert second["difference"]["difference"] == 0
    assert second["difference"]["low"] < 0 < second["difference"]["high"]
    assert second["difference"]["significant"] is False
    code, out, _ = run(
        capsys, "compare-boards", "akros", "dawn", "dawn", "--games", "4", "--workers", "1"
    )
    assert code == 0 and "significant" in out and "difference from dawn" in out


def test_compare_boards_needs_two(capsys):
    code, _, err = run(capsys, "compare-boards", "akros", "dawn")
    assert_one_line_error(code, err, "two boards")


def test_analyze_and_tournament_json(capsys, tmp_path):
    code, out, err = run(
        capsys,
        "analyze",
        "acadmu",
        "--players",
        "random,greedy",
        "--games",
        "4",
        "--workers",
        "1",
        "--variant",
        "target=2",
        "--out",
        str(tmp_path / "a"),
        "--json",
    )
    assert code == 0, err
    payload = json.loads(out)
    assert (
        payload["games"] == 4
        and payload["wins"]["A"] + payload["wins"]["B"] + payload["draws"] == 4
    )
    code, out, err = run(
        capsys,
        "tournament",
        "acadmu",
        "--players",
        "random,greedy",
        "--games",
        "2",
        "--workers",
        "1",
        "--variant",
        "target=2",
        "--out",
        str(tmp_path / "t"),
        "--json",
    )
    assert code == 0, err
    payload = json.loads(out)
    assert set(payload["elo"]) == {"random", "greedy"}


# --- line-mode play ------------------------------------------------------------------------------


def scripted(lines):
    remaining = list(lines)

    def read(prompt: str) -> str:
        if not remaining:
            raise EOFError
        item = remaining.pop(0)
        if isinstance(item, BaseException):
            raise item
        return item

    return read


def line_play(session, lines, width=120):
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None)
    player = LinePlay(session, console, view_for(session.game.name), read=scripted(lines))
    return player, out


def test_one_board_per_turn_against_the_computer():
    """An Akros turn draws one board for the person, whatever the computer does meanwhile."""
    session = Session(find_game("akros"), ["human", "beginner"], seed=3)
    # Always the first listed move: the Jinn keeps and places nine times.
    player, out = line_play(session, ["1"] * 40)
    player.run()
    text = out.getvalue()
    boards = text.count("╭")  # each board is one panel
    turns = 9
    assert session.state.is_terminal()
    assert boards <= turns + 2, boards  # one per turn, the first keep and the final position
    # The computer's moves and chance told in words, the notation beside them.
    assert "Ifrit keeps " in text and "Jinn draws " in text and "from the bag (draw " in text


# Six discs: a round the solver proves in milliseconds, so the hint is exact (with its line of
# perfect play) however loaded the machine; on the full set a loaded machine could spend the
# hint's two seconds before the proof and rightly give an estimate instead.
SMALL_DISCS = "RC:RS,BT:BS,YC:YT,RT:BC,YS:BT,RS:YC"


def test_pos_hint_help_and_undo_against_the_computer():
    session = Session(
        find_game("acadmu", target=2, discs=SMALL_DISCS), ["human", "beginner"], seed=5
    )
    # Play until the person is to move, then ask for everything and take a move back.
    while not session.human_to_move():
        if session.chance_to_move():
            session.play_chance()
        else:
            session.play(session.computer_agent().choose(session.state))
    position = str(session.state)
    player, out = line_play(session, ["pos", "help", "hint", "1", "undo", QuitGame()])
    with pytest.raises(QuitGame):
        player.run()
    text = out.getvalue()
    assert position in text
    assert "undo" in text and "hint" in text and "board" in text  # the help lists them
    assert "1. " in text  # the hint's best move
    assert "Perfect play after it: " in text  # and the solver's line after it (a small round)
    assert "Took back" in text
    assert str(session.state) == position  # undo came back to the person's decision


class SlowAgent:
    """The computer's agent, a little slower: long enough for the spinner to show."""

    def __init__(self, agent, seconds: float) -> None:
        self.agent, self.seconds = agent, seconds

    def choose(self, state):
        time.sleep(self.seconds)
        return self.agent.choose(state)

    def __getattr__(self, name):
        return getattr(self.agent, name)


def test_a_thinking_computer_shows_a_spinner_on_a_terminal_and_nothing_in_a_file():
    for terminal in (True, False):
        session = Session(find_game("acadmu", target=1), ["beginner", "human"], seed=1)
        session.agents[0] = SlowAgent(session.agents[0], 0.4)
        out = io.StringIO()
        console = Console(file=out, width=100, force_terminal=terminal, color_system=None)
        player = LinePlay(session, console, view_for("acadmu"), read=scripted([QuitGame()]))
        with pytest.raises(QuitGame):
            player.run()
        text = out.getvalue()
        assert re.search(r"Dark('s .+ takes .+| has no capture.+) \(", text), text  # in words
        assert ("Dark (the computer) is thinking…" in text) is terminal


def test_ctrl_c_says_where_the_game_is_saved(capsys, tmp_path, monkeypatch):
    path = tmp_path / "game.txt"
    monkeypatch.setattr("sys.stdin", io.StringIO(""))

    def interrupt(self, prompt=""):
        raise KeyboardInterrupt

    monkeypatch.setattr(Console, "input", interrupt)
    code, out, _ = run(capsys, "play", "acadmu", "--seed", "1", "--save", str(path))
    assert code == 130
    assert f"saved to {path}" in out and "--resume" in out
    code, out, _ = run(capsys, "play", "acadmu", "--seed", "1")
    assert code == 130
    assert "not saved" in out


# --- errors --------------------------------------------------------------------------------------


def test_serve_on_a_busy_port_is_one_line_exit_2(capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code, _, err = run(capsys, "serve", "--port", str(port))
    assert_one_line_error(code, err, "cannot listen", str(port))


def test_serve_takes_trusted_proxies_and_host_names(capsys, monkeypatch):
    seen: dict = {}
    monkeypatch.setattr("gamehall.web.http.server.serve", lambda **given: seen.update(given))
    monkeypatch.setattr("gamehall.cli.app._check_port", lambda host, port: None)
    argv = ["serve", "--trusted-proxy", "127.0.0.1", "--trusted-proxy", "10.0.0.0/8"]
    code, _, err = run(capsys, *argv, "--host-name", "games.example.org")
    assert code == 0, err
    assert seen["settings"].trusted_proxies == ("127.0.0.1", "10.0.0.0/8")
    assert seen["settings"].host_names == ("games.example.org",)
    code, _, err = run(capsys, "serve", "--trusted-proxy", "proxy.internal")
    assert_one_line_error(code, err, "trusted proxy 'proxy.internal'", "10.0.0.0/8")


@pytest.mark.slow
def test_a_broken_pipe_exits_quietly(tmp_path):
    path = tmp_path / "long.txt"
    run_result = subprocess.run(
        [str(GAMEHALL), "play", "acadmu", "--auto", "--seed", "4", "--save", str(path)],
        capture_output=True,
        check=True,
    )
    assert run_result.returncode == 0
    reader = subprocess.Popen(
        f"'{GAMEHALL}' replay '{path}' --boards | head -1",
        shell=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    out, err = reader.communicate(timeout=120)
    assert out.count(b"\n") == 1
    assert err == b""
