"""What a finished Äcädmü match tells the self-play analysis, as one flat row."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from gamehall.core.game import Action, State
from gamehall.core.metrics import Collector, SQLType
from gamehall.games.acadmu.game import AcadmuState, Move


class AcadmuCollector(Collector):
    """Each round's points, who went first, its length; passes and capture kinds."""

    columns: ClassVar[dict[str, SQLType]] = {
        "rounds": "INTEGER",
        "round_points": "TEXT",  # JSON [[dark, light], ...]: each round's points
        "round_first": "TEXT",  # JSON [seat, ...]: who went first in each round
        "round_lengths": "TEXT",  # JSON [moves, ...]: player moves (passes included) per round
        "round_passes": "TEXT",  # JSON [passes, ...] per round
        "passes": "INTEGER",
        "passes_dark": "INTEGER",
        "passes_light": "INTEGER",
        "colour_captures": "INTEGER",
        "shape_captures": "INTEGER",
        "target": "INTEGER",
    }

    def __init__(self) -> None:
        super().__init__()
        self.points: list[list[int]] = []
        self.first: list[int | None] = []
        self.lengths: list[int] = []
        self.round_passes: list[int] = []
        self.moves = 0
        self.passes_this_round = 0
        self.passes = [0, 0]
        self.by_colour = 0
        self.by_shape = 0

    def observe(self, before: State, action: Action, after: State) -> None:
        assert isinstance(before, AcadmuState) and isinstance(after, AcadmuState)
        if before.phase == "play" and before.is_chance_node():
            # The pour that follows a finished round: count that round.
            self._close_round(before)
        if after.phase == "play" and before.is_chance_node():
            self.first.append(after.first)
        super().observe(before, action, after)

    def decision(self, before: State, action: Action, after: State, options: int) -> None:
        assert isinstance(action, Move)
        self.moves += 1
        if action.is_pass:
            self.passes[before.current_player] += 1
            self.passes_this_round += 1
        elif action.by_shape:
            self.by_shape += 1
        else:
            self.by_colour += 1

    def _close_round(self, state: AcadmuState) -> None:
        self.points.append(list(state.round_points()))
        self.lengths.append(self.moves)
        self.round_passes.append(self.passes_this_round)
        self.moves = 0
        self.passes_this_round = 0

    def finish(self, final: State) -> dict[str, Any]:
        assert isinstance(final, AcadmuState)
        if final.phase == "play":
            self._close_round(final)
        return {
            "rounds": len(self.points),
            "round_points": json.dumps(self.points),
            "round_first": json.dumps(self.first),
            "round_lengths": json.dumps(self.lengths),
            "round_passes": json.dumps(self.round_passes),
            "passes": sum(self.passes),
            "passes_dark": self.passes[0],
            "passes_light": self.passes[1],
            "colour_captures": self.by_colour,
            "shape_captures": self.by_shape,
            "target": final.game.target,
        }
