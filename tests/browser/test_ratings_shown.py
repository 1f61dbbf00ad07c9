"""Ratings where people look: two signed-up players meet through a rated seek; the room shows
both ratings (a newcomer's "1500?"), the "Rated · 3+2" label, and at the end (a resignation)
each side's change in green and red, also when the finished game is opened again. The lobby,
the profile and the leaderboard then show the winner's rating the same way, and the level menu
says what each level does and what its rating means. Desktop (Ada) and phone (Bob); screenshots
in both colour schemes under /tmp/shots35/ratings/ (or $GAMEHALL_SHOTS)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import PASSWORD, is_over, open_lobby, play_turn, watch

from conftest import AppServer, Server, started

SHOTS = Path(os.environ.get("GAMEHALL_SHOTS", "/tmp/shots35/ratings"))


@pytest.fixture(scope="module")
def rated_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server with a leaderboard that lists players after one rated game."""
    with started(tmp_path_factory, "rated", AppServer, app_args="leaderboard=(1, 350)") as running:
        yield running


def shots(page: Any, name: str, size: str) -> None:
    """The page in the light and the dark colour scheme."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=str(SHOTS / f"{name}-{size}-{scheme}.png"), full_page=True)
    page.emulate_media(color_scheme="light")


def post(page: Any, path: str, body: dict[str, Any]) -> Any:
    """A JSON POST from the page (its cookies), as the page's own code sends one."""
    answer = page.evaluate(
        """async ([path, body]) => {
          const r = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                       body: JSON.stringify(body)});
          return {status: r.status, body: await r.json()};
        }""",
        [path, body],
    )
    assert answer["status"] in (200, 201), answer
    return answer["body"]


def sign_up(page: Any, url: str, name: str) -> None:
    open_lobby(page, url)
    post(page, "/api/account/signup", {"username": name, "password": PASSWORD})


def test_a_rated_game_shows_ratings_the_label_and_the_changes(rated_server, new_context):
    url = rated_server.url
    ada = watch(new_context().new_page())
    bob = watch(new_context(phone=True).new_page())
    sign_up(ada, url, "Ada")
    sign_up(bob, url, "Bob")
    open_lobby(ada, url)
    post(ada, "/api/seeks", {"game": "akros", "clock": "3+2", "rated": True, "side": 0})

    # The lobby lists Ada's seek with a newcomer's rating, marked provisional.
    bob.goto(f"{url}/lobby")
    seek = bob.locator(".seek", has_text="Ada")
    seek.wait_for()
    assert seek.locator(".rating").inner_text() == "1500?"
    shots(bob, "lobby-newcomer-seek", "phone")
    seek.locator('button[data-action="accept"]').click()

    for page in (ada, bob):
        page.wait_for_url("**/game/*")
        page.wait_for_selector('.conn[data-status="live"]')
        page.wait_for_selector(".seat.mine")
        assert page.locator(".table-label").inner_text() == "Rated · 3+2"
        ratings = page.locator(".seat-rating")
        assert [ratings.nth(i).inner_text() for i in range(ratings.count())] == ["1500?", "1500?"]
    shots(ada, "room-start", "desktop")
    shots(bob, "room-start", "phone")
    # Someone in the lobby sees the game being played with both ratings.
    carol = watch(new_context().new_page())
    carol.goto(f"{url}/lobby")
    playing = carol.locator(".live-game .rating")
    playing.first.wait_for()
    assert [playing.nth(i).inner_text() for i in range(playing.count())] == ["1500?", "1500?"]
    carol.close()

    rng = random.Random(5)
    for _ in range(2):  # both sides move: the game can no longer be aborted, only resigned
        mover = ada if ada.locator('.turn-banner[data-kind="mine"]').count() else bob
        mover.wait_for_selector('.turn-banner[data-kind="mine"]', timeout=30_000)
        play_turn(mover, "akros", rng)
    resign = ada.locator('button[data-room="resign"]')
    resign.click()
    resign.click()  # asked twice

    changes: dict[str, str] = {}
    for page in (ada, bob):
        page.wait_for_selector(".game-over .rating-changes li")
        assert is_over(page)
        rows = page.locator(".game-over .rating-changes li")
        assert rows.count() == 2
        for i in range(2):
            row = rows.nth(i)
            text = row.inner_text()
            who = row.locator(".who").inner_text()
            assert text.startswith(f"{who} 1500? → "), text
            changes[who] = text
        assert page.locator(".game-over .rating-changes li.down .who").inner_text() == "Ada"
        assert page.locator(".game-over .rating-changes li.up .who").inner_text() == "Bob"
        assert "(−" in page.locator(".rating-changes li.down").inner_text()
        assert "(+" in page.locator(".rating-changes li.up").inner_text()
        assert (
            page.locator(".seat-change.down").count()
            == page.locator(".seat-change.up").count()
            == 1
        )
    shots(ada, "room-end", "desktop")
    shots(bob, "room-end", "phone")
    # Opened again (from the store): the same changes.
    ada.reload()
    ada.wait_for_selector(".game-over .rating-changes li")
    rows = ada.locator(".game-over .rating-changes li")
    assert {
        rows.nth(i).locator(".who").inner_text(): rows.nth(i).inner_text() for i in range(2)
    } == changes

    # Bob's rating reads the same in the lobby (a new seek), his profile and the leaderboard.
    open_lobby(bob, url)
    post(bob, "/api/seeks", {"game": "akros", "clock": "5+3", "rated": True})
    ada.goto(f"{url}/lobby")
    in_lobby = ada.locator(".seek", has_text="Bob").locator(".rating")
    in_lobby.wait_for()
    shown = in_lobby.inner_text()
    assert shown.endswith("?") and int(shown[:-1]) > 1500
    assert changes["Bob"].split(" → ")[1].startswith(f"{shown} (")
    shots(ada, "lobby-rated-seek", "desktop")
    for page, size in ((ada, "desktop"), (bob, "phone")):
        page.goto(f"{url}/player/Bob")
        assert page.locator('.rating-card[data-game="akros"] .rating-value').inner_text() == shown
        shots(page, "profile", size)
        page.goto(f"{url}/leaderboard/akros")
        row = page.locator('.leaderboard tr[data-name="Bob"]')
        row.wait_for()
        assert row.locator("td").nth(2).inner_text() == shown
        assert "provisional" in page.locator(".panel > p").first.inner_text()
        shots(page, "leaderboard", size)
    for page in (ada, bob):
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
        assert page.js_errors == []


def test_the_level_menu_says_what_each_level_does(rated_server, new_context):
    for phone, size in ((False, "desktop"), (True, "phone")):
        page = watch(new_context(phone=phone).new_page())
        page.goto(rated_server.url)
        form = page.locator('form.new-game[data-game="acadmu"]')
        form.wait_for()
        select = form.locator('select[name="level"]')
        options = select.locator("option")
        labels = [options.nth(i).inner_text() for i in range(options.count())]
        assert labels[0].startswith("Beginner — plays any legal move at random (rated ≈")
        assert labels[1].startswith("Easy — takes the capture")
        note = form.locator(".level-note")
        assert note.inner_text().startswith("Easy — takes the capture")
        assert "whole matches" in note.inner_text() and "not single rounds" in note.inner_text()
        select.select_option("beginner")
        assert note.inner_text().startswith("Beginner — plays any legal move at random")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"], f"the page is {width} px wide"
        form.scroll_into_view_if_needed()
        shots(page, "level-menu", size)
        assert page.js_errors == []
