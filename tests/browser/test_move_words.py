"""The game page's move list speaks: every move in words with its notation as a small label,
grouped by turn (Akros) or round (Äcädmü), and a round's result kept in the list after the
round-end panel closes. Desktop and phone; screenshots in light and dark go to
/tmp/shots34/words/ (outside the repository)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    acadmu_click_move,
    akros_click_move,
    create_game,
    is_over,
    is_paused,
    version,
    wait_my_turn,
    wait_settled,
    watch,
)

SHOTS = Path("/tmp/shots34/words")
NINE_DISCS = "RT:BS,RS:BC,RC:BT,BT:YS,BS:YC,BC:YT,YT:RS,YS:RC,YC:RT"


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def look_dark(new_context: Any, url: str, phone: bool, name: str, wait: str) -> None:
    """The same page in the dark colour scheme, as a spectator sees it."""
    page = new_context(phone=phone, dark=True).new_page()
    page.goto(url)
    page.wait_for_selector(wait)
    shot(page, name)


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_akros_against_the_computer_moves_in_words_by_turn(server, new_context, phone):
    page = watch(new_context(phone=phone).new_page())
    size = "phone" if phone else "desktop"
    rng = random.Random(4)
    create_game(page, server.url, "akros", "computer", seat=0, level="beginner")
    page.wait_for_selector('.conn[data-status="live"]')
    for _ in range(60):
        wait_my_turn(page)
        if page.locator(".chapter-head", has_text="Turn 3").count() or is_over(page):
            break
        before = version(page)
        akros_click_move(page, rng)
        wait_settled(page, before)
    moves = page.locator(".moves .move-list")
    heads = moves.locator(".chapter-head").all_inner_texts()
    assert heads[:3] == ["Turn 1", "Turn 2", "Turn 3"]
    first = moves.locator(".move-chapter").first
    words = first.locator("li .words").all_inner_texts()
    notation = first.locator("li .notation").all_inner_texts()
    # The whole first turn: the draw, both keeps (the Ifrit's names its Temple pile), both places.
    assert len(words) == 5 and len(notation) == 5
    assert re.fullmatch(r"Jinn draws .+ from the bag", words[0]) and notation[0].startswith("draw ")
    assert re.fullmatch(r"Jinn keeps (the|one) \w+ and passes .+", words[1])
    assert re.fullmatch(
        r"Ifrit keeps (the|one) \w+ and discards the \w+ to Temple pile 7", words[2]
    )
    for who, told, text in (("Ifrit", words[3], notation[3]), ("Jinn", words[4], notation[4])):
        placed = re.fullmatch(rf"{who}: \w+ on \d+(?: \(a stack of \d\))?, servant from \d+", told)
        removed = re.fullmatch(rf"{who}'s \w+ has no place and leaves the game", told)
        assert placed or removed, told
        assert re.fullmatch(r"[FSM]\d+<\d+" if placed else r"remove [FSM]", text)
    assert page.js_errors == []
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    moves.scroll_into_view_if_needed()
    shot(page, f"akros-moves-{size}-light")
    look_dark(new_context, page.url, phone, f"akros-moves-{size}-dark", ".chapter-head")
    # The home page lists the game going on in moves, its seats by the game's names.
    page.goto(server.url + "/")
    item = page.locator(".game-item.status-active, .game-item").first
    item.wait_for()
    assert re.search(r"\d+ moves? so far", item.inner_text())
    assert "Jinn (" in item.inner_text() and "Ifrit (" in item.inner_text()


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_acadmu_round_result_stays_in_the_move_list(server, new_context, phone):
    page = watch(new_context(phone=phone).new_page())
    size = "phone" if phone else "desktop"
    rng = random.Random(2)
    options = {"target": 12, "discs": NINE_DISCS}
    create_game(page, server.url, "acadmu", "computer", seat=0, level="beginner", options=options)
    page.wait_for_selector('.conn[data-status="live"]')
    heads = page.locator(".moves .chapter-head").all_inner_texts()
    assert heads[0] == "Who goes first"  # the draw, told before round 1
    draw = page.locator(".move-chapter").first.locator("li .words").first.inner_text()
    assert draw.startswith("Draw for first: Dark shows a ") and "goes first" in draw
    for _ in range(80):
        wait_my_turn(page, go_on=False)
        if is_paused(page) or is_over(page):
            break
        before = version(page)
        acadmu_click_move(page, rng)
        wait_settled(page, before)
    assert is_paused(page), "round 1 ended with a pause"
    end = page.locator(".moves .chapter-end")
    pattern = r"Round 1: ((Dark|Light) \+\d+|equal counts, nobody scores), match \d+–\d+"
    assert re.fullmatch(pattern, end.first.inner_text())
    shot(page, f"acadmu-round-end-{size}-light")
    page.locator(".pause-panel button.continue").click()
    page.wait_for_function("() => document.querySelector('.game-page').dataset.paused !== 'true'")
    # The panel is gone; the result stays in the list, and round 2 starts below it.
    assert page.locator(".pause-panel").count() == 0
    assert re.fullmatch(pattern, page.locator(".moves .chapter-end").first.inner_text())
    page.wait_for_selector('.chapter-head:text-is("Round 2")')
    round_two = page.locator(".move-chapter", has=page.locator('.chapter-head:text-is("Round 2")'))
    pour = round_two.locator("li .words").first.inner_text()
    assert re.fullmatch(r"Both pour their discs; (Dark|Light) goes first, as .+ last round", pour)
    capture = page.locator(".move-chapter li.move .words").first.inner_text()
    assert re.fullmatch(
        r"(Dark|Light)('s .+ takes .+, by (colour|shape)| has no capture.+)", capture
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    page.locator(".moves").scroll_into_view_if_needed()
    assert page.js_errors == []
    shot(page, f"acadmu-moves-{size}-light")
    look_dark(new_context, page.url, phone, f"acadmu-moves-{size}-dark", ".chapter-end")


@pytest.mark.parametrize("game", ["acadmu", "akros"])
def test_how_to_play_reads_the_moves(server, new_context, game):
    for phone in (False, True):
        for dark in (False, True):
            page = new_context(phone=phone, dark=dark).new_page()
            page.goto(f"{server.url}/howto/{game}")
            part = page.get_by_text("Reading the moves", exact=True).first
            part.wait_for()
            part.scroll_into_view_if_needed()
            text = page.locator("body").inner_text()
            assert ("RCxRT+RT" if game == "acadmu" else "M17<14") in text
            size = "phone" if phone else "desktop"
            scheme = "dark" if dark else "light"
            page.screenshot(path=str(SHOTS / f"howto-{game}-{size}-{scheme}.png"))


def test_an_unknown_games_page_names_the_games_by_title(server, new_context):
    for phone in (False, True):
        page = watch(new_context(phone=phone).new_page())
        page.goto(f"{server.url}/howto/chess")
        failure = page.locator(".failure")
        failure.wait_for()
        text = failure.inner_text()
        assert (
            "unknown game 'chess'" in text and "Äcädmü (acadmu)" in text and "Akros (akros)" in text
        )
        size = "phone" if phone else "desktop"
        page.screenshot(path=str(SHOTS / f"unknown-game-{size}.png"))
