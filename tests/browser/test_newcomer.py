"""A newcomer's path, as a person takes it: the home page presents each game, How to play shows
real positions drawn by the game's own board, then a first Äcädmü round against the computer,
played by clicking, to the round-end panel; and the dark theme."""

from __future__ import annotations

import random

from browser_helpers import (
    acadmu_click_move,
    in_view,
    is_over,
    is_paused,
    screenshot,
    version,
    wait_my_turn,
    wait_settled,
)


def test_from_the_home_page_to_the_end_of_a_first_round(server, new_context):
    page = new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + "/")
    # Each game is presented: a picture of a real position, a sentence, how long, how to learn.
    for game in ("acadmu", "akros"):
        card = page.locator(f'.game-card[data-game="{game}"]')
        card.locator(".game-picture svg").wait_for()
        assert card.locator(".game-summary").inner_text().strip()
        assert "How long" in card.locator(".game-duration").inner_text()
        assert card.locator("a.howto-link").count() == 1
    screenshot(page, "newcomer-home-desktop", full_page=False)

    page.locator('.game-card[data-game="acadmu"] a.howto-link').click()
    page.wait_for_selector(".howto figure.diagram svg")
    assert page.locator(".howto figure.diagram").count() >= 4
    assert "colour" in page.locator(".howto").inner_text()
    screenshot(page, "newcomer-howto-acadmu-desktop")
    page.locator(".howto-links a", has_text="complete rules").click()
    page.wait_for_selector(".rules h2")
    assert ".py" not in page.locator(".rules").inner_text()
    page.go_back()
    page.locator(".howto-links a.primary").click()  # Play Äcädmü

    form = page.locator('form[data-game="acadmu"]')
    form.wait_for()
    form.locator('select[name="level"]').select_option("beginner")
    form.locator('button[type="submit"]').click()
    page.wait_for_selector(".game-page[data-version]")
    page.wait_for_selector(".acadmu-svg .legend")  # who beats whom, always in view
    rng = random.Random(7)
    shot = False
    for _ in range(60):
        wait_my_turn(page, go_on=False)
        if is_paused(page) or is_over(page):
            break
        if not shot:
            # At 1280×800 your own tokens and the controls under them are in view.
            assert in_view(page, ".side-d") or in_view(page, ".side-l")
            assert in_view(page, ".acadmu-svg")
            screenshot(page, "newcomer-first-move-desktop", full_page=False)
            shot = True
        before = version(page)
        acadmu_click_move(page, rng)
        wait_settled(page, before)
        if version(page) > 6 and page.locator(".game-page").get_attribute("data-viewing") == "live":
            _step_back_and_return(page)
    assert is_paused(page), "the round did not end in 60 moves"
    panel = page.locator(".pause-panel")
    assert panel.is_visible() and in_view(page, ".pause-panel button.continue")
    assert "The round is over" in panel.inner_text()
    assert panel.locator(".round-table tbody tr").count() == 2
    assert (
        page.locator(".game-page").get_attribute("data-position").split()[0]
    )  # the final position
    screenshot(page, "newcomer-round-end-desktop", full_page=False)
    final = page.locator(".game-page").get_attribute("data-position")
    page.locator(".pause-panel button.continue", has_text="Next round").click()
    page.wait_for_function(
        "final => document.querySelector('.game-page').dataset.position !== final", arg=final
    )
    assert not is_paused(page)
    assert errors == []


_stepped = []


def _step_back_and_return(page):
    """Once per test run: step back through the live game's moves, then back to live."""
    if _stepped:
        return
    _stepped.append(True)
    live_position = page.locator(".game-page").get_attribute("data-position")
    page.locator('.move-list li[data-step="3"] button').click()
    page.wait_for_selector('.game-page[data-viewing="3"]')
    assert page.locator(".turn-banner").inner_text().startswith("Viewing move 3 of")
    assert page.locator(".group.selectable").count() == 0  # nothing to click in the past
    page.locator('.moves button[data-step="back"]').click()
    page.wait_for_selector('.game-page[data-viewing="2"]')
    screenshot(page, "newcomer-step-back-desktop", full_page=False)
    page.locator(".turn-banner button.back-to-live").click()
    page.wait_for_selector('.game-page[data-viewing="live"]')
    assert page.locator(".game-page").get_attribute("data-position") == live_position


def test_the_round_end_panel_and_your_tokens_fit_a_phone(server, new_context):
    page = new_context(phone=True).new_page()
    page.goto(server.url + "/")
    page.wait_for_selector(".game-card .game-picture svg")
    screenshot(page, "newcomer-home-phone")
    form = page.locator('form[data-game="acadmu"]')
    form.locator('select[name="level"]').select_option("beginner")
    form.locator('button[type="submit"]').click()
    page.wait_for_selector(".game-page[data-version]")
    rng = random.Random(3)
    for _ in range(60):
        wait_my_turn(page, go_on=False)
        if is_paused(page) or is_over(page):
            break
        assert in_view(page, ".acadmu-svg")  # both sides and the legend between them
        before = version(page)
        acadmu_click_move(page, rng)
        wait_settled(page, before)
    assert is_paused(page)
    page.locator(".pause-panel").scroll_into_view_if_needed()
    screenshot(page, "newcomer-round-end-phone", full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_dark_theme_follows_the_system(server, new_context):
    page = new_context(dark=True).new_page()
    page.goto(server.url + "/")
    page.wait_for_selector(".game-card .game-picture svg")
    background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    channels = [int(c) for c in background.strip("rgba()").split(",")[:3]]
    assert max(channels) < 60, background  # dark
    screenshot(page, "dark-home-desktop", full_page=False)
    page.goto(server.url + "/howto/akros")
    page.wait_for_selector(".howto figure.diagram svg")
    screenshot(page, "dark-howto-akros-desktop", full_page=False)
    form_page = page
    form_page.goto(server.url + "/")
    form = form_page.locator('form[data-game="akros"]')
    form.locator('select[name="level"]').select_option("beginner")
    form.locator('button[type="submit"]').click()
    form_page.wait_for_selector(".akros-svg")
    wait_my_turn(form_page)
    screenshot(form_page, "dark-akros-game-desktop", full_page=False)
