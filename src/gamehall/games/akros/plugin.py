"""Akros's plugin record: what the rest of gamehall may ask of this game (see
:mod:`gamehall.core.plugin`). Registered through the entry point ``gamehall.games``."""

from __future__ import annotations

from gamehall.core.plugin import Diagram, GamePlugin, Playthrough, Playthroughs
from gamehall.games.akros.game import AkrosGame
from gamehall.games.akros.judgement import JUDGEMENT

PLUGIN = GamePlugin(
    game=AkrosGame,
    summary=(
        "The Jinn and the Ifrit shape a new world in nine turns. Each turn they draft region "
        "tiles and place them, moving a servant onto each; at the end, whoever holds more of "
        "Forest, Sea and Mountain wins. The Ifrit wins ties."
    ),
    solver="gamehall.games.akros.solver:SOLVER",
    levels="gamehall.games.akros.levels:LEVELS",
    level_words="gamehall.games.akros.levels:LEVEL_WORDS",
    level_note="gamehall.games.akros.levels:RATING_NOTE",
    collector="gamehall.games.akros.metrics:AkrosCollector",
    report="gamehall.games.akros.report:sections",
    view="gamehall.games.akros.view:render",
    picture="gamehall.games.akros.picture:draw",
    words="gamehall.games.akros.words:describe_move",
    chapters="gamehall.games.akros.words:chapter",
    tui="gamehall.games.akros.tui:board",
    judgement=JUDGEMENT,
    simulator="gamehall.games.akros.fast:SIMULATOR",
    vector="gamehall.games.akros.vector:VECTOR",
    encoding="gamehall.games.akros.research:encoding",
    facts="gamehall.games.akros.research:facts",
    board_module="web/board.js",
    board_style="web/board.css",
    editor_module="web/editor.js",
    rules_text="rules.md",
    # made by the commands in puzzles.jsonl.command.json (gamehall puzzles generate --out)
    starter_puzzles="puzzles.jsonl",
    puzzle_themes="gamehall.games.akros.puzzle_kit:themes",
    situation="gamehall.games.akros.puzzle_kit:situation",
    how_to_play="howto.md",
    sample=Diagram(
        "turn=4 step=jinn-place bag=F3S3M1 temple=FMM/S/- draft=- jinn=M ifrit=- out=- "
        "regions=1J,0J,0,0,0I,0,1,1J,1I,0I,1I,1,0,0,1J,0,0,0,0",
        "M12<15",
        caption="Turn 4: the Jinn's servant leaves the contested region 15 for a Mountain.",
    ),
    duration="About 10 to 15 minutes: nine turns of a draft and two placements.",
    level_ratings="level_ratings.json",  # bench/level_ratings.py
    # gamehall check-game akros checks it; --regen rewrites it after a deliberate change
    playthrough=Playthroughs("playthroughs.txt", (Playthrough(1), Playthrough(2))),
)
