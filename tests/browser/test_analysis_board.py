"""The analysis board in the browser (/analysis/{game}), at desktop (1280×800) and phone
(390×844) sizes: a position set up by editing the board (a wrong edit refused in words beside
the editor) and evaluated; a line stepped through and branched; a shared link that reopens the
same position and line; chance picked in Akros; "Play on from here"; and the finished game's
"Analyse" link. Screenshots of both games, both sizes, light and dark, go to
test-artifacts/screenshots/analysis-*."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from browser_helpers import is_over, play_turn, watch

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
SHORT_ROUND = "1,1,0,0,0,0,0,0,0/0,0,0,1,1,0,0,0,0 d -"
ROUND = "3,4,1,0,1,0,2,4,1/1,0,1,3,3,4,2,0,5 d - 0-0 d"
SHOTS = Path(os.environ.get("GAMEHALL_SHOTS", "test-artifacts/screenshots"))


def _page(browser, size, dark=False):
    scheme = {"color_scheme": "dark"} if dark else {}
    context = browser.new_context(**SIZES[size], **scheme)
    context.set_default_timeout(30000)
    return watch(context.new_page())


def _shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"analysis-{name}.png"), full_page=True)


def _ready(page, position=None):
    """Wait until the page shows an evaluated position (``position``, if given)."""
    selector = ".analysis-page[data-ready='true']"
    if position is not None:
        selector = f".analysis-page[data-ready='true'][data-position='{position}']"
    page.wait_for_selector(selector)
    return page.get_attribute(".analysis-page", "data-position")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_position_set_up_by_editing_the_board_is_evaluated(server, browser, size):
    page = _page(browser, size)
    page.goto(f"{server.url}/analysis/acadmu")
    _ready(page)  # the start: chance draws the discs
    assert page.locator("[data-action='random']").is_visible()
    page.click("[data-action='edit']")
    editor = page.locator(".editor-acadmu")
    editor.wait_for()
    # an edit that cannot be: more Red Triangles than the discs show, refused in words
    for _ in range(9):
        editor.locator("[data-more='d-RT']").click()
    page.click("[data-action='editor-done']")
    error = page.locator(".editor-box .setup-error")
    page.locator(".editor-box .setup-error:not(:empty)").wait_for()
    assert "disc set" in error.text_content()
    assert page.locator(".editor-acadmu").is_visible()  # nothing changed: still editing
    # now a real round: Dark holds a Red Triangle and a Red Square, Light a Blue Triangle and
    # a Blue Square
    for _ in range(8):
        editor.locator("[data-less='d-RT']").click()
    for control in ("d-RS", "l-BT", "l-BS"):
        editor.locator(f"[data-more='{control}']").click()
    page.click("[data-action='editor-done']")
    _ready(page, SHORT_ROUND)
    moves = page.locator(".analysis-move")
    assert moves.count() >= 2
    first = moves.first
    assert first.locator(".value.value-exact").count() == 1  # a small round: exact
    assert first.locator(".words").text_content().strip()
    assert first.locator("code.label").text_content().strip()
    assert page.locator(".analysis-list li.best").count() >= 1
    assert "Dark to move" in page.locator(".analysis-status").text_content()
    assert page.js_errors == []
    page.context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_line_is_stepped_through_branched_and_shared_by_its_link(server, browser, size):
    page = _page(browser, size)
    page.goto(f"{server.url}/analysis/acadmu?position={ROUND}")
    _ready(page, ROUND)
    best = page.locator(".analysis-move").nth(0).get_attribute("data-move")
    other = page.locator(".analysis-move").nth(1).get_attribute("data-move")
    page.click(f".analysis-move[data-move='{best}']")  # clicking a move plays it
    after_best = page.wait_for_selector(".analysis-page[data-ready='true'][data-node='1']")
    assert after_best
    assert "Light to move" in page.locator(".analysis-status").text_content()
    reply = page.locator(".analysis-move").nth(0).get_attribute("data-move")
    page.click(f".analysis-move[data-move='{reply}']")
    page.wait_for_selector(".analysis-page[data-ready='true'][data-node='2']")
    # step back to the start and play another move: a branch
    page.click("[data-step='first']")
    _ready(page, ROUND)
    assert page.locator(".analysis-list li.explored").count() == 1
    page.click(f".analysis-move[data-move='{other}']")
    page.wait_for_selector(".analysis-page[data-ready='true'][data-node='3']")
    tree = page.locator(".move-tree")
    assert tree.locator(".branches .tree-move").count() == 1  # the new branch
    assert tree.locator(".tree-move[data-node]").count() == 3
    # step along the main line again: back to the start, forward twice
    page.click("[data-step='first']")
    page.click("[data-step='forward']")
    page.wait_for_selector(".analysis-page[data-node='1']")
    page.click("[data-step='last']")
    page.wait_for_selector(".analysis-page[data-node='2'][data-ready='true']")
    page.keyboard.press("ArrowLeft")  # the keys step too
    page.wait_for_selector(".analysis-page[data-node='1']")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(".analysis-page[data-node='2'][data-ready='true']")
    shown = page.get_attribute(".analysis-page", "data-position")
    link = page.url
    assert "position=" in link and "line=" in link
    _shot(page, f"acadmu-line-{size}")
    # the link reopens the same position and line, in another browser
    other_page = _page(browser, size)
    other_page.goto(link)
    _ready(other_page, shown)
    assert other_page.locator(".move-tree .tree-move[data-node]").count() == 2
    assert other_page.js_errors == [] and page.js_errors == []
    other_page.context.close()
    page.context.close()


def test_akros_chance_is_picked_and_moves_valued(server, browser):
    page = _page(browser, "desktop")
    page.goto(f"{server.url}/analysis/akros")
    _ready(page)
    outcome = page.locator(".outcomes .analysis-move").first
    assert re.search(r"\d", outcome.locator(".value").text_content())
    outcome.click()
    page.wait_for_selector(".analysis-page[data-ready='true'][data-node='1']")
    assert "Jinn to move" in page.locator(".analysis-status").text_content()
    assert page.locator(".analysis-move").count() >= 1
    # the editor: a servant moved off its region cannot be (the server says why)
    page.click("[data-action='edit']")
    page.locator(".editor-akros").wait_for()
    servant = page.locator(".editor-akros .servant[data-servant='J']").first
    servant.click()  # J -> I: one Jinn servant too few, one Ifrit servant too many
    page.click("[data-action='editor-done']")
    page.locator(".editor-box .setup-error:not(:empty)").wait_for()
    assert "servant" in page.locator(".editor-box .setup-error").text_content().lower()
    page.click("[data-action='editor-cancel']")
    _ready(page)
    assert page.js_errors == []
    page.context.close()


def test_play_on_from_here_and_analyse_the_finished_game(server, browser):
    page = _page(browser, "desktop")
    page.goto(f"{server.url}/analysis/acadmu?position={SHORT_ROUND}")
    _ready(page, SHORT_ROUND)
    page.click("[data-action='play-hotseat']")
    page.wait_for_url(re.compile(r".*/game/[^/]+$"))
    page.wait_for_selector(f"[data-position='{SHORT_ROUND}']")
    rng = random.Random(5)
    while not is_over(page):
        play_turn(page, "acadmu", rng)
    # every move of the game, the ones the page played for a player (an only move) included
    game_id = page.url.rsplit("/", 1)[-1]
    moves = len(server.get(f"/api/games/{game_id}")["actions"])
    # the finished game's Analyse button opens it on the analysis board, its moves as the line
    page.click(".game-over [data-action='analyse']")
    page.wait_for_url(re.compile(r".*/analysis/acadmu\?.*"))
    page.wait_for_selector(f".analysis-page[data-ready='true'][data-node='{moves}']")
    assert "The game is over" in page.locator(".analysis-status").text_content()
    assert page.locator(".move-tree .tree-move[data-node]").count() == moves
    page.click("[data-step='first']")
    _ready(page, SHORT_ROUND)
    assert page.js_errors == []
    page.context.close()


@pytest.mark.parametrize("game", ["acadmu", "akros"])
def test_screenshots_of_the_analysis_board(server, browser, game):
    """Both sizes, light and dark (saved, to be looked at)."""
    for size in ("desktop", "phone"):
        for dark in (False, True):
            page = _page(browser, size, dark)
            start = f"?position={ROUND}" if game == "acadmu" else ""
            page.goto(f"{server.url}/analysis/{game}{start}")
            _ready(page)
            if game == "akros":
                page.locator(".outcomes .analysis-move").first.click()
                page.wait_for_selector(".analysis-page[data-ready='true'][data-node='1']")
            scheme = "dark" if dark else "light"
            _shot(page, f"{game}-{size}-{scheme}")
            page.click("[data-action='edit']")
            page.locator(".editor-box").wait_for()
            _shot(page, f"{game}-editor-{size}-{scheme}")
            assert page.js_errors == []
            page.context.close()
