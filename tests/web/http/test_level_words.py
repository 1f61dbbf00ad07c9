"""The computer levels are labelled by what they do, in each game's words, from the server (the
level menu draws them from /api/meta), with what their ratings mean; and Äcädmü's Easy is
stronger than random play (the label's claim, checked on seeded matches)."""

from __future__ import annotations

import random
from pathlib import Path

from gamehall.ai import LEVEL_WORDS, make_agent
from gamehall.ai.levels import LEVEL_NAMES
from gamehall.core import find_game
from gamehall.games.acadmu.levels import LEVEL_WORDS as ACADMU_WORDS
from gamehall.games.acadmu.levels import RATING_NOTE

STATIC = Path(__file__).parents[3] / "src" / "gamehall" / "web" / "static"


def test_meta_gives_each_level_its_words_and_the_rating_note(server):
    games = {g["name"]: g for g in server.client.get("/api/meta").json()["games"]}
    acadmu = games["acadmu"]
    assert set(acadmu["level_words"]) == set(LEVEL_NAMES)
    assert acadmu["level_words"]["beginner"] == "plays any legal move at random"
    assert acadmu["level_words"]["easy"] == ACADMU_WORDS["easy"]
    assert "per match" in acadmu["level_note"] or "whole matches" in acadmu["level_note"]
    assert "not single rounds" in acadmu["level_note"]
    assert RATING_NOTE in acadmu["level_note"]
    assert "95%" in acadmu["level_note"]  # what the ± means
    akros = games["akros"]
    assert akros["level_words"]["medium"] != acadmu["level_words"]["medium"]
    assert akros["level_words"]["beginner"] == LEVEL_WORDS["beginner"]


def test_the_level_menu_takes_its_words_from_the_server():
    """No level's words are written in the browser code: the menu shows what /api/meta says."""
    code = "\n".join(path.read_text() for path in STATIC.rglob("*.js"))
    for words in (*LEVEL_WORDS.values(), *ACADMU_WORDS.values()):
        assert words not in code
    assert "level_words" in (STATIC / "lib" / "levels.js").read_text()


def test_acadmu_easy_beats_random_play_in_every_seeded_match():
    """Easy (one move ahead, by the round's token difference) against uniformly random moves:
    six seeded matches, sides alternating; Easy wins each, and random play scores no round."""
    game = find_game("acadmu")
    for match in range(6):
        rng = random.Random(match)
        easy = match % 2
        agents = {easy: make_agent("easy", match), 1 - easy: make_agent("beginner", 100 + match)}
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply(state.sample_chance(rng))
            else:
                state = state.apply(agents[state.current_player].choose(state))
        scores = state.scores()
        assert scores[easy] >= 12 and scores[1 - easy] == 0, (match, scores)
