"""A hint (or a computer move) asked for while a fresh server's workers are still warming up: the
page says "The computer is getting ready…" instead of "Working out a hint…", then shows the hint
once the server is ready. The server's side is tests/web/http/test_warm_start.py; here the page
is held at that moment by answering GET /api/ready "not ready" and holding the hint request until
the test lets both go. Desktop (1280×800) and phone (390×844), light and dark."""

from __future__ import annotations

import json
import shutil
import urllib.request
from pathlib import Path

import pytest
from browser_helpers import SMALL_DISCS, create_game, screenshot, sized_page, wait_settled

GETTING_READY = "The computer is getting ready…"
SHOTS = Path("/tmp/shots35/firstrun")


def browser_ready(base: str) -> bool:
    """Ask the server whether its workers are ready, waiting up to its own bound (20 s)."""
    with urllib.request.urlopen(f"{base}/api/ready?wait=true", timeout=60) as answer:
        return bool(json.loads(answer.read())["ready"])


@pytest.mark.parametrize(
    ("size", "scheme"),
    [("desktop", "light"), ("phone", "dark"), ("desktop", "dark"), ("phone", "light")],
)
def test_a_hint_asked_while_the_server_warms_up_says_the_computer_is_getting_ready(
    server, browser, size, scheme
):
    # The real server's workers are warm first (a fresh server warms them in the background):
    # the hint let go below is answered at once.
    for _ in range(60):
        if browser_ready(server.url):
            break
    else:
        raise AssertionError("the server's workers never got ready")
    page = sized_page(browser, size, scheme)
    ready = {"now": False}
    held: list = []

    def answer_ready(route) -> None:
        if ready["now"]:
            route.continue_()
        elif "wait=true" in route.request.url:
            held.append(route)  # answered when the test says the server is ready
        else:
            route.fulfill(json={"ready": False, "message": GETTING_READY})

    page.route("**/api/ready*", answer_ready)
    page.route("**/hint", lambda route: held.append(route))
    create_game(page, server.url, "acadmu", "hotseat", options={"discs": SMALL_DISCS, "target": 1})
    page.wait_for_selector('.conn[data-status="live"]')
    wait_settled(page)
    page.locator(".hint-button").click()
    page.wait_for_function(
        "text => { const t = document.querySelector('.thinking .thinking-text');"
        " return t && t.textContent === text && !t.closest('.thinking').hidden; }",
        arg=GETTING_READY,
    )
    assert page.locator(".thinking").get_attribute("role") == "status"  # read out, politely
    # The button the player pressed says it too (on a phone the indicator may be out of view).
    assert page.locator(".hint-button").inner_text() == GETTING_READY
    path = screenshot(page, f"getting-ready-{size}-{scheme}", full_page=False)
    if SHOTS.parent.is_dir():
        SHOTS.mkdir(exist_ok=True)
        shutil.copy(path, SHOTS / path.name)
    # The server is ready: the page stops saying so, and the hint comes.
    ready["now"] = True
    while held:
        held.pop().continue_()
    page.wait_for_selector(".hint-list .hint, .hint-error")
    assert page.locator(".hint-error").count() == 0, page.locator(".assist").inner_text()
    page.wait_for_function(
        "text => { const t = document.querySelector('.thinking');"
        " return t.hidden || t.textContent.indexOf(text) < 0; }",
        arg=GETTING_READY,
    )
    assert page.js_errors == []
    page.context.close()
