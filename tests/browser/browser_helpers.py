"""Helpers for the browser tests: start games from the home page and play them by clicking
whatever the page highlights (the page itself only offers entries of the server's `legal`)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
GAME_URL = re.compile(r".*/game/([^/?#]+)$")
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
PASSWORD = "a long enough password"
"""The password of the accounts the tests sign up."""
SMALL_DISCS = "RT:BS,RS:BT,YC:BS,BC:YT,YS:RC,RC:YT,BT:YS,YT:RS"
"""A small set of Äcädmü discs: a short game."""


def watch(page: Any) -> Any:
    """Collect JavaScript errors of the page in ``page.js_errors`` (a Content-Security-Policy
    violation, reported on the console, counts as one)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    def console(message: Any) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            errors.append(message.text)

    page.on("console", console)
    page.js_errors = errors
    return page


def sized_page(browser: Any, size: str, scheme: str, timeout: float = 30000) -> Any:
    """A watched page in its own browser context at a size of :data:`SIZES` and a colour scheme
    ("light" or "dark")."""
    context = browser.new_context(**SIZES[size], color_scheme=scheme)
    context.set_default_timeout(timeout)
    return watch(context.new_page())


def open_lobby(page: Any, url: str) -> None:
    """Go to the lobby and wait until its live connection is up."""
    page.goto(f"{url}/lobby")
    page.wait_for_selector('.lobby-status[data-status="live"]')


def resign_and_review(page: Any) -> None:
    """Resign the game (the button asks to be pressed twice) and open its review, waiting until
    the review is ready (the engine may take a while)."""
    resign = page.locator('button[data-room="resign"]')
    resign.click()
    resign.click()
    page.wait_for_selector(".game-over")
    page.locator(".review-button").click()
    page.wait_for_selector(".review-page[data-ready='true']", timeout=180000)


def screenshot(page: Any, name: str, *, full_page: bool = True) -> Path:
    """Save a screenshot under test-artifacts/screenshots/ (look at them!)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def create_game(
    page: Any,
    base_url: str,
    game: str,
    mode: str,
    *,
    seat: int = 0,
    level: str | None = None,
    options: dict[str, Any] | None = None,
    clock: str | None = None,
) -> str:
    """Start a game from the home page's form; returns its id once the game page shows it."""
    page.goto(base_url + "/")
    form = page.locator(f'form[data-game="{game}"]')
    form.locator(f'input[name="mode"][value="{mode}"]').check()
    if mode != "hotseat":
        form.locator('select[name="seat"]').select_option(str(seat))
    if mode == "computer" and level:
        form.locator('select[name="level"]').select_option(level)
    if clock:
        form.locator('select[name="clock"]').select_option(clock)
    if options:
        form.locator("details.variants > summary").click()
        for name, value in options.items():
            field = form.locator(f'[name="opt-{name}"]')
            if isinstance(value, bool):
                field.set_checked(value)
            elif field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(str(value))
            else:
                field.fill(str(value))
    form.locator('button[type="submit"]').click()
    page.wait_for_url(GAME_URL)
    page.wait_for_selector(".game-page[data-version]")
    match = GAME_URL.match(page.url)
    assert match
    return match[1]


def version(page: Any) -> int:
    return int(page.locator(".game-page").get_attribute("data-version"))


def position(page: Any) -> str:
    return page.locator(".game-page").get_attribute("data-position")


def is_over(page: Any) -> bool:
    return page.locator(".game-page").get_attribute("data-over") == "true"


def wait_settled(page: Any, after: int | None = None, timeout: float = 20000) -> None:
    """Wait until the page shows a version past ``after`` with no move of ours in flight, the
    present on the board (no paced move of the other side still to show) and no only move
    about to be played for the player (the page waits a step before it plays one)."""
    page.wait_for_function(
        """after => {
            const root = document.querySelector('.game-page');
            if (!root || root.dataset.version === undefined) return false;
            if (after !== null && Number(root.dataset.version) <= after) return false;
            return root.dataset.pending === 'false' && root.dataset.pacing !== 'true' &&
                root.dataset.forcing !== 'true';
        }""",
        arg=after,
        timeout=timeout,
    )


def wait_my_turn(page: Any, timeout: float = 30000, *, go_on: bool = True) -> None:
    """Wait until it is this page's turn (or the game is over); at a pause (a round's end) go
    on to the next round, unless ``go_on`` is false (then a pause is where it stops)."""
    while True:
        page.wait_for_function(
            """() => {
                const root = document.querySelector('.game-page');
                if (!root || root.dataset.pending !== 'false' || root.dataset.pacing === 'true' ||
                    root.dataset.forcing === 'true') return false;
                return root.dataset.over === 'true' || root.dataset.paused === 'true' ||
                    document.querySelector('.turn-banner[data-kind="mine"]') !== null;
            }""",
            timeout=timeout,
        )
        if not is_paused(page) or not go_on:
            return
        button = page.locator(".pause-panel button.continue")
        if button.count() and button.is_enabled():
            button.click()
        page.wait_for_function(
            "() => document.querySelector('.game-page').dataset.paused !== 'true'",
            timeout=timeout,
        )


def is_paused(page: Any) -> bool:
    return page.locator(".game-page").get_attribute("data-paused") == "true"


def in_view(page: Any, selector: str) -> bool:
    """Whether the whole of the first element matching ``selector`` is inside the window."""
    return page.evaluate(
        """selector => {
            const box = document.querySelector(selector).getBoundingClientRect();
            return box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight &&
                box.right <= innerWidth;
        }""",
        selector,
    )


def my_turn(page: Any) -> bool:
    return page.locator('.turn-banner[data-kind="mine"]').count() > 0


def pick(locator: Any, rng: random.Random) -> Any:
    count = locator.count()
    assert count, "nothing highlighted to click"
    return locator.nth(rng.randrange(count))


def wait_clickable(page: Any, clickable: str, timeout: float = 20000) -> bool:
    """Wait until the page offers this page's player something to click (``clickable``, a
    selector) on the present board, or says it is not their turn (chance or the other side to
    move, the game over); whether there is something to click. Settled first: a click while the
    other side's moves are still being shown one by one only shows the present (and plays
    nothing), and an only move the page is about to play for the player takes the buttons."""
    return (
        page.wait_for_function(
            """clickable => {
            const root = document.querySelector('.game-page');
            if (!root || root.dataset.pending !== 'false' || root.dataset.pacing === 'true' ||
                root.dataset.forcing === 'true') return false;
            if (document.querySelector(clickable)) return "yes";
            if (root.dataset.over === 'true' ||
                !document.querySelector('.turn-banner[data-kind="mine"]')) return "no";
            return false;
        }""",
            arg=clickable,
            timeout=timeout,
        ).json_value()
        == "yes"
    )


def acadmu_click_move(page: Any, rng: random.Random) -> str:
    """Make one Äcädmü move by clicking: pass if that is all, else a highlighted own group, a
    highlighted opponent group and (for a capture by shape) a second one or a listed combination.
    It first waits for a move to click (:func:`wait_clickable`); "nothing" when it is not this
    page's turn after all (chance, or the other side, is to move)."""
    if not wait_clickable(page, '.controls button[data-action="pass"], .group.selectable'):
        return "nothing"
    pass_button = page.locator('.controls button[data-action="pass"]')
    if pass_button.count():
        pass_button.click()
        return "pass"
    pick(page.locator(".group.selectable"), rng).click()
    assert page.locator(".group.selected").count() == 1
    pick(page.locator(".group.target"), rng).click()
    if page.locator(".group.picked").count():
        choices = page.locator(".controls button.choice")
        if choices.count():  # the shape-capture choices come up where the player looks
            assert in_view(page, ".controls button.choice"), "the choices are out of view"
        if rng.random() < 0.5 and choices.count():
            pick(choices, rng).click()
            return "choice"
        pick(page.locator(".group.target"), rng).click()
        return "two clicks"
    return "one click"


def acadmu_click(page: Any, move: str) -> None:
    """Play the Äcädmü capture ``move`` (``RTxBS``, ``BTxRS+BS``) by clicking: the own group,
    then the taken group(s), or the listed choice when one group leaves it open."""
    own, taken = move[:2], move[3:].split("+")
    page.locator(f'.group.selectable[data-pairing="{own}"]').click()
    page.locator(f'.group.target[data-pairing="{taken[0]}"]').click()
    if page.locator(".group.picked").count():
        if len(taken) == 2:
            page.locator(f'.group.target[data-pairing="{taken[1]}"]').click()
        else:
            page.locator(f'.controls button.choice[data-action="{move}"]').click()


def akros_click_move(page: Any, rng: random.Random) -> str:
    """Make one Akros action by clicking: a keep button, the remove button, or a highlighted
    region and (if several servants can move there) a highlighted servant. It first waits for a
    move to click (:func:`wait_clickable`); "nothing" when it is not this page's turn after all
    (chance, or the other side, is to move)."""
    clickable = (
        ".region.source, .region.target, .controls button.choice, "
        '.controls button[data-action^="remove"]'
    )
    if not wait_clickable(page, clickable):
        return "nothing"
    sources = page.locator(".region.source")
    if sources.count():  # a region is already chosen: pick the servant
        pick(sources, rng).click()
        return "region and servant"
    choices = page.locator(".controls button.choice")
    if choices.count():
        pick(choices, rng).click()
        return "keep"
    remove = page.locator('.controls button[data-action^="remove"]')
    if remove.count():
        remove.click()
        return "remove"
    pick(page.locator(".region.target"), rng).click()
    sources = page.locator(".region.source")
    if sources.count():
        pick(sources, rng).click()
        return "region and servant"
    return "region"


def play_turn(page: Any, game: str, rng: random.Random) -> str:
    """Make the move of the seat to move (this page holds it) and wait for the server to take it."""
    before = version(page)
    how = (acadmu_click_move if game == "acadmu" else akros_click_move)(page, rng)
    if how != "nothing":  # (else the move is another page's, or chance's: nothing to wait for)
        wait_settled(page, before)
    return how
