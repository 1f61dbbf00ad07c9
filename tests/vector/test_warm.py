"""``gamehall warm-up`` compiles the batched games' kernels too (:func:`gamehall.vector.warm_up`)."""

from __future__ import annotations

from gamehall.vector import warm_up


def test_warm_up_compiles_the_batched_games_of_a_game_that_has_them():
    assert warm_up("akros") is True
    assert warm_up("acadmu") is True
    assert warm_up("tictactoe") is False  # no compiled batch: nothing to compile
