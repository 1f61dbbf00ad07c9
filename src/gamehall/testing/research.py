"""The research adapters' own checkers, run on one game: PettingZoo's ``api_test``,
``seed_test`` and ``render_test``, Gymnasium's ``check_env`` and OpenSpiel's ``random_sim_test``
and ``games_sim_test`` ``sim_game`` (pickling included), on the whole game
and on each episode its plugin offers; and OpenSpiel's game type against the declared facts.

They need the ``rl`` extra (``pip install 'gamehall[rl]'``) and a game whose plugin gives an
``encoding`` and ``facts``; :func:`research_checks` lists none otherwise (and
:func:`research_unavailable` says why). The libraries' chatter (PettingZoo prints, every
library warns) is kept out of the way: a check passes or fails with a message.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import warnings
from collections.abc import Iterator
from typing import Any

from gamehall.core import find_game, find_plugin
from gamehall.testing.checks import Check, ConformanceError, expect
from gamehall.testing.conformance import declared_facts_hold

RL_MODULES = ("gymnasium", "pettingzoo", "pyspiel")
"""What the ``rl`` extra installs (OpenSpiel's module is ``pyspiel``)."""
MATCH = "game"
"""The episode that is the whole game (the adapters' name for it)."""


def rl_installed() -> bool:
    """Whether the ``rl`` extra's libraries are importable."""
    return all(importlib.util.find_spec(module) is not None for module in RL_MODULES)


def research_unavailable(name: str) -> str | None:
    """Why the research adapters' checks do not run on ``name`` (None: they do)."""
    plugin = find_plugin(name)
    if plugin.encoding is None or plugin.facts is None:
        return (
            f"{plugin.name} offers no research adapters (its plugin declares no encoding and facts)"
        )
    if not rl_installed():
        return "the rl extra is not installed (pip install 'gamehall[rl]')"
    return None


def episodes(name: str) -> tuple[str, ...]:
    """The episodes the adapters offer for ``name``: the whole game, then the plugin's."""
    return (MATCH, *find_plugin(name).load_episodes())


@contextlib.contextmanager
def _quietly() -> Iterator[None]:
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        yield


def pettingzoo_api_test(name: str, episode: str = MATCH, num_cycles: int = 200) -> None:
    """PettingZoo's ``api_test`` on the game's AEC environment."""
    from pettingzoo.test import api_test

    from gamehall.adapters.pettingzoo import env

    with _quietly():
        api_test(env(name, episode=episode), num_cycles=num_cycles)


def pettingzoo_seed_test(name: str, episode: str = MATCH, num_cycles: int = 200) -> None:
    """PettingZoo's ``seed_test``: the same seed gives the same episode."""
    from pettingzoo.test import seed_test

    from gamehall.adapters.pettingzoo import env

    with _quietly():
        seed_test(lambda: env(name, episode=episode), num_cycles=num_cycles)


def pettingzoo_render_test(name: str, episode: str = MATCH) -> None:
    """PettingZoo's ``render_test``: every render mode gives what it promises (text, an image,
    nothing for ``human``, which shows a window or prints the text view: not printed here)."""
    from pettingzoo.test import render_test

    from gamehall.adapters.pettingzoo import env

    with _quietly(), contextlib.redirect_stdout(io.StringIO()):
        render_test(lambda render_mode=None: env(name, episode=episode, render_mode=render_mode))


def gymnasium_check_env(name: str, episode: str = MATCH, **arguments: object) -> None:
    """Gymnasium's ``check_env`` on the game's environment (one seat against a level)."""
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    from gamehall.adapters import gymnasium as adapter

    adapter.register_all()  # a game registered since the adapter was imported
    with _quietly():
        made = gymnasium.make(adapter.env_id(name), episode=episode, **arguments)
        check_env(made.unwrapped, skip_render_check=False)


def _openspiel_game(name: str, episode: str = MATCH) -> Any:
    """The game as OpenSpiel loads it (a ``pyspiel.Game``)."""
    import pyspiel

    from gamehall.adapters import openspiel as adapter

    adapter.register_all()  # a game registered since the adapter was imported
    return pyspiel.load_game(adapter.PREFIX + find_plugin(name).name, {"episode": episode})


def openspiel_random_sim_test(name: str, episode: str = MATCH, num_sims: int = 2) -> None:
    """OpenSpiel's ``random_sim_test``, serialization included. Not run on a game whose
    declared facts do not hold: OpenSpiel takes them on trust, and a chance node in a game
    declared deterministic crashes the process instead of failing a check."""
    import pyspiel

    try:
        declared_facts_hold(name)
    except ConformanceError as error:
        raise ConformanceError(
            f"not run, as OpenSpiel would crash on a game whose declared facts do not hold: {error}"
        ) from error
    game = _openspiel_game(name, episode)
    with _quietly():
        pyspiel.random_sim_test(game, num_sims=num_sims, serialize=True, verbose=False)


def openspiel_sim_game(name: str, episode: str = MATCH) -> None:
    """OpenSpiel's own ``games_sim_test`` ``sim_game`` check: a random game, with OpenSpiel's
    serialization and pickling of the game, its type and its states along the way."""
    from open_spiel.python.tests.games_sim_test import GamesSimTest

    game = _openspiel_game(name, episode)
    with _quietly(), contextlib.redirect_stdout(io.StringIO()):
        GamesSimTest("sim_game").sim_game(game)


def openspiel_declares_the_facts(name: str) -> None:
    """OpenSpiel's game type and info say what the game's facts declare: the chance mode (so
    alpha-beta takes a deterministic game), the utility, the return range, the longest game."""
    import pyspiel

    plugin = find_plugin(name)
    make_facts = plugin.load_facts()
    if make_facts is None:
        raise ConformanceError(f"{plugin.name} declares no facts (GamePlugin.facts)")
    facts = make_facts(find_game(name))
    game = _openspiel_game(name)
    kind = game.get_type()
    modes = pyspiel.GameType.ChanceMode
    mode = modes.DETERMINISTIC if facts.deterministic else modes.EXPLICIT_STOCHASTIC
    expect(
        kind.chance_mode == mode,
        f"{plugin.name}: OpenSpiel's chance mode is {kind.chance_mode}, the facts say {mode}",
    )
    utilities = pyspiel.GameType.Utility
    utility = utilities.ZERO_SUM if facts.zero_sum else utilities.GENERAL_SUM
    expect(
        kind.utility == utility,
        f"{plugin.name}: OpenSpiel's utility is {kind.utility}, the facts say {utility}",
    )
    declared = (facts.min_return, facts.max_return, facts.max_game_length)
    given = (game.min_utility(), game.max_utility(), game.max_game_length())
    expect(
        given == declared,
        f"{plugin.name}: OpenSpiel's (min utility, max utility, max game length) are {given}, "
        f"the facts say {declared}",
    )


def research_checks(name: str) -> list[Check]:
    """The research adapters' checks on ``name`` (none when :func:`research_unavailable`)."""
    if research_unavailable(name) is not None:
        return []
    name = find_plugin(name).name
    checks = [
        Check(
            "research",
            "OpenSpiel's game type says what the facts declare",
            lambda: openspiel_declares_the_facts(name),
        )
    ]
    two_players = find_game(name).num_players == 2
    for episode in episodes(name):
        shown = "" if episode == MATCH else f", episode {episode}"
        checks += [
            Check(
                "research",
                f"PettingZoo api_test{shown}",
                lambda e=episode: pettingzoo_api_test(name, e),
            ),
            Check(
                "research",
                f"PettingZoo seed_test{shown}",
                lambda e=episode: pettingzoo_seed_test(name, e),
            ),
            Check(
                "research",
                f"PettingZoo render_test{shown}",
                lambda e=episode: pettingzoo_render_test(name, e),
            ),
            Check(
                "research",
                f"OpenSpiel random_sim_test{shown}",
                lambda e=episode: openspiel_random_sim_test(name, e),
            ),
            Check(
                "research",
                f"OpenSpiel sim_game (pickling){shown}",
                lambda e=episode: openspiel_sim_game(name, e),
            ),
        ]
        if two_players:  # the Gymnasium adapter seats one agent against one computer player
            checks.append(
                Check(
                    "research",
                    f"Gymnasium check_env{shown}",
                    lambda e=episode: gymnasium_check_env(name, e),
                )
            )
    return checks


__all__ = [
    "MATCH",
    "RL_MODULES",
    "episodes",
    "gymnasium_check_env",
    "openspiel_declares_the_facts",
    "openspiel_random_sim_test",
    "openspiel_sim_game",
    "pettingzoo_api_test",
    "pettingzoo_render_test",
    "pettingzoo_seed_test",
    "research_checks",
    "research_unavailable",
    "rl_installed",
]
