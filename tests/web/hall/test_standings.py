"""Standings: rated results of one player that end at once all count (issue 33, point 6), as
the hall rates them (each ``rate`` reads the store between awaits, on the store's threads)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from gamehall.protocol import OutcomeInfo
from gamehall.store import GameRow, HallStore, Seat, Store, now_text
from gamehall.web.hall.standings import Standings

GAMES = 4


def _live(game_id: str, winner: int) -> Any:
    """What :meth:`Standings.rate` reads of a live game that ended on the board."""
    outcome = OutcomeInfo(
        winner=winner, winner_name=None, reason="won", scores=[1.0 - winner, float(winner)],
        result="1-0" if winner == 0 else "0-1",
    )  # fmt: skip
    played = SimpleNamespace(ended=None, outcome=lambda: outcome)
    return SimpleNamespace(id=game_id, game=SimpleNamespace(name="nim"), played=played)


def test_results_of_one_player_at_once_all_count(db_url):
    store = Store(db_url)
    hall = HallStore(store)

    async def db(function: Any, *args: Any, **kwargs: Any) -> Any:
        return await asyncio.to_thread(function, *args, **kwargs)

    now = now_text()
    lives = []
    for n in range(GAMES):
        opponent = f"opp{n}"
        for pid in ("ada", opponent):
            hall.ensure_player(pid, lambda pid=pid: (pid.title(), pid))
        seats = [Seat("human", "t0"), Seat("human", "t1")]
        store.create_game(
            GameRow(f"g_{n}", "nim", "1", {}, "online", "s", seats, now, now),
            [("ada", 0), (opponent, 1)],
        )
        hall.mark_game(f"g_{n}", True, None)
        lives.append(_live(f"g_{n}", winner=1))
    standings = Standings(db, hall)

    async def main() -> None:
        await asyncio.gather(*(standings.rate(live) for live in lives))

    try:
        asyncio.run(main())
        ada = hall.rating("ada", "nim")
        history = hall.history("ada", "nim")
        assert ada is not None and ada.games == GAMES and len(history) == GAMES
        # Every loss moved the rating down from the one before: no result was lost.
        ratings = [h.rating for h in history]
        assert ratings == sorted(ratings, reverse=True) and len(set(ratings)) == GAMES
        assert ada.rating == ratings[-1]
    finally:
        store.dispose()
