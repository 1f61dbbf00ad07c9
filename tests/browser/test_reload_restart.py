"""Nothing is lost: reloading the page mid-game, or killing and restarting the server."""

from __future__ import annotations

import random
import sqlite3

from browser_helpers import create_game, play_turn, position, screenshot, version, wait_settled


def test_reload_and_server_restart_keep_the_game(server, desktop):
    page = desktop
    rng = random.Random(5)
    game_id = create_game(page, server.url, "acadmu", "hotseat")
    page.wait_for_selector('.conn[data-status="live"]')
    for _ in range(4):
        play_turn(page, "acadmu", rng)
    before = position(page)
    moves = page.locator(".moves .move-list li").all_inner_texts()
    assert len(moves) == version(page)

    # Reload: the same position and moves, still live, still ours to move.
    page.reload()
    page.wait_for_selector('.conn[data-status="live"]')
    wait_settled(page)
    assert position(page) == before
    assert page.locator(".moves .move-list li").all_inner_texts() == moves
    assert page.locator(".group.selectable").count() > 0

    # Kill the server: the page says it is reconnecting, and comes back by itself.
    server.kill()
    page.wait_for_selector('.conn[data-status="reconnecting"]')
    screenshot(page, "restart-reconnecting-desktop")
    server.start()
    page.wait_for_selector('.conn[data-status="live"]', timeout=30000)
    assert position(page) == before
    assert server.get(f"/api/games/{game_id}")["position"] == before
    play_turn(page, "acadmu", rng)
    assert version(page) == len(moves) + 1

    # A move for an old version is refused (stale_version); the page shows it and resyncs.
    page.evaluate("window.gamehall.live.send({type: 'move', version: 0, action: 'pass'})")
    page.wait_for_selector(".toast:has-text('moved on')")
    assert version(page) == len(moves) + 1

    page.reload()
    page.wait_for_selector('.conn[data-status="live"]')
    assert version(page) == len(moves) + 1
    assert page.js_errors == []


def test_a_game_stored_under_other_rules_says_so(server, desktop):
    """A server whose engine plays other rules than a game was stored under shows why the game
    cannot be opened (both versions), instead of a broken board or endless reconnecting."""
    page = desktop
    game_id = create_game(page, server.url, "akros", "hotseat")
    page.wait_for_selector('.conn[data-status="live"]')
    server.stop()
    store = sqlite3.connect(server.db_url.removeprefix("sqlite:///"))
    with store:
        store.execute("UPDATE games SET rules_version = '0' WHERE id = ?", (game_id,))
    store.close()
    server.start()
    page.goto(f"{server.url}/game/{game_id}")
    failure = page.locator(".failure")
    failure.wait_for()
    text = failure.inner_text()
    assert "rules version '0'" in text and "rules version '1'" in text
    screenshot(page, "rules-changed-desktop")
    assert page.js_errors == []
