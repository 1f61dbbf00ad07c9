"""A game played with the keyboard alone and followed without seeing the board (issue 35): the
board's choices are buttons named by the move's words that Tab reaches and Enter plays; the
"Type a move" box takes a move in words or notation (an unambiguous beginning is enough) and
says why it plays nothing when nothing or several moves match; a polite live region tells every
move in words as it is played, the computer's and chance's too. At 1280×800 and 390×844."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    create_game,
    screenshot,
    version,
    wait_my_turn,
    wait_settled,
    watch,
)

SHOTS = Path("/tmp/shots35/a11y")
ANNOUNCER = ".game-page .announcer"


def shots(page: Any, name: str) -> None:
    """Screenshots in the light and the dark scheme (looked at by hand)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        path = screenshot(page, f"{name}-{scheme}", full_page=False)
        (SHOTS / path.name).write_bytes(path.read_bytes())
    page.emulate_media(color_scheme="light")


def legal(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("() => window.gamehall.state.legal")


def tab_to(page: Any, selector: str, limit: int = 80) -> str:
    """Press Tab until the focused element matches ``selector``; its accessible name."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement?.matches(s) ?? false", selector):
            return page.evaluate("() => document.activeElement.getAttribute('aria-label') || ''")
    raise AssertionError(f"Tab never reached {selector}")


def focused(page: Any, selector: str) -> bool:
    return page.evaluate("s => document.activeElement?.matches(s) ?? false", selector)


def said(page: Any) -> str:
    """The live region's last announcement."""
    return page.locator(f"{ANNOUNCER} p").last.inner_text()


def wait_said(page: Any, text: str) -> None:
    """Wait until the live region has told ``text`` (in its last few lines)."""
    page.wait_for_function(
        "([sel, text]) => document.querySelector(sel)?.textContent.includes(text)",
        arg=[ANNOUNCER, text],
    )


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_akros_by_keyboard_alone_against_the_computer(server, new_context, phone):
    """Tab to a region, Enter: the move is played (two steps when servants must be chosen); the
    computer's answer and chance's draw are then told in the live region, in the server's words."""
    page = watch(new_context(phone=phone).new_page())
    game_id = create_game(page, server.url, "akros", "computer", seat=0, level="beginner")
    choice = ".region[role='button'], .controls button[data-action]"
    regions = 0
    while regions < 2:
        wait_my_turn(page)
        moves = legal(page)
        before = version(page)
        if len({move["text"] for move in moves}) == 1:
            wait_settled(page, before)  # an only move: the page plays it for the player
            continue
        tab_to(page, choice)
        words = {move["words"] for move in moves}
        on_region = focused(page, ".region")
        if on_region:
            regions += 1
            name = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
            # A region that makes one move is named by its words; else it says what it starts.
            assert name in words or "servants can move here" in name, name
            if regions == 1:
                shots(page, f"akros-keyboard-{'phone' if phone else 'desktop'}")
        else:  # a keep: the tile and "Keep" shown, the move's words after them for a reader
            name = page.evaluate("() => document.activeElement.textContent")
            assert "Keep" in name and any(name.endswith(f": {w}") for w in words), name
        page.keyboard.press("Enter")
        if page.locator(".region.source").count() and version(page) == before:
            assert focused(page, ".region.source")  # focus goes on to the servants to choose
            servant = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
            assert servant in words
            page.keyboard.press("Enter")
        wait_settled(page, before)
        if on_region:  # the focus stays on the board, where the next choice will be
            assert focused(page, ".board, .board *")
    # The computer moved: its last move is told in the words the server gives it.
    wait_my_turn(page)
    state = server.get(f"/api/games/{game_id}")
    theirs = [k for k, mover in enumerate(state["movers"]) if mover == 1]
    assert theirs, "the computer has not moved"
    wait_said(page, state["words"][theirs[-1]])
    chance = [k for k, mover in enumerate(state["movers"]) if mover == -1]
    wait_said(page, state["words"][chance[-1]])  # chance too: the draw of this turn's tiles
    assert page.js_errors == []


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_acadmu_typed_moves_and_what_is_told(server, new_context, phone):
    """Hot-seat Äcädmü by the "Type a move" box: notation, words without the mover's name, an
    unambiguous beginning; unknown and ambiguous text gives an error and plays nothing. Each
    move played is told in the live region, one's own too."""
    page = watch(new_context(phone=phone).new_page())
    create_game(page, server.url, "acadmu", "hotseat")
    box = page.locator(".command input")
    error = page.locator(".command-error")
    assert page.locator(".command label").inner_text() == "Type a move"

    # Unknown text: a specific error beside the box, naming some legal moves; nothing played.
    wait_my_turn(page)
    before = version(page)
    box.fill("zebra crossing")
    box.press("Enter")
    error.wait_for()
    assert "No legal move matches “zebra crossing”" in error.inner_text()
    assert legal(page)[0]["text"] in error.inner_text()
    assert box.get_attribute("aria-invalid") == "true"
    assert version(page) == before

    # Ambiguous: the side's name begins every move's words.
    moves = legal(page)
    mover = moves[0]["words"].split()[0]
    box.fill(mover.lower())
    box.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.command-error').textContent.includes('could be')"
    )
    assert f"could be {len({m['text'] for m in moves})} moves" in error.inner_text()
    assert "Type more of it" in error.inner_text()
    assert version(page) == before
    error.scroll_into_view_if_needed()
    shots(page, f"acadmu-command-error-{'phone' if phone else 'desktop'}")

    # The notation, in any case.
    move = moves[0]
    box.fill(move["text"].lower())
    box.press("Enter")
    wait_settled(page, before)
    assert page.evaluate("() => window.gamehall.state.actions").count(move["text"]) >= 1
    assert error.inner_text() == ""
    assert box.input_value() == ""
    wait_said(page, move["words"])  # one's own move is told too

    # The words without the mover's name, cut short where they are still unambiguous.
    wait_my_turn(page)
    moves = legal(page)
    texts = {m["text"] for m in moves}
    target = None
    for m in moves:
        rest = m["words"].split(" ", 1)[1].lower()
        for cut in range(8, len(rest) + 1):
            prefix = rest[:cut]
            hits = {
                o["text"] for o in moves if o["words"].lower().split(" ", 1)[1].startswith(prefix)
            }
            if hits == {m["text"]} and not any(t.lower().startswith(prefix) for t in texts):
                target = (m, prefix)
                break
        if target:
            break
    assert target, "no move has an unambiguous beginning"
    m, prefix = target
    before = version(page)
    box.fill(f"  {prefix.upper()} ")
    box.press("Enter")
    wait_settled(page, before)
    state = page.evaluate("() => window.gamehall.state")
    assert m["text"] in state["actions"]
    wait_said(page, m["words"])
    assert page.js_errors == []


def test_the_live_region_tells_the_opponents_move(server, new_context):
    """Two people online: what one plays is told in words in the other's live region."""
    alice = watch(new_context().new_page())
    create_game(alice, server.url, "acadmu", "online", seat=0)
    invite = alice.locator(".invite-url").input_value()
    bob = watch(new_context(phone=True, dark=True).new_page())
    bob.goto(invite)
    bob.wait_for_selector('.conn[data-status="live"]')
    # Who goes first is drawn by chance: wait until a seat is to move, then ask whose it is.
    alice.wait_for_function("() => Number.isInteger(window.gamehall?.state?.to_move)")
    first = alice.evaluate("() => window.gamehall.state.to_move")
    mover, other = (alice, bob) if first == 0 else (bob, alice)
    wait_my_turn(mover)
    told_before = other.locator(f"{ANNOUNCER} p").count()
    move = legal(mover)[0]
    before = version(mover)
    mover.locator(".command input").fill(move["text"])
    mover.locator(".command button").click()
    wait_settled(mover, before)
    wait_said(other, move["words"])
    assert other.locator(f"{ANNOUNCER} p").count() > told_before
    assert other.locator(ANNOUNCER).get_attribute("aria-live") == "polite"
    assert said(other).startswith(move["words"].rstrip("."))
    for page in (alice, bob):
        assert page.js_errors == []
