"""Challenges, the home page's view of the hall, and a game that aborts itself, in the browser:
Ada challenges Bob from Bob's profile, Bob sees the header's count and the lobby's entry and
accepts (both land in the game), or declines (Ada is told); the home page lists a live game and
an open seek; a side that does not make its first move in time aborts the game, in words. At
desktop and phone size; screenshots in the light and the dark scheme under /tmp/shots35/."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import PASSWORD, open_lobby, watch

from conftest import AppServer, Server, started

SHOTS = Path("/tmp/shots35/challenges")
FIRST_MOVE_MS = 4_000
"""The first-move limit of this test's server (30 s on a real one), so an abort comes soon."""
FIRST_MOVE_LIMIT = (
    f"from gamehall.web.play import conduct; conduct.FIRST_MOVE_TIMED_MS = {FIRST_MOVE_MS}; "
)
"""Python the server runs first: the short limit for games with a clock."""
_made: set[str] = set()
"""The accounts signed up so far (one network address makes at most 10 an hour)."""


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The hall's server with a short first-move limit for games with a clock."""
    with started(tmp_path_factory, "challenges", AppServer, before=FIRST_MOVE_LIMIT) as running:
        yield running


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def person(
    new_context: Any, url: str, name: str, *, phone: bool = False, dark: bool = False
) -> Any:
    """A page of a browser signed in as ``name`` (signed up the first time)."""
    context = new_context(phone=phone, dark=dark)
    route = "login" if name in _made else "signup"
    _made.add(name)
    answer = context.request.post(
        f"{url}/api/account/{route}", data={"username": name, "password": PASSWORD}
    )
    assert answer.ok, answer.text()
    return watch(context.new_page())


def fits(page: Any) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def challenge_from_profile(page: Any, url: str, name: str, *, clock: str, game: str) -> None:
    page.goto(f"{url}/player/{name}")
    form = page.locator(".challenge-panel:not([hidden]) .challenge-form")
    form.wait_for()
    assert page.locator(".challenge-panel h2").inner_text() == f"Challenge {name}"
    form.locator("#challenge-game").select_option(game)
    form.locator("#challenge-clock").select_option(clock)
    form.locator("#challenge-side").select_option("0")
    form.locator("#challenge-rated").check()
    form.locator("button[type=submit]").click()
    page.wait_for_selector(".challenge-sent")


@pytest.mark.parametrize("ada_on_phone", [False, True], ids=["ada-desktop", "ada-phone"])
def test_ada_challenges_bob_who_accepts_and_both_land_in_the_game(hall, new_context, ada_on_phone):
    url = hall.url
    size = "phone" if ada_on_phone else "desktop"
    other = "desktop" if ada_on_phone else "phone"
    ada_name, bob_name = "Ada", "Bob"
    ada = person(new_context, url, ada_name, phone=ada_on_phone)
    bob = person(new_context, url, bob_name, phone=not ada_on_phone)
    open_lobby(bob, url)
    bob.wait_for_selector("#challenges .challenges-body")
    challenge_from_profile(ada, url, bob_name, clock="", game="acadmu")
    assert "Waiting for an answer" in ada.locator(".challenge-sent").inner_text()
    shot(ada, f"profile-challenge-sent-{size}")
    # Bob hears of it at once: the lobby's Challenges list and the header's count.
    entry = bob.locator(".challenge.incoming")
    entry.wait_for()
    assert f"{ada_name} challenges you" in entry.inner_text()
    assert "rated" in entry.inner_text() and "untimed" in entry.inner_text()
    badge = bob.locator('.nav-badge[data-badge="challenges"]')
    badge.wait_for()
    assert badge.locator(".badge-count").inner_text() == "1"
    assert badge.get_attribute("href") == "/lobby#challenges"
    assert fits(bob)
    shot(bob, f"lobby-challenge-incoming-{other}")
    entry.locator('button[data-action="accept"]').click()
    for page in (ada, bob):
        page.wait_for_url("**/game/*")
        page.wait_for_selector(".seat.mine")
    assert ada.url == bob.url
    names = bob.locator(".seat").all_inner_texts()
    assert any(ada_name in text for text in names) and any(bob_name in text for text in names)
    # The challenge is gone: no count in the header.
    open_lobby(bob, url)
    bob.wait_for_selector('.nav-badge[data-badge="challenges"][hidden]', state="attached")


def test_bob_declines_and_ada_is_told(hall, new_context):
    url = hall.url
    ada_name, bob_name = "Ada", "Bob"
    ada = person(new_context, url, ada_name)
    bob = person(new_context, url, bob_name, phone=True)
    challenge_from_profile(ada, url, bob_name, clock="5+3", game="akros")
    bob.goto(f"{url}/")  # any page: the header shows the count
    badge = bob.locator('.nav-badge[data-badge="challenges"]:not([hidden])')
    badge.wait_for()
    badge.click()
    bob.wait_for_url("**/lobby#challenges")
    bob.locator('.challenge.incoming button[data-action="decline"]').click()
    ada.wait_for_selector(f'.toast:has-text("{bob_name} declined your challenge")')
    ada.wait_for_selector(".challenge-panel .challenge-form:visible")  # she may send another
    bob.wait_for_selector('.challenges-body:has-text("No challenges")')
    assert ada.evaluate("fetch('/api/challenges').then(r => r.json())")["outgoing"] == []


def test_screenshots_of_the_profile_form_and_the_lobby_in_both_schemes(hall, new_context):
    url = hall.url
    ada_name, bob_name = "Ada", "Bob"
    person(new_context, url, bob_name)
    for phone, dark in itertools.product((False, True), (False, True)):
        size, scheme = ("phone" if phone else "desktop"), ("dark" if dark else "light")
        ada = person(new_context, url, ada_name, phone=phone, dark=dark)
        ada.goto(f"{url}/player/{bob_name}")
        ada.locator(".challenge-panel:not([hidden]) .challenge-form").wait_for()
        ada.locator(".challenge-form details.variants summary").click()
        assert fits(ada)
        shot(ada, f"profile-challenge-form-{size}-{scheme}")
    bob = person(new_context, url, bob_name)
    challenge_from_profile(ada, url, bob_name, clock="10+5", game="acadmu")
    for phone, dark in itertools.product((False, True), (False, True)):
        size, scheme = ("phone" if phone else "desktop"), ("dark" if dark else "light")
        bob = person(new_context, url, bob_name, phone=phone, dark=dark)
        bob.goto(f"{url}/lobby")
        bob.locator(".challenge.incoming").wait_for()
        assert fits(bob)
        shot(bob, f"lobby-challenges-{size}-{scheme}")
    ada.goto(f"{url}/lobby")
    ada.locator(".challenge.outgoing").wait_for()
    shot(ada, "lobby-challenge-outgoing-phone-dark")
    ada.locator('.challenge.outgoing button[data-action="cancel"]').click()
    ada.wait_for_selector('.challenges-body:has-text("No challenges")')


def test_the_home_page_lists_a_live_game_and_an_open_seek(hall, new_context):
    url = hall.url
    ada_name, bob_name = "Ada", "Bob"
    ada = person(new_context, url, ada_name)
    bob = person(new_context, url, bob_name)
    challenge_from_profile(ada, url, bob_name, clock="d3", game="acadmu")  # no abort soon
    bob.goto(f"{url}/lobby")
    bob.locator('.challenge.incoming button[data-action="accept"]').click()
    bob.wait_for_url("**/game/*")
    game_id = bob.url.rsplit("/", 1)[1]
    carol = person(new_context, url, "Carol")
    open_lobby(carol, url)  # her seek stays open while a lobby page of hers is
    seek = carol.evaluate(
        "fetch('/api/seeks', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({game: 'akros', clock: '5+3'})}).then(r => r.json())"
    )
    for phone, dark in itertools.product((False, True), (False, True)):
        size, scheme = ("phone" if phone else "desktop"), ("dark" if dark else "light")
        visitor = watch(new_context(phone=phone, dark=dark).new_page())
        visitor.goto(f"{url}/")
        game = visitor.locator(f'.now-game[data-id="{game_id}"]')
        game.wait_for()
        assert ada_name in game.inner_text() and bob_name in game.inner_text()
        assert game.locator("a.watch").get_attribute("href") == f"/game/{game_id}"
        row = visitor.locator(f'.now-seek[data-seek="{seek["id"]}"]')
        row.wait_for()
        assert "Carol" in row.inner_text()
        assert fits(visitor)
        shot(visitor, f"home-hall-now-{size}-{scheme}")
    # A visitor accepts the seek from the home page and lands in the game.
    row.locator('button[data-action="accept"]').click()
    visitor.wait_for_url("**/game/*")
    visitor.wait_for_selector(".seat.mine")


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_side_that_does_not_move_aborts_the_game_in_words(hall, new_context, phone):
    url = hall.url
    ada_name, bob_name = "Ada", "Bob"
    ada = person(new_context, url, ada_name, phone=phone)
    bob = person(new_context, url, bob_name, phone=not phone, dark=True)
    challenge_from_profile(ada, url, bob_name, clock="3+2", game="acadmu")
    bob.goto(f"{url}/lobby")
    bob.locator('.challenge.incoming button[data-action="accept"]').click()
    for page in (ada, bob):
        page.wait_for_url("**/game/*")
    # Nobody moves: the side to move's first move is not made in time.
    for page in (ada, bob):
        over = page.locator(".game-over .reason")
        over.wait_for(timeout=FIRST_MOVE_MS + 20_000)
        assert over.inner_text().startswith("Game aborted: ")
        assert over.inner_text().endswith(" did not move")
        assert page.locator(".game-over .result").inner_text() == "No result"
    size = "phone" if phone else "desktop"
    other = "desktop" if phone else "phone"
    shot(ada, f"game-aborted-{size}-light")
    shot(bob, f"game-aborted-{other}-dark")
