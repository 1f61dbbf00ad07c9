"""gamehall's tests. A package (with ``pythonpath = ["."]`` in the pytest settings) so that test
helpers shared across folders import by one name: ``tests.nim.game``, ``tests.playthroughs``."""
