"""The full-screen terminal app, driven by Textual's pilot: whole games played by keys, the
keys of the app, the mouse, saving, and SVG screenshots of both boards (kept in
``test-artifacts/tui/`` to look at)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from textual.pilot import Pilot

from gamehall.core import Record, find_game
from gamehall.tui.app import GamehallApp
from gamehall.tui.screens import Panel
from gamehall.tui.session import Clock, Session, read_record, session_from_record

pytestmark = pytest.mark.anyio

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "tui"
DESKTOP = (160, 50)
PHONE = (60, 40)
SHORT = {"F": "For", "S": "Sea", "M": "Mtn"}


async def until(pilot: Pilot, condition, timeout: float = 20.0) -> None:
    """Let the app run until ``condition()`` holds (computer moves happen in a worker)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("the app did not get there in time")
        await pilot.pause(0.02)


def panel_title(app: GamehallApp) -> str | None:
    return app.screen.title_text if isinstance(app.screen, Panel) else None


async def shot(pilot: Pilot, name: str) -> str:
    """Save an SVG screenshot for people to look at; return its text for the test to read."""
    await pilot.pause(0.1)
    app = pilot.app
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    app.save_screenshot(f"{name}.svg", str(ARTIFACTS))
    return (ARTIFACTS / f"{name}.svg").read_text(encoding="utf-8")


def svg_text(svg: str) -> str:
    """The characters of an SVG screenshot, each row's text joined (for looking things up)."""
    return re.sub(r"&#160;", " ", " ".join(re.findall(r">([^<>]*)</text>", svg)))


def acadmu_session(players=("human", "beginner"), seed=2, target=3, save=None) -> Session:
    return Session(find_game("acadmu", target=target), list(players), seed=seed, save_path=save)


async def play_by_keys(pilot: Pilot, session: Session, keys: list[str]) -> None:
    """Press ``keys`` one by one, each taken in before the next, until the move is played (a
    key left over would fall on the next decision)."""
    before = len(session.actions)
    for key in keys:
        await pilot.press(key)
        await pilot.pause()
        if len(session.actions) > before:
            return
    raise AssertionError(f"the keys {keys} played no move")


def akros_session(players=("human", "human"), seed=4, save=None) -> Session:
    return Session(find_game("akros"), list(players), seed=seed, save_path=save)


# --- whole games by keys -------------------------------------------------------------------------


@pytest.mark.slow
async def test_a_whole_acadmu_round_by_keys_against_the_computer(tmp_path):
    save = tmp_path / "round.txt"
    session = acadmu_session(save=save, target=12)
    app = GamehallApp(session, think_delay=0.1)
    steps = ["right", "enter", "enter", "enter"]
    async with app.run_test(size=DESKTOP) as pilot:
        moves = 0
        while panel_title(app) != "Round over":
            await until(pilot, lambda: session.human_to_move() or isinstance(app.screen, Panel))
            if isinstance(app.screen, Panel):
                break
            # Step: a token of yours (moving the cursor on every other move), then what it takes.
            await play_by_keys(pilot, session, steps[moves % 2 :])
            moves += 1
        assert panel_title(app) == "Round over"
        state = session.state
        assert state.view()["round_over"]
        assert moves >= 5
        svg = await shot(pilot, "acadmu-round-over")
        assert "Round over" in svg_text(svg)
        await pilot.press("enter")  # close the summary: the next round is poured
        await until(
            pilot,
            lambda: (
                session.state.view()["phase"] == "play" and not session.state.view()["round_over"]
            ),
        )
    record = read_record(save)
    assert record.actions == [str(a) for a in session.actions]
    assert record.replay()[-1] == session.state


@pytest.mark.slow
async def test_a_whole_akros_game_by_keys_hot_seat():
    session = akros_session()
    app = GamehallApp(session)
    async with app.run_test(size=DESKTOP) as pilot:
        decisions = 0
        while not session.over:
            await until(pilot, lambda: session.human_to_move() or session.over)
            if session.over:
                break
            kind = find_game("akros").action_parts(session.state.legal_actions()[0])["kind"]
            move = ["enter"] * 3  # the keep; or the region, then the servant
            if decisions % 3 == 1:
                move.insert(0, "down" if kind == "place" else "right")
            await play_by_keys(pilot, session, move)
            decisions += 1
        await until(pilot, lambda: panel_title(app) == "Game over")
        assert session.state.is_terminal()
        # 9 turns of two keeps and two placements; the app plays the forced ones itself.
        player_actions = sum(1 for mover in session.mover_names() if mover != "chance")
        assert 18 <= decisions <= player_actions == 36
        text = svg_text(await shot(pilot, "akros-game-over"))
        winner = session.state.player_name(session.state.outcome().winner).capitalize()
        assert f"{winner} wins" in text


# --- the boards, as people see them --------------------------------------------------------------


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
async def test_akros_board_screenshot(size):
    session = akros_session(players=("human", "beginner"), seed=5)
    app = GamehallApp(session)
    async with app.run_test(size=size) as pilot:
        # Play to the Jinn's placement on turn 2 by keys, then show the region choices.
        while not (
            session.state.view()["turn"] == 2 and session.state.view()["step"] == "jinn-place"
        ):
            await until(pilot, session.human_to_move)
            await pilot.press("enter")
            await pilot.pause(0.05)
        await until(pilot, session.human_to_move)
        await pilot.press("down")
        name = f"akros-board-{size[0]}x{size[1]}"
        svg = await shot(pilot, name)
    text = svg_text(svg)
    view = session.state.view()
    for region in view["regions"]:
        assert re.search(rf"{region['id']}\s+{SHORT[region['environment']]}", text), region["id"]
    assert "Temple" in text and "Bag" in text and "Jinn keeps" in text
    # the score: a table on a large terminal, a line on a small one
    score = r"Score now" if size == DESKTOP else r"Score\s+Jinn\s*–\s*Ifrit\s*:"
    assert re.search(score, text)
    assert "which region?" in text and "Choose:" in text
    # The servants' own colours (gold and red chips) are in the picture.
    assert "#ffd700" in svg.lower() and "#d70000" in svg.lower()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
async def test_acadmu_board_screenshot(size):
    session = acadmu_session(players=("human", "beginner"), seed=2)
    app = GamehallApp(session)
    async with app.run_test(size=size) as pilot:
        await until(pilot, session.human_to_move)
        await pilot.press("enter")  # a token of yours: its targets light up
        svg = await shot(pilot, f"acadmu-board-{size[0]}x{size[1]}")
    text = svg_text(svg)
    assert "by colour, takes one" in text and "by shape, takes two" in text
    assert "Red" in text and "Yellow" in text and "Blue" in text
    assert "Dark · 27 tokens" in text and "Light · 27 tokens" in text
    assert "takes which token?" in text and "Choose:" in text
    for glyph in "▲■●":
        assert glyph in text


# --- keys ----------------------------------------------------------------------------------------


@pytest.mark.slow
async def test_typed_notation_undo_flip_position_help_and_hint():
    session = acadmu_session(players=("human", "beginner"), seed=2)
    app = GamehallApp(session)
    async with app.run_test(size=DESKTOP) as pilot:
        await until(pilot, session.human_to_move)
        start = len(session.actions)
        move = str(session.state.legal_actions()[-1])
        await pilot.press("slash")
        await pilot.press(*move)  # letters go to the move line, not to the app's keys
        await pilot.press("enter")
        await until(pilot, lambda: session.human_to_move() and len(session.actions) >= start + 2)
        assert str(session.actions[start]) == move
        await pilot.press("escape")  # back to the board
        await pilot.press("u")
        assert len(session.actions) == start
        assert session.human_to_move()
        await pilot.press("f")
        assert app.flipped
        await pilot.press("p")
        assert panel_title(app) == "Position"
        assert str(session.state) in svg_text(await shot(pilot, "position"))
        await pilot.press("enter")
        await pilot.press("question_mark")
        assert panel_title(app) == "Keys"
        help_text = svg_text(await shot(pilot, "help"))
        for key in ("hint", "undo", "flip", "save", "position"):
            assert key in help_text
        await pilot.press("escape")
        await pilot.press("h")
        await until(pilot, lambda: panel_title(app) == "Hint", timeout=30)
        hint_text = svg_text(await shot(pilot, "hint"))
        assert "1. Best: " in hint_text and ("(exact;" in hint_text or "(estimate;" in hint_text)
        # an exact hint is followed by the line of play after it, in words (an estimate's line
        # is the search's, when it went deep enough: a loaded machine may not)
        if "(exact;" in hint_text:
            assert "Perfect play after it:" in hint_text


async def test_a_bad_typed_move_says_why_and_changes_nothing():
    session = acadmu_session(players=("human", "human"), seed=2)
    app = GamehallApp(session)
    async with app.run_test(size=DESKTOP) as pilot:
        await until(pilot, session.human_to_move)
        before = list(session.actions)
        await pilot.press("colon", *"RTxRT", "enter")
        assert session.actions == before
        assert "RTxRT" in app.status_text


async def test_the_mouse_plays_an_akros_keep_and_placement():
    session = akros_session(players=("human", "human"), seed=4)
    app = GamehallApp(session)
    async with app.run_test(size=DESKTOP) as pilot:
        await until(pilot, session.human_to_move)
        board = app.board
        keeps = 0
        while session.state.view()["step"] != "ifrit-place":  # the keeps: click the first choice
            before = len(session.actions)
            await pilot.click(board, offset=find(board, "Choose:", after=True))
            await until(pilot, lambda before=before: len(session.actions) > before)
            keeps += 1
        assert keeps >= 1
        before = len(session.actions)
        target = min(a.region for a in session.state.legal_actions())
        await pilot.click(board, offset=find(board, cell_label(session, target)))
        await until(pilot, lambda: len(session.actions) > before or board.chosen_region == target)
        if len(session.actions) == before:  # two servants can go there: click one
            source = next(a.source for a in session.state.legal_actions() if a.region == target)
            await pilot.click(board, offset=find(board, cell_label(session, source)))
            await until(pilot, lambda: len(session.actions) > before)
        assert session.actions[before].region == target


def cell_label(session: Session, region: int) -> str:
    """A region's label on the board: its id and its environment, e.g. `` 5 For``."""
    (environment,) = [
        r["environment"] for r in session.state.view()["regions"] if r["id"] == region
    ]
    return f"{region:>2} {SHORT[environment]}"


def find(widget, text: str, *, after: bool = False) -> tuple[int, int]:
    """Where ``text`` shows in a widget (or the first choice just after it)."""
    for y, strip in enumerate(widget.render_lines(widget.region.reset_offset)):
        line = strip.text
        if text in line:
            x = line.index(text)
            return (x + len(text) + 3, y) if after else (x + 1, y)
    raise AssertionError(f"{text!r} is not on the board")


async def test_a_forced_move_is_played_with_a_notice():
    game = find_game("acadmu")
    start = game.parse_state("0,0,0,1,0,0,0,0,0/0,1,1,0,0,0,0,0,0 d -")  # Dark can only pass
    session = Session(game, ["human", "human"], seed=1, start=start)
    app = GamehallApp(session)
    async with app.run_test(size=DESKTOP) as pilot:
        await until(pilot, lambda: bool(session.actions))
        assert str(session.actions[0]) == "pass"
        assert "only legal move" in app.status_text


async def test_a_clock_that_runs_out_ends_the_game(tmp_path):
    now = [0.0]
    session = Session(
        find_game("acadmu", target=3),
        ["human", "human"],
        seed=1,
        clock=Clock.parse("1"),
        save_path=tmp_path / "clock.txt",
        now=lambda: now[0],
    )
    app = GamehallApp(session)
    async with app.run_test(size=DESKTOP) as pilot:
        await until(pilot, session.human_to_move)
        mover = session.state.current_player
        now[0] = 61.0
        await until(pilot, lambda: panel_title(app) == "Game over")
        assert session.forfeit == mover
        assert "time ran out" in svg_text(await shot(pilot, "clock"))
    record = read_record(tmp_path / "clock.txt")
    assert record.tags["Forfeit"] == session.game.player_names[mover]
    assert record.tags["Termination"] == "time forfeit"
    assert record.tags["Result"] == ("0-1" if mover == 0 else "1-0")
    assert not record.replay()[-1].is_terminal()  # a decided result the tags explain


# --- saving --------------------------------------------------------------------------------------


async def test_every_move_is_saved_and_resumes_where_it_was(tmp_path):
    save = tmp_path / "game.txt"
    session = acadmu_session(players=("human", "easy"), seed=6, save=save)
    app = GamehallApp(session, think_delay=0.1)
    async with app.run_test(size=DESKTOP) as pilot:
        for _ in range(3):
            await until(pilot, session.human_to_move)
            await play_by_keys(pilot, session, ["enter"] * 3)
        await until(pilot, session.human_to_move)
    saved = read_record(save)
    assert saved.actions == [str(a) for a in session.actions]
    assert saved.tags["Dark"] == "human" and saved.tags["Light"] == "easy"
    again = session_from_record(saved, {}, save_path=save)
    assert again.state == session.state and again.players == session.players
    # The same seed and action number give the same chance outcome after a resume.
    assert isinstance(Record.parse(save.read_text()), Record)


# --- a game without a board of its own ------------------------------------------------------------


@pytest.fixture
def nim():
    """Nim, the game of the tests, which has no terminal board (nor any other part)."""
    from gamehall.core import register_plugin, unregister_plugin
    from tests.nim.plugin import PLUGIN

    register_plugin(PLUGIN)
    yield PLUGIN.game
    unregister_plugin(PLUGIN.name)


async def test_a_game_without_a_board_gets_the_generic_one(nim):
    from gamehall.tui.board import GenericBoard

    session = Session(nim(), ["human", "human"], seed=3)
    app = GamehallApp(session)
    async with app.run_test(size=PHONE) as pilot:
        assert isinstance(app.board, GenericBoard)
        await until(pilot, session.human_to_move)
        legal = [str(a) for a in session.state.legal_actions()]
        text = svg_text(await shot(pilot, "generic-board"))
        assert str(session.state) in text and legal[0] in text
        before = len(session.actions)
        await pilot.press("down", "enter")  # the second move in the list
        await until(pilot, lambda: len(session.actions) > before)
        assert str(session.actions[before]) == legal[1]


def test_the_clock_goes_on_where_it_was_after_a_resume(tmp_path):
    now = [0.0]
    save = tmp_path / "clock.txt"
    session = Session(
        find_game("acadmu", target=3),
        ["human", "human"],
        seed=1,
        clock=Clock.parse("2+1"),
        save_path=save,
        now=lambda: now[0],
    )
    while session.state.is_chance_node():
        session.play_chance()
    mover = session.state.current_player
    now[0] = 30.0
    session.play(session.state.legal_actions()[0])  # 30 s spent, 1 s added
    record = read_record(save)
    assert record.tags["TimeControl"] == "2+1"
    left = [float(x) for x in record.tags["TimeLeft"].split()]
    assert left[mover] == 91.0 and left[1 - mover] == 120.0
    again = session_from_record(record, {}, save_path=save)
    assert [round(again.clock.remaining(s, again.now()), 1) for s in (0, 1)] == left


async def test_the_status_line_says_what_the_computer_is_doing():
    session = acadmu_session(players=("human", "medium"), seed=2)
    app = GamehallApp(session, think_delay=1.5)  # hold the computer so its status can be read
    async with app.run_test(size=DESKTOP) as pilot:
        await until(pilot, session.human_to_move)
        await play_by_keys(pilot, session, ["enter"] * 3)
        await until(pilot, lambda: "is thinking" in str(app.query_one("#status").render()))
        status = str(app.query_one("#status").render())
        assert "Light (medium) is thinking (MCTS, about 0.2 s a move)" in status
        await until(pilot, session.human_to_move, timeout=30)
        assert app.status_text.startswith(("Light's ", "Light has no capture"))  # in words
        assert "simulations" in app.status_text  # how it chose: MCTS and its budget
