"""The example game from outside gamehall (``examples/tictactoe``, a distribution of its own,
written from docs/adding-a-game.md) plays in the browser through its own board module: a
hot-seat game by clicking to the end, a game against the computer on a phone, its replay, and its
How to play page and home-page picture drawn by the same module. The example must be installed
beside gamehall (``pip install -e examples/tictactoe``, as CI does): without it these fail,
never skip."""

from __future__ import annotations

import random

import pytest
from browser_helpers import (
    create_game,
    is_over,
    screenshot,
    version,
    wait_my_turn,
    wait_settled,
    watch,
)

GAME = "tictactoe"


@pytest.fixture(autouse=True)
def installed(server):
    """The example is installed and the server offers it with its board module."""
    games = {game["name"]: game for game in server.get("/api/meta")["games"]}
    if GAME not in games:
        pytest.fail(
            f"{GAME} is not installed: .venv/bin/pip install -e examples/{GAME} (CI does)",
            pytrace=False,
        )
    assert games[GAME]["board_module"] == f"/games/{GAME}/board.js"
    assert games[GAME]["board_style"] == f"/games/{GAME}/board.css"


def click(page, square: str) -> None:
    """Play ``square`` by clicking it on the board, and wait for the server's answer."""
    before = version(page)
    page.locator(f'.ttt-square.playable[data-square="{square}"]').click()
    wait_settled(page, before)


def test_a_hotseat_game_of_tictactoe_by_clicking_to_the_end(server, desktop):
    page = desktop
    game_id = create_game(page, server.url, GAME, "hotseat")
    page.wait_for_selector('.conn[data-status="live"]')
    assert page.locator(".board-tictactoe .ttt-square").count() == 9
    assert page.locator(".ttt-square.playable").count() == 9
    assert page.locator(".board-fallback").count() == 0  # its own board, not the generic one
    for square in ("a1", "a2", "b2", "a3"):
        click(page, square)
    assert page.locator('.ttt-square[data-square="a3"]').get_attribute("class").endswith("last")
    assert page.locator('.ttt-square[data-square="b2"]').get_attribute("data-mark") == "x"
    assert page.locator(".ttt-square.playable").count() == 5
    screenshot(page, "tictactoe-hotseat-midgame-desktop")
    click(page, "c3")
    assert is_over(page)
    assert page.locator(".ttt-square.playable").count() == 0
    assert page.locator(".ttt-line").count() == 1  # the winning line is drawn
    assert page.locator(".game-over .result").inner_text() == "Cross wins"
    assert page.locator(".game-over .reason").inner_text() == "Cross has three in a row: a1 b2 c3"
    scores = page.locator(".seat .seat-score").all_inner_texts()
    assert sorted(scores) == ["0", "1"]  # the module's scoreText
    assert "Cross marks b2, the centre" in page.locator(".move-list").inner_text()  # its words
    assert page.js_errors == []
    screenshot(page, "tictactoe-hotseat-over-desktop")
    assert server.get(f"/api/games/{game_id}")["actions"] == ["a1", "a2", "b2", "a3", "c3"]

    page.goto(f"{server.url}/replay/{game_id}")
    page.wait_for_selector(".replay-counter")
    assert page.locator(".replay-counter").inner_text() == "Move 5 / 5"
    page.locator('button[data-step="first"]').click()
    assert page.locator('.ttt-square[data-mark="."]').count() == 9
    assert page.js_errors == []


def test_tictactoe_against_the_computer_on_a_phone(server, new_context):
    page = watch(new_context(phone=True).new_page())
    rng = random.Random(5)
    create_game(page, server.url, GAME, "computer", seat=1, level="easy")
    for _ in range(5):
        wait_my_turn(page)
        if is_over(page):
            break
        squares = page.locator(".ttt-square.playable")
        choice = squares.nth(rng.randrange(squares.count())).get_attribute("data-square")
        click(page, choice)
    wait_my_turn(page)
    assert is_over(page)
    assert page.locator(".game-over .result").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.js_errors == []
    screenshot(page, "tictactoe-computer-over-phone")


def test_the_how_to_play_page_and_the_home_page_draw_with_its_board(server, desktop):
    page = desktop
    page.goto(f"{server.url}/howto/{GAME}")
    page.wait_for_selector(".diagram .ttt-svg")
    assert page.locator(".diagram .ttt-svg").count() == 4
    assert page.locator(".diagram .ttt-line").count() == 1  # the first lesson: three in a row
    assert page.locator(".diagram .ttt-square.playable").count() == 0  # pictures: nothing to click
    page.goto(f"{server.url}/")
    picture = page.locator(f'.game-card[data-game="{GAME}"] .game-picture .ttt-svg')
    picture.wait_for()
    assert page.js_errors == []
