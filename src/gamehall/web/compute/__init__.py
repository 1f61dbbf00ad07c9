"""Compute: all work off the event loop: worker pool, computer players, hints, reviews, puzzles."""
