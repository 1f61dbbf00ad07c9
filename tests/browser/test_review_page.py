"""A resigned online game reviewed in the browser (issue 34): the button on the game page and
the replay page, the players named, rounds marked, each player summed up (accuracy, mistakes
and blunders, the worst moment), moves told in words with their notation as a label, links to
the analysis board, and the board beside the graph on a desktop; at 1280×800 and 390×844, in
the light and the dark colour scheme."""

from __future__ import annotations

import random
import time
from pathlib import Path

from browser_helpers import (
    acadmu_click_move,
    create_game,
    is_paused,
    my_turn,
    play_turn,
    resign_and_review,
    screenshot,
    version,
    wait_my_turn,
    wait_settled,
    watch,
)

SMALL_DISCS = "RT:BS,RS:BT,YC:BS,BC:YT,YS:RC,RC:YT,BT:YS,YT:RS"
SHOTS = Path("/tmp/shots34/review")


def _shots(page, name: str) -> None:
    """Screenshots of the page in the light and the dark scheme (looked at by hand)."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        path = screenshot(page, f"{name}-{scheme}", full_page=False)
        SHOTS.mkdir(parents=True, exist_ok=True)
        (SHOTS / path.name).write_bytes(path.read_bytes())
    page.emulate_media(color_scheme="light")


def _mover(pages):
    for page in pages:
        if my_turn(page):
            return page
    return None


def _play(pages, rng, moves: int) -> None:
    """``moves`` moves by clicking, whoever has the turn."""
    for _ in range(moves):
        for page in pages:
            wait_settled(page)
        page = None
        deadline = time.monotonic() + 20
        while page is None:
            assert time.monotonic() < deadline, "neither player got the turn"
            page = _mover(pages)
            if page is None:
                for other in pages:  # a round that ended early: go on to the next
                    button = other.locator(".pause-panel button.continue")
                    if is_paused(other) and button.count() and button.is_enabled():
                        button.click()
                pages[0].wait_for_timeout(50)  # no one page's event says which gets the turn
        before = version(page)
        acadmu_click_move(page, rng)
        wait_settled(page, before)


def _notation(element, words: str, text: str) -> None:
    """The notation is a small label after the words, unless the words already end with it."""
    label = element.locator("code.notation")
    if words.endswith(text):
        assert label.count() == 0
    else:
        assert label.inner_text() == text


def _box(page, selector: str):
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def test_a_resigned_online_game_is_reviewed(server, new_context):
    alice = watch(new_context().new_page())
    game_id = create_game(
        alice, server.url, "acadmu", "online", seat=0, options={"discs": SMALL_DISCS, "target": 9}
    )
    invite = alice.locator(".invite-url").input_value()
    bob = watch(new_context(phone=True).new_page())
    bob.goto(invite)
    bob.wait_for_selector('.conn[data-status="live"]')
    alice.wait_for_selector('.seat[data-seat="1"] [data-presence="online"]')
    _play([alice, bob], random.Random(7), 4)
    wait_settled(bob)  # a click while Alice's move is still being shown only shows it at once
    resign = bob.locator('button[data-room="resign"]')
    resign.click()
    resign.click()
    for page in (alice, bob):
        page.wait_for_selector(".game-over")
    state = server.get(f"/api/games/{game_id}")
    assert "resigned" in state["outcome"]["reason"]
    names = [seat["player"] for seat in state["seats"]]
    assert all(names)

    # The replay page links the review; the game page offers it.
    alice.goto(f"{server.url}/replay/{game_id}")
    alice.wait_for_selector(".replay-list li")
    link = alice.locator("a.review-link")
    assert link.get_attribute("href") == f"/review/{game_id}"
    played = server.get(f"/api/games/{game_id}/replay")["actions"]
    assert all(item["words"] for item in played)
    alice.locator('.replay-list li[data-step="3"] button').click()
    caption = alice.locator(".replay-caption")
    assert played[2]["words"] in caption.inner_text()
    _notation(caption, played[2]["words"], played[2]["text"])
    # The moves are grouped by round, as in the review.
    sections = alice.locator(".replay-list .move-section").all_inner_texts()
    assert sections[:2] == ["Who goes first", "Round 1"], sections
    _shots(alice, "replay-desktop")
    bob.goto(f"{server.url}/replay/{game_id}")
    bob.wait_for_selector(".replay-list li")
    assert bob.locator("a.review-link").count() == 1
    _shots(bob, "replay-phone")

    # The home page's list of finished games links the review too.
    alice.goto(f"{server.url}/")
    item = alice.locator(f'.game-item[data-id="{game_id}"]')
    assert item.locator("a.review-link").get_attribute("href") == f"/review/{game_id}"

    # So does the player's profile.
    alice.goto(f"{server.url}/player/{names[0]}")
    row = alice.locator(f'.profile-game[data-id="{game_id}"]')
    assert row.locator("a.review-link").get_attribute("href") == f"/review/{game_id}"

    alice.goto(f"{server.url}/game/{game_id}")
    alice.wait_for_selector(".game-over")
    alice.locator(".review-button").click()
    alice.wait_for_url(f"**/review/{game_id}")
    alice.wait_for_selector(".review-page[data-ready='true']", timeout=120000)
    review = server.get(f"/api/games/{game_id}/review")["review"]
    summary = review["summary"]

    # The players by name ("You" for the reader's own seat), each summed up.
    cards = alice.locator(".review-player")
    assert cards.count() == 2
    assert cards.nth(0).locator("h2").inner_text().startswith("You · Dark")
    assert cards.nth(1).locator("h2").inner_text().startswith(f"{names[1]} · Light")
    for index, card in enumerate(cards.all()):
        text = card.inner_text()
        player = summary[index]
        accuracy = card.locator(".accuracy")
        assert accuracy.get_attribute("aria-label") == player["accuracy_text"]
        assert accuracy.inner_text().startswith(f"{round(player['accuracy'])}%")
        assert f"{player['mistakes']} mistake" in text and f"{player['blunders']} blunder" in text
        if player["worst"] is not None:
            worst = card.locator(".worst-moment")
            assert player["worst"]["words"] in worst.inner_text()
            worst.click()  # the worst moment opens its position
            number = str(player["worst"]["number"])
            alice.wait_for_function(
                "n => document.querySelector('.review-page').dataset.selected === n", arg=number
            )
            if player["worst"]["best_words"]:
                best = alice.locator(".review-best").inner_text()
                assert "Best was:" in best and player["worst"]["best_words"] in best
    # Rounds are marked in the list and on the graph; moves are told in words, notation small.
    assert alice.locator(".review-moves .review-section").first.inner_text() == "Round 1"
    assert alice.locator(".graph-section-label").count() >= 1
    items = alice.locator(".review-moves .review-item")
    assert items.count() == len(review["moves"])
    for index, move in enumerate(review["moves"]):
        item = items.nth(index)
        assert move["words"] in item.locator(".words").inner_text()
        _notation(item, move["words"], move["move"])
    # Each position links the analysis board: the position after k actions.
    alice.locator('.review-item[data-index="0"] button').click()
    alice.locator('.view-toggle[data-view="before"]').click()
    href = alice.locator(".analyse-link").get_attribute("href")
    number = review["moves"][0]["number"]
    assert href == f"/analysis/acadmu?from={game_id}&step={number - 1}"
    alice.locator('.view-toggle[data-view="played"]').click()
    assert alice.locator(".analyse-link").get_attribute("href").endswith(f"&step={number}")
    # On a desktop the board is beside the graph, in view as the page opens (the page does not
    # scroll itself to show the chosen move in the list).
    alice.reload()
    alice.wait_for_selector(".review-page[data-ready='true']")
    assert alice.evaluate("window.scrollY") == 0
    board, graph = _box(alice, ".review-board svg"), _box(alice, ".review-graph")
    assert board["x"] + board["width"] <= graph["x"] + 1
    assert board["y"] < 800 and board["y"] + board["height"] / 2 < 800
    _shots(alice, "review-desktop")
    assert alice.js_errors == []

    # On a phone: one column, the summary first, the board below the graph.
    bob.goto(f"{server.url}/review/{game_id}")
    bob.wait_for_selector(".review-page[data-ready='true']")
    assert bob.locator(".review-player").nth(1).locator("h2").inner_text().startswith("You · Light")
    assert bob.locator(".review-player").nth(0).locator("h2").inner_text().startswith(names[0])
    board, graph = _box(bob, ".review-board svg"), _box(bob, ".review-graph")
    assert board["y"] >= graph["y"] + graph["height"] - 1
    _shots(bob, "review-phone")
    bob.locator(".review-board").scroll_into_view_if_needed()
    _shots(bob, "review-phone-board")
    assert bob.js_errors == []


def test_nothing_to_judge_offers_no_review(server, new_context):
    """A game that ended before any player moved (aborted) has nothing to judge: no button on
    its page, no link beside it in the list."""
    page = watch(new_context().new_page())
    game_id = create_game(page, server.url, "acadmu", "online", seat=0)
    page.locator('button[data-room="abort"]').click()
    page.wait_for_selector(".game-over")
    assert server.get(f"/api/games/{game_id}")["outcome"]["result"] == "*"
    assert page.locator(".review-button").count() == 0
    assert page.locator(".game-page .assist").is_hidden()
    page.goto(f"{server.url}/")
    item = page.locator(f'.game-item[data-id="{game_id}"]')
    item.wait_for()
    assert item.locator("a.review-link").count() == 0
    page.goto(f"{server.url}/review/{game_id}")
    page.wait_for_selector(".review-page[data-status='none']")
    assert "Nothing to judge" in page.locator(".review-status").inner_text()
    assert page.locator(".review-start").count() == 0
    name = server.get(f"/api/games/{game_id}")["seats"][0]["player"]
    page.goto(f"{server.url}/player/{name}")
    row = page.locator(f'.profile-game[data-id="{game_id}"]')
    row.wait_for()
    assert row.locator("a.review-link").count() == 0
    assert page.js_errors == []


def test_an_akros_review_marks_its_turns(server, new_context):
    page = watch(new_context().new_page())
    game_id = create_game(page, server.url, "akros", "hotseat")
    rng = random.Random(11)
    state = server.get(f"/api/games/{game_id}")
    while state["view"]["turn"] < 2 or sum(m >= 0 for m in state["movers"]) < 6:
        wait_my_turn(page)
        play_turn(page, "akros", rng)
        state = server.get(f"/api/games/{game_id}")
    resign_and_review(page)
    review = server.get(f"/api/games/{game_id}/review")["review"]
    sections = page.locator(".review-moves .review-section").all_inner_texts()
    assert sections[:2] == ["Turn 1", "Turn 2"]
    labels = page.locator(".graph-section-label")
    assert labels.count() == len(sections)
    assert [labels.nth(i).get_attribute("data-section") for i in range(labels.count())] == sections
    for player in review["summary"]:
        if player["worst"] is not None:
            assert "chance of winning" in player["worst_text"]
    assert " pp" not in page.locator(".review-page").inner_text()  # never "pp" for people
    _shots(page, "review-akros-desktop")
    assert page.js_errors == []

    # Where the server tells each action's chapter (its round or turn), the review follows it.
    replay = server.get(f"/api/games/{game_id}/replay")
    told = [f"Part {view['turn']}" for view in replay["states"][: len(replay["actions"])]]

    def with_chapters(route):
        answer = route.fetch()
        route.fulfill(response=answer, json={**answer.json(), "chapters": told})

    page.route(f"**/api/games/{game_id}", with_chapters)
    page.reload()
    page.wait_for_selector(".review-page[data-ready='true']")
    assert page.locator(".review-moves .review-section").all_inner_texts()[:2] == [
        "Part 1",
        "Part 2",
    ]
