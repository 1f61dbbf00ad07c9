"""Bots in the hall, as people see them: Ada makes a bot account; the bot (``gamehall bot``'s
client, in a thread of this test) posts a rated seek; the lobby shows it tagged "BOT", Ada
cannot accept her own bot's rated seek, Bob (on a phone) does, and the game page (its seats and
the end panel's rating changes), the replay, the bot's profile and the leaderboard show the
tag. Desktop and phone; screenshots in both colour schemes under /tmp/shots36/bots/ (or
$GAMEHALL_SHOTS)."""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import PASSWORD, open_lobby, play_turn, watch

from conftest import AppServer, Server, started
from gamehall.ai.basic import RandomAgent
from gamehall.tui.bot import Bot, Wanted

SHOTS = Path(os.environ.get("GAMEHALL_SHOTS", "/tmp/shots36/bots"))


@pytest.fixture(scope="module")
def rated_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server with a leaderboard that lists players after one rated game."""
    with started(tmp_path_factory, "bots", AppServer, app_args="leaderboard=(1, 350)") as running:
        yield running


def shots(page: Any, name: str, size: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=str(SHOTS / f"{name}-{size}-{scheme}.png"), full_page=True)
    page.emulate_media(color_scheme="light")


def fetch(page: Any, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """A JSON request from the page (its cookies): its status and answer."""
    return page.evaluate(
        """async ([method, path, body]) => {
          const r = await fetch(path, {method, headers: {"Content-Type": "application/json"},
                                       body: body === null ? undefined : JSON.stringify(body)});
          return {status: r.status, body: await r.json()};
        }""",
        [method, path, body],
    )


def signed_up(page: Any, url: str, name: str) -> None:
    open_lobby(page, url)
    answer = fetch(page, "POST", "/api/account/signup", {"username": name, "password": PASSWORD})
    assert answer["status"] == 200, answer


def test_the_bot_tag_in_the_lobby_the_game_the_profile_and_the_leaderboard(
    rated_server, new_context
):
    url = rated_server.url
    ada = watch(new_context().new_page())
    bob = watch(new_context(phone=True).new_page())
    signed_up(ada, url, "Ada")
    signed_up(bob, url, "Bob")
    made = fetch(ada, "POST", "/api/account/bots", {"name": "Robo"})
    assert made["status"] == 201, made
    robo = Bot(
        url, "Robo", made["body"]["token"], lambda: RandomAgent(seed=1),
        Wanted(game="akros", clock="5+3", rated=True, seek=True),
    )  # fmt: skip
    thread = threading.Thread(target=robo.run, daemon=True)
    thread.start()
    try:
        # The lobby: Robo's rated seek, tagged, on both pages.
        for page in (ada, bob):
            open_lobby(page, url)
            page.locator(".seek", has_text="Robo").locator(".bot-tag").wait_for()
        assert ada.locator(".seek", has_text="Robo").locator(".bot-tag").inner_text() == "BOT"
        shots(ada, "lobby", "desktop")
        shots(bob, "lobby", "phone")
        # Ada may not play her own bot rated: her lobby says so rather than offer an Accept.
        own = ada.locator(".seek", has_text="Robo")
        assert own.locator(".same-person").inner_text() == "Your bot"
        assert own.locator('button[data-action="accept"]').count() == 0
        assert bob.locator(".seek", has_text="Robo").locator(".same-person").count() == 0
        seek_id = own.get_attribute("data-seek")
        refused = fetch(ada, "POST", f"/api/seeks/{seek_id}/accept", {})
        assert refused["status"] == 409 and refused["body"]["error"]["code"] == "self_pairing"
        # Bob accepts; the game page tags Robo's seat.
        bob.locator(".seek", has_text="Robo").locator('button[data-action="accept"]').click()
        bob.wait_for_url("**/game/*")
        bob.wait_for_selector('.conn[data-status="live"]')
        seat = bob.locator(".seat", has=bob.locator(".seat-player", has_text="Robo"))
        assert seat.locator(".bot-tag").inner_text() == "BOT"
        assert bob.locator(".seat.mine .bot-tag").count() == 0
        game_url = bob.url
        # The lobby's games being played tag Robo too.
        playing = ada.locator(".live-game", has_text="Robo")
        playing.locator(".bot-tag").wait_for()
        assert playing.locator(".bot-tag").count() == 1  # Robo's, not Bob's
        shots(ada, "lobby-playing", "desktop")
        ada.goto(url + "/")  # the home page's games being played too
        ada.locator(".now-game", has_text="Robo").locator(".bot-tag").wait_for()
        ada.goto(game_url)
        ada.wait_for_selector('.conn[data-status="live"]')
        ada.locator(".seat .bot-tag").wait_for()
        # Both sides move (a rated game is then counted), then Bob resigns.
        rng = random.Random(7)
        bob.wait_for_selector('.turn-banner[data-kind="mine"]', timeout=30_000)
        play_turn(bob, "akros", rng)
        bob.wait_for_selector('.turn-banner[data-kind="mine"]', timeout=30_000)
        shots(ada, "game", "desktop")
        shots(bob, "game", "phone")
        resign = bob.locator('button[data-room="resign"]')
        resign.click()
        resign.click()
        bob.wait_for_selector(".game-over .rating-changes li")
        # The end panel's rating changes tag Robo's line, not Bob's.
        changes = bob.locator(".game-over .rating-changes li")
        assert changes.filter(has_text="Robo").locator(".bot-tag").count() == 1
        assert bob.locator(".game-over .rating-changes .bot-tag").count() == 1
        shots(bob, "game-over", "phone")
        assert robo.ended.wait(30), "the bot did not see its game end"
    finally:
        robo.stop()
        thread.join(30)

    # The replay names who played, Robo tagged.
    bob.goto(game_url.replace("/game/", "/replay/"))
    players = bob.locator(".replay-players")
    players.wait_for()
    assert "Robo" in players.inner_text() and "Bob" in players.inner_text()
    assert players.locator(".bot-tag").count() == 1
    shots(bob, "replay", "phone")
    # The profile and the leaderboard.
    for page, size in ((ada, "desktop"), (bob, "phone")):
        page.goto(f"{url}/player/Robo")
        page.locator("h1 .bot-tag").wait_for()
        assert "bot account" in page.locator(".profile-head").inner_text()
        assert "answers no challenges" in page.locator(".bot-note").inner_text()
        assert page.locator(".challenge-panel").count() == 0
        shots(page, "profile", size)
        page.goto(f"{url}/leaderboard/akros")
        row = page.locator('tr[data-name="Robo"]')
        row.wait_for()
        assert row.locator(".bot-tag").inner_text() == "BOT"
        assert "BOT: a bot account" in page.locator(".panel p.muted").first.inner_text()
        assert page.locator('tr[data-name="Bob"] .bot-tag').count() == 0
        shots(page, "leaderboard", size)
    for page in (ada, bob):
        assert page.js_errors == []
