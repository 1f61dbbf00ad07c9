"""The Rich terminal views of Äcädmü and Akros (each in its game's package, found through the
plugin), rendered for states in every phase."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console

from gamehall.cli.views import view_for
from gamehall.core import Game, State, find_game

GLYPHS = {"T": "▲", "S": "■", "C": "●"}
SIDE_NAMES = {"d": "Dark", "l": "Light"}


def walk(game: Game, seed: int) -> Iterator[tuple[State, Any]]:
    """Every state of one random play-out (seeded), with the action that led to it."""
    rng = random.Random(seed)
    state, last = game.new_initial_state(), None
    yield state, last
    while not state.is_terminal():
        if state.is_chance_node():
            last = state.sample_chance(rng)
        else:
            last = rng.choice(state.legal_actions())
        state = state.apply(last)
        yield state, last


def render_text(game_name: str, state: State, last_action: Any = None) -> str:
    console = Console(record=True, width=100, file=io.StringIO())
    console.print(view_for(game_name)(state, last_action))
    return console.export_text()


# --- Äcädmü --------------------------------------------------------------------------------------


def acadmu_states() -> list[tuple[State, Any]]:
    states = []
    for target in (1, 3):
        game = find_game("acadmu", target=target)
        for seed in range(3):
            states.extend(walk(game, seed))
    bare = find_game("acadmu")
    for text in (
        "3,0,2,2,1,1,2,2,1/1,0,1,1,1,2,2,1,5 d -",
        "3,0,2,2,1,1,2,2,1/1,0,1,1,1,2,2,1,5 d - 4-7 l",
        "4,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 d -",
        "pour l 3-5",
    ):
        states.append((bare.parse_state(text), None))
    return states


def acadmu_phase(state: State) -> str:
    view = state.view()
    if view["phase"] != "play":
        return view["phase"]
    if state.is_terminal():
        return "match-over"
    if state.is_chance_node():
        return "round-over"
    return "play"


def parse_counts(line: str, name: str, pairings: list[str]) -> tuple[list[int], int]:
    """A side's row of the token table back into counts by pairing, and its total."""
    cells = line.replace("(passed)", "").split()
    assert cells[0] == name
    assert len(cells) == len(pairings) + 2, line
    counts = []
    for pairing, cell in zip(pairings, cells[1:-1], strict=True):
        if cell == "·":
            counts.append(0)
        else:
            glyph, count = cell.split("×")
            assert glyph == GLYPHS[pairing[1]]
            counts.append(int(count))
    return counts, int(cells[-1])


def test_acadmu_view_covers_every_phase() -> None:
    phases = {acadmu_phase(state) for state, _ in acadmu_states()}
    assert phases == {"draw", "pour", "play", "round-over", "match-over"}


@pytest.mark.parametrize("with_last", [False, True])
def test_acadmu_view_shows_counts_turn_and_match(with_last: bool) -> None:
    seen_passed = False
    for state, last in acadmu_states():
        last = last if with_last else None
        view = state.view()
        text = render_text("acadmu", state, last)
        lines = text.splitlines()
        assert lines[0].startswith("Äcädmü")
        if view["first"] is not None:
            dark, light = view["match_score"]
            assert f"match {dark}-{light} (to {view['target']})" in lines[0]
        else:
            assert "match" not in lines[0]
        phase = acadmu_phase(state)
        mover = SIDE_NAMES[view["to_move"]]
        if phase == "draw":
            assert "Drawing a disc each to decide who goes first" in text
        elif phase == "pour":
            assert f"{mover} will go first. Pouring the discs" in text
        else:
            header = lines[1].split()
            assert header == [*view["pairings"], "total"]
            for side, name in (("dark", "Dark"), ("light", "Light")):
                (row,) = [line for line in lines if line.startswith(name + " ")]
                counts, total = parse_counts(row, name, view["pairings"])
                assert counts == view[side]
                assert total == sum(view[side])
                passed = view["passed"] is not None and SIDE_NAMES[view["passed"]] == name
                assert ("(passed)" in row) == passed
                seen_passed |= passed
            diff = view["round_difference"]
            if diff == 0:
                assert "Round: level." in text
            else:
                leader = "Dark" if diff > 0 else "Light"
                assert f"Round: {leader} leads by {abs(diff)}." in text
            if phase == "play":
                assert f"{mover} to move." in text
                assert "The round is over." not in text
            else:
                assert "to move" not in text
                assert "The round is over." in text
        assert ("Last move:" in text) == (last is not None)
        if last is not None:
            assert f"Last move: {last}" in text
        outcome = state.outcome()
        if outcome is None:
            assert "Game over" not in text
        else:
            assert f"Game over: {outcome.reason}." in " ".join(text.split())
    assert seen_passed


# --- Akros ---------------------------------------------------------------------------------------


def akros_states() -> list[tuple[State, Any]]:
    game = find_game("akros")
    states = []
    for seed in range(3):
        states.extend(walk(game, seed))
    return states


def test_akros_view_covers_every_step() -> None:
    steps = {state.view()["step"] for state, _ in akros_states()}
    assert steps == {"draw", "jinn-keep", "ifrit-keep", "ifrit-place", "jinn-place", "over"}


def test_akros_view_shows_board_temple_and_scores() -> None:
    seen_servants: set[str] = set()
    seen_contested = False
    for state, last in akros_states():
        view = state.view()
        text = render_text("akros", state, last)
        lines = text.splitlines()
        title = lines[0]
        assert f"Akros · turn {view['turn']} · {view['step']}" in title
        outcome = state.outcome()
        if outcome is not None:
            assert f"{state.player_name(outcome.winner).capitalize()} wins" in title
        elif state.is_chance_node():
            assert "to play" not in title
        else:
            assert f"{state.player_name().capitalize()} to play" in title

        # Each region: its number and environment on one line, and right below them the tiles
        # stacked there and the servant standing there, apart, so they never run together.
        short = {"F": "For", "S": "Sea", "M": "Mtn"}
        for region in view["regions"]:
            mark = "!" if region["contested"] else " "
            top = f"{mark}{region['id']:>2} {short[region['environment']]}"
            (row,) = [i for i, line in enumerate(lines) if top in line]
            column = lines[row].index(top)
            below = lines[row + 1][column : column + 7]
            stack = f"≡{region['stack']}" if region["stack"] else "  "
            assert below[1:3] == stack, (region, below)
            assert below[4:7] == f" {region['servant'] or ' '} ", (region, below)
            if region["servant"]:
                seen_servants.add(region["servant"])
            seen_contested |= region["contested"]
        assert "J Jinn  I Ifrit  ! contested  ≡2: two tiles stacked" in text
        assert ("last:" in text) == (last is not None)
        if last is not None:
            assert f"last: {last}" in text

        # The Temple, the bag, the draft, the hands and the removed tiles.
        temple = "  ".join(f"{n}: {''.join(pile) or '-'}" for n, pile in view["temple"].items())
        assert "Temple" in text and temple in text
        assert "  ".join(f"{e} {n}" for e, n in view["bag"].items()) in text
        names = {e["environment"]: e["name"] for e in view["environments"]}
        for player in ("jinn", "ifrit"):
            tile = view["hands"][player]
            (line,) = [line for line in lines if f"{player.capitalize()} keeps" in line]
            keeps = line.split(f"{player.capitalize()} keeps")[1].split()[0]
            assert keeps == ("-" if tile is None else names[tile])
        (line,) = [line for line in lines if "Draft" in line]
        assert line.split("Draft")[1].split()[0] == ("".join(view["draft"]) or "-")
        removed = "".join(e * n for e, n in view["removed"].items()) or "-"
        (line,) = [line for line in lines if "Removed" in line]
        assert line.split("Removed")[1].split()[0] == removed

        # The score table: each environment's scores and claimant.
        assert "Score now" in text
        assert "claimed by" in text
        for score in view["environments"]:
            row = re.compile(rf" {score['name']} +│ +(\d+) │ +(\d+) │ (\S+) ")
            (cells,) = [match.groups() for line in lines if (match := row.search(line))]
            claimed = (score["claimed_by"] or "—").capitalize()
            assert list(cells) == [str(score["jinn"]), str(score["ifrit"]), claimed]
    assert seen_servants == {"J", "I"}
    assert seen_contested


def test_akros_servants_wear_their_sides_colours_on_every_environment() -> None:
    """A servant's chip has its side's colour whatever the environment under it."""
    from gamehall.games.akros.view import SERVANT_STYLES, board_text

    state, _ = next((s, a) for s, a in akros_states() if s.view()["turn"] == 4)
    text = board_text(state.view()["regions"])
    chips: dict[str, set[str]] = {"J": set(), "I": set()}
    for span in text.spans:
        chip = text.plain[span.start : span.end]
        if chip.strip() in chips:
            chips[chip.strip()].add(str(span.style))
    assert chips == {"J": {SERVANT_STYLES["J"]}, "I": {SERVANT_STYLES["I"]}}


def test_akros_terminal_state_names_the_winner() -> None:
    state, _ = list(walk(find_game("akros"), 7))[-1]
    assert state.is_terminal()
    title = render_text("akros", state).splitlines()[0]
    assert "· over ·" in title and "wins" in title
