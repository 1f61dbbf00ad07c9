"""Hints: the best few moves with evaluations, exact where an exact solver is fast."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from gamehall.ai.hints import hints
from gamehall.cli.app import main
from gamehall.core import find_game


def _akros_late(seed: int):
    game = find_game("akros")
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not (state.turn >= 8 and state.current_player >= 0 and len(state.legal_actions()) > 1):
        state = state.apply_trusted(
            state.sample_chance(rng)
            if state.is_chance_node()
            else rng.choice(state.legal_actions())
        )
        if state.is_terminal():
            state = game.new_initial_state()
    return state


def _brute(state, mover):
    """The mover's win probability under perfect play, by plain expectimax."""
    if state.is_terminal():
        return Fraction(1 if state.returns()[mover] > 0 else 0)
    if state.is_chance_node():
        return sum(p * _brute(state.apply_trusted(a), mover) for a, p in state.chance_outcomes())
    values = [_brute(state.apply_trusted(a), mover) for a in state.legal_actions()]
    return max(values) if state.current_player == mover else min(values)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_akros_late_hints_are_exact_and_best_first(seed):
    state = _akros_late(seed)
    mover = state.current_player
    # Every move proven, the hints come at once: the budget is one only a broken solve runs
    # out of (what is said is tested here, how fast is bench/'s).
    found = hints(state, count=10, seconds=60.0)
    assert found and all(h.exact for h in found)
    assert len(found) == len(state.legal_actions())
    values = [_brute(state.apply_trusted(h.action), mover) for h in found]
    assert values == sorted(values, reverse=True)
    assert [Fraction(h.value).limit_denominator(10**6) for h in found] == values


def test_search_hints_rank_by_visits():
    state = find_game("acadmu").deal(2)
    found = hints(state, count=3, seconds=0.3)
    assert len(found) == 3
    assert all(h.action in state.legal_actions() for h in found)
    assert not found[0].exact or "exact" in found[0].evaluation


def test_hint_of_a_forced_move_and_of_the_end():
    game = find_game("acadmu")
    over = game.parse_state("1,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 d -")
    assert hints(over) == []
    forced = game.parse_state("0,0,0,0,0,0,0,0,1/1,0,0,0,0,0,0,0,0 d -")
    assert [str(h.action) for h in hints(forced)] == ["YCxRT"]


def test_hint_command_json(capsys):
    main(["hint", "akros", str(_akros_late(4)), "--json", "--count", "2"])  # no exit on success
    payload = json.loads(capsys.readouterr().out)
    assert 1 <= len(payload["hints"]) <= 2
    assert all(h["exact"] for h in payload["hints"])
