"""Every way a game ends off the board has a Termination its record can carry, and the result
the play layer gives it agrees with that Termination (a decided one, or ``*`` for an abort)."""

from __future__ import annotations

import pytest

from gamehall.core import find_game
from gamehall.web.play.history import ENDINGS, Ending
from gamehall.web.play.live import RECORD_TERMINATIONS, record_termination


def test_every_ending_of_the_log_has_a_termination():
    assert set(RECORD_TERMINATIONS) == set(ENDINGS)


@pytest.mark.parametrize("kind", ENDINGS)
@pytest.mark.parametrize("seat", [0, 1])
def test_each_endings_result_fits_its_termination(kind, seat):
    game = find_game("acadmu")
    outcome = Ending(kind, seat).outcome(game)
    ended = record_termination(Ending(kind, seat), game)  # Termination refuses a mismatch
    assert (ended.result, ended.text) == (outcome.result, outcome.reason)
    assert ended.kind == ("aborted" if outcome.result == "*" else RECORD_TERMINATIONS[kind])
