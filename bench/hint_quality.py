"""Benchmark: how often `hint` is exact within its default budget, and that it is right.

* Äcädmü: the 20 fixed full-size pours of ``bench/acadmu_solver.py`` (pour i from seed i, Dark
  to move), the start of a round;
* Akros: the 10 turn-4 positions of ``bench/akros_exact.py`` (seed 4000 + i, the start of turn 4,
  then the draw from seed i), the Jinn's keep.

Each gets ``advise`` with the default budget (5 s) and the default three hints. For each it prints
whether the position's value is exact, how many of the three hints are exact, whether the ranking
is proven, the time, and checks every hint against the solver's exact value of its move (solved
without a limit afterwards): an exact hint must have the move's value, and no hint may be ranked
above a move with a higher value among those shown that its proof did not allow.

    .venv/bin/python bench/hint_quality.py [--pours 20] [--akros 10] [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from acadmu_solver import pour
from akros_exact import start_of_turn
from gamehall.ai.hints import DEFAULT_SECONDS, advise
from gamehall.core import Limit, State, find_game, find_plugin


def check(state: State, seconds: float) -> tuple[bool, int, bool, float, bool]:
    """(value exact, exact hints, proven, seconds, every claim right)."""
    advice = advise(state, seconds=seconds)
    solver = find_plugin(state.game.name).load_solver()
    mover = state.current_player
    right = True
    truth = {}
    for hint in advice.hints:
        child = state.apply_trusted(hint.action)
        truth[hint.action] = solver.solve(child, Limit(), best="none").value_for(mover)
        known = hint.assessment
        right &= known.lower <= truth[hint.action] <= known.upper
        if hint.exact:
            right &= known.value == truth[hint.action]
    for i, higher in enumerate(advice.hints):
        for lower in advice.hints[i + 1 :]:
            right &= not lower.assessment.lower > higher.assessment.upper
    exact = sum(h.exact for h in advice.hints)
    value_exact = advice.position is not None and advice.position.exact
    return value_exact, exact, advice.proven, advice.seconds, right


def run(label: str, states: list[State], seconds: float) -> bool:
    if not states:  # --pours 0 or --akros 0: that game is skipped
        return True
    print(f"== {label} ==")
    times, all_right, values, firsts = [], True, 0, 0
    for index, state in enumerate(states):
        value_exact, exact, proven, took, right = check(state, seconds)
        times.append(took)
        all_right &= right
        values += value_exact
        first = exact >= 1 and value_exact
        firsts += first
        print(
            f"  #{index}: value {'exact' if value_exact else 'not exact'}, {exact} of 3 hints "
            f"exact, ranking {'proven' if proven else 'not proven'}, {took:.1f} s, "
            f"claims {'right' if right else 'WRONG'}"
        )
    print(
        f"  value exact {values}/{len(states)}, best move exact {firsts}/{len(states)}; "
        f"median {statistics.median(times):.1f} s, worst {max(times):.1f} s; "
        f"every claim right: {all_right}"
    )
    return all_right


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pours", type=int, default=20)
    parser.add_argument("--akros", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS)
    args = parser.parse_args()
    acadmu, akros = find_game("acadmu"), find_game("akros")
    for name in ("acadmu", "akros"):
        find_plugin(name).load_solver().warm_up()
    pours = [acadmu.parse_state(pour(i)) for i in range(args.pours)]
    turn4 = []
    for i in range(args.akros):
        state = start_of_turn(akros, 4000 + i, 4)
        turn4.append(state.apply_trusted(state.sample_chance(random.Random(i))))
    ok = run("Äcädmü: full-size pours", pours, args.seconds)
    ok &= run("Akros: the Jinn's keep at turn 4", turn4, args.seconds)
    print(f"every claim right: {ok}")


if __name__ == "__main__":
    main()
