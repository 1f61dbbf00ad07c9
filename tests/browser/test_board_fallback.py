"""A game's board module that does not load (here a syntax error, served in its place) is not
a silent fallback: the console says which module failed and why, the page says the generic board
is shown, in the game's words, and the game still plays through the generic board."""

from __future__ import annotations

from browser_helpers import create_game, version, wait_settled

GAME, TITLE = "akros", "Akros"
NOTE = f"The board for {TITLE} could not be loaded; the generic board is shown."


def test_a_board_module_with_a_syntax_error_is_reported_and_the_generic_board_plays(
    server, desktop
):
    page = desktop
    console: list[str] = []
    page.on("console", lambda message: message.type == "error" and console.append(message.text))
    page.route(
        f"**/games/{GAME}/board.js",
        lambda route: route.fulfill(
            status=200, content_type="text/javascript", body="export class Board {\n"
        ),
    )
    create_game(page, server.url, GAME, "hotseat")
    page.wait_for_selector(".board-generic")
    assert page.locator(".board-generic .board-fallback").inner_text() == NOTE
    failed = [text for text in console if f"/games/{GAME}/board.js" in text]
    assert failed, f"no console error names the module: {console}"
    assert f"The board module of {TITLE} (/games/{GAME}/board.js) could not be loaded" in failed[0]
    assert "SyntaxError" in failed[0]

    # The generic board plays on: the legal moves as buttons, the note kept after each move.
    page.wait_for_selector(".controls button.choice")
    before = version(page)
    page.locator(".controls button.choice").first.click()
    wait_settled(page, before)
    assert version(page) > before
    assert page.locator(".board-generic .board-fallback").inner_text() == NOTE
    assert page.js_errors == []
