"""The Äcädmü exact solver against plain minimax, the engine, and an independent solver's values."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from gamehall.ai.levels import ExactOrSearchAgent
from gamehall.core import LevelOverride, find_game
from gamehall.games.acadmu import PASS, AcadmuGame
from gamehall.games.acadmu.solver import SOLVER, reference_values, solve

GAME = find_game("acadmu")
# Positions solved by an independent solver (a copy of shared/data/acadmu-solved-positions.tsv,
# kept here as a test fixture so the check never depends on a folder outside the checkout).
SOLVED = Path(__file__).resolve().parent / "data" / "acadmu-solved-positions.tsv"


def fmt(counts) -> str:
    return ",".join(map(str, counts))


def random_position(rng: random.Random, low: int = 2, high: int = 6) -> str:
    """A random legal round position with ``low``..``high`` tokens a side, either side to move,
    and, now and then, a side that has passed (only one that has no capture)."""
    while True:
        sides = []
        for _ in range(2):
            counts = [0] * 9
            for _ in range(rng.randint(low, high)):
                counts[rng.randrange(9)] += 1
            sides.append(counts)
        to_move = rng.choice("dl")
        text = f"{fmt(sides[0])}/{fmt(sides[1])} {to_move} -"
        if rng.random() < 0.2:
            other = "l" if to_move == "d" else "d"
            candidate = f"{fmt(sides[0])}/{fmt(sides[1])} {to_move} {other}"
            try:
                GAME.parse_state(candidate)
            except ValueError:
                pass
            else:
                return candidate
        return text


def engine_values(text: str) -> tuple[int, dict]:
    """Minimax through the engine's own states (independent of the solver's reference)."""

    @cache
    def value(state_text: str) -> int:
        state = GAME.parse_state(state_text)
        if state.is_terminal():
            diff = state.round_difference()
            return diff if state.to_move == 0 else -diff
        return max(move_value(state, move) for move in state.legal_actions())

    def move_value(state, move) -> int:
        child = state.apply(move)
        v = value(child.position())
        return v if child.to_move == state.to_move else -v

    root = GAME.parse_state(text)
    values = {move: move_value(root, move) for move in root.legal_actions()}
    return max(values.values()), values


# --- against minimax ----------------------------------------------------------------------


def test_reference_agrees_with_the_engine():
    rng = random.Random(7)
    for _ in range(60):
        text = random_position(rng, 1, 4)
        if GAME.parse_state(text).is_terminal():
            continue
        assert reference_values(text) == engine_values(text), text


def test_equal_to_minimax_on_600_random_small_positions():
    rng = random.Random(2024)
    checked = 0
    while checked < 600:
        text = random_position(rng, 2, 6)
        state = GAME.parse_state(text)
        value, values = reference_values(state)
        result = solve(state)
        assert result.exact and result.value == value, text
        assert result.lower == result.upper == value
        optimal = {m for m, v in values.items() if v == value}
        assert set(result.best) == optimal, text
        assert len(result.best) == len(set(result.best))
        checked += 1


def test_equal_to_minimax_on_medium_positions():
    rng = random.Random(99)
    for _ in range(40):
        text = random_position(rng, 7, 9)
        value, values = reference_values(text)
        result = solve(text)
        assert result.value == value, text
        assert set(result.best) == {m for m, v in values.items() if v == value}, text


def test_one_best_move_when_asked_for_one():
    rng = random.Random(5)
    for _ in range(50):
        text = random_position(rng, 3, 7)
        value, values = reference_values(text)
        result = solve(text, all_best=False)
        assert result.value == value
        if values:
            assert len(result.best) == 1 and values[result.best[0]] == value


# --- special positions ----------------------------------------------------------------------


def test_pass_phase_is_the_movers_potential():
    # Light has passed (it has nothing Dark's colours or shapes let it take); Dark plays alone.
    text = "2,0,0,0,0,0,0,0,0/0,3,0,0,0,0,0,0,0 d l"
    result = solve(text)
    value, values = reference_values(text)
    assert result.value == value == 2 - 3 + 1
    assert set(result.best) == {m for m, v in values.items() if v == value}


def test_a_forced_pass_and_an_ended_round():
    # Dark's Red Triangle finds no Blue token and no Squares; Light's Yellows take Red.
    forced = "1,0,0,0,0,0,0,0,0/0,0,1,0,0,0,1,0,1 d -"
    state = GAME.parse_state(forced)
    assert state.legal_actions() == (PASS,)
    result = solve(state)
    assert result.value == reference_values(state)[0]
    assert result.best == (PASS,)
    over = "1,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 d -"
    assert solve(over).value == 0 and solve(over).best == ()


def test_match_state_is_solved_on_its_round_position():
    bare = "2,1,3,3,0,2,2,3,0/1,2,1,1,2,3,2,3,1 l -"
    in_match = bare + " 4-7 d"
    a, b = solve(bare), solve(in_match)
    assert a.value == b.value and a.best == b.best


def test_rule_variant_falls_back_to_the_reference():
    game = AcadmuGame(shape_capture_takes_one_if_last=True)
    state = game.parse_state("1,1,0,0,1,0,0,0,1/0,1,1,0,0,1,1,0,0 d -")
    value, values = reference_values(state)
    result = solve(state)
    assert result.value == value
    assert set(result.best) == {m for m, v in values.items() if v == value}


# --- an independent solver's values ---------------------------------------------------------


def solved_rows(most_tokens: int):
    rows = []
    for line in SOLVED.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("tokens"):
            continue
        tokens, position, value, _nodes, _seconds = line.split("\t")
        if int(tokens) <= most_tokens:
            rows.append((position, int(value)))
    return rows


def test_values_of_the_solved_positions_up_to_18_tokens():
    rows = solved_rows(18)
    assert len(rows) >= 20
    for position, value in rows:
        assert solve(position).value == value, position


@pytest.mark.slow
def test_values_of_the_solved_positions_up_to_22_tokens():
    for position, value in solved_rows(22):
        assert solve(position, all_best=False).value == value, position


# --- time limits and the perfect player ---------------------------------------------------------


def test_a_solve_told_a_time_limit_stops_with_a_bounded_answer():
    """This full pour takes 716 million nodes to solve (data/acadmu-solved-positions.tsv: about
    three minutes); told 0.3 s, the search stops unfinished and says what it proved. Speed is
    bench/'s to measure, not a bound here."""
    big = "6,4,1,3,3,3,2,3,2/3,3,3,3,0,4,3,3,5 d -"  # 27 a side
    result = solve(big, time_limit=0.3)
    assert not result.exact and result.value is None
    assert len(result.best) == 1 and result.best[0] in GAME.parse_state(big).legal_actions()
    assert result.lower <= -1 <= result.upper  # the independent solver's value is -1
    assert "bounded search" in result.note


def PerfectAgent(seed, time_limit=2.0):
    """The perfect level as Äcädmü plays it, with its time limit made explicit."""
    override = LevelOverride(exact_seconds=time_limit, exact_moves="all", fallback="solver")
    return ExactOrSearchAgent("perfect", override, SOLVER, seed)


def test_perfect_agent_is_exact_on_small_positions_and_legal_throughout():
    rng = random.Random(11)
    agent = PerfectAgent(seed=3, time_limit=2.0)
    for _ in range(30):
        state = GAME.parse_state(random_position(rng, 2, 6))
        if state.is_terminal():
            continue
        move = agent.choose(state)
        assert move in state.legal_actions()
        value, values = reference_values(state)
        assert values[move] == value
        note = agent.describe_last_choice()
        assert note is not None
        assert note == "the only legal move" or note.startswith("exact: ")


def test_perfect_agent_plays_a_round_to_its_end():
    state = GAME.parse_state("1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1 d -")
    agents = [PerfectAgent(seed=1), PerfectAgent(seed=2)]
    expected = reference_values(state)[0]
    while not state.is_terminal():
        state = state.apply(agents[state.to_move].choose(state))
    # both play perfectly, so the round ends at the position's value (Dark moved first)
    assert state.round_difference() == expected


def test_perfect_agent_says_when_it_is_not_exact():
    big = GAME.parse_state("6,4,1,3,3,3,2,3,2/3,3,3,3,0,4,3,3,5 d -")
    agent = PerfectAgent(seed=0, time_limit=0.05)
    move = agent.choose(big)
    assert move in big.legal_actions()
    note = agent.describe_last_choice()
    assert note is not None and (note.startswith("bounded search") or note.startswith("exact"))


def test_the_reference_search_keeps_the_time_limit():
    """Counts beyond the kernels' (a large disc set) go to the pure-Python reference, which
    must keep the limit too: it stops with the trivial bounds and no move, so a level falls back
    to its search instead of thinking for ever."""
    rng = random.Random(2)
    inline = ",".join(
        f"{'RBY'[rng.randrange(3)]}{'TSC'[rng.randrange(3)]}:"
        f"{'RBY'[rng.randrange(3)]}{'TSC'[rng.randrange(3)]}"
        for _ in range(120)
    )
    game = find_game("acadmu", discs=inline)
    state = game.parse_state("pour d 0-0")
    state = state.apply(state.sample_chance(rng))
    result = solve(state, time_limit=0.3)  # a search with no end in sight, had it no limit
    assert not result.exact and result.value is None and result.best == ()
    assert result.lower == -sum(state.light) and result.upper == sum(state.dark)
    assert "stopped" in result.note
