"""Tic-tac-toe for gamehall: the smallest complete game, written from gamehall's
docs/adding-a-game.md. The rules are :mod:`gamehall_tictactoe.game`; the plugin record that the
entry point ``gamehall.games`` names is :mod:`gamehall_tictactoe.plugin`."""
