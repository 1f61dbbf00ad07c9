"""A resignation before every side has moved is an abort, as on lichess (issue 33, point 2):
the game ends with no result, its outcome says a resignation was made an abort, and the log
that stores it replays to the same ending."""

from __future__ import annotations

from gamehall.core import find_game
from gamehall.store import ActionRow
from gamehall.web.play import conduct
from gamehall.web.play.history import RESIGNED, Ending, replay_log


def test_a_resignation_counts_only_once_every_side_has_moved():
    assert conduct.resignation_ending(set(), 2) == "abort"
    assert conduct.resignation_ending({0}, 2) == "abort"
    assert conduct.resignation_ending({1}, 2) == "abort"
    assert conduct.resignation_ending({0, 1}, 2) == "resign"
    assert conduct.resignation_ending({0, 1}, 3) == "abort"  # the third has not moved


def test_an_early_resignation_ends_with_no_result_and_says_why():
    game = find_game("acadmu")
    outcome = Ending.of("abort", 1, RESIGNED).outcome(game)
    assert (outcome.winner, outcome.result, outcome.scores) == (None, "*", [0.0, 0.0])
    assert outcome.reason == "Game aborted: Light resigned before both sides had moved"
    # An abort asked for as one reads as before; a resignation after both moved is a loss.
    assert Ending.of("abort", 1, "abort").outcome(game).reason == (
        "aborted by Light before both sides had moved: no result"
    )
    assert Ending.of("resign", 1, RESIGNED) == Ending("resign", 1)


def test_the_stored_entry_replays_to_the_same_ending():
    game = find_game("acadmu")
    played = replay_log(game, [ActionRow(1, RESIGNED, 1, "", "abort")])
    assert played.over and played.ended == Ending("abort", 1, resigned=True)
    outcome = played.outcome()
    assert outcome is not None and outcome.result == "*" and "resigned" in outcome.reason
