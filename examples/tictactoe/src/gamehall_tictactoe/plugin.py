"""Tic-tac-toe's plugin record: everything the rest of gamehall may ask of this game. The entry
point ``gamehall.games`` names it (see pyproject.toml)."""

from __future__ import annotations

from gamehall.core import Diagram, GamePlugin, Playthrough, Playthroughs

from gamehall_tictactoe.game import TicTacToeGame

PLUGIN = GamePlugin(
    game=TicTacToeGame,
    aliases=("noughts-and-crosses",),
    summary=(
        "Three in a row wins. Cross and Nought take turns marking a square of a board of "
        "three by three; a full board without three in a row is a draw."
    ),
    view="gamehall_tictactoe.view:render",
    words="gamehall_tictactoe.words:describe_move",
    encoding="gamehall_tictactoe.research:encoding",
    facts="gamehall_tictactoe.research:facts",
    board_module="web/board.js",
    board_style="web/board.css",
    rules_text="rules.md",
    how_to_play="howto.md",
    sample=Diagram("x.o/.x./o..", "c1", caption="Cross to move: c1 makes three in a row."),
    duration="A minute.",
    # gamehall check-game tictactoe checks it; --regen rewrites it after a deliberate change
    playthrough=Playthroughs("playthroughs.txt", (Playthrough(1), Playthrough(2))),
)
