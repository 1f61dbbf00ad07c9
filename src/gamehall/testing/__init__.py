"""The game kit's test side, shipped with gamehall: check a game without a gamehall checkout.

What pgx's ``api_test(env)`` and PettingZoo's ``pettingzoo.test.api_test`` are to their
libraries: a game's author runs gamehall's own checks on their game from the installed package.

* :func:`check_game` runs the conformance checks (:mod:`~gamehall.testing.conformance`: every
  promise of the core protocol, in random play and on options, indices, records, action parts
  and declared facts) and the golden playthrough, and raises :class:`ConformanceError` naming
  each check that failed::

      from gamehall.testing import check_game
      from mygame.plugin import PLUGIN

      def test_mygame_conforms():
          check_game(PLUGIN)

* :class:`GameConformance` (:mod:`~gamehall.testing.suite`, which imports pytest) is the same
  checks as a pytest class, one test per promise: ``class TestMyGame(GameConformance): game =
  PLUGIN``.
* :mod:`~gamehall.testing.playthrough` writes and checks golden playthroughs, the optional
  file a plugin declares (``GamePlugin.playthrough``).
* :mod:`~gamehall.testing.research` runs the research adapters' own checkers (PettingZoo,
  Gymnasium, OpenSpiel) when the ``rl`` extra is installed.
* ``gamehall check-game NAME`` runs all of them on any registered game, one line per check;
  ``--regen`` writes the golden playthrough.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gamehall.testing.checks import (
    Check,
    CheckResult,
    ConformanceError,
    GameLike,
    Skipped,
    registered,
    run_checks,
)
from gamehall.testing.conformance import check_game, check_state, conformance_checks
from gamehall.testing.playthrough import (
    check_playthrough,
    playthrough_checks,
    playthrough_text,
    write_playthrough,
)
from gamehall.testing.research import research_checks, research_unavailable

if TYPE_CHECKING:
    from gamehall.testing.suite import GameConformance


def all_checks(game: str, *, research: bool = True) -> list[Check]:
    """Every check on the registered game ``game``: conformance, the golden playthrough if it
    declares one, and (with ``research``) the research adapters' checkers where they apply."""
    checks = conformance_checks(game) + playthrough_checks(game)
    if research:
        checks += research_checks(game)
    return checks


def __getattr__(name: str) -> Any:
    # GameConformance needs pytest, which only a test run has: imported when first asked for.
    if name == "GameConformance":
        from gamehall.testing.suite import GameConformance

        return GameConformance
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Check",
    "CheckResult",
    "ConformanceError",
    "GameConformance",
    "GameLike",
    "Skipped",
    "all_checks",
    "check_game",
    "check_playthrough",
    "check_state",
    "conformance_checks",
    "playthrough_checks",
    "playthrough_text",
    "registered",
    "research_checks",
    "research_unavailable",
    "run_checks",
    "write_playthrough",
]
