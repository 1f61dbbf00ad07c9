"""Two people online: one creates the game and sends the invite link, the other opens it."""

from __future__ import annotations

import random
import time

from browser_helpers import (
    acadmu_click_move,
    create_game,
    is_over,
    is_paused,
    my_turn,
    position,
    screenshot,
    version,
    watch,
)


def _wait_version(page, at_least):
    page.wait_for_function(
        "v => Number(document.querySelector('.game-page')?.dataset.version) >= v", arg=at_least
    )


def test_two_browsers_play_online_through_the_invite_link(server, new_context):
    rng = random.Random(3)
    alice = watch(new_context().new_page())
    game_id = create_game(alice, server.url, "acadmu", "online", seat=0, options={"target": 1})
    alice.wait_for_selector('.conn[data-status="live"]')
    invite = alice.locator(".invite-box .invite-url").input_value()
    assert game_id in invite and "seat=" in invite
    # The friend's seat is empty until the link is opened.
    friend_presence = alice.locator('.seat[data-seat="1"] .presence')
    assert friend_presence.get_attribute("data-presence") == "offline"
    alice.locator(".invite-box button.copy").click()
    alice.wait_for_selector(".invite-box button.copy:has-text('Copied')")
    screenshot(alice, "online-invite-desktop")

    bob = watch(new_context(phone=True).new_page())
    bob.goto(invite)
    bob.wait_for_selector('.conn[data-status="live"]')
    assert "seat=" not in bob.url  # the token is not left in the address bar
    assert bob.locator(".seat.mine .seat-name").inner_text().startswith("Light")
    alice.wait_for_selector('.seat[data-seat="1"] .presence[data-presence="online"]')
    bob.wait_for_selector('.seat[data-seat="0"] .presence[data-presence="online"]')
    # The link is spent: Alice's page no longer shows it, and no secret is kept in the browser
    # (not in storage, not in the socket's address).
    alice.wait_for_selector(".invite-box", state="hidden")
    for page in (alice, bob):
        assert page.evaluate("localStorage.length") == 0
        assert "seat" not in page.evaluate("window.gamehall.live.url()")
    # A third person with the same link only watches.
    dave = watch(new_context().new_page())
    dave.goto(invite)
    dave.wait_for_selector('.conn[data-status="live"]')
    dave.wait_for_selector(".toast:has-text('used already')")
    assert "watching" in dave.locator(".turn-banner").inner_text()
    dave.close()

    # A spectator (no seat) watches and cannot move; the server's refusal is shown.
    carol = watch(new_context().new_page())
    carol.goto(f"{server.url}/game/{game_id}")
    carol.wait_for_selector('.conn[data-status="live"]')
    assert "watching" in carol.locator(".turn-banner").inner_text()
    assert carol.locator(".group.selectable").count() == 0
    carol.evaluate("window.gamehall.live.move(window.gamehall.state.legal[0]?.text || 'pass')")
    carol.wait_for_selector(".toast", state="visible")
    assert "seat" in carol.locator(".toast").first.inner_text()

    # No hints in an online game: neither player nor the spectator is offered one.
    for page in (alice, bob, carol):
        assert page.locator(".hint-button").count() == 0 and page.locator(".assist").is_hidden()

    moves = 0
    deadline = time.monotonic() + 45  # a bound in time, not in polls: slow under load is not stuck
    while time.monotonic() < deadline:
        if is_over(alice) and is_over(bob):
            break
        mover = alice if my_turn(alice) else bob if my_turn(bob) else None
        if mover is None:
            for page in (alice, bob):  # a drawn round does not end a match to 1: go on
                button = page.locator(".pause-panel button.continue")
                if is_paused(page) and button.count() and button.is_enabled():
                    button.click()
            alice.wait_for_timeout(50)  # no one page's event says which page gets the turn
            continue
        before = version(mover)
        acadmu_click_move(mover, rng)
        moves += 1
        for page in (alice, bob, carol):
            _wait_version(page, before + 1)
        if moves == 6:
            screenshot(bob, "online-acadmu-phone")
    assert is_over(alice) and is_over(bob), "the match did not end: " + " | ".join(
        page.evaluate(
            "() => JSON.stringify({banner: document.querySelector('.turn-banner')?.innerText,"
            " data: {...document.querySelector('.game-page')?.dataset},"
            " pause: window.gamehall.state?.pause, to_move: window.gamehall.state?.to_move,"
            " you: window.gamehall.state?.you, version: window.gamehall.state?.version})"
        )
        for page in (alice, bob)
    )
    assert moves >= 2
    for page in (alice, bob, carol):
        _wait_version(page, version(alice))
    assert position(alice) == position(bob) == position(carol)
    results = {page.locator(".game-over .result").inner_text() for page in (alice, bob)}
    assert any(r.startswith("You win") for r in results) and any(
        r.startswith("You lose") for r in results
    )
    screenshot(alice, "online-over-desktop")

    # Bob leaves: Alice sees him go offline.
    bob.close()
    alice.wait_for_selector('.seat[data-seat="1"] .presence[data-presence="offline"]')
    assert alice.js_errors == [] and carol.js_errors == []
