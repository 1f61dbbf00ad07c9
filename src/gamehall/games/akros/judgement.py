"""How Akros judges moves, in the mover's probability of winning under perfect play.

A move that lowers the mover's chance of winning by less than 5 percentage points is ``good``, by
5 up to 10 an ``inaccuracy``, by 10 up to 20 a ``mistake``, and by 20 or more a ``blunder``. A
puzzle's single best move must win by at least 20 percentage points over every other move.
Returns are +1 for a win and -1 for a loss, so MCTS estimates read as probabilities directly.
"""

from __future__ import annotations

from gamehall.core.search import Judgement

JUDGEMENT = Judgement(
    unit="win probability", inaccuracy=0.05, mistake=0.10, blunder=0.20, puzzle_margin=0.20
)
