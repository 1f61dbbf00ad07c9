"""The terminal app's analysis board (``gamehall tui GAME --analyse``), driven by Textual's
pilot: every legal move valued beside the board, a move played from the list, back and forward,
a branch, a position set up by typing its text (bad text answered in words, nothing changed),
chance steps picked or drawn at random; and the lines tree on its own."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static, Tree

from gamehall.cli.app import main
from gamehall.core import find_game, make_record
from gamehall.tui import analysis
from gamehall.tui.analysis import RANDOM, AnalysisApp, Pending
from gamehall.tui.lines import MoveTree
from gamehall.tui.position import PositionScreen

pytestmark = pytest.mark.anyio

DESKTOP = (120, 40)
SMALL = (80, 24)
PHONE = (60, 30)
ACADMU = "0,0,4,1,0,0,0,1,1/0,0,0,2,3,0,1,0,2 d - 0-0 l"
"""Dark to move, ten moves: one wins by 1, five draw, four lose (a starter puzzle)."""
OTHER = "0,0,0,2,2,2,2,1,0/2,0,0,0,1,1,0,5,0 d - 0-0 l"
SHOTS = Path(os.environ.get("GAMEHALL_SHOTS", "/tmp/shots34/tuianalyse"))


async def until(pilot: Pilot, condition, timeout: float = 60.0) -> None:
    """Let the app run until ``condition()`` holds (the values come from a worker)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("the app did not get there in time")
        await pilot.pause(0.02)


def valued(app: AnalysisApp) -> bool:
    """Whether the list shows the position's moves with their values."""
    moves = [m for m in app.shown if m is not None]
    return bool(moves) and not any(isinstance(m, Pending) for m in moves)


def text_of(app: AnalysisApp, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


def shoot(app: AnalysisApp, name: str) -> None:
    """An SVG of the screen to look at (outside the repository)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    app.save_screenshot(f"{name}.svg", str(SHOTS))


def acadmu_app(position: str = ACADMU) -> AnalysisApp:
    game = find_game("acadmu")
    return AnalysisApp(game, game.parse_state(position), budget=60.0)


async def test_every_move_is_valued_best_first_and_one_is_played_from_the_list():
    app = acadmu_app()
    start = app.line_tree.state
    async with app.run_test(size=DESKTOP) as pilot:
        await until(pilot, lambda: valued(app))
        moves = [m for m in app.shown if m is not None]
        assert len(moves) == len(start.legal_actions()) == 10
        assert all(m.exact for m in moves)
        assert [m.value for m in moves][:2] == ["+1", "0"]
        assert "With best play: Dark ends +1" in text_of(app, "#verdict")
        assert "all exact" in text_of(app, "#verdict")
        detail = text_of(app, "#detail")
        assert moves[0].label in detail and "Dark ends +1 with best play (exact)" in detail
        shoot(app, "pilot-acadmu-desktop")
        await pilot.press("enter")  # the best move, highlighted first
        await until(pilot, lambda: app.line_tree.current.depth == 1)
        assert app.line_tree.state == start.apply(moves[0].action)
        assert "Light to move" in text_of(app, "#title")
        await until(pilot, lambda: valued(app))
        assert all(m.action in app.line_tree.state.legal_actions() for m in app.shown)


async def test_the_screen_stays_live_while_the_moves_are_valued(monkeypatch):
    gate = threading.Event()
    real = analysis.evaluate_moves

    def held(state, *, seconds):
        """The valuing, held until the test lets it go (as a long search would be)."""
        assert gate.wait(30)
        return real(state, seconds=seconds)

    monkeypatch.setattr(analysis, "evaluate_moves", held)
    app = acadmu_app()
    start = app.line_tree.state
    async with app.run_test(size=DESKTOP) as pilot:
        await until(pilot, lambda: app.busy is not None)
        assert "Valuing the moves" in text_of(app, "#verdict")
        assert len(app.shown) == 10 and all(isinstance(m, Pending) for m in app.shown)
        await pilot.press("enter")  # played while the worker is still busy with the start
        assert app.line_tree.current.depth == 1 and app.busy[0] == str(start)
        await pilot.press("b", "n")  # and stepped through
        assert app.line_tree.current.depth == 1
        gate.set()
        # the position looked at is valued next, not only the one left behind
        await until(pilot, lambda: valued(app) and app.filled == str(app.line_tree.state))
        assert app.shown[0].action in app.line_tree.state.legal_actions()
        assert (str(start), 60.0) in app.cache


async def test_thinking_longer_values_the_position_again():
    game = find_game("acadmu")
    app = AnalysisApp(game, game.parse_state(ACADMU), budget=8.0)
    text = ACADMU
    async with app.run_test(size=DESKTOP) as pilot:
        await until(pilot, lambda: valued(app))
        await pilot.press("plus")
        assert app.wanted[text] == 32.0 and "Valuing again for 32 s" in text_of(app, "#status")
        await until(pilot, lambda: (text, 32.0) in app.cache)
        await pilot.press("plus")  # no more than the most
        assert app.wanted[text] == 32.0 and "the most there is" in text_of(app, "#status")


async def test_back_forward_and_a_branch():
    app = acadmu_app()
    start = app.line_tree.state
    async with app.run_test(size=DESKTOP) as pilot:
        await until(pilot, lambda: valued(app))
        first, second = app.shown[0].action, app.shown[1].action
        await pilot.press("enter")
        await until(pilot, lambda: app.line_tree.current.depth == 1)
        await pilot.press("b")
        assert app.line_tree.state == start and app.line_tree.current.depth == 0
        await pilot.press("n")  # forward along the line just left
        assert app.line_tree.current.action == first
        await pilot.press("b")
        await until(pilot, lambda: valued(app))
        await pilot.press("down", "enter")  # another move from the start: a branch
        await until(pilot, lambda: app.line_tree.current.action == second)
        root = app.line_tree.root
        assert [child.action for child in root.children] == [first, second]
        assert "a new branch" in text_of(app, "#status")
        tree = app.query_one("#lines", Tree)
        labels = [str(node.label) for node in _nodes(tree.root)]
        assert any("instead:" in label and str(second) in label for label in labels)
        shoot(app, "pilot-acadmu-branch")
        await pilot.press("b", "n")  # forward goes the way we came back from: the branch
        assert app.line_tree.current.action == second
        # picking a move in the lines tree looks at it
        (main_line,) = [n for n in tree.root.children if n.data is root.children[0]]
        tree.select_node(main_line)
        await until(pilot, lambda: app.line_tree.current is root.children[0])


def _nodes(node):
    yield node
    for child in node.children:
        yield from _nodes(child)


async def test_a_position_is_set_up_by_its_text_and_bad_text_changes_nothing():
    app = acadmu_app()
    async with app.run_test(size=DESKTOP) as pilot:
        await until(pilot, lambda: valued(app))
        before = app.line_tree.state
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, PositionScreen))
        field = app.screen.query_one("#position-text", Input)
        assert field.value == ACADMU
        field.value = ""
        await pilot.press(*"bnpq lx")  # typed, not the board's keys
        assert field.value == "bnpq lx"
        field.value = "0,0,4,1,0,0,0,1,1/0,0,0,2,3,0,1,0,2 x - 0-0 l"
        await pilot.press("enter")
        error = str(app.screen.query_one("#position-error", Static).render())
        assert "not a position of Äcädmü" in error and "bad side to move 'x'" in error
        assert isinstance(app.screen, PositionScreen) and app.line_tree.state is before
        shoot(app, "pilot-acadmu-bad-position")
        field.value = OTHER
        await pilot.press("enter")
        await until(pilot, lambda: str(app.line_tree.state) == OTHER)
        assert app.line_tree.root.children == []
        await until(pilot, lambda: valued(app))
        assert {m.action for m in app.shown} == set(app.line_tree.state.legal_actions())
        await pilot.press("p")  # Esc leaves the board as it was
        await until(pilot, lambda: isinstance(app.screen, PositionScreen))
        await pilot.press("escape")
        assert str(app.line_tree.state) == OTHER


async def test_a_move_is_played_on_the_board_or_by_the_mouse():
    app = acadmu_app()
    start = app.line_tree.state
    async with app.run_test(size=DESKTOP) as pilot:
        await until(pilot, lambda: valued(app))
        second = app.shown[1].action
        await pilot.pause()  # the verdict above the list has its new height: the list moved
        listing = app.query_one("#moves", OptionList)
        # the second row (a move told in words may take two lines, so ask where it starts)
        row = listing.gutter.top + listing._index_to_line[1] - round(listing.scroll_y)
        await pilot.click("#moves", offset=(10, row))
        await until(pilot, lambda: app.line_tree.current.depth == 1)
        assert app.line_tree.current.action == second
        await pilot.press("b")
        app.board.focus()
        for _ in range(4):  # your token, the token it takes, (by shape) the second one
            if app.line_tree.current.depth:
                break
            await pilot.press("enter")
        assert app.line_tree.current.depth == 1
        assert app.line_tree.current.action in start.legal_actions()


async def test_a_move_typed_in_notation_and_a_bad_one():
    app = acadmu_app()
    async with app.run_test(size=DESKTOP) as pilot:
        await pilot.press("slash")
        field = app.query_one("#move-input", Input)
        assert field.has_focus
        await pilot.press(*"RCxZZ")  # the board's keys (x deletes a move) are letters here
        assert field.value == "RCxZZ"
        await pilot.press("enter")
        assert app.line_tree.current.depth == 0
        assert text_of(app, "#status")  # the game's words for what is wrong
        field.value = "RCxBT"
        await pilot.press("enter")
        assert str(app.line_tree.current.action) == "RCxBT"
        assert not field.has_focus


async def test_a_chance_step_is_picked_or_drawn_at_random():
    game = find_game("akros")
    start = game.new_initial_state()
    app = AnalysisApp(game, start, budget=0.2, seed=3)
    async with app.run_test(size=PHONE) as pilot:
        await until(pilot, lambda: len(app.choices) > 1)
        assert app.choices[0] == RANDOM
        assert "Outcomes" in str(app.query_one("#moves", OptionList).border_title)
        likeliest = app.choices[1]
        assert "Chance acts here: pick the outcome" in text_of(app, "#verdict")
        await pilot.press("down")
        assert "drawn 26.0% of the time" in text_of(app, "#detail")  # the likeliest
        await pilot.press("up")
        shoot(app, "pilot-akros-chance-phone")
        await pilot.press("down", "enter")
        await until(pilot, lambda: app.line_tree.current.depth == 1)
        assert app.line_tree.current.action == likeliest
        assert "Jinn to move" in text_of(app, "#title")
        await pilot.press("b")
        await pilot.press("r")
        await until(pilot, lambda: app.line_tree.current.depth == 1)
        drawn = app.line_tree.current.action
        assert drawn in {a for a, _ in start.chance_outcomes()}
        await pilot.press("r")  # not a chance step now: nothing is played
        assert app.line_tree.current.action == drawn
        assert "Chance does not act here" in text_of(app, "#status")


async def test_a_chance_step_with_too_many_outcomes_takes_a_typed_one():
    game = find_game("acadmu")
    app = AnalysisApp(game, budget=0.2)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: "too many outcomes" in text_of(app, "#verdict"))
        assert app.choices == [RANDOM]
        await pilot.press("slash", *"draw RT:BT/RT:BS", "enter")
        assert str(app.line_tree.current.action) == "draw RT:BT/RT:BS"
        await pilot.press("enter")  # the pour: random, the only choice offered
        await until(pilot, lambda: app.line_tree.current.depth == 2)
        assert str(app.line_tree.current.action).startswith("pour ")


async def test_on_a_small_screen_the_lines_take_the_place_of_the_moves():
    app = acadmu_app()
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: valued(app))
        assert app.has_class("narrow")
        lines, moves = app.query_one("#lines", Tree), app.query_one("#moves", OptionList)
        assert moves.display and not lines.display
        await pilot.press("enter")
        await until(pilot, lambda: app.line_tree.current.depth == 1)
        await pilot.press("l")
        assert lines.display and not moves.display
        shoot(app, "pilot-acadmu-small-lines")
        await pilot.press("l")
        assert moves.display and not lines.display


# --- the lines, without a screen ---------------------------------------------------------------


def test_the_move_tree_goes_on_along_a_line_and_branches_beside_it():
    game = find_game("acadmu")
    start = game.parse_state(ACADMU)
    a, b = start.legal_actions()[:2]
    tree = MoveTree(start, [a])
    after_a = tree.current
    reply = after_a.state.legal_actions()[0]
    tree.play(reply)
    assert [n.action for n in tree.line()] == [None, a, reply]
    tree.start()
    assert tree.line()[-1].action == reply  # the line goes on to its end
    tree.play(a)  # the same move: along the line, no branch
    assert tree.current is after_a and len(tree.root.children) == 1
    tree.back()
    tree.play(b)
    assert [c.action for c in tree.root.children] == [a, b] and tree.current.is_branch()
    assert tree.current.words and tree.current.label == str(b)
    tree.back()
    assert tree.forward() and tree.current.action == b  # forward: the way we came back
    tree.go(after_a.children[0])
    tree.start()
    tree.end()
    assert tree.current.action == reply and tree.current.depth == 2
    assert tree.cut() and tree.current is after_a and not after_a.children
    assert len(list(tree.walk())) == 3
    with pytest.raises(ValueError):
        tree.go(MoveTree(start).root)


# --- the command ---------------------------------------------------------------------------------


@pytest.fixture
def opened(monkeypatch):
    """The analysis boards the command would open, instead of running them."""
    apps: list[AnalysisApp] = []
    monkeypatch.setattr(AnalysisApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


def run(capsys, *argv: str) -> tuple[int, str]:
    try:
        main(list(argv))
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    return code, capsys.readouterr().err


def test_the_command_opens_the_board_on_a_position_or_a_records_line(capsys, opened, tmp_path):
    code, err = run(capsys, "tui", "acadmu", "--analyse", "--position", ACADMU)
    assert code == 0, err
    assert str(opened[0].line_tree.state) == ACADMU
    game = find_game("acadmu")
    start = game.parse_state(ACADMU)
    first = start.legal_actions()[0]
    second = start.apply(first).legal_actions()[0]
    record = make_record(game, [first, second], setup=start)
    path = tmp_path / "game.txt"
    path.write_text(str(record), encoding="utf-8")
    code, err = run(capsys, "tui", "--analyse", "--from", str(path), "--step", "1")
    assert code == 0, err
    board = opened[1]
    assert board.line_tree.current.depth == 1 and board.line_tree.current.action == first
    assert [n.action for n in board.line_tree.line()] == [None, first, second]
    code, err = run(capsys, "tui", "akros", "--analyze")
    assert code == 0, err
    assert opened[2].line_tree.state == find_game("akros").new_initial_state()


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["tui", "--analyse"], "name the game"),
        (["tui", "acadmu", "--analyse", "--position", "nonsense"], "bad Äcädmü position"),
        (["tui", "acadmu", "--analyse", "--resume"], "not --resume"),
        (["tui", "acadmu", "--analyse", "--dark", "hard"], "no seats"),
        (["tui", "acadmu", "--analyse", "--step", "2"], "--step goes with --from"),
    ],
)
def test_bad_arguments_are_one_line(capsys, opened, argv, fragment):
    code, err = run(capsys, *argv)
    assert code == 2 and "Traceback" not in err
    (line,) = err.strip().splitlines()
    assert fragment in line, line
    assert not opened


def test_a_step_past_the_records_end_is_refused(capsys, opened, tmp_path):
    game = find_game("acadmu")
    start = game.parse_state(ACADMU)
    path = tmp_path / "game.txt"
    path.write_text(str(make_record(game, [start.legal_actions()[0]], setup=start)))
    code, err = run(capsys, "tui", "--analyse", "--from", str(path), "--step", "5")
    assert code == 2 and "the record has 1 moves" in err
