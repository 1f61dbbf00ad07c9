"""Puzzle ratings in the store: a player's first answer to a puzzle is one Glicko-2 game between
the player and the puzzle, written with the attempt in one transaction; later answers change
nothing; each table keeps its own rows per game."""

from __future__ import annotations

from gamehall.store import Store
from gamehall.web.hall.ratings import Rating, rate_game, rate_triples

NEWCOMER = (1500.0, 350.0, 0.06)
PUZZLE = (1400.0, 250.0, 0.06)


def _answer(store: Store, player: str, puzzle: str, solved: bool, game: str = "acadmu"):
    return store.rate_puzzle_attempt(
        player,
        game,
        puzzle,
        solved,
        "RTxBS",
        newcomer=NEWCOMER,
        puzzle_start=PUZZLE,
        rate=rate_triples,
    )


def test_a_first_answer_is_rated_by_glicko2_and_a_retry_is_not(store_url):
    store = Store(store_url)
    try:
        assert store.puzzle_player_rating("p1", "acadmu") is None
        assert _answer(store, "p1", "z1", False) == (NEWCOMER, PUZZLE)
        mine, counted = store.puzzle_player_rating("p1", "acadmu")
        expected_me, expected_it = rate_game(Rating(*NEWCOMER), Rating(*PUZZLE), 0.0)
        assert counted == 1 and mine[0] == expected_me.rating < 1500
        assert mine[1] == expected_me.deviation < 350
        assert store.puzzle_ratings("acadmu")["z1"][0] == expected_it.rating > 1400
        # The retry, right this time: not rated, and the attempt stays a failure.
        assert _answer(store, "p1", "z1", True) is None
        assert store.puzzle_player_rating("p1", "acadmu") == (mine, 1)
        assert store.attempts("p1", "acadmu") == {"z1": False}
        # A second player solving the same puzzle moves it down from where the first left it.
        before_it = store.puzzle_ratings("acadmu")["z1"]
        assert _answer(store, "p2", "z1", True) == (NEWCOMER, before_it)
        assert store.puzzle_ratings("acadmu")["z1"][0] < before_it[0]
        assert store.puzzle_player_rating("p2", "acadmu")[0][0] > 1500
        # Ratings are per game.
        assert store.puzzle_player_rating("p1", "akros") is None
        assert store.puzzle_ratings("akros") == {}
    finally:
        store.dispose()
