"""Golden playthroughs, OpenSpiel style: seeded random games written out state by state.

Each game has one file here, ``<game>.txt``: the game's facts, then a couple of seeded random
games, with every state's text, who is to move, the legal actions (dense index and notation),
at a chance node its outcomes and the one drawn (with its exact probability), the action taken,
and at the end the returns and the outcome. ``test_playthroughs.py`` plays the same games again
and compares, so any change of behaviour (a rule, the notation, the action order, the chance
law, the sampler) shows as a diff. When a change is meant, regenerate and read the diff::

    .venv/bin/python -m tests.playthroughs --regen

Nim, the game that exists only in the tests, is registered while its playthrough is made.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamehall.core import (
    Game,
    State,
    TooManyOutcomesError,
    find_game,
    register_plugin,
    unregister_plugin,
)
from tests.nim.plugin import PLUGIN as NIM

HERE = Path(__file__).resolve().parent
REGENERATE = ".venv/bin/python -m tests.playthroughs --regen"
LISTED_OUTCOMES = 12
"""Chance nodes with more outcomes than this are summarised (count and a digest of the list)."""

# A small Äcädmü disc set (9 discs a side), so a whole match of a few rounds stays short.
NINE_DISCS = "RT:BS,RS:BC,RC:BT,BT:YS,BS:YC,BC:YT,YT:RS,YS:RC,YC:RT"


@dataclass(frozen=True)
class Playthrough:
    """One seeded random game: the game's options and the seed."""

    seed: int
    options: dict[str, Any] = field(default_factory=dict)


PLAYTHROUGHS: dict[str, tuple[Playthrough, ...]] = {
    "acadmu": (
        Playthrough(1, {"discs": NINE_DISCS, "target": 3}),
        Playthrough(2, {"discs": NINE_DISCS, "target": 2, "shape_capture_takes_one_if_last": True}),
        Playthrough(3, {"target": 1}),
    ),
    "akros": (Playthrough(1), Playthrough(2)),
    "nim": (Playthrough(1), Playthrough(2, {"heaps": 4, "max_heap": 3, "misere": True})),
}


@contextlib.contextmanager
def registered_test_only_games() -> Iterator[None]:
    """The games that exist only in the tests, registered for a while."""
    register_plugin(NIM)
    try:
        yield
    finally:
        unregister_plugin(NIM.name)


def path_for(name: str) -> Path:
    return HERE / f"{name}.txt"


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
            assert outcome is not None
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


def playthrough_text(name: str) -> str:
    """The golden file's text for the game ``name``."""
    lines = [
        f"# Golden playthroughs of {name}: seeded random play. Made by tests/playthroughs;",
        f"# regenerate with `{REGENERATE}` and read the diff.",
        "",
        *_facts(find_game(name)),
    ]
    for number, spec in enumerate(PLAYTHROUGHS[name], 1):
        game = find_game(name, **spec.options)
        variant = game.variant_text() or "(default options)"
        lines += ["", f"## Playthrough {number}: seed {spec.seed}, {variant}"]
        lines += _play(game, spec.seed, views=number == 1)
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``--regen`` rewrites every golden file; without it, say which ones differ."""
    import argparse
    import difflib

    parser = argparse.ArgumentParser(prog="python -m tests.playthroughs", description=__doc__)
    parser.add_argument("--regen", action="store_true", help="rewrite the golden files")
    args = parser.parse_args(argv)
    changed = 0
    with registered_test_only_games():
        for name in PLAYTHROUGHS:
            path = path_for(name)
            text = playthrough_text(name)
            old = path.read_text(encoding="utf-8") if path.is_file() else ""
            if text == old:
                print(f"{path.name}: unchanged")
                continue
            changed += 1
            if args.regen:
                path.write_text(text, encoding="utf-8")
                print(f"{path.name}: rewritten ({len(text):,} characters)")
            else:
                diff = difflib.unified_diff(
                    old.splitlines(), text.splitlines(), path.name, "now", lineterm="", n=1
                )
                print("\n".join(list(diff)[:60]))
    return 0 if args.regen or not changed else 1
