"""Golden playthroughs, OpenSpiel style: seeded random games written out state by state.

A game declares its playthroughs in its plugin record (``GamePlugin.playthrough``): a text file
in its package and the seeded games it records (:class:`~gamehall.core.plugin.Playthroughs`).
The file holds the game's facts, then each game with every state's text, who is to move, the
legal actions (dense index and notation), at a chance node its outcomes and the one drawn (with
its exact probability), the action taken, and at the end the returns and the outcome. Checking
plays the same games again and compares, so any change of behaviour (a rule, the notation, the
action order, the chance law, the sampler) shows as a diff. When a change is meant, regenerate
and read the diff::

    gamehall check-game NAME --regen

A playthrough is optional: a game without one is checked by everything else.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import random
from importlib import resources
from pathlib import Path

from gamehall.core import Game, GamePlugin, State, TooManyOutcomesError, find_game, find_plugin
from gamehall.core.plugin import Playthrough, Playthroughs
from gamehall.testing.checks import Check, ConformanceError, Skipped

LISTED_OUTCOMES = 12
"""Chance nodes with more outcomes than this are summarised (count and a digest of the list)."""
DIFF_LINES = 80
"""The most lines of a difference a failure shows."""


def regenerate_command(name: str) -> str:
    return f"gamehall check-game {name} --regen"


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _facts(game: Game) -> list[str]:
    lines = [
        f"game: {game.name}",
        f"title: {game.title}",
        f"players: {', '.join(game.player_names)}",
        f"rules_version: {game.rules_version}",
        f"num_distinct_actions: {game.num_distinct_actions}",
    ]
    for spec in game.option_specs:
        lines.append(f"option: {json.dumps(spec.describe(), ensure_ascii=False, sort_keys=True)}")
    return lines


def _chance_lines(state: State) -> list[str]:
    try:
        outcomes = state.chance_outcomes()
    except TooManyOutcomesError:
        return ["chance: too many outcomes to list (sampled)"]
    listed = [f"{action} = {probability}" for action, probability in outcomes]
    if len(listed) <= LISTED_OUTCOMES:
        return [f"chance: {', '.join(listed)}"]
    digest = hashlib.sha256("\n".join(listed).encode()).hexdigest()[:16]
    return [f"chance: {len(listed)} outcomes, sha256 of the list {digest}"]


def _view(state: State) -> str:
    return f"view: {json.dumps(state.view(), ensure_ascii=False, sort_keys=True)}"


def _play(game: Game, seed: int, *, views: bool) -> list[str]:
    """One seeded random game, written out state by state (with the front ends' view of the
    first and last states if ``views``)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    lines: list[str] = []
    number = 0
    while True:
        lines += ["", f"# State {number}", str(state)]
        if number == 0 and views:
            lines.append(_view(state))
        if state.is_terminal():
            outcome = state.outcome()
            if outcome is None:
                raise ConformanceError(f"{game.name} {str(state)!r}: over, but no outcome")
            winner = "nobody" if outcome.winner is None else game.player_names[outcome.winner]
            lines += [
                "player: terminal",
                f"returns: {list(state.returns())}",
                f"outcome: {outcome.result_tag()}, {winner} wins: {outcome.reason}",
                f"scores: {list(outcome.scores)}",
            ]
            return lines + ([_view(state)] if views else [])
        if state.is_chance_node():
            lines.append("player: chance")
            lines += _chance_lines(state)
            action = state.sample_chance(rng)
            probability = state.chance_probability(action)
            lines.append(f"# Chance outcome {_quote(str(action))} (probability {probability})")
        else:
            legal = state.legal_actions()
            lines.append(f"player: {state.player_name()} ({state.current_player})")
            shown = ", ".join(f"{game.action_index(a)} {a}" for a in legal)
            lines.append(f"legal: {shown}")
            action = rng.choice(legal)
            lines.append(f"# Apply action {_quote(str(action))}")
            lines.append(f"action: {game.action_index(action)}")
        state = state.apply(action)
        number += 1


def _declared(name: str) -> tuple[GamePlugin, Playthroughs]:
    plugin = find_plugin(name)
    if plugin.playthrough is None:
        raise Skipped(f"{plugin.name} declares no golden playthrough (GamePlugin.playthrough)")
    return plugin, plugin.playthrough


def playthrough_text(name: str, games: tuple[Playthrough, ...] | None = None) -> str:
    """The golden file's text for the registered game ``name``: the games its plugin declares
    (or ``games``), played again now."""
    if games is None:
        games = _declared(name)[1].games
    game_name = find_game(name).name
    lines = [
        f"# Golden playthroughs of {game_name}: seeded random play. Made by gamehall.testing;",
        f"# regenerate with `{regenerate_command(game_name)}` and read the diff.",
        "",
        *_facts(find_game(name)),
    ]
    for number, spec in enumerate(games, 1):
        game = find_game(name, **spec.options)
        variant = game.variant_text() or "(default options)"
        lines += ["", f"## Playthrough {number}: seed {spec.seed}, {variant}"]
        lines += _play(game, spec.seed, views=number == 1)
    return "\n".join(lines) + "\n"


def playthrough_file(name: str) -> Path:
    """Where the game's golden file is on disk (its package must be a folder of files, as an
    installed or editable package is, not a zip)."""
    plugin, declared = _declared(name)
    where = resources.files(plugin.package).joinpath(declared.file)
    if not isinstance(where, Path):
        raise ConformanceError(
            f"{plugin.name}'s package {plugin.package} is not a folder on disk ({where}): "
            "its playthrough file cannot be written there"
        )
    return where


def playthrough_diff(name: str) -> str | None:
    """How the game plays now differs from its golden file: a unified diff (None if it plays
    exactly as recorded)."""
    plugin, declared = _declared(name)
    golden = plugin.playthrough_text()
    if golden is None:
        raise ConformanceError(
            f"{plugin.name}'s golden playthrough {declared.file} is missing from "
            f"{plugin.package}: write it with `{regenerate_command(plugin.name)}`"
        )
    now = playthrough_text(name)
    if now == golden:
        return None
    diff = difflib.unified_diff(
        golden.splitlines(), now.splitlines(), declared.file, "now", lineterm="", n=2
    )
    lines = list(diff)
    more = [f"… ({len(lines) - DIFF_LINES} more lines)"] if len(lines) > DIFF_LINES else []
    return "\n".join(lines[:DIFF_LINES] + more)


def check_playthrough(name: str) -> None:
    """The game plays exactly as its golden playthrough file says (or the failure shows the
    diff and how to regenerate after a deliberate change)."""
    diff = playthrough_diff(name)
    if diff is not None:
        plugin = find_plugin(name)
        raise ConformanceError(
            f"{plugin.name} no longer plays as its golden playthrough says:\n{diff}\n"
            f"If the change is meant, regenerate with `{regenerate_command(plugin.name)}`, read "
            "the diff, and change the game's rules_version."
        )


def write_playthrough(name: str) -> tuple[Path, bool]:
    """Write the game's golden file from how it plays now; returns its path and whether the
    text changed."""
    path = playthrough_file(name)
    text = playthrough_text(name)
    old = path.read_text(encoding="utf-8") if path.is_file() else None
    if text == old:
        return path, False
    path.write_text(text, encoding="utf-8")
    return path, True


def playthrough_checks(name: str) -> list[Check]:
    """The golden playthrough check, if the game declares one."""
    plugin = find_plugin(name)
    if plugin.playthrough is None:
        return []
    label = f"plays as its golden playthrough {plugin.playthrough.file}"
    return [Check("playthrough", label, lambda: check_playthrough(name))]


__all__ = [
    "check_playthrough",
    "playthrough_checks",
    "playthrough_diff",
    "playthrough_file",
    "playthrough_text",
    "regenerate_command",
    "write_playthrough",
]
