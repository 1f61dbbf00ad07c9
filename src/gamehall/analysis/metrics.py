"""What a finished self-play game tells us, as one flat row: the result and game-specific facts.

A collector watches every action of one game (through ``play_game``'s ``on_action``) and then
reads the final state. Lists (one entry per round, per turn) are stored as JSON text so the row
stays flat for SQLite and pandas. Collectors read states only through the core protocol and the
games' public attributes; a game without its own collector gets the generic columns only.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from gamehall.core import Action, State

SQLType = str


class Collector:
    """Watches one game. The generic part: counts player decisions and forced ones."""

    columns: ClassVar[dict[str, SQLType]] = {}
    """Game-specific columns this collector fills, with their SQLite types."""

    def __init__(self) -> None:
        self.decisions = 0
        self.forced = 0

    def observe(self, before: State, action: Action, after: State) -> None:
        """Told of every action: ``before`` is the state it was chosen in."""
        if before.is_chance_node():
            return
        self.decisions += 1
        options = len(before.legal_actions())
        if options == 1:
            self.forced += 1
        self.decision(before, action, after, options)

    def decision(self, before: State, action: Action, after: State, options: int) -> None:
        """A player's decision among ``options`` legal actions (games add to this)."""

    def finish(self, final: State) -> dict[str, Any]:
        """The game-specific columns, read once the game is over."""
        return {}


class AcadmuCollector(Collector):
    """Äcädmü: each round's points, who went first, its length; passes and capture kinds."""

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
        phase = getattr(before, "phase", None)
        if phase == "play" and before.is_chance_node():
            # The pour that follows a finished round: count that round.
            self._close_round(before)
        if getattr(after, "phase", None) == "play" and before.is_chance_node():
            self.first.append(getattr(after, "first", None))
        super().observe(before, action, after)

    def decision(self, before: State, action: Action, after: State, options: int) -> None:
        self.moves += 1
        if getattr(action, "is_pass", False):
            self.passes[before.current_player] += 1
            self.passes_this_round += 1
        elif getattr(action, "by_shape", False):
            self.by_shape += 1
        else:
            self.by_colour += 1

    def _close_round(self, state: State) -> None:
        self.points.append(list(state.round_points()))  # type: ignore[attr-defined]
        self.lengths.append(self.moves)
        self.round_passes.append(self.passes_this_round)
        self.moves = 0
        self.passes_this_round = 0

    def finish(self, final: State) -> dict[str, Any]:
        if getattr(final, "phase", None) == "play":
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
            "target": getattr(final.game, "target", None),
        }


AKROS_ENVIRONMENTS = ("forest", "sea", "mountain")
AKROS_TURNS = 9


class AkrosCollector(Collector):
    """Akros: each environment's scores and claimant, removed tiles, choices per turn."""

    columns: ClassVar[dict[str, SQLType]] = {
        "claims_jinn": "INTEGER",
        "claims_ifrit": "INTEGER",
        **{
            f"{env}_{part}": ("TEXT" if part == "claim" else "INTEGER")
            for env in AKROS_ENVIRONMENTS
            for part in ("jinn", "ifrit", "claim")
        },
        "score_jinn": "INTEGER",  # summed environment scores
        "score_ifrit": "INTEGER",
        "removed_jinn": "INTEGER",  # tiles the Jinn had to remove (no legal place)
        "removed_ifrit": "INTEGER",
        "removed_total": "INTEGER",  # all tiles out of the game, the bag's unseen one included
        "options_per_turn": "TEXT",  # JSON: for turns 1..9, the legal-action count per decision
        "board": "TEXT",
    }

    def __init__(self) -> None:
        super().__init__()
        self.options: list[list[int]] = [[] for _ in range(AKROS_TURNS)]
        self.removed = [0, 0]

    def decision(self, before: State, action: Action, after: State, options: int) -> None:
        turn = getattr(before, "turn", 1)
        if 1 <= turn <= AKROS_TURNS:
            self.options[turn - 1].append(options)
        if type(action).__name__ == "Remove":
            self.removed[before.current_player] += 1

    def finish(self, final: State) -> dict[str, Any]:
        row: dict[str, Any] = {
            "removed_jinn": self.removed[0],
            "removed_ifrit": self.removed[1],
            "removed_total": sum(getattr(final, "removed", ())),
            "options_per_turn": json.dumps(self.options),
            "board": getattr(getattr(final.game, "board", None), "name", None),
        }
        environment_scores = getattr(final, "environment_scores", None)
        if environment_scores is None:
            return row
        names = final.game.player_names
        claims = [0, 0]
        totals = [0, 0]
        for score in environment_scores():
            env = AKROS_ENVIRONMENTS[score.environment]
            row[f"{env}_jinn"] = score.jinn
            row[f"{env}_ifrit"] = score.ifrit
            row[f"{env}_claim"] = "none" if score.claimed_by is None else names[score.claimed_by]
            if score.claimed_by is not None:
                claims[score.claimed_by] += 1
            totals[0] += score.jinn
            totals[1] += score.ifrit
        row.update(
            claims_jinn=claims[0],
            claims_ifrit=claims[1],
            score_jinn=totals[0],
            score_ifrit=totals[1],
        )
        return row


COLLECTORS: dict[str, type[Collector]] = {"acadmu": AcadmuCollector, "akros": AkrosCollector}


def collector_for(game_name: str) -> Collector:
    """A fresh collector for one game of ``game_name``."""
    return COLLECTORS.get(game_name, Collector)()


def metric_columns(game_name: str) -> dict[str, SQLType]:
    """The game-specific columns of ``game_name``'s rows."""
    return dict(COLLECTORS.get(game_name, Collector).columns)
