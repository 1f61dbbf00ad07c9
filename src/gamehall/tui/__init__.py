"""The full-screen terminal app, ``gamehall tui`` (Textual).

:mod:`gamehall.tui.session` holds a game at the terminal (seats, history, chance, undo, clocks,
saving) and imports no Textual, so the line-mode ``gamehall play`` uses it too;
:mod:`gamehall.tui.app` is the app; each game's board comes from its plugin (``tui``), else
:mod:`gamehall.tui.board` draws a generic one. Nothing here names a game.
"""
