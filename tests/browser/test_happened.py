"""What just happened, in the browser: the other side's moves told in words under the banner and
shown one after another at a person's pace (skippable, or off), the Temple pile that took the
Ifrit's discard marked, a forced move played with a notice, identical choices shown once, a
player flipping the board, and the page's sounds.

To see several moves arrive at once (as they do when the computer plays a whole Akros turn, or
on a reconnect) regardless of how fast the server is, the page's WebSocket messages are held
(an init script wraps the browser's WebSocket) and released together."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import (
    acadmu_click_move,
    akros_click_move,
    create_game,
    is_over,
    screenshot,
    version,
    wait_my_turn,
    wait_settled,
    watch,
)

from conftest import DESKTOP, PHONE, Server

# Messages from the server are kept back while window.__hold is true; __release() hands them
# all on at once, in order, in one task.
HOLD_MESSAGES = """
(() => {
  const Native = window.WebSocket;
  window.__hold = false;
  window.__held = [];
  window.WebSocket = class extends Native {
    addEventListener(type, listener, ...rest) {
      if (type !== "message") return super.addEventListener(type, listener, ...rest);
      return super.addEventListener(type, (event) => {
        if (window.__hold) window.__held.push([listener, event]);
        else listener(event);
      }, ...rest);
    }
  };
  window.__release = () => {
    window.__hold = false;
    const held = window.__held;
    window.__held = [];
    for (const [listener, event] of held) listener(event);
  };
})();
"""

# Every change of the line under the banner, with what the page showed then.
RECORD = """
() => {
  window.__told = [];
  const line = document.querySelector(".happened");
  const root = document.querySelector(".game-page");
  const note = () => window.__told.push({
    step: Number(line.dataset.step),
    hidden: line.hidden,
    words: line.querySelector(".happened-words")?.textContent || "",
    forced: line.dataset.forced === "true",
    pacing: root.dataset.pacing === "true",
    shown: Number(root.dataset.shown),
    lastRegion: document.querySelector(".region.last")?.dataset.region || null,
    took: document.querySelector(".temple .row.took-discard")?.dataset.pile || null,
  });
  new MutationObserver(note).observe(line, { attributes: true, childList: true, subtree: true });
  note();
}
"""

SHOTS = "/tmp/shots34/happened"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A fresh server for this module, given longer to warm its solvers on a busy machine."""
    folder = tmp_path_factory.mktemp("server")
    running = Server(folder / "gamehall.sqlite3", folder / "server.log")
    running.start(timeout=600)
    try:
        yield running
    finally:
        running.stop()


def _shot(page: Any, name: str) -> None:
    """A screenshot for the report (outside the repository), besides the usual one."""
    page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True, animations="disabled")
    screenshot(page, name)


def _count(page: Any) -> int:
    return page.evaluate("() => window.gamehall.state.actions.length")


def _held_until_seat_to_move(page: Any, seat: int) -> None:
    """Wait until the held messages reach a state where ``seat`` is to move (or the end)."""
    page.wait_for_function(
        """seat => window.__held.some(([, event]) => {
            try {
                const message = JSON.parse(event.data);
                return message.type === "state" && (message.to_move === seat || message.over);
            } catch { return false; }
        })""",
        arg=seat,
        timeout=30000,
    )


def _to_ifrit_place(page: Any, rng: random.Random) -> None:
    """Play on (the Ifrit's keeps) until the Ifrit has a tile to place by clicking a region;
    the page itself plays a move that is the only one."""
    for _ in range(10):
        wait_my_turn(page)
        if page.locator(".region.target").count():
            return
        before = version(page)
        akros_click_move(page, rng)
        wait_settled(page, before)
    raise AssertionError("the Ifrit never had a tile to place")


def _wait_told(page: Any, step: int) -> None:
    """Wait until the line under the banner has told action ``step`` (1-based)."""
    page.wait_for_function(
        "step => window.__told.some((e) => e.step === step && !e.hidden)", arg=step
    )


def _steps(told: list[dict[str, Any]], after: int) -> list[int]:
    """The steps the line told after action ``after``, each once, in the order shown."""
    steps: list[int] = []
    for entry in told:
        if (
            entry["step"] > after
            and not entry["hidden"]
            and (not steps or steps[-1] != entry["step"])
        ):
            steps.append(entry["step"])
    return steps


def _page(browser: Any, size: dict[str, Any], dark: bool = False, script: str = "") -> Any:
    context = browser.new_context(**size, **({"color_scheme": "dark"} if dark else {}))
    context.set_default_timeout(20000)
    if script:
        context.add_init_script(script)
    return watch(context.new_page())


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_computers_akros_turn_is_told_step_by_step(server, browser, size):
    page = _page(browser, DESKTOP if size == "desktop" else PHONE, script=HOLD_MESSAGES)
    rng = random.Random(3)
    game_id = create_game(page, server.url, "akros", "computer", seat=1, level="beginner")
    page.wait_for_selector('.conn[data-status="live"]')
    page.evaluate(RECORD)

    # Turn 1: the Ifrit keeps one tile and discards the other to Temple pile 7; it is marked.
    wait_my_turn(page)
    if page.locator(".controls button.choice").count():  # else it was the only one: played
        before = version(page)
        akros_click_move(page, rng)
        wait_settled(page, before)
    page.wait_for_function("() => window.__told.some((e) => e.took === '7')")
    if page.locator(".region.target").count():  # the Ifrit's placement: still turn 1
        assert page.locator('.temple .row.took-discard[data-pile="7"]').count() == 1
        assert "discard" in page.locator(".temple .took-discard .took-note").inner_text()

    # The Ifrit places; the computer's Jinn places, chance draws, the Jinn keeps: held, then
    # all at once, and the page shows them one after another, each told in words.
    _to_ifrit_place(page, rng)
    placed = _count(page) + 1  # the actions after the Ifrit's placement
    page.evaluate("() => { window.__hold = true; window.__told.length = 0; }")
    akros_click_move(page, rng)
    _held_until_seat_to_move(page, 1)
    page.evaluate("() => window.__release()")
    for step in (placed + 1, placed + 2, placed + 3):
        _wait_told(page, step)
        if step == placed + 1:
            assert page.locator('.turn-banner[data-kind="pacing"]').count() == 1
            assert page.locator(".region.target").count() == 0  # no move on a stale board
            _shot(page, f"akros-paced-step-{size}")
    wait_my_turn(page)
    state = server.get(f"/api/games/{game_id}")
    told = page.evaluate("() => window.__told")
    assert _steps(told, placed)[:3] == [
        placed + 1,
        placed + 2,
        placed + 3,
    ]  # (then maybe a forced keep)
    first = {entry["step"]: entry for entry in reversed(told) if entry["step"] > placed}
    for step in (placed + 1, placed + 2, placed + 3):
        assert first[step]["words"] == state["words"][step - 1]
        assert first[step]["shown"] == step  # the board showed that position
    assert first[placed + 1]["pacing"] and first[placed + 2]["pacing"]
    jinn_place = server.get(f"/api/games/{game_id}/replay")["actions"][placed]
    if jinn_place["kind"] == "place":  # (else the Jinn's tile had no place: removed)
        assert first[placed + 1]["lastRegion"] == str(jinn_place["region"])
    assert first[placed + 1]["took"] == "7"  # still this turn: the pile stays marked
    assert first[placed + 2]["took"] is None  # the draw began a new turn
    assert page.locator('.game-page[data-pacing="false"]').count() == 1

    # Skip: the same again, and a key shows the present at once, with the player's moves.
    _to_ifrit_place(page, rng)
    placed = _count(page) + 1
    page.evaluate("() => { window.__hold = true; }")
    akros_click_move(page, rng)
    _held_until_seat_to_move(page, 1)
    page.evaluate("() => window.__release()")
    _wait_told(page, placed + 1)
    skipped = page.evaluate(
        """() => {
            const root = document.querySelector(".game-page");
            const was = root.dataset.pacing;
            document.dispatchEvent(new KeyboardEvent("keydown", { key: "x", bubbles: true }));
            return { was, now: root.dataset.pacing, shown: Number(root.dataset.shown),
                     count: window.gamehall.state.actions.length,
                     choices: document.querySelectorAll(".controls button.choice").length };
        }"""
    )
    assert skipped["was"] == "true"
    assert skipped["now"] == "false"
    assert skipped["shown"] == skipped["count"]
    assert skipped["choices"] > 0  # the Ifrit's keep is offered at once

    # Pacing off (the switch on the page, remembered): everything shows as it comes.
    page.locator("button.pacing").click()
    assert page.locator("button.pacing").get_attribute("aria-pressed") == "false"
    assert page.evaluate("() => localStorage.getItem('gh_pref_pacing')") == "false"
    _to_ifrit_place(page, rng)
    placed = _count(page) + 1
    page.evaluate("() => { window.__hold = true; window.__told.length = 0; }")
    akros_click_move(page, rng)
    _held_until_seat_to_move(page, 1)
    page.evaluate("() => window.__release()")
    wait_my_turn(page)
    told = page.evaluate("() => window.__told")
    assert not any(entry["pacing"] for entry in told)
    assert _steps(told, placed)[-1] == _count(page)

    assert page.js_errors == []


def test_a_click_while_moves_are_shown_one_by_one(server, browser):
    """While the computer's moves are still being shown one after another, a click on the board
    only shows the present (it plays nothing: the player clicked a past position), and a click
    on Resign does what it says (the present is drawn after its handler ran, not under it)."""
    page = _page(browser, DESKTOP, script=HOLD_MESSAGES)
    rng = random.Random(11)
    create_game(page, server.url, "akros", "computer", seat=1, level="beginner")
    page.wait_for_selector('.conn[data-status="live"]')
    page.evaluate(RECORD)

    def held_turn() -> int:
        """The Ifrit places; the computer's turn arrives at once and is shown step by step."""
        _to_ifrit_place(page, rng)
        placed = _count(page) + 1
        page.evaluate("() => { window.__hold = true; window.__told.length = 0; }")
        akros_click_move(page, rng)
        _held_until_seat_to_move(page, 1)
        page.evaluate("() => window.__release()")
        _wait_told(page, placed + 1)
        return placed

    held_turn()
    board_click = page.evaluate(
        """() => {
            const root = document.querySelector(".game-page");
            const was = root.dataset.pacing;
            const before = window.gamehall.state.version;
            document.querySelector(".board-box .region").dispatchEvent(new MouseEvent("click", { bubbles: true }));
            return { was, now: root.dataset.pacing, pending: root.dataset.pending,
                     sent: window.gamehall.state.version !== before };
        }"""
    )
    assert board_click["was"] == "true"
    assert board_click["now"] == "false"  # the present at once
    assert board_click["pending"] == "false"  # and no move sent from the past position

    held_turn()
    was = page.evaluate(
        """() => {
            const root = document.querySelector(".game-page");
            const was = root.dataset.pacing;
            document.querySelector('[data-room="resign"]').click();
            return was;
        }"""
    )
    assert was == "true"
    page.wait_for_selector('.game-page[data-pacing="false"]')
    assert page.locator('[data-room="resign"]').inner_text() == "Really resign?"
    page.locator('[data-room="resign"]').click()
    page.wait_for_selector(".game-over")
    assert page.js_errors == []


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_forced_move_is_played_with_a_notice(server, browser, size):
    """An Akros game against the computer, played to turn 9 where the Ifrit's keep is forced:
    the page plays it and says so (the line under the banner and a notice)."""
    page = _page(browser, DESKTOP if size == "desktop" else PHONE)
    page.add_init_script("localStorage.setItem('gh_pref_pacing', 'false')")
    page.add_init_script("localStorage.setItem('gh_pref_sound', 'true')")  # and the end heard
    rng = random.Random(5)
    create_game(page, server.url, "akros", "computer", seat=1, level="beginner")
    page.wait_for_selector('.conn[data-status="live"]')
    page.evaluate(RECORD)
    seen = False
    for _ in range(40):
        wait_my_turn(page)
        if page.locator('.happened[data-forced="true"]').count():
            seen = True
            assert "played for you" in page.locator(".toast").last.inner_text()
            _shot(page, f"akros-forced-{size}")
        if is_over(page):
            break
        before = version(page)
        akros_click_move(page, rng)
        wait_settled(page, before)
    told = page.evaluate("() => window.__told")
    assert seen or any(entry["forced"] for entry in told)
    assert is_over(page)
    page.wait_for_function("() => window.gamehall.sounds.includes('end')")
    assert page.js_errors == []


def test_identical_choices_are_shown_once(server, desktop):
    """The Ifrit's draft after the Jinn kept from FFF: two Forests, one choice (one button)."""
    page = desktop
    page.goto(server.url + "/")
    buttons = page.evaluate(
        """async () => {
            const meta = await (await fetch("/api/meta")).json();
            const { Board } = await import(meta.games.find((g) => g.name === "akros").board_module);
            const board = new Board({});
            board.update({
                view: { step: "ifrit-keep", draft: ["F", "F"], discard_pile: "7", regions: [],
                        hands: {}, temple: { 7: [], 8: [], 9: [] }, bag: {}, removed: {} },
                legal: [{ kind: "keep-discard", tile: "F", discard: "F", text: "keep F discard F", index: 0 }],
                canMove: true, key: 1, history: [],
            });
            return [...board.controls.querySelectorAll("button.choice")].map((b) => b.dataset.action);
        }"""
    )
    assert buttons == ["keep F discard F"]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_player_flips_the_board_and_hears_the_moves(server, browser, size):
    # The phone has no audio at all: the sounds switch on and nothing fails.
    script = (
        "delete window.AudioContext; delete window.webkitAudioContext;" if size == "phone" else ""
    )
    page = _page(browser, DESKTOP if size == "desktop" else PHONE, script=script)
    rng = random.Random(11)
    game_id = create_game(page, server.url, "acadmu", "computer", seat=0, level="beginner")
    wait_my_turn(page)
    assert page.locator(".group").first.get_attribute("data-side") == "l"  # Light on top
    page.locator("button.flip").click()
    assert page.locator("button.flip").get_attribute("aria-pressed") == "true"
    assert page.locator(".group").first.get_attribute("data-side") == "d"  # now Dark on top
    page.reload()
    wait_my_turn(page)
    assert page.locator("button.flip").get_attribute("aria-pressed") == "true"
    assert page.locator(".group").first.get_attribute("data-side") == "d"

    assert page.locator("button.sound").get_attribute("aria-pressed") == "false"  # off by default
    page.locator("button.sound").click()
    assert page.locator("button.sound").get_attribute("aria-pressed") == "true"
    for _ in range(6):
        wait_my_turn(page)
        if is_over(page):
            break
        before = version(page)
        how = acadmu_click_move(page, rng)
        wait_settled(page, before)
        if how != "pass":
            break
    page.wait_for_function("() => window.gamehall.sounds.includes('capture')")
    _shot(page, f"acadmu-flipped-{size}")
    assert page.js_errors == []
    assert game_id


@pytest.mark.parametrize("dark", [False, True])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_screenshots_of_the_game_page(server, browser, size, dark):
    """The game page of both games with the line under the banner, for looking at."""
    scheme = "dark" if dark else "light"
    for game in ("acadmu", "akros"):
        page = _page(browser, DESKTOP if size == "desktop" else PHONE, dark=dark)
        rng = random.Random(2)
        create_game(page, server.url, game, "computer", seat=0, level="beginner")
        for _ in range(2):
            wait_my_turn(page)
            before = version(page)
            (acadmu_click_move if game == "acadmu" else akros_click_move)(page, rng)
            wait_settled(page, before)
        wait_my_turn(page)
        page.wait_for_selector(".happened:not([hidden])")
        _shot(page, f"{game}-game-{size}-{scheme}")
        assert page.js_errors == []
        page.context.close()
