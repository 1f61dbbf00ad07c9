"""Akros solved exactly late in the game: the Ifrit's win probability with perfect play.

:func:`solve` takes an :class:`~gamehall.games.akros.AkrosState` (or a position's text) and
returns an :class:`AkrosSolveResult`:

* ``ifrit_win``: the Ifrit's win probability when both play perfectly, a :class:`Fraction`, exact,
  chance included (the bag's draws on turns 1–6 with their hypergeometric probabilities); ``None``
  when the search did not finish within ``time_limit``. It is 0 or 1 from turn 7 on (nothing is
  random then).
* ``best``: every optimal action at the root (engine action values, in the order of
  ``state.legal_actions()``): the Ifrit's moves that reach ``ifrit_win``, or the Jinn's moves that
  hold the Ifrit to it. Empty at a draw (chance) root, where the value is the expectation over draws,
  and at the end of the game.
* ``margins``: the secondary value, *documented, not optimised*: the final score margins
  ``(Forest, Sea, Mountain)``, each the Ifrit's score minus the Jinn's, at the end of one
  **principal line**: from the root every decision plays the first optimal move in the solver's
  own move order (its best move by the transposition table, then moves that raise the mover's
  claims) and every draw takes its most likely outcome (the first in ``F..M`` order on ties).
  It says how the game typically ends under optimal play ("the Ifrit wins the Sea by 2"); it is
  not an expectation over draws and the players do not maximise it (the game is win/lose).
  ``None`` when ``margins=False`` was asked or the time ran out while following the line.
* ``nodes`` (search nodes visited), ``seconds`` (wall time), ``exact`` (False when the time limit
  stopped the search; then ``ifrit_win`` is None and ``best`` empty).

The search (module :mod:`gamehall.games.akros._kernel`, compiled with numba): expectimax over
exact integer values (the probability times the number of possible draw sequences still to come),
fail-soft alpha-beta at decisions, Star1 at draws, a transposition table on the whole state and
move ordering (the Ifrit's placements that leave the Jinn the fewest answers first, then claims). The table is kept between calls on the same board (its entries are
exact bounds on positions, valid for any later search), so an agent's later moves are cheap;
``fresh=True`` starts from an empty table.

:data:`SOLVER` puts it behind the core's solver protocol, which the computer levels, hints and
the command line use.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from gamehall.core.errors import GamehallError
from gamehall.core.game import State
from gamehall.core.search import BestMoves, Limit, Solution, Solver, Value, ValueKind
from gamehall.games.akros import rules
from gamehall.games.akros.game import AkrosGame, AkrosState
from gamehall.games.akros.parallel_search import (
    THREADS_TO_TURN,
    _Alarm,
    _OutOfTime,
    _search_outcomes,
    _search_split,
)
from gamehall.games.akros.rules import DRAW, IFRIT_KEEP, IFRIT_PLACE, OVER
from gamehall.games.akros.solver_context import (
    _ONE_SOLVE_AT_A_TIME,
    _action_code,
    _Context,
    _context,
    _encode,
    _final_margins,
    supported,
)

__all__ = ["SOLVER", "AkrosSolveResult", "AkrosSolver", "solve", "supported", "warm_up"]

DEFAULT_TT_BITS = 20
"""2**20 two-slot buckets: 2M entries, about 100 MB."""

DEFAULT_WORKERS = max(1, min(4, len(os.sched_getaffinity(0))))
"""Threads that search together (a draw's outcomes side by side, a decision's later moves
while the first is searched: :func:`_search_outcomes`, :func:`_search_split`): one a core, at
most four."""


@dataclass(frozen=True)
class AkrosSolveResult:
    """What :func:`solve` found; see the module docstring for each field."""

    ifrit_win: Fraction | None
    best: tuple[Any, ...]
    margins: tuple[int, int, int] | None
    nodes: int
    seconds: float
    exact: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "exact": self.exact,
            "ifrit_win": None if self.ifrit_win is None else str(self.ifrit_win),
            "ifrit_win_float": None if self.ifrit_win is None else float(self.ifrit_win),
            "best": [str(a) for a in self.best],
            "margins": None
            if self.margins is None
            else dict(zip(("forest", "sea", "mountain"), self.margins, strict=True)),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


# --- solving --------------------------------------------------------------------------------------


def solve(
    state_or_position: AkrosState | str,
    *,
    time_limit: float | None = None,
    margins: bool = True,
    fresh: bool = False,
    tt_bits: int = DEFAULT_TT_BITS,
    workers: int | None = None,
    _flags: int = 0,
) -> AkrosSolveResult:
    """Solve an Akros position exactly (see the module docstring).

    ``time_limit`` (seconds, None: no limit) bounds the whole call; when it passes the search stops
    and the result has ``exact=False``. ``margins=False`` skips the principal line. ``fresh``
    empties the transposition table first (otherwise it is kept between calls on one board).
    ``workers`` (default :data:`DEFAULT_WORKERS`, one a core) threads search together, sharing
    the table (up to turn :data:`THREADS_TO_TURN`); 1 searches in the calling thread only.
    ``_flags`` switches techniques off, for measurements only (``_akros_kernel.NO_TT`` ...).
    """
    start = time.perf_counter()
    if isinstance(state_or_position, str):
        state = AkrosGame().parse_state(state_or_position)
    else:
        state = state_or_position
    if state.step == OVER:
        win = rules.winner(*state.claims()) == rules.IFRIT
        scores = state.environment_scores()
        return AkrosSolveResult(
            Fraction(int(win)),
            (),
            tuple(s.ifrit - s.jinn for s in scores) if margins else None,  # type: ignore[arg-type]
            0,
            time.perf_counter() - start,
            True,
        )
    with _ONE_SOLVE_AT_A_TIME:  # the contexts' tables and buffers are the process's own
        ctx = _context(state.game, tt_bits)
        if fresh:
            ctx.clear()
        team = ctx.team(DEFAULT_WORKERS if workers is None else max(1, workers))
        for member in team:
            member.reset_stats(_flags)
        seconds = None if time_limit is None else time_limit - (time.perf_counter() - start)
        with _Alarm(team, seconds) as alarm:
            return _solve_encoded(state, ctx, team, margins, start, alarm)


def _solve_encoded(
    state: AkrosState,
    ctx: _Context,
    team: list[_Context],
    margins: bool,
    start: float,
    alarm: _Alarm,
) -> AkrosSolveResult:
    enc = _encode(state)
    scale = ctx.scale(enc)

    def nodes() -> int:
        return sum(member.nodes for member in team)

    def fail() -> AkrosSolveResult:
        return AkrosSolveResult(None, (), None, nodes(), time.perf_counter() - start, False)

    if len(team) > 1 and state.step == DRAW and state.turn <= THREADS_TO_TURN:
        found = _search_outcomes(team, enc, alarm)
        if found is None:
            return fail()
        value = found
    elif len(team) > 1 and state.turn <= THREADS_TO_TURN:
        try:
            value = _search_split(team, enc, -1, scale + 1, alarm)
        except _OutOfTime:
            return fail()
    else:
        value = ctx.search(enc, -1, scale + 1)
        if ctx.aborted:
            return fail()
    best: tuple[Any, ...] = ()
    if state.step != DRAW:
        maximise = state.step in (IFRIT_KEEP, IFRIT_PLACE)
        chosen = []
        for action in state.legal_actions():
            child = ctx.child(enc, _action_code(action))
            if maximise:
                ok = ctx.search(child, value - 1, value) >= value
            else:
                ok = ctx.search(child, value, value + 1) <= value
            if ctx.aborted:
                return fail()
            if ok:
                chosen.append(action)
        best = tuple(chosen)
    line: tuple[int, int, int] | None = None
    if margins:
        try:
            line = _principal_line(ctx, enc, value)
        except _OutOfTime:
            line = None
    return AkrosSolveResult(
        Fraction(value, scale),
        best,
        line,
        nodes(),
        time.perf_counter() - start,
        True,
    )


def _principal_line(ctx: _Context, enc: tuple[int, ...], value: int) -> tuple[int, int, int]:
    """Follow one optimal line to the end (see ``margins`` in the module docstring)."""
    while enc[1] != OVER:
        step = enc[1]
        moves = ctx.moves(enc)
        if step == DRAW:
            code = max(moves, key=lambda m: m[1])[0]  # most likely; first on ties
            enc = ctx.child(enc, code)
            value = ctx.search(enc, -1, ctx.scale(enc) + 1)
        else:
            maximise = step in (IFRIT_KEEP, IFRIT_PLACE)
            moves.sort(key=lambda m: -m[1])  # the kernel's order (TT move aside)
            for code, _key in moves:
                child = ctx.child(enc, code)
                if maximise:
                    ok = ctx.search(child, value - 1, value) >= value
                else:
                    ok = ctx.search(child, value, value + 1) <= value
                if ctx.aborted:
                    raise _OutOfTime
                if ok:
                    enc = child
                    break
            else:  # pragma: no cover - the value is reached by some move
                raise AssertionError("no optimal move found on the principal line")
        if ctx.aborted:
            raise _OutOfTime
    return _final_margins(enc, ctx.board)


# --- warming up, and the solver as the rest of gamehall sees it --------------------------------------------------------------------------------


def warm_up() -> None:
    """Compile (or load from numba's cache) the search kernels and allocate the table, so a
    timed search that follows measures searching, not compiling."""
    state = AkrosGame().parse_state(_WARM_POSITION)
    solve(state)


_WARM_POSITION = (
    "turn=8 step=jinn-keep bag=F0S0M0 temple=-/-/F draft=SMM jinn=- ifrit=- out=FSS "
    "regions=1I,0,0,1,1I,0,0,1J,1,0I,2I,1J,0J,0,1,1,0,0,2J"
)


EXACT_FROM_TURN = 4
"""From the start of this turn an exact solve usually settles within a hint's budget (turn 4: a
median of 1.4 s, the worst of ``bench/akros_exact.py --turns 4`` under 5 s; turn 5: 0.1 s), so a
hint gives the solver most of its time there and a review solves every position. The levels say
for themselves where they play exactly (``levels.from_turn``)."""


class AkrosSolver(Solver):
    """:func:`solve` behind the :class:`~gamehall.core.search.Solver` protocol: values are the
    Ifrit's win probability under perfect play (exact fractions)."""

    kind = ValueKind.PROBABILITY
    unit = "chance of winning"

    def solve(
        self, state: State, limit: Limit, *, best: BestMoves = "all", explain: bool = False
    ) -> Solution:
        if not isinstance(state, AkrosState):
            raise GamehallError(f"not an Akros state: {state!r}")
        if not supported(state.game):
            return Solution(
                rules.IFRIT,
                self.kind,
                None,
                Fraction(0),
                Fraction(1),
                note=f"the exact solver does not handle the board {state.game.board.name!r}",
            )
        result = solve(state, time_limit=limit.seconds, margins=explain)
        if not result.exact or result.ifrit_win is None:
            return Solution(
                rules.IFRIT,
                self.kind,
                None,
                Fraction(0),
                Fraction(1),
                nodes=result.nodes,
                seconds=result.seconds,
                note=f"not solved within {limit.seconds:g} s",
            )
        chosen = () if best == "none" else result.best[:1] if best == "one" else result.best
        note = ""
        extra: dict[str, object] = {}
        if result.margins is not None:
            f, s, m = result.margins
            note = (
                f"principal line ends with Ifrit-minus-Jinn margins Forest {f:+d}, Sea {s:+d}, "
                f"Mountain {m:+d}"
            )
            extra["margins"] = {"forest": f, "sea": s, "mountain": m}
        return Solution(
            rules.IFRIT,
            self.kind,
            result.ifrit_win,
            result.ifrit_win,
            result.ifrit_win,
            tuple(chosen),
            result.nodes,
            result.seconds,
            note,
            extra,
        )

    def reaches(self, state: State) -> bool:
        return (
            isinstance(state, AkrosState)
            and state.turn >= EXACT_FROM_TURN
            and supported(state.game)
        )

    def warm_up(self) -> None:
        warm_up()

    def describe(self, value: Value, player_name: str) -> str:
        share = Fraction(value)
        if share == 1:
            return f"{player_name} wins for certain"
        if share == 0:
            return f"{player_name} loses for certain"
        return f"{player_name} wins {float(share):.1%} of the time (exactly {share})"


SOLVER = AkrosSolver()
"""The plugin's solver."""
