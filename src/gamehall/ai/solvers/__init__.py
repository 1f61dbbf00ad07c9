"""Exact solvers and the players built on them (one module per game)."""
