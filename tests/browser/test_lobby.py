"""Two people meet in the lobby: they sign up, ask quick pairing for a rated game of Akros,
are paired, play it to the end by clicking, and both ratings change; the leaderboard and both
profiles show it. Screenshots at desktop and phone sizes."""

from __future__ import annotations

import itertools
import json
import random
import time
from collections.abc import Iterator

import pytest
from browser_helpers import PASSWORD, is_over, open_lobby, play_turn, screenshot, watch

from conftest import AppServer, Server, started


@pytest.fixture(scope="module")
def lobby_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server with a leaderboard that shows players after one rated game."""
    with started(tmp_path_factory, "lobby", AppServer, app_args="leaderboard=(1, 350)") as running:
        yield running


def sign_up(page, url: str, name: str) -> None:
    open_lobby(page, url)
    page.locator(".account .account-links a", has_text="Sign up").click()  # the sign-up page
    page.fill("#account-username", name)
    page.fill("#account-password", PASSWORD)
    page.fill("#account-confirm", PASSWORD)
    page.locator('form.account-page-form button[type="submit"]').click()
    page.wait_for_url("**/lobby")  # back where it came from
    page.wait_for_selector('.lobby-status[data-status="live"]')
    page.wait_for_selector(f'.account [data-me="{name}"]')
    page.wait_for_selector(".nav-me", state="visible")
    assert page.locator(".nav-me").inner_text() == name
    assert page.locator(".name-prompt").count() == 0  # signed in: no need to ask for a name


def test_two_people_meet_by_quick_pairing_and_play_a_rated_game(lobby_server, new_context):
    url = lobby_server.url
    ada = watch(new_context().new_page())
    bob = watch(new_context(phone=True).new_page())
    sign_up(ada, url, "Ada")
    sign_up(bob, url, "Bob")
    screenshot(ada, "lobby-signed-in-desktop")

    # Ada waits for a rated 3+2 game of Akros; the lobby shows her wait to Bob.
    ada.locator("#quick-rated").check()
    ada.locator('.quick-game[data-game="akros"] button[data-clock="3+2"]').click()
    ada.wait_for_selector('.quick-game[data-game="akros"] button.waiting')
    bob.locator("#quick-rated").check()
    bob.wait_for_selector(
        '.quick-game[data-game="akros"] button[data-clock="3+2"]:has-text("1 waiting")'
    )
    screenshot(bob, "lobby-someone-waiting-phone")
    assert bob.evaluate("document.documentElement.scrollWidth") <= bob.viewport_size["width"]
    bob.locator('.quick-game[data-game="akros"] button[data-clock="3+2"]').click()

    # Paired: both land on the game page, each holding one seat, names on the seats.
    for page in (ada, bob):
        page.wait_for_url("**/game/*")
        page.wait_for_selector('.conn[data-status="live"]')
        page.wait_for_selector(".seat.mine")
    game_id = ada.url.rpartition("/")[2].split("?")[0]
    assert bob.url.rpartition("/")[2].split("?")[0] == game_id
    assert "seat=" not in ada.url and "seat=" not in bob.url
    players = {ada.locator(".seat-player").nth(i).inner_text() for i in range(2)}
    assert players == {"Ada", "Bob"}
    state = lobby_server.get(f"/api/games/{game_id}")
    assert {s["player"] for s in state["seats"]} == {"Ada", "Bob"}

    # A newcomer is asked once for a name; the lobby shows the game to watch.
    carol = watch(new_context().new_page())
    carol.goto(url)
    carol.wait_for_selector(".name-prompt")
    screenshot(carol, "lobby-name-prompt-desktop")
    carol.fill('.name-prompt input[name="name"]', "Carol")
    carol.locator(".name-prompt button[type=submit]").click()
    carol.wait_for_selector(".name-prompt", state="detached")
    carol.wait_for_selector(".nav-signin")  # a guest: the header offers to sign in
    carol.goto(f"{url}/lobby")
    carol.wait_for_selector('.account [data-me="Carol"]')
    assert carol.locator(".name-prompt").count() == 0  # asked once
    carol.wait_for_selector(f'.live-game[data-id="{game_id}"]')
    assert "Ada" in carol.locator(".live-game").inner_text()
    assert "3+2" in carol.locator(".live-game").inner_text()
    screenshot(carol, "lobby-playing-now-desktop")

    rng = random.Random(11)
    # The first moves start the clocks; the lobby's list counts the running one down on its own,
    # between lobby messages, from the server's time of the message.
    for _ in range(2):
        mover = ada if ada.locator('.turn-banner[data-kind="mine"]').count() else bob
        mover.wait_for_selector('.turn-banner[data-kind="mine"]', timeout=30_000)
        play_turn(mover, "akros", rng)
    dave = watch(new_context(phone=True).new_page())
    frames: list[float] = []

    def lobby_frame(payload: str | bytes) -> None:
        if json.loads(payload).get("type") == "lobby":  # not a pong
            frames.append(time.time())

    dave.on("websocket", lambda ws: ws.on("framereceived", lobby_frame))
    dave.goto(f"{url}/lobby")
    for viewer, size in ((carol, "desktop"), (dave, "phone")):
        running = viewer.locator(f'.live-game[data-id="{game_id}"] .live-seat .live-time.running')
        running.wait_for()
        samples = []
        for _ in range(25):  # a clock running on its own is time passing: looked at on a clock
            samples.append((time.time(), running.inner_text()))
            viewer.wait_for_timeout(200)
        assert samples[0][1] != samples[-1][1], f"the running clock stood at {samples[0][1]}"
        if viewer is dave:  # it changed with no lobby message between two looks
            assert any(
                before[1] != after[1] and not any(before[0] < f <= after[0] for f in frames)
                for before, after in itertools.pairwise(samples)
            ), f"the clock changed only with lobby messages ({len(frames)} came)"
        screenshot(viewer, f"lobby-clocks-running-{size}")
    assert dave.evaluate("document.documentElement.scrollWidth") <= dave.viewport_size["width"]
    dave.close()

    for step in range(200):
        if is_over(ada) and is_over(bob):
            break
        mover = ada if ada.locator('.turn-banner[data-kind="mine"]').count() else bob
        if not mover.locator('.turn-banner[data-kind="mine"]').count():
            # Neither holds the turn yet (a move on its way): wait for whichever gets it.
            deadline = time.monotonic() + 30
            while not any(
                page.locator('.turn-banner[data-kind="mine"]').count() or is_over(page)
                for page in (ada, bob)
            ):
                assert time.monotonic() < deadline, "neither player got the turn within 30 s"
                ada.wait_for_timeout(100)  # no one page's event says which page gets the turn
            continue
        play_turn(mover, "akros", rng)
        if step == 10:
            screenshot(bob, "lobby-game-midway-phone")
    ada.wait_for_selector(".game-over")
    bob.wait_for_selector(".game-over")
    screenshot(ada, "lobby-game-over-desktop")

    # Both ratings changed, one up and one down; the profiles and the leaderboard show it.
    final = lobby_server.get(f"/api/games/{game_id}")
    winner = final["outcome"]["winner"]
    seat_of = {s["player"]: s["index"] for s in final["seats"]}
    for page, name in ((ada, "Ada"), (bob, "Bob")):
        page.goto(f"{url}/player/{name}")
        page.wait_for_selector('.rating-card[data-game="akros"] .rating-plot circle.plot-point')
        rating = int(page.locator(".rating-value").get_attribute("data-rating"))
        assert (rating > 1500) == (winner == seat_of[name]) and rating != 1500
        row = page.locator(f'.profile-game[data-id="{game_id}"]')
        assert row.locator("a", has_text="Replay").count() == 1
        assert "rated" in row.inner_text()
        seat_row = page.locator(".seat-scores tbody tr")
        assert seat_row.count() == 1  # the seat this player had, by its name
    screenshot(ada, "lobby-profile-desktop")
    screenshot(bob, "lobby-profile-phone")
    assert bob.evaluate("document.documentElement.scrollWidth") <= bob.viewport_size["width"]

    ada.goto(f"{url}/leaderboard/akros")
    ada.wait_for_selector(".leaderboard tbody tr")
    names = ada.locator(".leaderboard tbody tr").evaluate_all(
        "rows => rows.map((row) => row.dataset.name)"
    )
    winner_name = next(name for name, seat in seat_of.items() if seat == winner)
    assert names[0] == winner_name and sorted(names) == ["Ada", "Bob"]
    screenshot(ada, "lobby-leaderboard-desktop")
    bob.goto(f"{url}/leaderboard/akros")
    bob.wait_for_selector(".leaderboard tbody tr")
    screenshot(bob, "lobby-leaderboard-phone")
    # Their own list of games names who they played.
    bob.goto(url)
    seats = bob.locator(f'.game-item[data-id="{game_id}"] .game-seats')
    seats.wait_for()
    assert "Ada" in seats.inner_text() and "Bob" in seats.inner_text()
    # The level menu says what each computer level is worth, as the game's package stores it.
    # A game that stores no ratings (a third-party one, such as the tic-tac-toe example) shows
    # none; the two games of the hall store every level but perfect's.
    stored = lobby_server.get("/api/meta")
    rated = {shown["name"] for shown in stored["games"] if shown["level_ratings"]}
    assert {"acadmu", "akros"} <= rated
    for shown in stored["games"]:
        menu = bob.locator(f'.new-game[data-game="{shown["name"]}"] select[name="level"]')
        if shown["name"] not in rated:
            assert "≈" not in menu.inner_text()
            continue
        assert {"beginner", "easy", "medium", "hard"} <= set(shown["level_ratings"])
        for level, rating in shown["level_ratings"].items():
            text = menu.locator(f'option[value="{level}"]').inner_text()
            within = shown["level_intervals"][level]
            assert f"≈{rating}" + (f" ± {within}" if within else "") in text
    for page in (ada, bob, carol):
        assert page.js_errors == []
