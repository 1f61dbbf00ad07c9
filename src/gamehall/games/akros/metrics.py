"""What a finished Akros game tells the self-play analysis, as one flat row."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from gamehall.core.game import Action, State
from gamehall.core.metrics import Collector, SQLType
from gamehall.games.akros.game import AkrosState
from gamehall.games.akros.rules import ENVIRONMENT_NAMES, PLAYER_NAMES, TURNS, Remove

ENVIRONMENTS = tuple(name.lower() for name in ENVIRONMENT_NAMES)


class AkrosCollector(Collector):
    """Each environment's scores and claimant, removed tiles, choices per turn."""

    columns: ClassVar[dict[str, SQLType]] = {
        "claims_jinn": "INTEGER",
        "claims_ifrit": "INTEGER",
        **{
            f"{env}_{part}": ("TEXT" if part == "claim" else "INTEGER")
            for env in ENVIRONMENTS
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
        self.options: list[list[int]] = [[] for _ in range(TURNS)]
        self.removed = [0, 0]

    def decision(self, before: State, action: Action, after: State, options: int) -> None:
        assert isinstance(before, AkrosState)
        self.options[before.turn - 1].append(options)
        if isinstance(action, Remove):
            self.removed[before.current_player] += 1

    def finish(self, final: State) -> dict[str, Any]:
        assert isinstance(final, AkrosState)
        row: dict[str, Any] = {
            "removed_jinn": self.removed[0],
            "removed_ifrit": self.removed[1],
            "removed_total": sum(final.removed),
            "options_per_turn": json.dumps(self.options),
            "board": final.game.board.name,
        }
        claims = [0, 0]
        totals = [0, 0]
        for score in final.environment_scores():
            env = ENVIRONMENTS[score.environment]
            row[f"{env}_jinn"] = score.jinn
            row[f"{env}_ifrit"] = score.ifrit
            claim = score.claimed_by
            row[f"{env}_claim"] = "none" if claim is None else PLAYER_NAMES[claim]
            if claim is not None:
                claims[claim] += 1
            totals[0] += score.jinn
            totals[1] += score.ifrit
        row.update(
            claims_jinn=claims[0],
            claims_ifrit=claims[1],
            score_jinn=totals[0],
            score_ifrit=totals[1],
        )
        return row
