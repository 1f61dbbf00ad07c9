"""The terminal app's move table tells the moves in words, the notation beside them, grouped by
round with each round's result kept, at a wide and a narrow size."""

from __future__ import annotations

import random
import re

import pytest

from gamehall.core import find_game
from gamehall.tui.app import GamehallApp
from gamehall.tui.session import Session

pytestmark = pytest.mark.anyio
NINE_DISCS = "RT:BS,RS:BC,RC:BT,BT:YS,BS:YC,BC:YT,YT:RS,YS:RC,YC:RT"


def into_round_two() -> Session:
    """A hot-seat match played at random to the pour of round 2."""
    session = Session(find_game("acadmu", target=12, discs=NINE_DISCS), ["human", "human"], seed=3)
    rng = random.Random(1)
    pours = 0
    while pours < 2:
        state = session.state
        if state.is_chance_node():
            pours += state.phase != "draw"
            session.play_chance()
        else:
            session.play(rng.choice(state.legal_actions()))
    return session


@pytest.mark.parametrize("size", [(160, 50), (60, 40)])
async def test_the_move_table_speaks_by_round(size):
    session = into_round_two()
    app = GamehallApp(session)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        table = app.query_one("#moves")
        rows = [[str(cell) for cell in table.get_row_at(r)] for r in range(table.row_count)]
    texts = [row[1] for row in rows]
    assert texts[0] == "Who goes first" and texts[2] == "Round 1"
    assert re.fullmatch(r"Draw for first: Dark shows a .+ goes first  draw \S+", texts[1])
    captures = [t for t in texts if re.match(r"(Dark|Light)'s .+ takes .+, by (colour|shape)  ", t)]
    assert captures and all(re.search(r"  [RBY][TSC]x[RBY][TSC]", t) for t in captures)
    ends = [t for t in texts if t.startswith("Round 1:")]
    assert len(ends) == 1
    assert re.fullmatch(
        r"Round 1: ((Dark|Light) \+\d+|equal counts, nobody scores), match \d+–\d+", ends[0]
    )
    assert texts.index(ends[0]) + 1 == texts.index("Round 2")
    assert texts[-1].startswith("Both pour their discs; Light goes first")
