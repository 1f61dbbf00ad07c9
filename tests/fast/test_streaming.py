"""Big simulations stream: a run in chunks is the same games as one call, whatever the chunk size
or the number of worker processes, and a tally sums it without keeping the games; warm_up
compiles a game's simulator kernels (what ``gamehall warm-up`` runs)."""

from __future__ import annotations

import numpy as np
import pytest

from gamehall import fast
from gamehall.core import GamehallError


@pytest.mark.parametrize("name", ["akros", "acadmu"])
def test_chunks_are_the_games_of_one_call(name):
    whole = fast.simulate(name, 100, seed=7, policy=("greedy", "random"))
    parts = list(fast.simulate_chunks(name, 100, seed=7, policy=("greedy", "random"), chunk=37))
    assert [part.games for part in parts] == [37, 37, 26]
    assert np.array_equal(np.concatenate([p.returns for p in parts]), whole.returns)
    assert np.array_equal(np.concatenate([p.actions for p in parts]), whole.actions)


def test_a_tally_is_the_same_in_one_process_or_many():
    whole = fast.Tally.of(fast.simulate("akros", 300, seed=3))
    alone = fast.tally("akros", 300, seed=3, chunk=64)
    shared = fast.tally("akros", 300, seed=3, chunk=64, workers=2)
    for counts in (alone, shared):
        assert counts.games == 300
        assert counts.wins.tolist() == whole.wins.tolist()
        assert counts.draws == whole.draws
        assert np.allclose(counts.mean_returns, whole.mean_returns)
    assert counts.wins.sum() + counts.draws == 300


def test_bad_chunks_and_workers_are_refused():
    with pytest.raises(GamehallError, match="at least one game"):
        list(fast.simulate_chunks("akros", 10, chunk=0))
    with pytest.raises(GamehallError, match="workers is at least 1"):
        fast.tally("akros", 10, workers=0)


def test_warm_up_compiles_the_simulator_of_a_game_that_has_one():
    assert fast.warm_up("akros") is True
    assert fast.warm_up("tictactoe") is False
