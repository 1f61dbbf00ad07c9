"""Äcädmü's plugin record: what the rest of gamehall may ask of this game (see
:mod:`gamehall.core.plugin`). Registered through the entry point ``gamehall.games``."""

from __future__ import annotations

from gamehall.core.plugin import Diagram, GamePlugin, Playthrough, Playthroughs
from gamehall.games.acadmu.game import AcadmuGame
from gamehall.games.acadmu.judgement import JUDGEMENT

# A small disc set (9 discs a side), so a whole match of a few rounds stays short.
NINE_DISCS = "RT:BS,RS:BC,RC:BT,BT:YS,BS:YC,BC:YT,YT:RS,YS:RC,YC:RT"

PLUGIN = GamePlugin(
    game=AcadmuGame,
    aliases=("äcädmü", "tokens"),
    summary=(
        "A tavern game of two-faced discs. Both players pour their discs and take turns "
        "capturing: one token by colour, or two by shape. The larger heap scores the "
        "difference; first to 12 points wins the match."
    ),
    solver="gamehall.games.acadmu.solver:SOLVER",
    levels="gamehall.games.acadmu.levels:LEVELS",
    level_words="gamehall.games.acadmu.levels:LEVEL_WORDS",
    level_note="gamehall.games.acadmu.levels:RATING_NOTE",
    collector="gamehall.games.acadmu.metrics:AcadmuCollector",
    report="gamehall.games.acadmu.report:sections",
    view="gamehall.games.acadmu.view:render",
    picture="gamehall.games.acadmu.picture:draw",
    words="gamehall.games.acadmu.words:describe_move",
    chapters="gamehall.games.acadmu.words:chapter",
    tui="gamehall.games.acadmu.tui:board",
    deal="gamehall.games.acadmu.levels:exact_deal",
    judgement=JUDGEMENT,
    estimate_position="gamehall.games.acadmu.judgement:round_position",
    simulator="gamehall.games.acadmu.fast:SIMULATOR",
    vector="gamehall.games.acadmu.vector:VECTOR",
    encoding="gamehall.games.acadmu.research:encoding",
    facts="gamehall.games.acadmu.research:facts",
    chance_steps="gamehall.games.acadmu.research:CHANCE_STEPS",
    episodes="gamehall.games.acadmu.research:EPISODES",
    board_module="web/board.js",
    board_style="web/board.css",
    editor_module="web/editor.js",
    rules_text="rules.md",
    # made by the commands in puzzles.jsonl.command.json (gamehall puzzles generate --out)
    starter_puzzles="puzzles.jsonl",
    puzzle_themes="gamehall.games.acadmu.puzzle_kit:themes",
    situation="gamehall.games.acadmu.puzzle_kit:situation",
    how_to_play="howto.md",
    sample=Diagram(
        "3,4,1,0,1,0,2,4,1/1,0,1,3,3,4,2,0,5 d - 0-0 d",
        "YTxBS+BS",
        caption="Round 1, Dark to move: the Yellow Triangle takes two Blue Squares by shape.",
    ),
    duration=(
        "A round takes a few minutes; a match to 12 points about half an hour "
        "(choose a lower target for a shorter match)."
    ),
    level_ratings="level_ratings.json",  # bench/level_ratings.py
    # gamehall check-game acadmu checks it; --regen rewrites it after a deliberate change
    playthrough=Playthroughs(
        "playthroughs.txt",
        (
            Playthrough(1, {"discs": NINE_DISCS, "target": 3}),
            Playthrough(
                2, {"discs": NINE_DISCS, "target": 2, "shape_capture_takes_one_if_last": True}
            ),
            Playthrough(3, {"target": 1}),
        ),
    ),
)
