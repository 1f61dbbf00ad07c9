"""The engine's help in the browser: "thinking…" while the computer thinks, a hint, the review of
a finished game (graph, classes, the best move on the board, playing on from there; puzzles are
in test_puzzles.py); at desktop (1280×800) and phone (390×844) sizes."""

from __future__ import annotations

import json
import random
import re

from browser_helpers import (
    acadmu_click,
    acadmu_click_move,
    create_game,
    is_over,
    is_paused,
    my_turn,
    position,
    screenshot,
    version,
    wait_settled,
    watch,
)

SMALL_DISCS = "RT:BS,RS:BT,YC:BS,BC:YT,YS:RC,RC:YT,BT:YS,YT:RS"
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


def _page(browser, size):
    context = browser.new_context(**size)
    context.set_default_timeout(30000)
    return watch(context.new_page())


class HeldComputer:
    """The game's WebSocket routed through the test: the server's messages pass until one says
    the computer (seat ``computer``) is to move; the later ones are held back until
    :meth:`release`, as if the computer thought for as long as the test likes."""

    def __init__(self, page, computer: int) -> None:
        self.computer = computer
        self.open = True
        self.held: list = []
        self.socket = None
        page.route_web_socket(re.compile(r".*/ws/games/.*"), self._route)

    def _route(self, socket) -> None:
        self.socket = socket
        socket.connect_to_server().on_message(self._from_server)

    def _from_server(self, message) -> None:
        if not self.open:
            self.held.append(message)
            return
        self.socket.send(message)
        data = json.loads(message)
        if data.get("type") == "state" and data.get("to_move") == self.computer:
            self.open = data.get("over", False)

    def release(self) -> None:
        self.open = True
        for message in self.held:
            self.socket.send(message)
        self.held.clear()


def test_the_computer_shows_that_it_is_thinking(server, browser):
    page = _page(browser, PHONE)
    # The computer's answer is held on its way for as long as the test likes: past half a second
    # the page shows that the computer thinks, and stops once the move arrives.
    computer = HeldComputer(page, computer=0)
    create_game(page, server.url, "acadmu", "computer", seat=1, level="hard")
    indicator = page.locator(".thinking")
    wait_settled(page)
    if my_turn(page):  # the discs drawn at the start chose the player to go first
        assert indicator.is_hidden()  # nothing to wait for
        acadmu_click_move(page, random.Random(1))
    indicator.wait_for(state="visible", timeout=5000)
    assert "Thinking" in indicator.inner_text() and "the computer" in indicator.inner_text()
    screenshot(page, "thinking-acadmu-phone", full_page=False)
    # The time so far is shown after a few seconds of thinking: wait for it to show.
    page.wait_for_function(
        "() => document.querySelector('.thinking-clock')?.innerText.includes(' s')",
        timeout=20000,
    )
    assert indicator.is_visible()
    computer.release()
    page.wait_for_selector('.turn-banner[data-kind="mine"]', timeout=60000)
    assert indicator.is_hidden()

    # A hint held back on its way (the page cannot tell): past half a second the page says it
    # works one out, the button waits; the answer arrives and the indicator goes.
    held = []
    page.route("**/api/games/*/hint", lambda route: held.append(route))
    page.locator(".hint-button").click()
    indicator.wait_for(state="visible", timeout=5000)
    assert "Working out a hint" in indicator.inner_text()
    assert page.locator(".hint-button").is_disabled()
    screenshot(page, "thinking-hint-acadmu-phone", full_page=False)
    assert len(held) == 1
    held[0].continue_()
    page.wait_for_selector(".hint-list .hint", timeout=60000)
    assert indicator.is_hidden()
    assert page.locator(".hint-sentence").first.inner_text().startswith(("Best: ", "Only move: "))
    screenshot(page, "hint-acadmu-phone")
    assert page.js_errors == []
    page.context.close()


def test_a_finished_game_is_reviewed_and_played_on_from_a_position(server, browser):
    page = _page(browser, DESKTOP)
    rng = random.Random(4)
    game_id = create_game(
        page, server.url, "acadmu", "hotseat", options={"discs": SMALL_DISCS, "target": 1}
    )
    page.wait_for_selector('.conn[data-status="live"]')
    # A hint first: the page shows each of the server's hints with how it is known (a small
    # round is usually settled exactly within the budget; on a loaded machine some moves may be
    # estimates, labelled so) and its line.
    with page.expect_response(lambda r: r.url.endswith("/hint")) as hinted:
        page.locator(".hint-button").click()
    answer = hinted.value.json()
    page.wait_for_selector(".hint-list .hint")
    hints = page.locator(".hint-list .hint")
    assert hints.count() == len(answer["hints"]) >= 1
    legal = {item["text"] for item in server.get(f"/api/games/{game_id}")["legal"]}
    for index, hint in enumerate(answer["hints"]):
        shown = hints.nth(index)
        assert shown.get_attribute("data-move") == hint["move"] and hint["move"] in legal
        assert shown.locator(f".method-{hint['method']}").count() == 1
        assert hint["sentence"] in shown.locator(".hint-eval").inner_text()
        if hint["line_words"]:  # the line of play, in words, behind "Details"
            lines = shown.locator(".hint-detail").all_text_contents()
            assert lines[-1].startswith(hint["line_kind"] + ": ")
    screenshot(page, "hint-acadmu-desktop")
    # The review needs a move that was not best: the first move is the hints' last when the
    # solver ranks it below the first (random moves alone are sometimes all best in a small
    # round); the rest are random.
    worst, best = answer["hints"][-1], answer["hints"][0]
    differ = worst["evaluation"] != best["evaluation"] and "x" in worst["move"]  # a capture
    if worst["method"] == best["method"] == "exact" and differ:
        before = version(page)
        acadmu_click(page, worst["move"])
        wait_settled(page, before)
    for _ in range(80):
        wait_settled(page)
        if is_over(page):
            break
        if is_paused(page):  # a drawn round: a match to 1 goes on to the next
            page.locator(".pause-panel button.continue").click()
            # the pause lasts until the server's answer: clicking again meanwhile would wait
            # for a button that the answer takes away
            page.wait_for_function(
                "() => document.querySelector('.game-page').dataset.paused !== 'true'"
            )
            continue
        before = version(page)
        acadmu_click_move(page, rng)
        wait_settled(page, before)
    assert is_over(page)
    assert page.locator(".hint-button").count() == 0  # no hints once the game is over

    # The first answers the page gets say the review is under way (a small round's review is
    # quicker than the eye): the page shows a progress bar, then polls on to the result.
    running = {"id": game_id, "status": "running", "done": 3, "total": 7}

    def under_way(route):
        if route.request.method == "GET" and running["done"] < 5:
            running["done"] += 1
            route.fulfill(json={**running, "done": 3, "error": None, "review": None})
        else:
            route.continue_()

    page.route(f"**/api/games/{game_id}/review", under_way)
    page.locator(".review-button").click()
    page.wait_for_url(f"**/review/{game_id}")
    bar = page.locator(".review-progress")
    bar.wait_for()
    assert bar.get_attribute("value") == "3" and bar.get_attribute("max") == "7"
    assert "3 of 7 moves judged" in page.locator(".review-status").inner_text()
    screenshot(page, "review-progress-desktop", full_page=False)
    page.wait_for_selector(".review-page[data-ready='true']", timeout=120000)
    review = server.get(f"/api/games/{game_id}/review")
    assert review["status"] == "done"
    moves = review["review"]["moves"]
    assert page.locator(".review-moves li.review-item").count() == len(moves)
    assert page.locator(".graph-point").count() == len(moves) + 1
    assert page.locator(".graph-point.exact").count() == len(moves) + 1  # all exact
    assert page.locator(".review-player").count() == 2
    for verdict in ("mistake", "blunder"):
        shown = page.locator(f".review-moves li.verdict-{verdict}").count()
        assert shown == sum(1 for m in moves if m["verdict"] == verdict)
    # A move that was not best: its best alternative on the board, and playable from there.
    index = next(i for i, m in enumerate(moves) if m["best"] is not None)
    move = moves[index]
    page.locator(f'.review-moves li[data-index="{index}"] button').click()
    assert page.locator(".review-page").get_attribute("data-selected") == str(move["number"])
    page.locator('.view-toggle[data-view="best"]').click()
    assert page.locator('.view-toggle[data-view="best"]').get_attribute("aria-pressed") == "true"
    assert move["best"] in page.locator(".review-best").inner_text()
    assert page.locator(".board .group.last").count() >= 2  # the best move marked
    screenshot(page, "review-acadmu-desktop")
    assert page.js_errors == []

    phone = _page(browser, PHONE)
    phone.goto(f"{server.url}/review/{game_id}")
    phone.wait_for_selector(".review-page[data-ready='true']")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "review-acadmu-phone")
    phone.locator(".graph-pick").nth(index).click()
    assert phone.locator(".review-page").get_attribute("data-selected") == str(move["number"])
    screenshot(phone, "review-acadmu-phone-picked", full_page=False)
    assert phone.js_errors == []
    phone.context.close()

    # Play on from the position before the move, hot-seat: the new game starts there.
    before = server.get(f"/api/games/{game_id}/replay")["states"][move["number"] - 1]
    page.locator(".play-hotseat").click()
    page.wait_for_url("**/game/*")
    page.wait_for_selector(".game-page[data-version]")
    new_id = page.url.rsplit("/", 1)[1]
    assert new_id != game_id
    assert server.get(f"/api/games/{new_id}/replay")["states"][0] == before
    assert position(page) == server.get(f"/api/games/{new_id}")["position"]
    page.context.close()


def test_pages_of_what_does_not_exist_or_is_not_over_say_so(server, browser):
    page = _page(browser, PHONE)
    long_id = "x" * 3000
    for path, heading, says in (
        ("/review/g_nothing", "Not found", "there is no game"),
        (f"/review/{long_id}", "Not found", "there is no game"),
        ("/puzzles/nothing", "Not found", "unknown game 'nothing'"),
    ):
        page.goto(server.url + path)
        failure = page.locator(".failure")
        failure.wait_for()
        assert failure.locator("h2").inner_text() == heading and says in failure.inner_text()
        assert page.locator(".game-links").is_hidden()  # no links to a game that is not there
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "review-unknown-phone", full_page=False)

    # A game still being played: its review page says so, and offers no review to start.
    game_id = create_game(page, server.url, "acadmu", "hotseat", options={"discs": SMALL_DISCS})
    page.goto(f"{server.url}/review/{game_id}")
    page.wait_for_selector(".review-page[data-status='none']")
    assert "Not finished yet" in page.locator(".review-status").inner_text()
    assert page.locator(".review-start").count() == 0
    screenshot(page, "review-unfinished-phone", full_page=False)
    assert page.js_errors == []
    page.context.close()
