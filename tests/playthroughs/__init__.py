"""The golden playthroughs of every game here, checked or rewritten at once.

Each game's golden playthrough is a part of its plugin: a file in its package that its record
declares (``GamePlugin.playthrough``), written and checked by :mod:`gamehall.testing.playthrough`
(``gamehall check-game NAME [--regen]`` does one game). This does every game that declares
one, the installed games and those that exist only in the tests (registered for the while)::

    .venv/bin/python -m tests.playthroughs            # say which ones differ
    .venv/bin/python -m tests.playthroughs --regen    # rewrite them; then read the diff
"""

from __future__ import annotations

from gamehall.core import GamePlugin, plugins
from gamehall.testing.playthrough import playthrough_diff, write_playthrough
from tests.nim.plugin import TEST_ONLY, registered_test_only_games


def with_playthroughs(candidates: dict[str, GamePlugin] | None = None) -> list[str]:
    """The games that declare a golden playthrough: installed ones and the test-only ones."""
    if candidates is None:
        candidates = {**plugins(), **{plugin.name: plugin for plugin in TEST_ONLY}}
    return sorted(name for name, plugin in candidates.items() if plugin.playthrough is not None)


def main(argv: list[str] | None = None) -> int:
    """``--regen`` rewrites every golden file; without it, show the ones that differ."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tests.playthroughs", description=__doc__)
    parser.add_argument("--regen", action="store_true", help="rewrite the golden files")
    args = parser.parse_args(argv)
    changed = 0
    with registered_test_only_games():
        for name in with_playthroughs():
            if args.regen:
                path, rewritten = write_playthrough(name)
                print(f"{path}: {'rewritten' if rewritten else 'unchanged'}")
                continue
            diff = playthrough_diff(name)
            print(f"{name}: unchanged" if diff is None else diff)
            changed += diff is not None
    return 1 if changed else 0
