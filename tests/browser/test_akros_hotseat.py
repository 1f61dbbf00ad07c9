"""A whole game of Akros hot-seat on one screen, by clicking; then its replay and rules."""

from __future__ import annotations

import random
import urllib.request

from browser_helpers import (
    akros_click_move,
    create_game,
    is_over,
    screenshot,
    version,
    wait_my_turn,
    wait_settled,
    watch,
)


def test_a_hotseat_game_of_akros_by_clicking(server, desktop, new_context):
    page = desktop
    rng = random.Random(7)
    game_id = create_game(page, server.url, "akros", "hotseat")
    page.wait_for_selector('.conn[data-status="live"]')
    assert page.locator(".region").count() == 19
    assert page.locator('.region[data-servant="J"]').count() == 4
    assert page.locator('.region[data-servant="I"]').count() == 4
    ways = set()
    for step in range(80):
        wait_settled(page)
        if is_over(page):
            break
        before = version(page)
        if "servant shown" not in ways:
            # Show the two-click placement once: a region several servants can reach, then them.
            region = page.evaluate(
                """() => {
                    const counts = {};
                    for (const item of window.gamehall.state.legal) {
                        if (item.kind === "place") counts[item.region] = (counts[item.region] || 0) + 1;
                    }
                    return Object.keys(counts).find((r) => counts[r] > 1) || null;
                }"""
            )
            if region:
                page.locator(f'.region.target[data-region="{region}"]').click()
                assert page.locator(".region.source").count() > 1
                screenshot(page, "akros-hotseat-choose-servant-desktop")
                ways.add("servant shown")
        ways.add(akros_click_move(page, rng))
        wait_settled(page, before)
        if step == 14:
            screenshot(page, "akros-hotseat-midgame-desktop")
    assert is_over(page), "the game did not end"
    assert page.js_errors == []
    assert {"keep", "region"} <= ways
    assert "region and servant" in ways or "servant shown" in ways
    assert "wins" in page.locator(".game-over .result").inner_text()
    screenshot(page, "akros-hotseat-over-desktop")

    # The same finished game on a phone.
    phone = new_context(phone=True).new_page()
    phone.goto(f"{server.url}/game/{game_id}")
    phone.wait_for_selector(".game-over")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "akros-over-phone")

    # Replay: step back and forth with buttons and arrow keys.
    page.locator(".game-over a", has_text="Replay").click()
    page.wait_for_selector(".replay-counter")
    total = len(server.get(f"/api/games/{game_id}")["actions"])
    assert page.locator(".replay-counter").inner_text() == f"Move {total} / {total}"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.locator(".replay-counter").inner_text() == f"Move {total - 2} / {total}"
    page.locator('button[data-step="first"]').click()
    assert page.locator(".replay-counter").inner_text() == f"Move 0 / {total}"
    assert page.locator('.region[data-stack="0"]').count() == 19
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.locator('button[data-step="forward"]').click()
    assert page.locator(".replay-counter").inner_text() == f"Move 6 / {total}"
    screenshot(page, "akros-replay-desktop")
    href = page.locator("a.download").get_attribute("href")
    with urllib.request.urlopen(server.url + href) as response:
        assert response.status == 200
        assert "attachment" in response.headers["Content-Disposition"]
        assert response.read()

    # The rules page renders the engine's markdown.
    page.goto(f"{server.url}/rules/akros")
    page.wait_for_selector(".rules h2")
    assert page.locator(".rules pre").count() >= 1
    assert page.locator(".rules li").count() > 5
    screenshot(page, "rules-akros-desktop")
    assert page.js_errors == []


def test_akros_against_the_computer_on_a_phone(server, new_context):
    page = watch(new_context(phone=True).new_page())
    rng = random.Random(2)
    create_game(page, server.url, "akros", "computer", seat=1, level="beginner")
    shots = 0
    for _ in range(12):
        wait_my_turn(page)
        if is_over(page):
            break
        if page.locator(".region.target").count() and shots == 0:
            screenshot(page, "akros-computer-place-phone")
            shots += 1
        before = version(page)
        akros_click_move(page, rng)
        wait_settled(page, before)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert shots == 1
    assert page.js_errors == []
