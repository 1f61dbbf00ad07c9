"""Round-robin tournaments and board comparisons, built on the self-play runner.

Every pair of players meets in ``games`` games with sides alternated. Pairing ``p`` (in the order
of ``itertools.combinations``) plays with run seed ``game_seed(seed, p)``, and its game ``i`` is
stored under the index ``p * games + i``, so the whole tournament is as reproducible as one run.
The ranking is a Bradley–Terry fit (draws count half) shown as Elo, centred on the field's mean.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from gamehall.analysis.selfplay import RunSpec, collect, game_seed, play_one, run_tasks
from gamehall.analysis.stats import Ratings, bradley_terry, score_table
from gamehall.core import Game, GamehallError

PRIOR_DRAWS = 1.0
"""Virtual draws added to every pair that met, so a clean sweep still has a finite rating."""


def pairings(players: Sequence[str]) -> list[tuple[int, int]]:
    return list(combinations(range(len(players)), 2))


def tournament_specs(game: Game, players: Sequence[str], seed: int) -> list[RunSpec]:
    if len(players) < 2:
        raise GamehallError("a tournament needs at least two players")
    if len(set(players)) != len(players):
        raise GamehallError(f"players must be different: {', '.join(players)}")
    return [
        RunSpec.make(
            game, (players[i], players[j]), game_seed(seed, p), label=f"{players[i]}-{players[j]}"
        )
        for p, (i, j) in enumerate(pairings(players))
    ]


def play_tournament_batch(
    specs: Sequence[RunSpec], items: Sequence[tuple[int, int, int]]
) -> list[dict[str, Any]]:
    """Play ``(pairing, game, global index)`` items; rows carry the pairing and both players."""
    rows = []
    for pairing, index, global_index in items:
        spec = specs[pairing]
        row = play_one(spec, index)
        row["pair_game"] = index
        row["game_index"] = global_index
        row["pairing"] = pairing
        row["player_a"], row["player_b"] = spec.players
        rows.append(row)
    return rows


TOURNAMENT_COLUMNS = {
    "pairing": "INTEGER",
    "pair_game": "INTEGER",
    "player_a": "TEXT",
    "player_b": "TEXT",
}


def run_tournament(
    specs: Sequence[RunSpec],
    games: int,
    *,
    store: Any = None,
    workers: int = 1,
    scheduler: str | None = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Play every pairing's games (resuming from ``store``); the rows by global index."""
    done = store.done() if store is not None else set()
    items = [
        (p, i, p * games + i)
        for p in range(len(specs))
        for i in range(games)
        if p * games + i not in done
    ]
    batches = run_tasks(
        play_tournament_batch, list(specs), items, workers=workers, scheduler=scheduler
    )
    rows = collect(batches, store, on_row)
    if store is not None:
        return store.rows()
    return [rows[k] for k in sorted(rows)]


@dataclass(frozen=True)
class Standings:
    """The tournament's tables: wins and draws of row player against column player."""

    players: tuple[str, ...]
    wins: np.ndarray
    draws: np.ndarray
    ratings: Ratings

    def games(self, i: int, j: int) -> int:
        return int(self.wins[i, j] + self.wins[j, i] + self.draws[i, j])

    def score(self, i: int) -> float:
        return float(self.wins[i].sum() + 0.5 * self.draws[i].sum())

    def played(self, i: int) -> int:
        return int(self.wins[i].sum() + self.wins[:, i].sum() + self.draws[i].sum())


def standings(
    players: Sequence[str], rows: Sequence[dict[str, Any]], prior_draws: float = PRIOR_DRAWS
) -> Standings:
    """Tally the rows into win/draw tables and fit the ratings."""
    index = {name: i for i, name in enumerate(players)}
    k = len(players)
    wins = np.zeros((k, k))
    draws = np.zeros((k, k))
    for row in rows:
        a, b = index[row["player_a"]], index[row["player_b"]]
        side = row["winner_side"]
        if side is None:
            draws[a, b] += 1
            draws[b, a] += 1
        elif side == "A":
            wins[a, b] += 1
        else:
            wins[b, a] += 1
    ratings = bradley_terry(score_table(wins, draws), players, prior_draws=prior_draws)
    return Standings(tuple(players), wins, draws, ratings)


def ranking_rows(table: Standings) -> list[list[str]]:
    """Rank, player, Elo, 95% interval, score, games."""
    out = []
    ratings = table.ratings
    for rank, i in enumerate(ratings.order(), 1):
        low, high = ratings.interval(i)
        out.append(
            [
                str(rank),
                table.players[i],
                f"{ratings.elo[i]:+.0f}",
                f"[{low:+.0f}, {high:+.0f}]",
                f"{table.score(i):g}/{table.played(i)}",
            ]
        )
    return out


RANKING_HEADERS = ["rank", "player", "Elo", "95% interval", "score"]


def head_to_head_rows(table: Standings) -> list[list[str]]:
    """Row player's score against each column player as ``wins-draws-losses``."""
    out = []
    for i, name in enumerate(table.players):
        cells = [name]
        for j in range(len(table.players)):
            if i == j:
                cells.append("—")
            else:
                cells.append(f"{table.wins[i, j]:g}-{table.draws[i, j]:g}-{table.wins[j, i]:g}")
        out.append(cells)
    return out
