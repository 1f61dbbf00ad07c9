"""The game room in the browser: a timed online game between two people that ends on time, a
resignation, a takeback against the computer, chat between the players, and the opponent's
presence when they leave."""

from __future__ import annotations

import random
import time

from browser_helpers import (
    GAME_URL,
    acadmu_click_move,
    akros_click_move,
    create_game,
    is_over,
    my_turn,
    position,
    screenshot,
    version,
    wait_my_turn,
    wait_settled,
    watch,
)

from gamehall.core.game import CHANCE


def _online_pair(server, new_context, clock=None):
    """An online game: the creator's page and the invited friend's page. A clock the home page
    does not offer (a quarter of a minute, so that a flag falls in seconds) is asked for through
    the API, with the creator's cookie, as a script of the page would."""
    creator = watch(new_context().new_page())
    if clock is None or clock == "1+0":
        game_id = create_game(creator, server.url, "acadmu", "online", clock=clock)
        invite = creator.locator(".invite-url").input_value()
    else:
        creator.goto(server.url + "/")
        answer = creator.request.post(
            f"{server.url}/api/games",
            data={"game": "acadmu", "options": {}, "mode": "online", "clock": clock},
        )
        assert answer.ok, answer.text()
        made = answer.json()
        game_id = made["id"]
        invite = made["invite"]
        if invite.startswith("/"):
            invite = server.url + invite
        creator.goto(f"{server.url}/game/{game_id}")
        creator.wait_for_selector(".game-page[data-version]")
    friend = watch(new_context().new_page())
    friend.goto(invite)
    friend.wait_for_selector('.conn[data-status="live"]')
    friend.wait_for_function(f"() => /{game_id}$/.test(location.href)")
    assert GAME_URL.match(friend.url)
    creator.wait_for_selector('.seat[data-seat="1"] [data-presence="online"]')
    return game_id, creator, friend


def _mover(pages):
    for page in pages:
        if my_turn(page):
            return page
    return None


def _both_move(pages, rng) -> None:
    """Each side makes its first move."""
    for _ in range(2):
        for page in pages:
            wait_settled(page)
        # Settled at a chance's version, neither page has the turn until the draw arrives: no
        # one page's event says which will, so both are looked at until one does.
        page = None
        deadline = time.monotonic() + 20
        while page is None:
            assert time.monotonic() < deadline, "neither player got the turn"
            page = _mover(pages)
            if page is None:
                pages[0].wait_for_timeout(50)
        before = version(page)
        acadmu_click_move(page, rng)
        wait_settled(page, before)


def test_a_timed_online_game_ends_on_time(server, new_context):
    game_id, creator, friend = _online_pair(server, new_context, clock="0.25+0")
    pages = [creator, friend]
    assert creator.locator(".seat-clock").count() == 2
    _both_move(pages, random.Random(2))  # each side's first move is free
    # Now a clock runs (15 s: low from the start); its owner does not move, and the game ends on
    # time.
    creator.wait_for_selector(".seat-clock.running")
    late = _mover(pages) or pages[0]
    creator.wait_for_selector(".seat-clock.running.low", timeout=30000)
    screenshot(creator, "clock-low-desktop", full_page=False)
    for page in pages:
        page.wait_for_selector(".game-over", timeout=30000)
    result = creator.locator(".game-over").inner_text()
    assert "ran out of time" in result and "on time" in result
    assert late.locator(".seat-clock.flagged").count() == 1
    screenshot(creator, "clock-flag-desktop", full_page=False)
    state = server.get(f"/api/games/{game_id}")
    assert state["over"] and "ran out of time" in state["outcome"]["reason"]


def test_a_player_resigns(server, new_context):
    game_id, creator, friend = _online_pair(server, new_context)
    _both_move([creator, friend], random.Random(3))  # before that, a resignation is an abort
    button = friend.locator('button[data-room="resign"]')
    button.click()
    assert button.inner_text() == "Really resign?"  # asked twice
    button.click()
    for page in (creator, friend):
        page.wait_for_selector(".game-over")
    assert "You win" in creator.locator(".game-over .result").inner_text()
    assert "resigned" in creator.locator(".game-over .reason").inner_text()
    assert friend.locator('button[data-room="resign"]').count() == 0
    screenshot(creator, "resigned-desktop", full_page=False)
    assert server.get(f"/api/games/{game_id}")["outcome"]["reason"] == "Light resigned: Dark wins"


def test_a_takeback_against_the_computer(server, new_context):
    page = watch(new_context().new_page())
    create_game(page, server.url, "akros", "computer", seat=0, level="beginner")
    rng = random.Random(5)
    # A takeback undoes the player's last move and the computer's answers, never a draw. The
    # page plays an only move for the player (a forced placement, followed by the next draw),
    # so the test keeps playing until its own click is the Jinn's last move with no draw after.
    for _turn in range(9):
        wait_my_turn(page)
        assert not is_over(page), "the game ended before a move could be taken back"
        before = position(page)
        actions_before = page.evaluate("window.gamehall.state.actions.length")
        akros_click_move(page, rng)  # the Jinn's move; the computer (the Ifrit) answers
        wait_my_turn(page)
        since = page.evaluate(f"window.gamehall.state.movers.slice({actions_before})")
        if since[0] == 0 and 0 not in since[1:] and CHANCE not in since:
            break
    else:
        raise AssertionError("no Jinn move in nine turns could be taken back")
    assert position(page) != before
    screenshot(page, "takeback-before-desktop", full_page=False)
    page.locator('button[data-room="takeback"]').click()
    page.wait_for_function(
        "before => document.querySelector('.game-page').dataset.position === before", arg=before
    )
    assert page.evaluate("window.gamehall.state.actions.length") == actions_before
    assert my_turn(page)
    screenshot(page, "takeback-after-desktop", full_page=False)
    assert page.locator(".panel.chat").is_hidden()  # nobody to talk to against the computer
    assert page.js_errors == []


def test_the_players_chat_and_a_leaving_player_shows_offline(server, new_context):
    game_id, creator, friend = _online_pair(server, new_context)
    assert creator.locator(".panel.chat").is_visible()
    creator.locator(".chat-form input").fill("Good luck! <b>not bold</b>")
    creator.locator(".chat-form button").click()
    line = friend.locator(".chat-lines li").last
    line.wait_for()
    assert line.inner_text() == "Dark: Good luck! <b>not bold</b>"  # text, never markup
    assert friend.locator(".chat-lines li b").count() == 0
    friend.locator(".chat-form input").fill("Thanks, you too")
    friend.locator(".chat-form input").press("Enter")
    creator.locator(".chat-lines li", has_text="Thanks, you too").wait_for()
    screenshot(friend, "chat-desktop", full_page=False)
    # A spectator has a chat of their own and never sees the players'.
    spectator = watch(new_context().new_page())
    spectator.goto(f"{server.url}/game/{game_id}")
    spectator.wait_for_selector('.conn[data-status="live"]')
    # The room's name comes with the room's first chat message, which may follow the state.
    spectator.locator(".chat h2", has_text="Spectators' chat").wait_for()
    assert spectator.locator(".chat-lines li").count() == 0
    # A spectator may turn the board round: Light's side at the bottom.
    assert spectator.locator(".acadmu-svg .side-l").get_attribute("transform") == "translate(0 0)"
    spectator.locator("button.flip").click()
    spectator.wait_for_function(
        "() => document.querySelector('.acadmu-svg .side-d').getAttribute('transform')"
        " === 'translate(0 0)'"
    )
    # Each player can turn the chat off (remembered by the page).
    friend.locator(".chat-toggle").click()
    assert friend.locator(".chat-body").is_hidden()
    friend.reload()
    friend.wait_for_selector(".chat-toggle")
    assert friend.locator(".chat-body").is_hidden()
    # The friend makes a move, then leaves: the creator sees them offline and a countdown.
    # While the creator's tab is in the background, the title says when it is their turn.
    rng = random.Random(1)
    for page in (creator, friend):
        wait_settled(page)
    creator.evaluate(
        "() => { Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
        " document.dispatchEvent(new Event('visibilitychange')); }"
    )
    for _ in range(2):
        mover = _mover([creator, friend])
        if mover is None:
            break
        before = version(mover)
        acadmu_click_move(mover, rng)
        wait_settled(mover, before)
    creator.wait_for_function("() => document.title.startsWith('▶ Your turn')", timeout=5000)
    friend.context.close()
    creator.wait_for_selector('.seat[data-seat="1"] [data-presence="offline"]')
    creator.wait_for_selector(".leaving .claim-countdown")
    screenshot(creator, "opponent-left-desktop", full_page=False)
    assert not is_over(creator)
