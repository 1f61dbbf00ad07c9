"""Golden move-generation counts ("perft", as chess engines pin theirs down).

``perft(state, d)`` counts the lines of play of length ``d`` from a position, chance outcomes
included where they can be listed (a line that ends early, at the end of the game, counts once;
the Äcädmü pour is a leaf). Any change in move generation, in chance, or in when a game ends shows
as a changed number. The numbers were computed by this engine and checked by hand at depth 1
(e.g. the small Äcädmü position: Light has RSxBS, RCxBS, BCxYS, YTxRT, YTxRS and three shape
captures YTxRS+BS, YTxRS+YS, YTxBS+YS: 8).
"""

from __future__ import annotations

import pytest

from gamehall.core import State, TooManyOutcomesError, find_game


def perft(state: State, depth: int) -> int:
    if depth == 0 or state.is_terminal():
        return 1
    if state.is_chance_node():
        try:
            outcomes = [action for action, _ in state.chance_outcomes()]
        except TooManyOutcomesError:
            return 1
        return sum(perft(state.apply_trusted(a), depth - 1) for a in outcomes)
    return sum(perft(state.apply_trusted(a), depth - 1) for a in state.legal_actions())


GOLDEN = [
    ("acadmu", "3,0,2,2,1,1,2,2,1/1,0,1,1,1,2,2,1,5 d -", [46, 2020, 60769]),
    ("acadmu", "2,1,3,3,0,2,2,3,0/1,2,1,1,2,3,2,3,1 d -", [55, 2663, 114143]),
    ("acadmu", "1,1,0,0,1,0,0,1,0/0,1,1,0,0,1,1,0,0 l -", [8, 29, 37, 38, 38, 38]),
    (
        "akros",
        "turn=1 step=draw bag=F6S6M7 temple=-/-/- draft=- jinn=- ifrit=- out=- "
        "regions=0,0J,0,0,0I,0,0J,0,0,0I,0I,0,0J,0I,0,0,0,0J,0",
        [10, 18, 27, 126, 792],
    ),
    (
        "akros",
        "turn=8 step=jinn-keep bag=F0S0M0 temple=-/-/F draft=SMM jinn=- ifrit=- out=FSS "
        "regions=1I,0,0,1,1I,0,0,1J,1,0I,2I,1J,0J,0,1,1,0,0,2J",
        [2, 3, 12, 92, 184, 184, 738, 6106, 6106],
    ),
]


@pytest.mark.parametrize(("game", "position", "counts"), GOLDEN)
def test_perft(game, position, counts):
    state = find_game(game).parse_state(position)
    assert [perft(state, depth) for depth in range(1, len(counts) + 1)] == counts
