"""The terminal app fits small terminals: at 60×30, 80×24 and 120×40 every part of the screen
(the board with its hands, draft and score, the seats, the prompt, the footer's keys) lies
inside the screen and nothing is scrolled out of sight; the help scrolls to its end; notices
never cover the game-over panel; the round panel says why the round ended."""

from __future__ import annotations

import random

import pytest
from test_tui_app import svg_text
from textual.containers import VerticalScroll
from textual.widgets import Static
from textual.widgets._footer import FooterKey
from textual.widgets._toast import Toast

from gamehall.core import find_game
from gamehall.tui.app import GamehallApp
from gamehall.tui.screens import Panel
from gamehall.tui.session import Session

pytestmark = pytest.mark.anyio

SIZES = [(60, 30), (80, 24), (120, 40)]


def inside(app, widget) -> bool:
    region = widget.region
    return region.width > 0 and region.height > 0 and app.screen.region.contains_region(region)


def hot_seat(name: str, seed: int, stop=None, **options) -> tuple[Session, object]:
    """A hot-seat game played at random up to the person's move that makes ``stop(after)``
    true (None: the first person's move), a move chosen among others (a forced move the app
    would play itself); the session and that move."""
    session = Session(find_game(name, **options), ["human", "human"], seed=seed)
    rng = random.Random(seed)
    while True:
        state = session.state
        if state.is_chance_node():
            session.play_chance()
            continue
        legal = state.legal_actions()
        if stop is None:
            return session, legal[0]
        for action in legal:
            if len(legal) > 1 and stop(state.apply(action)):
                return session, action
        session.play(rng.choice(legal))
        if session.over:  # this game's end came by a forced move: another game
            return hot_seat(name, seed + 100, stop, **options)


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.pause(0.05)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", ["acadmu", "akros"])
async def test_every_part_of_the_screen_is_inside_it(name, size):
    # A position in mid-game: the hands, the draft, the Temple and the score all shown.
    session, _ = hot_seat(name, 3, stop=lambda after: len(after.legal_actions() or []) > 1)
    for _ in range(6):
        if session.state.is_chance_node():
            session.play_chance()
        elif not session.over:
            session.play(session.state.legal_actions()[0])
    app = GamehallApp(session)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for selector in ("#title", "#seats", "#prompt", "#status", "#board-pane"):
            assert inside(app, app.query_one(selector)), (selector, size)
        assert inside(app, app.board)
        # the whole board is shown: its pane has nothing scrolled out of sight
        pane = app.query_one("#board-pane", VerticalScroll)
        assert pane.max_scroll_y == 0, (name, size, pane.virtual_size, pane.region)
        # every key of the footer is on the screen, none clipped
        keys = list(app.query(FooterKey))
        assert {key.action for key in keys} >= {"hint", "undo", "help", "quit_game"}
        for key in keys:
            assert inside(app, key), (key.description, key.region, size)
            assert key.region.right <= app.screen.region.right


async def test_the_help_scrolls_to_its_end_at_60_by_30():
    session, _ = hot_seat("akros", 4)
    app = GamehallApp(session)
    async with app.run_test(size=(60, 30)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, Panel) and app.screen.title_text == "Keys"
        box = app.screen.query_one(VerticalScroll)
        assert inside(app, box)
        hint = app.screen.query_one(".hint", Static)
        assert box.max_scroll_y > 0  # taller than the screen: it scrolls
        for _ in range(10):
            await pilot.press("pagedown")
        await settle(pilot)
        assert box.scroll_y == box.max_scroll_y
        # the help's last line is now inside the box, and the box inside the screen
        assert box.region.contains_region(hint.region), (hint.region, box.region)


@pytest.mark.parametrize("name", ["acadmu", "akros"])
async def test_no_notice_covers_the_game_over_panel(name):
    options = {"target": 1} if name == "acadmu" else {}
    session, last = hot_seat(name, 2, stop=lambda after: after.is_terminal(), **options)
    app = GamehallApp(session)
    async with app.run_test(size=(60, 30), notifications=True) as pilot:
        await settle(pilot)
        app.notify("A notice before the end", timeout=30)
        app.notify("Another notice before the end", timeout=30)
        await settle(pilot)
        assert len(app.screen.query(Toast)) == 2
        app.play(str(last))
        await settle(pilot)
        assert isinstance(app.screen, Panel) and app.screen.title_text == "Game over"
        box = app.screen.query_one(VerticalScroll)
        assert inside(app, box)
        assert len(app.screen.query(Toast)) == 0
        app.notify("Saved to somewhere")  # after the end: said in the status line instead
        await settle(pilot)
        assert len(app.screen.query(Toast)) == 0
        assert app.status_text == "Saved to somewhere"


async def test_the_round_panel_says_why_the_round_ended():
    session, last = hot_seat("acadmu", 3, stop=lambda after: after.view()["round_over"], target=12)
    app = GamehallApp(session)
    async with app.run_test(size=(60, 30)) as pilot:
        await settle(pilot)
        app.play(str(last))
        await settle(pilot)
        assert isinstance(app.screen, Panel) and app.screen.title_text == "Round over"
        shown = " ".join(svg_text(app.export_screenshot()).split())
        why = session.state.view()["round_end"]["reason"]
        assert f"The round is over: {why}." in shown
        assert inside(app, app.screen.query_one(VerticalScroll))
