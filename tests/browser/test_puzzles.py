"""Puzzles that teach, in the browser: a wrong answer is told by its cost and its refutation in
words, stepped through on the board; "Try again" takes a second answer, which solves the puzzle
but leaves it failed for the record (as on lichess); the prompt says where the game stands; at
desktop (1280×800) and phone (390×844) sizes, in the light and the dark colour scheme."""

from __future__ import annotations

import pytest
from browser_helpers import SIZES, acadmu_click, screenshot, sized_page

from gamehall.analysis.puzzles import starter_puzzles


def _shown(page):
    page.wait_for_selector(".puzzles-page[data-puzzle]:not([data-puzzle=''])")
    return page.locator(".puzzles-page").get_attribute("data-puzzle")


@pytest.mark.parametrize(
    ("size", "scheme", "name"),
    [("desktop", "light", "desktop"), ("phone", "dark", "phone-dark")],
)
def test_a_puzzle_failed_is_explained_then_retried_and_solved(server, browser, size, scheme, name):
    puzzles = {p.id: p for p in starter_puzzles("acadmu")}
    page = sized_page(browser, size, scheme)
    page.goto(f"{server.url}/puzzles/acadmu")
    first = _shown(page)
    puzzle = puzzles[first]  # the shipped set is offered on a fresh install
    root = page.locator(".puzzles-page")
    prompt = page.locator(".puzzle-prompt")
    assert "Match Dark" in prompt.inner_text() and "to move" in prompt.inner_text()
    about = page.locator(".puzzle-about").inner_text()
    assert "Puzzle rating" in about and any(theme in about for theme in ("Capture by",))
    assert "your puzzle rating 1500?" in page.locator(".puzzle-counts").inner_text()
    screenshot(page, f"puzzles-acadmu-{name}", full_page=False)

    wrong = max(
        (m for m in puzzle.alternatives if m != "pass"),
        key=lambda m: (float(puzzle.value) - float(puzzle.alternatives[m]), m),
    )
    acadmu_click(page, wrong)
    page.wait_for_selector(".puzzles-page[data-result='wrong']")
    told = prompt.inner_text()
    assert "Not the best move" in told and "costs" in told and "point" in told
    assert puzzle.answer not in told  # the answer is not given away: try again
    steps = page.locator(".puzzle-line li")
    assert steps.count() == 1 + len(puzzle.refutations[wrong])
    assert steps.first.locator(".notation").inner_text() == wrong
    words = steps.first.locator(".move-words").inner_text()
    assert words and words != wrong  # the move in words, the notation a small label beside
    assert "failed 1" in page.locator(".puzzle-counts").inner_text()
    if steps.count() > 1:
        page.locator('.puzzle-solution button[data-step="forward"]').click()
        page.wait_for_selector(".puzzle-line li.current[data-step='1']")
    screenshot(page, f"puzzles-acadmu-refuted-{name}", full_page=False)

    page.locator("button.try-again").click()
    page.wait_for_function(
        "() => document.querySelector('.puzzle-prompt').innerText.includes('Try again')"
    )
    acadmu_click(page, puzzle.answer)
    page.wait_for_selector(".puzzles-page[data-result='correct']")
    assert root.get_attribute("data-tries") == "2"
    assert "Right!" in prompt.inner_text()
    assert "only the first answer counts" in page.locator(".puzzle-solution").inner_text()
    counts = page.locator(".puzzle-counts").inner_text()
    assert "solved 0" in counts and "failed 1" in counts  # the retry is a failure, as on lichess
    assert page.locator(".puzzle-line li").count() >= 1
    screenshot(page, f"puzzles-acadmu-solved-{name}", full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["viewport"]["width"]
    assert page.js_errors == []

    # The next puzzle is another, and the failure is remembered with the rating.
    page.locator(".next-puzzle").click()
    page.wait_for_function(
        "first => { const r = document.querySelector('.puzzles-page');"
        " return r.dataset.puzzle && r.dataset.puzzle !== first && !r.dataset.result; }",
        arg=first,
    )
    assert "your puzzle rating 1500" not in page.locator(".puzzle-counts").inner_text()
    page.context.close()


@pytest.mark.parametrize(
    ("size", "scheme", "name"), [("phone", "light", "phone"), ("desktop", "dark", "desktop-dark")]
)
def test_an_akros_puzzle_says_the_turn_and_its_solution_stops_at_a_draw(
    server, browser, size, scheme, name
):
    puzzles = {p.id: p for p in starter_puzzles("akros")}
    page = sized_page(browser, size, scheme)
    page.goto(f"{server.url}/puzzles/akros")
    puzzle = puzzles[_shown(page)]
    turn = puzzle.position.split()[0].removeprefix("turn=")
    assert f"Turn {turn} of 9" in page.locator(".puzzle-prompt").inner_text()
    screenshot(page, f"puzzles-akros-{name}", full_page=False)

    page.locator("button.show-solution").click()
    page.wait_for_selector(".puzzles-page[data-result='shown']")
    assert "The best move" in page.locator(".puzzle-prompt").inner_text()
    steps = page.locator(".puzzle-line li")
    assert 1 <= steps.count() <= len(puzzle.line)
    texts = steps.locator(".notation").all_inner_texts()
    assert texts == puzzle.line[: len(texts)] and not any(t.startswith("draw") for t in texts)
    assert "marked failed" in page.locator(".puzzle-solution").inner_text()
    assert "failed 1" in page.locator(".puzzle-counts").inner_text()
    screenshot(page, f"puzzles-akros-solution-{name}", full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["viewport"]["width"]
    assert page.js_errors == []
    page.context.close()
