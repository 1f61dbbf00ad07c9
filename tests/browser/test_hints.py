"""A hint in the browser, as a player reads it: a plain sentence with one word for exact or
estimate, the statistics and the line of play behind "Details", the move drawn on the board and a
"Play it" button that plays it; Äcädmü and Akros, desktop (1280×800) and phone (390×844), light
and dark. Screenshots go to test-artifacts/screenshots/ (and /tmp/shots34/hints/ when it exists).
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from browser_helpers import (
    SMALL_DISCS,
    akros_click_move,
    create_game,
    in_view,
    screenshot,
    sized_page,
    version,
    wait_settled,
)

SHOTS = Path("/tmp/shots34/hints")


def _shot(page, name: str, *, full_page: bool = True) -> None:
    path = screenshot(page, name, full_page=full_page)
    if SHOTS.parent.is_dir():
        SHOTS.mkdir(exist_ok=True)
        shutil.copy(path, SHOTS / path.name)


def _ask_hint(page) -> dict:
    with page.expect_response(lambda r: r.url.endswith("/hint")) as hinted:
        page.locator(".hint-button").click()
    answer = hinted.value.json()
    page.wait_for_selector(".hint-list .hint")
    return answer


def _check_panel(page, answer: dict) -> None:
    """Each hint shows the server's sentence and one word, notation only as a small label."""
    shown = page.locator(".hint-list > .hint")
    assert shown.count() == len(answer["hints"]) >= 1
    for index, hint in enumerate(answer["hints"]):
        item = shown.nth(index)
        assert item.locator(".hint-sentence").inner_text() == hint["sentence"]
        word = "exact" if hint["method"] == "exact" else "estimate"
        assert item.locator(".method").inner_text() == word
        assert item.locator(".hint-move").inner_text() == hint["move"]
        assert hint["sentence"].startswith(f"{hint['label']}: {hint['words']}")
    assert (
        shown.first.locator(".hint-sentence")
        .inner_text()
        .startswith("Only move: " if len(answer["hints"]) == 1 else "Best: ")
    )
    text = page.locator(".assist").inner_text()
    assert " pp" not in text and "simulations" not in text.split("Details")[0]
    # The statistics wait behind "Details": hidden until opened.
    details = shown.first.locator(".hint-details")
    if details.count():
        assert not details.locator(".hint-detail").first.is_visible()
        details.locator("summary").click()
        assert details.locator(".hint-detail").first.is_visible()


def _play_it(page, move: str) -> None:
    before = version(page)
    page.locator(f'.hint-list .hint-play[data-move="{move}"]').click()
    wait_settled(page, before)
    played = page.evaluate("() => window.gamehall.state.actions")
    assert played[-1] == move or move in played  # a computer's or chance's reply may follow
    # The hint was for the position before: it is gone, and so is its mark.
    page.wait_for_function("() => !document.querySelector('.hint-list')")
    assert page.locator(".hint-mark, .hinted").count() == 0


@pytest.mark.parametrize(
    ("size", "scheme"),
    [("desktop", "light"), ("phone", "dark"), ("desktop", "dark"), ("phone", "light")],
)
def test_an_acadmu_hint_is_told_drawn_and_played(server, browser, size, scheme):
    page = sized_page(browser, size, scheme)
    create_game(page, server.url, "acadmu", "hotseat", options={"discs": SMALL_DISCS, "target": 1})
    page.wait_for_selector('.conn[data-status="live"]')
    wait_settled(page)
    answer = _ask_hint(page)
    _check_panel(page, answer)
    legal = {item["text"]: item for item in page.evaluate("() => window.gamehall.state.legal")}
    best = legal[answer["hints"][0]["move"]]
    # Drawn on the board: the token given up on the mover's side, the tokens taken on the other.
    to_move = page.evaluate("() => window.gamehall.state.view.to_move")
    other = "l" if to_move == "d" else "d"
    if best.get("kind") == "capture":
        own = page.locator(f'.group[data-side="{to_move}"][data-pairing="{best["own"]}"]')
        assert own.locator(".hint-mark").count() == 1
        for taken in best["taken"]:
            cell = page.locator(f'.group[data-side="{other}"][data-pairing="{taken}"]')
            assert cell.locator(".hint-mark").count() == 1
        marks = 1 + len(set(best["taken"]))
        assert page.locator(".board .hint-mark").count() == marks
    # The mark stays through the board's own redraws (a token picked, then put back).
    page.locator(".group.selectable").first.click()
    page.keyboard.press("Escape")
    page.wait_for_function("() => document.querySelectorAll('.board .hint-mark').length > 0")
    _shot(page, f"hints-acadmu-{size}-{scheme}")
    if size == "phone":  # the hint below the board: "drawn on the board" brings it into view
        page.locator(".hint-list .hint-drawn").scroll_into_view_if_needed()
        assert not in_view(page, ".board-acadmu")
        page.locator(".hint-list .hint-drawn").click()
        page.wait_for_function(
            "() => { const b = document.querySelector('.board-acadmu').getBoundingClientRect();"
            " return b.top >= -1 && b.bottom <= innerHeight + 1; }"
        )
        _shot(page, f"hints-acadmu-{size}-{scheme}-board", full_page=False)
    if len(answer["hints"]) > 1:  # another hint drawn instead
        page.locator(".hint-list > .hint").nth(1).locator(".hint-show").click()
        assert "drawn" in page.locator(".hint-list > .hint").nth(1).get_attribute("class")
    _play_it(page, answer["hints"][0]["move"])
    assert page.js_errors == []
    page.context.close()


def _akros_until(page, rng, wanted) -> dict[str, dict]:
    """Random clicks until the person chooses among several moves of a kind in ``wanted``; the
    legal items by text."""
    for _ in range(30):
        legal = {item["text"]: item for item in page.evaluate("() => window.gamehall.state.legal")}
        if len(legal) > 1 and {item.get("kind") for item in legal.values()} & wanted:
            return legal
        before = version(page)
        akros_click_move(page, rng)
        wait_settled(page, before)
    raise AssertionError(f"no choice of {wanted} came")


@pytest.mark.parametrize(("size", "scheme"), [("phone", "light"), ("desktop", "dark")])
def test_akros_hints_mark_the_keep_and_the_placement(server, browser, size, scheme):
    page = sized_page(browser, size, scheme)
    rng = random.Random(5)
    create_game(page, server.url, "akros", "hotseat")
    page.wait_for_selector('.conn[data-status="live"]')
    wait_settled(page)
    # A keep: its button is marked, and "Play it" keeps that tile.
    _akros_until(page, rng, {"keep", "keep-discard"})
    answer = _ask_hint(page)
    _check_panel(page, answer)
    move = answer["hints"][0]["move"]
    button = page.locator(f'.controls button[data-action="{move}"]')
    assert "hinted" in button.first.get_attribute("class")
    _shot(page, f"hints-akros-keep-{size}-{scheme}")
    _play_it(page, move)
    # A placement: the region is marked and the servant's way drawn as an arrow.
    legal = _akros_until(page, rng, {"place"})
    answer = _ask_hint(page)
    _check_panel(page, answer)
    best = legal[answer["hints"][0]["move"]]
    assert best["kind"] == "place"
    assert page.locator(".board .hint-region").count() == 1
    if best["source"] != best["region"]:
        assert page.locator(".board .hint-arrow").count() == 1
    _shot(page, f"hints-akros-place-{size}-{scheme}")
    _play_it(page, best["text"])
    assert page.js_errors == []
    page.context.close()


def test_a_board_without_show_hint_marks_the_moves_button(server, browser):
    """The generic fallback: a board module with no showHint (here the generic board, the game's
    own module failing to load) gets the hinted move's button marked."""
    page = sized_page(browser, "desktop", "light")
    page.route(
        "**/games/akros/board.js",
        lambda route: route.fulfill(status=200, content_type="text/javascript", body="export {"),
    )
    create_game(page, server.url, "akros", "hotseat")
    page.wait_for_selector(".board-generic .controls button.choice, .controls button.choice")
    wait_settled(page)
    answer = _ask_hint(page)
    move = answer["hints"][0]["move"]
    marked = page.locator(".controls button.hinted")
    assert marked.count() >= 1
    assert {marked.nth(k).get_attribute("data-action") for k in range(marked.count())} == {move}
    _play_it(page, move)
    page.context.close()
