"""``gamehall solve``: the exact value and optimal moves of a position, through the game's
solver; where the budget runs out, the proven bounds, the bounded search's move or an MCTS
estimate, and always which of these it is."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from gamehall.core import Game, GamehallError, Limit, find_plugin
from gamehall.core.search import Value

MCTS_SECONDS = 5.0
"""The longest fallback search when the exact search gives no move (at most --seconds)."""


def _number(value: Value) -> Any:
    """A value for JSON: whole points as numbers, probabilities as exact fraction text."""
    return str(value) if isinstance(value, Fraction) else value


def solve_text(
    game: Game, position: str, *, seconds: float, as_json: bool, seed: int | None
) -> str:
    """What ``gamehall solve`` prints for ``position`` of ``game``."""
    solver = find_plugin(game.name).load_solver()
    if solver is None:
        raise GamehallError(f"there is no exact solver for {game.name}")
    state = game.parse_state(position)
    solver.warm_up()
    solution = solver.solve(state, Limit(seconds=seconds), best="all", explain=True)
    player = state.current_player if state.current_player >= 0 else solution.player
    who = state.player_name(player).capitalize()
    payload: dict[str, Any] = {
        "position": str(state),
        "to_move": state.player_name(),
        "perspective": state.player_name(player),
        "unit": solver.unit,
        "exact": solution.exact,
        "nodes": solution.nodes,
        "seconds": round(solution.seconds, 6),
        "note": solution.note,
        **solution.extra,
    }
    lines: list[str] = []
    if solution.exact:
        value = solution.value_for(player)
        assert value is not None
        payload.update(method="exact", value=_number(value), best=[str(a) for a in solution.best])
        if isinstance(value, Fraction):
            payload["value_float"] = float(value)
        lines.append(f"exact: {solver.describe(value, who)} ({solver.unit}, perfect play)")
        if solution.best:
            lines.append("optimal moves: " + ", ".join(str(a) for a in solution.best))
        elif state.is_chance_node():
            lines.append("(a chance node: the value is the expectation over its outcomes)")
    else:
        low, high = solution.bounds_for(player)
        payload.update(lower=_number(low), upper=_number(high))
        lines.append(
            f"not solved within {seconds:g} s: the value for {who} lies in "
            f"[{solver.describe(low, who)}; {solver.describe(high, who)}]"
        )
        if solution.best:
            payload.update(method="bounded", best=[str(a) for a in solution.best])
            lines.append(f"best move of the bounded search: {solution.best[0]}")
        elif not state.is_chance_node() and not state.is_terminal():
            from gamehall.ai.mcts import MCTSAgent

            agent = MCTSAgent(seconds=min(MCTS_SECONDS, max(0.2, seconds)), seed=seed)
            stats = agent.analyse(state)
            top = stats[0]
            payload.update(
                method="mcts",
                best=[str(top.action)],
                simulations=agent.last_simulations,
                moves=[
                    {"action": str(s.action), "visits": s.visits, "value": s.value}
                    for s in stats[:10]
                ],
            )
            lines.append(
                f"MCTS estimate (not exact): {agent.last_simulations:,} simulations; best "
                f"{top.action}, {agent.value_text(top.value)} for {who}"
            )
        else:
            payload["method"] = "none"
    if solution.note:
        lines.append(solution.note)
    lines.append(f"{solution.nodes:,} nodes in {solution.seconds:.3f} s")
    return json.dumps(payload) if as_json else "\n".join(lines)
