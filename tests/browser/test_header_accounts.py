"""The header and the account pages, at desktop and phone size: the header is one line (its
links fold into a Menu button on a phone), its menus open and list each game once, the
"your move" badge counts the games where it is your move, and signing up (the password
confirmed, errors beside their field, nothing sent while one stands) and in return to ?next=.
Screenshots of every page whose header changed, light and dark, desktop and phone."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import PASSWORD, watch

from conftest import AppServer, Server, started

SHOTS = Path(os.environ.get("GAMEHALL_SHOTS", "/tmp/shots35/nav"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The app with its computer players on threads: no worker processes to warm (these tests
    play no game that needs a solver)."""
    with started(tmp_path_factory, "header", AppServer) as running:
        yield running


def one_line(page: Any) -> None:
    """The header is one row: its height is one item's, every item sits on the same line, and
    nothing sticks out of the window."""
    head = page.locator(".site-head").bounding_box()
    assert head is not None and head["height"] <= 64, head
    items = page.evaluate(
        """() => {
          const shown = (e) => e && e.getClientRects().length > 0;
          const links = document.querySelector('.nav-links');
          const inline = shown(links) && getComputedStyle(links).position !== 'absolute';
          return [document.querySelector('.site-head .brand'), document.querySelector('.nav-toggle'),
                  ...(inline ? links.children : []),
                  ...document.querySelectorAll('.nav-badge, .nav-account > *')]
            .filter(shown)
            .map((e) => { const r = e.getBoundingClientRect();
                          return {name: e.className || e.tagName, top: r.top, bottom: r.bottom,
                                  right: r.right}; });
        }"""
    )
    assert len(items) >= 3, items
    middles = [(item["top"] + item["bottom"]) / 2 for item in items]
    assert max(middles) - min(middles) <= 4, items  # one line: all centred alike
    width = page.viewport_size["width"]
    assert all(item["right"] <= width + 0.5 for item in items), items
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def open_menu(page: Any, menu: str, phone: bool) -> Any:
    if phone:
        page.locator(".nav-toggle").click()
        page.wait_for_selector(".nav-links", state="visible")
        assert page.locator(".nav-toggle").get_attribute("aria-expanded") == "true"
    page.locator(f'[data-menu="{menu}"] > summary').click()
    listing = page.locator(f'[data-menu="{menu}"] .nav-menu-list')
    listing.wait_for(state="visible")
    return listing


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_header_is_one_line_and_its_menus_open(server, new_context, phone):
    page = watch(new_context(phone=phone).new_page())
    page.goto(server.url + "/")
    page.wait_for_selector(".nav-signin", state="visible")  # a guest: Sign in, not a name
    assert page.locator(".nav-me").count() == 0
    assert page.locator(".nav-links").is_visible() is not phone  # folded on a phone
    assert page.locator(".nav-toggle").is_visible() is phone
    one_line(page)
    meta = server.get("/api/meta")["games"]
    learnable = [g for g in meta if g["how_to_play"]]

    # How to play: one menu, each game once in it, and no game named in the header itself.
    header_text = page.locator(".site-head").inner_text()
    assert not any(game["title"] in header_text for game in meta), header_text
    listing = open_menu(page, "howto", phone)
    for game in learnable:
        assert listing.locator(f'a[href="/howto/{game["name"]}"]').count() == 1
    assert listing.locator(".nav-menu-title").all_inner_texts() == [
        g["title"] for g in meta if g["how_to_play"] or g["rules"]
    ]
    shoot(page, f"header-howto-menu-{'phone' if phone else 'desktop'}")
    if not phone:  # a click elsewhere closes it
        page.locator("main").click(position={"x": 5, "y": 5})
        listing.wait_for(state="hidden")
        listing = open_menu(page, "howto", phone)
    listing.locator(f'a[href="/howto/{learnable[-1]["name"]}"]').click()
    page.wait_for_url(f"**/howto/{learnable[-1]['name']}")
    listing.wait_for(state="hidden")  # closed by going there
    if phone:
        assert not page.locator(".nav-links").is_visible()

    # Puzzles is a menu of the games with puzzles; Leaderboard one link to the first game's.
    puzzling = [g for g in meta if g["puzzles"]]
    listing = open_menu(page, "puzzles", phone)
    assert listing.locator("a").count() == len(puzzling)
    page.keyboard.press("Escape")
    listing.wait_for(state="hidden")
    if phone:
        page.keyboard.press("Escape")
        page.wait_for_selector(".nav-links", state="hidden")
        page.locator(".nav-toggle").click()
    page.locator('.nav-links a[data-nav="leaderboard"]').click()
    page.wait_for_url(f"**/leaderboard/{meta[0]['name']}")
    page.wait_for_selector(".leaderboard-body .panel")
    if not phone:
        assert page.locator('a[data-nav="leaderboard"]').get_attribute("aria-current") == "page"
    one_line(page)
    assert page.js_errors == []


def sign_up_requests(page: Any) -> list[str]:
    sent: list[str] = []
    page.on(
        "request",
        lambda r: sent.append(r.url) if r.method == "POST" and "/api/account/" in r.url else None,
    )
    return sent


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_sign_up_and_in_on_their_own_pages_and_back_to_next(server, new_context, phone):
    name = "Navphone" if phone else "Navdesk"
    page = watch(new_context(phone=phone).new_page())
    sent = sign_up_requests(page)
    page.goto(server.url + "/lobby")
    page.wait_for_selector(".account .account-links")
    page.locator(".account .account-links a", has_text="Sign up").click()
    page.wait_for_url("**/signup?next=%2Flobby")
    form = page.locator("form.account-page-form")
    form.wait_for()

    # The rules are there before one types: the server's own numbers.
    rules = server.get("/api/account/rules")
    username_rules = page.locator("#account-username-rules").inner_text()
    assert f"{rules['name_min']} to {rules['name_max']} characters" in username_rules
    assert f"{rules['password_min']} to" in page.locator("#account-password-rules").inner_text()
    one_line(page)

    # A confirmation that differs: said beside that field, and nothing is sent.
    page.fill("#account-username", name)
    page.fill("#account-password", PASSWORD)
    page.fill("#account-confirm", PASSWORD + "!")
    form.locator('button[type="submit"]').click()
    error = page.locator("#account-confirm-error")
    error.wait_for(state="visible")
    assert "differ" in error.inner_text()
    assert page.locator("#account-confirm").get_attribute("aria-invalid") == "true"
    confirm_box = page.locator("#account-confirm").bounding_box()
    error_box = error.bounding_box()
    assert 0 <= error_box["y"] - (confirm_box["y"] + confirm_box["height"]) <= 24
    assert page.locator("#account-username-error").is_hidden()
    assert page.locator("#account-password-error").is_hidden()
    # A username the rules refuse is told beside the username, before anything is sent.
    page.fill("#account-username", "a b")
    form.locator('button[type="submit"]').click()
    page.locator("#account-username-error").wait_for(state="visible")
    assert sent == []
    shoot(page, f"signup-errors-{'phone' if phone else 'desktop'}")

    # Mended: the account is made, and the page goes back to the lobby, signed in.
    page.fill("#account-username", name)
    page.fill("#account-confirm", PASSWORD)
    assert page.locator("#account-confirm-error").is_hidden()  # gone once mended
    form.locator('button[type="submit"]').click()
    page.wait_for_url("**/lobby")
    page.wait_for_selector(f'.nav-me:text-is("{name}")')
    assert [url.rsplit("/", 1)[1] for url in sent] == ["signup"]
    one_line(page)
    shoot(page, f"signed-in-lobby-{'phone' if phone else 'desktop'}")

    # The server's refusal lands beside its field: someone else tries the same name.
    other = watch(new_context(phone=phone).new_page())
    other.goto(server.url + "/signup")
    other.fill("#account-username", name.upper())
    other.fill("#account-password", PASSWORD)
    other.fill("#account-confirm", PASSWORD)
    other.locator('form.account-page-form button[type="submit"]').click()
    taken = other.locator("#account-username-error")
    taken.wait_for(state="visible")
    assert "taken" in taken.inner_text()

    # Sign out from the header's menu, then in again from its Sign in link: back to the lobby.
    if phone:  # the name is beside the Menu button, not in it
        assert page.locator(".nav-me").is_visible()
    page.locator(".nav-user > summary").click()
    page.locator(".nav-signout").click()
    page.wait_for_selector(".nav-signin", state="visible")
    page.locator(".nav-signin").click()
    page.wait_for_url("**/signin?next=%2Flobby")
    page.wait_for_selector("#account-username")
    page.fill("#account-username", name)
    page.fill("#account-password", "wrong password")
    page.locator('form.account-page-form button[type="submit"]').click()
    page.wait_for_selector(".form-error:not([hidden])")
    page.fill("#account-password", PASSWORD)
    page.locator('form.account-page-form button[type="submit"]').click()
    page.wait_for_url("**/lobby")
    page.wait_for_selector(f'.nav-me:text-is("{name}")')
    assert page.js_errors == [] and other.js_errors == []


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_your_move_badge_counts_games_where_it_is_your_move(server, new_context, phone):
    page = watch(new_context(phone=phone).new_page())
    page.goto(server.url + "/")
    page.wait_for_selector(".nav-signin")
    badge = page.locator('.nav-badge[data-badge="turns"]')
    assert badge.count() == 0 or badge.is_hidden()  # no game: no badge

    def create(mode: str) -> str:
        body = {"game": "tictactoe", "mode": mode, "seat": 0, "level": "beginner"}
        return page.evaluate(
            """async (body) => (await (await fetch('/api/games', {method: 'POST',
                 headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)})).json()).id""",
            body,
        )

    computer = create("computer")
    create("hotseat")  # both seats one's own: nobody waits on it, not counted
    page.goto(f"{server.url}/game/{computer}")
    page.wait_for_selector('.turn-banner[data-kind="mine"]')
    badge.wait_for(state="visible")
    assert badge.get_attribute("data-count") == "1"
    assert badge.locator(".badge-count").inner_text() == "1"
    assert badge.get_attribute("aria-label") == "Your move: 1"
    one_line(page)
    online = create("online")
    page.goto(server.url + "/lobby")
    page.wait_for_selector('.nav-badge[data-badge="turns"][data-count="2"]')
    one_line(page)
    badge.click()
    page.wait_for_url("**/your-move")
    rows = page.locator(".turn-game")
    rows.first.wait_for()
    assert {rows.nth(i).get_attribute("data-id") for i in range(rows.count())} == {
        computer,
        online,
    }
    assert "You play Cross" in rows.first.inner_text()
    shoot(page, f"your-move-{'phone' if phone else 'desktop'}")

    # A guest's own profile shows the way to an account, back to the profile after.
    guest = page.evaluate("async () => (await (await fetch('/api/me')).json()).name")
    page.goto(f"{server.url}/player/{guest}")
    note = page.locator(".guest-note:not([hidden])")
    note.wait_for()
    assert note.locator("a", has_text="Sign up").get_attribute("href") == (
        f"/signup?next=%2Fplayer%2F{guest}"
    )

    # The fullest header: a 20-letter name and a second badge (as the challenges add one).
    name = "LongestNamePhone1234" if phone else "LongestNameDesktop12"
    status = page.evaluate(
        """async (name) => (await fetch('/api/account/signup', {method: 'POST',
             headers: {'Content-Type': 'application/json'},
             body: JSON.stringify({username: name, password: 'a long enough password'})})).status""",
        name,
    )
    assert status == 200
    page.goto(server.url + "/lobby")
    page.wait_for_selector(f'.nav-me:text-is("{name}")')
    page.wait_for_selector('.nav-badge[data-badge="turns"][data-count="2"]')  # the games came along
    page.evaluate(
        """async () => (await import('/static/lib/header.js')).headerBadge('challenges',
             {count: 3, href: '/lobby', label: 'Challenges'})"""
    )
    page.wait_for_selector('.nav-badge[data-badge="challenges"][data-count="3"]')
    one_line(page)
    shoot(page, f"fullest-header-{'phone' if phone else 'desktop'}")
    assert page.js_errors == []


def test_screenshots_of_the_pages_whose_header_changed(server, new_context):
    """Light and dark, desktop and phone: home, lobby, game, sign-in, sign-up, leaderboard
    (saved under /tmp/shots35/nav; looked at by a person). Each is one line at the top."""
    for dark in (False, True):
        for phone in (False, True):
            page = watch(new_context(phone=phone, dark=dark).new_page())
            page.goto(server.url + "/")
            page.wait_for_selector(".nav-signin")
            game = page.evaluate(
                """async () => (await (await fetch('/api/games', {method: 'POST',
                     headers: {'Content-Type': 'application/json'},
                     body: JSON.stringify({game: 'tictactoe', mode: 'computer', seat: 0,
                                           level: 'beginner'})})).json()).id"""
            )
            suffix = f"{'phone' if phone else 'desktop'}-{'dark' if dark else 'light'}"
            for name, path, ready in (
                ("home", "/", ".nav-badge[data-count='1']"),
                ("lobby", "/lobby", ".lobby-status[data-status='live']"),
                ("game", f"/game/{game}", ".turn-banner[data-kind='mine']"),
                ("signin", "/signin", "#account-username"),
                ("signup", "/signup", "#account-username-rules"),
                ("leaderboard", "/leaderboard", ".leaderboard-body .panel"),
            ):
                page.goto(server.url + path)
                page.wait_for_selector(ready)
                page.wait_for_selector(".nav-badge[data-count='1']")
                one_line(page)
                shoot(page, f"{name}-{suffix}")
            if phone:
                page.locator(".nav-toggle").click()
                page.locator('[data-menu="howto"] > summary').click()
                page.wait_for_selector('[data-menu="howto"] .nav-menu-list', state="visible")
                shoot(page, f"menu-open-{suffix}")
            assert page.js_errors == []
