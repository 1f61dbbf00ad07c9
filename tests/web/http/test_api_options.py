"""Options from the network never name files on the server, and odd values are refused cleanly."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "options",
    [
        {"discs": "x" * 300},  # longer than a file name may be
        {"discs": "../etc/passwd"},
        {"board": 5},  # not a string: still no file lookups
        {"board": "boards/x.toml"},
    ],
)
def test_odd_options_are_refused_with_a_reason(server, options):
    game = "akros" if "board" in options else "acadmu"
    answer = server.client.post(
        "/api/games", json={"game": game, "options": options, "mode": "hotseat"}
    )
    assert 400 <= answer.status_code < 500, answer.text
    assert answer.json()["error"]["message"]


def test_two_disc_sets_never_share_a_draw(server):
    """States of games with different disc sets are different values, so nothing cached for one
    (the draw's outcomes) is served to the other."""
    from gamehall.core import find_game

    default = find_game("acadmu").new_initial_state()
    custom = find_game("acadmu", discs="YC:YS,BT:BS").new_initial_state()
    assert str(default) == str(custom) == "draw"
    assert default != custom
    for game in ({}, {"discs": "YC:YS,BT:BS"}):
        answer = server.client.post(
            "/api/games", json={"game": "acadmu", "options": game, "mode": "hotseat"}
        )
        assert answer.status_code == 200, answer.text
        game_id = answer.json()["id"]
        record = server.client.get(f"/api/games/{game_id}/record").text
        from gamehall.core import Record

        Record.parse(record).replay()  # the stored draw is possible under the game's own discs
