"""Äcädmü against the computer, played by clicking, to the end of the match (target 1)."""

from __future__ import annotations

import random

from browser_helpers import (
    acadmu_click_move,
    create_game,
    is_over,
    screenshot,
    version,
    wait_my_turn,
    wait_settled,
)


def test_a_match_against_the_computer_by_clicking(server, desktop):
    page = desktop
    rng = random.Random(1)
    game_id = create_game(
        page, server.url, "acadmu", "computer", seat=0, level="beginner", options={"target": 1}
    )
    page.wait_for_selector('.conn[data-status="live"]')
    # The computer seat shows as a computer; the tokens are drawn as groups with counts.
    assert page.locator('.seat[data-seat="1"] [data-presence="computer"]').count() == 1
    assert page.locator(".group").count() == 18
    ways = set()
    shot_taken = False
    for _ in range(120):
        wait_my_turn(page)
        if is_over(page):
            break
        if not shot_taken and page.locator(".group.selectable").count():
            # A capture half-chosen: the own group selected, the takeable groups lit.
            page.locator(".group.selectable").first.click()
            screenshot(page, "acadmu-computer-selecting-desktop")
            page.keyboard.press("Escape")
            assert page.locator(".group.selected").count() == 0
            shot_taken = True
        before = version(page)
        ways.add(acadmu_click_move(page, rng))
        wait_settled(page, before)
    assert is_over(page), "the match did not end"
    assert page.js_errors == []
    over = page.locator(".game-over")
    assert over.is_visible()
    assert "wins" in over.locator(".result").inner_text() or "win" in over.inner_text()
    assert page.locator(".move-list li.last").count() == 1
    screenshot(page, "acadmu-computer-over-desktop")
    assert ways & {"one click", "two clicks", "choice", "pass"}

    state = server.get(f"/api/games/{game_id}")
    assert state["over"] is True

    # Rematch: a new game with the seats swapped, opened at once.
    page.locator(".game-over button.rematch").click()
    page.wait_for_function(f"() => !location.pathname.endsWith('{game_id}')")
    page.wait_for_selector(".game-page[data-version]")
    wait_settled(page)
    assert page.locator(".seat.mine .seat-name").inner_text().startswith("Light")


def test_the_home_page_lists_games_and_works_on_a_phone(server, new_context):
    page = new_context(phone=True).new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("form[data-game='acadmu']")
    screenshot(page, "home-phone")
    create_game(page, server.url, "acadmu", "computer", level="beginner")
    wait_my_turn(page)
    # The board fits the phone's width (no sideways scrolling).
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px screen"
    screenshot(page, "acadmu-computer-phone")
    page.goto(server.url + "/")
    page.wait_for_selector(".game-item")
    assert page.locator(".game-item.status-ongoing").count() >= 1
    screenshot(page, "home-games-phone")
