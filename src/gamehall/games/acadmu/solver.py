"""Äcädmü exact solver: the value and every optimal move of any round position.

    >>> from gamehall.games.acadmu.solver import solve
    >>> result = solve("2,1,3,3,0,2,2,3,0/1,2,1,1,2,3,2,3,1 d -")
    >>> result.value, [str(m) for m in result.best][:2]          # doctest: +SKIP
    (1, ['RTxBT', 'RTxBS'])

The value is the side to move's final token count minus the other's under perfect play (both
sides maximise their own final difference). Match states in play are solved on their round
position alone.

How (the numba kernels are in :mod:`gamehall.games.acadmu._kernels`):

* **Exact pass phase.** Once a side cannot capture, the other plays alone and gains exactly its
  potential; such positions are never searched.
* **Shape-race bounds.** Score comes only from shape captures, and the shape totals (three per
  side) say who can shape-capture. Two small exact DP tables over the box of shape totals below
  the root bound each side's gain from above: that side may capture any token by colour, the
  other only shape-captures when it can and otherwise plays its worst option. These bounds are
  far tighter than the potential bound (which they contain) and cut most of the tree.
* **MTD(f)** null-window probes from the midpoint of the root's bounds, fail-soft alpha-beta with
  a lockless transposition table keeping lower and upper bounds on packed 54-bit keys (kept
  between solves: stored bounds are exact facts about positions), enhanced transposition cut-offs
  near the root, and moves ordered by TT move, then potential difference, then the children's
  table bounds.

``solve`` accepts a time limit; an unfinished solve says the bounds it proved and plays the best
move of that bounded search. :data:`SOLVER` puts it behind the core's solver protocol, which the
computer levels, hints and the command line use.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from typing import Any

from gamehall.core.errors import InvalidStateError
from gamehall.core.game import State
from gamehall.core.search import BestMoves, Limit, Solution, Solver, Value, ValueKind
from gamehall.games.acadmu import rules
from gamehall.games.acadmu.game import DARK, PASS, AcadmuGame, AcadmuState, Move
from gamehall.games.acadmu.tokens import COLOUR_PAIRS

Counts = tuple[int, ...]
Done = Callable[..., "SolveResult"]
NO_ONE = -1
MAX_COUNT = 7
"""Counts pack in 3 bits: a pairing count above this goes to the pure-Python search."""
MAX_TOKENS = 54
"""Values are stored in 7 bits: more tokens a side than this go to the pure-Python search."""
ETC_FROM_TOKENS = 8
"""Enhanced transposition cut-offs at nodes with at least this many tokens on the board (the
children's table lines are prefetched together, so the probes cost little even near the
leaves)."""
PARALLEL_FROM_TOKENS = 30
"""By default the root moves are tested on two threads from this many tokens on the board."""
TT_BITS = 22
"""The transposition table has 2**TT_BITS buckets of four 8-byte entries (128 MiB; at least 21)."""


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` found.

    ``value`` is the side to move's final count difference under perfect play, or None when the
    time limit stopped the search; ``lower``/``upper`` bound it (both equal ``value`` when exact).
    ``best`` is every optimal move (with ``all_best``; otherwise one) when exact, and when not,
    the move of the bounded search: the move that proved ``lower`` if a probe finished, else the
    move whose position has the best static bounds. ``note`` says how the answer was found.
    """

    value: int | None
    best: tuple[Move, ...]
    nodes: int
    seconds: float
    exact: bool
    lower: int
    upper: int
    note: str = ""

    @property
    def move(self) -> Move | None:
        """One move to play: the first of ``best``."""
        return self.best[0] if self.best else None


# --- positions ------------------------------------------------------------------------------


def _as_state(position: AcadmuState | str) -> AcadmuState:
    state = AcadmuGame().parse_state(position) if isinstance(position, str) else position
    if not isinstance(state, AcadmuState):
        raise InvalidStateError(f"not an Äcädmü state: {position!r}")
    if state.phase != "play":
        raise InvalidStateError(f"the solver needs a position in play, not the {state.phase} phase")
    return state


def _apply(own: Counts, other: Counts, move: Move) -> tuple[Counts, Counts]:
    return rules.remove(own, (move.own,)), rules.remove(other, move.taken)


# --- the pure-Python reference --------------------------------------------------------------


class OutOfTime(Exception):
    """The pure-Python reference search passed its deadline."""


def reference_values(
    state: AcadmuState | str, deadline: float | None = None
) -> tuple[int, dict[Move, int]]:
    """Plain memoised minimax (pure Python): the value and each legal move's value, from the
    side to move's view. Exponential: for tests, small positions and rule variants. Past
    ``deadline`` (a ``time.perf_counter()`` value) it raises :class:`OutOfTime`."""
    state = _as_state(state)
    take_one = state.game.take_one_if_last
    mover = state.to_move
    own, other = state.tokens(mover), state.tokens(1 - mover)
    calls = [0]

    @cache
    def value(own: Counts, other: Counts, other_passed: bool) -> int:
        calls[0] += 1
        if deadline is not None and calls[0] % 1024 == 0 and time.perf_counter() > deadline:
            raise OutOfTime
        moves = rules.captures(own, other, take_one_if_last=take_one)
        if not moves:
            if other_passed or not rules.can_capture(other, own, take_one_if_last=take_one):
                return sum(own) - sum(other)
            return -value(other, own, True)
        return max(after(own, other, other_passed, m, t) for m, t in moves)

    def after(own: Counts, other: Counts, other_passed: bool, mine: int, taken: Counts) -> int:
        own2, other2 = rules.remove(own, (mine,)), rules.remove(other, taken)
        if other_passed:  # 'the opponent then takes consecutive turns'
            return value(own2, other2, True)
        return -value(other2, own2, False)

    if state.round_over:
        return sum(own) - sum(other), {}
    passed = state.passed != NO_ONE
    legal = state.legal_actions()
    values: dict[Move, int] = {}
    for move in legal:
        if move.is_pass:
            values[move] = -value(other, own, True)
        else:
            values[move] = after(own, other, passed, move.own, move.taken)
    return max(values.values()), values


def reference_solve(state: AcadmuState | str, time_limit: float | None = None) -> SolveResult:
    """:func:`solve`'s answer by the pure-Python reference (any rules variant, small only).
    Past ``time_limit`` seconds it gives up with the trivial bounds and no move."""
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    try:
        value, values = reference_values(state, deadline)
    except OutOfTime:
        state = _as_state(state)
        own, other = state.tokens(state.to_move), state.tokens(1 - state.to_move)
        lower, upper = -sum(other), sum(own)  # each side ends with between none and all it has
        note = f"reference minimax stopped after {time_limit:g} s"
        seconds = time.perf_counter() - start
        return SolveResult(None, (), 0, seconds, False, lower, upper, note)
    best = tuple(m for m, v in values.items() if v == value)
    return SolveResult(
        value, best, 0, time.perf_counter() - start, True, value, value, "reference minimax"
    )


# --- the kernel driver ----------------------------------------------------------------------

_lock = threading.Lock()
_tt_cache: dict[str, object] = {}


def _kernels() -> Any:
    from gamehall.games.acadmu import _kernels

    return _kernels


def _table(bits: int) -> tuple[Any, int]:
    """The shared transposition table (made once; its bounds stay true between solves)."""
    import numpy as np

    with _lock:
        tt = _tt_cache.get("tt")
        if tt is None or _tt_cache.get("bits") != bits:
            tt = np.zeros(4 << bits, dtype=np.int64)
            _tt_cache["tt"], _tt_cache["bits"] = tt, bits
        return tt, bits


def clear_table() -> None:
    """Forget the shared transposition table (frees its memory; benchmarks start cold)."""
    with _lock:
        _tt_cache.clear()


class _Root:
    """Kernel arrays for a position, side 0 to move (keys are mover-relative anyway)."""

    def __init__(self, own: Counts, other: Counts) -> None:
        import numpy as np

        self.np = np
        self.base = np.array([own, other], dtype=np.int64)

    def arrays(self) -> tuple[Any, ...]:
        np = self.np
        cnt = self.base.copy()
        col = np.zeros((2, 3), dtype=np.int64)
        shp = np.zeros((2, 3), dtype=np.int64)
        for p in range(9):
            col[:, p // 3] += cnt[:, p]
            shp[:, p % 3] += cnt[:, p]
        tot = cnt.sum(axis=1)
        pk = np.zeros(2, dtype=np.int64)
        for p in range(9):
            pk += cnt[:, p] << (3 * p)
        return cnt, col, shp, tot, pk


class _Search:
    """One solve: the kernel state, the tables, the counters, the stop flag."""

    def __init__(self, own: Counts, other: Counts, deadline: float | None, bits: int) -> None:
        import numpy as np

        self.np = np
        self.k = _kernels()
        self.tt, self.bits = _table(bits)
        self.root = _Root(own, other)
        _, _, shp, _, _ = self.root.arrays()
        self.tabs, self.W = self.k.race_tables(shp)
        self.stop = np.zeros(1, dtype=np.int64)
        self.flags: list[Any] = []  # the stop flags of probes racing on two threads
        self.nodes = 0
        self.count_lock = threading.Lock()
        self.timer = None
        if deadline is not None:
            self.timer = threading.Timer(max(0.0, deadline - time.perf_counter()), self.halt)
            self.timer.daemon = True
            self.timer.start()

    def halt(self) -> None:
        self.stop[0] = 1
        with self.count_lock:
            for flag in self.flags:
                flag[0] = 1

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()

    @property
    def stopped(self) -> bool:
        return bool(self.stop[0])

    def probe(
        self,
        arrays: tuple[Any, ...],
        me: int,
        alpha: int,
        beta: int,
        order: int = 0,
        stop: Any = None,
    ) -> tuple[int, int] | None:
        """A fail-soft search of ``arrays`` (``me`` to move) in move order ``order``; None when
        stopped. Threads may probe at once: the kernel releases the GIL and the table is
        lockless."""
        stats = self.np.zeros(8, dtype=self.np.int64)
        cnt, col, shp, tot, pk = arrays
        value = self.k.search(
            cnt, col, shp, tot, pk, me, alpha, beta, self.tt, self.bits,
            self.tabs, self.W, stats, ETC_FROM_TOKENS, order,
            self.stop if stop is None else stop,
        )  # fmt: skip
        with self.count_lock:
            self.nodes += int(stats[0])
        if stats[1]:
            return None
        return int(value), int(stats[7])

    def race(self, root: _Root, me: int, alpha: int, beta: int) -> tuple[int, int] | None:
        """The probe searched on two threads at once, one per move order, sharing the table:
        the first to finish stops the other (either answer is the probe's). The two orders are
        equally good on average and slow on different positions, so the race is about as fast
        as the better one, and each thread's finished subtrees help the other."""
        flag = self.np.zeros(1, dtype=self.np.int64)
        with self.count_lock:
            self.flags.append(flag)
            flag[0] = self.stop[0]
        results: list[tuple[int, int] | None] = [None, None]

        def run(order: int) -> None:
            results[order] = self.probe(root.arrays(), me, alpha, beta, order, flag)
            if results[order] is not None:
                flag[0] = 1

        helper = threading.Thread(target=run, args=(1,), daemon=True)
        helper.start()
        try:
            run(0)
        finally:
            helper.join()
            with self.count_lock:
                self.flags.remove(flag)
        return results[0] if results[0] is not None else results[1]

    def static_bounds(self, arrays: tuple[Any, ...], me: int) -> tuple[int, int]:
        """The race-table bounds of a position (``me`` to move)."""
        _, _, shp, tot, _ = arrays
        op = 1 - me
        diff = int(tot[me] - tot[op])
        hi = diff + int(self.tabs[me, 0, self.k.race_index(shp, self.W, me)])
        lo = diff - int(self.tabs[op, 1, self.k.race_index(shp, self.W, op)])
        return lo, hi


def _move_index(move: Move) -> int:
    """The kernel's move number: own*9 + (taken shape for a colour capture, 3 + colour pair)."""
    if len(move.taken) == 1:
        return move.own * 9 + move.taken[0] % 3
    first, second = (t // 3 for t in move.taken)
    return move.own * 9 + 3 + COLOUR_PAIRS.index((first, second))


def solve(
    position: AcadmuState | str,
    *,
    time_limit: float | None = None,
    all_best: bool = True,
    tt_bits: int = TT_BITS,
    threads: int | None = None,
) -> SolveResult:
    """The exact value and optimal moves of ``position`` (a state in play or its text).

    With ``time_limit`` (seconds) an unfinished search returns ``exact=False``, ``value=None``,
    the proved bounds and the best move of that bounded search (see :class:`SolveResult`).
    ``threads`` test the root moves side by side for ``all_best`` (default: up to 2, the CPUs,
    from ``PARALLEL_FROM_TOKENS`` tokens on the board; 1 below).
    """
    start = time.perf_counter()
    state = _as_state(position)
    mover = state.to_move
    own, other = state.tokens(mover), state.tokens(1 - mover)
    diff = sum(own) - sum(other)

    def done(
        value: int | None,
        best: tuple[Move, ...] | list[Move],
        note: str,
        nodes: int = 0,
        exact: bool = True,
        lo: int | None = None,
        hi: int | None = None,
    ) -> SolveResult:
        lo = value if lo is None else lo
        hi = value if hi is None else hi
        return SolveResult(
            value, tuple(best), nodes, time.perf_counter() - start, exact, lo, hi, note
        )

    if state.round_over:
        return done(diff, (), "the round is over")
    legal = state.legal_actions()
    if state.passed != NO_ONE:
        # The opponent has passed: the mover plays alone and gains exactly its potential.
        value = diff + rules.potential(own, other)
        best = []
        for move in legal:
            own2, other2 = _apply(own, other, move)
            if sum(own2) - sum(other2) + rules.potential(own2, other2) == value:
                best.append(move)
        return done(value, best, "pass phase: the mover gains its potential")
    if legal == (PASS,):
        return done(diff - rules.potential(other, own), legal, "the mover must pass")
    if (
        state.game.take_one_if_last
        or max(own + other) > MAX_COUNT
        or max(sum(own), sum(other)) > MAX_TOKENS
    ):
        return reference_solve(state, time_limit)

    deadline = None if time_limit is None else start + time_limit
    search = _Search(own, other, deadline, tt_bits)
    try:
        # threads pay off only where the root moves take long to test
        big = sum(own) + sum(other) >= PARALLEL_FROM_TOKENS
        workers = threads if threads is not None else (min(2, os.cpu_count() or 1) if big else 1)
        return _solve_kernel(search, state, legal, all_best, done, max(1, workers))
    finally:
        search.close()


def _solve_kernel(
    search: _Search,
    state: AcadmuState,
    legal: tuple[Move, ...],
    all_best: bool,
    done: Done,
    threads: int,
) -> SolveResult:
    root = search.root
    lo, hi = search.static_bounds(root.arrays(), 0)
    lo_move = -1
    guess = (lo + hi) // 2
    # MTD(f): null-window probes until the bounds meet.
    while lo < hi:
        beta = max(guess, lo + 1)
        if threads > 1:
            result = search.race(root, 0, beta - 1, beta)
        else:
            result = search.probe(root.arrays(), 0, beta - 1, beta)
        if result is None:
            break
        guess, move = result
        if guess >= beta:
            lo, lo_move = guess, move
        else:
            hi = guess
    by_index = {_move_index(m): m for m in legal}
    if lo < hi:
        return _bounded(search, state, legal, by_index.get(lo_move), lo, hi, done)
    value = lo
    # Every optimal move: a child is optimal iff its value (for the opponent) is <= -value.
    first = by_index.get(lo_move)
    order = ([first] if first is not None else []) + [m for m in legal if m is not first]
    own, other = state.tokens(state.to_move), state.tokens(1 - state.to_move)

    def optimal(move: Move) -> bool | None:
        """Whether ``move`` keeps the value (None: out of time)."""
        own2, other2 = _apply(own, other, move)
        if not rules.can_capture(other2, own2):
            return sum(own2) - sum(other2) + rules.potential(own2, other2) == value
        # same sides as the root (the race tables are indexed by side), the opponent to move
        result = search.probe(_Root(own2, other2).arrays(), 1, -value, -value + 1)
        return None if result is None else result[0] <= -value

    if all_best and threads > 1:
        with ThreadPoolExecutor(threads) as pool:
            verdicts = list(pool.map(optimal, order))
    else:
        verdicts = []
        for move in order:
            verdicts.append(optimal(move))
            if verdicts[-1] is None or (verdicts[-1] and not all_best):
                break
    best = [m for m, ok in zip(order, verdicts, strict=False) if ok]
    if None in verdicts:  # out of time: the value is exact, the list may be short
        if not best:
            best.append(order[0])  # the move that proved the value, or the first tested
        note = f"exact value {value:+d}; time ran out listing the optimal moves"
        return done(value, _in_legal_order(legal, best), note, search.nodes)
    return done(value, _in_legal_order(legal, best), f"exact value {value:+d}", search.nodes)


def _in_legal_order(legal: tuple[Move, ...], moves: list[Move]) -> tuple[Move, ...]:
    chosen = set(moves)
    return tuple(m for m in legal if m in chosen)


def _bounded(
    search: _Search,
    state: AcadmuState,
    legal: tuple[Move, ...],
    lo_move: Move | None,
    lo: int,
    hi: int,
    done: Done,
) -> SolveResult:
    """Out of time: the move that proved the lower bound, else the best by static bounds."""
    if lo_move is not None:
        note = f"bounded search: {lo_move} keeps at least {lo:+d} (value in [{lo:+d}, {hi:+d}])"
        return done(None, (lo_move,), note, search.nodes, False, lo, hi)
    own, other = state.tokens(state.to_move), state.tokens(1 - state.to_move)
    scored = []
    for move in legal:
        own2, other2 = _apply(own, other, move)
        if not rules.can_capture(other2, own2):
            v = sum(own2) - sum(other2) + rules.potential(own2, other2)
            clo = chi = v
        else:
            clo_op, chi_op = search.static_bounds(_Root(own2, other2).arrays(), 1)
            clo, chi = -chi_op, -clo_op
        scored.append((clo + chi, clo, move))
    _, move_lo, move = max(scored, key=lambda item: item[:2])
    lo = min(hi, max(move_lo, lo))
    note = (
        f"bounded search: {move} has the best static bounds (value in [{lo:+d}, {hi:+d}]); "
        "no probe finished in time"
    )
    return done(None, (move,), note, search.nodes, False, lo, hi)


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernels and allocate the table, so a timed
    search that follows measures searching, not compiling."""
    solve("2,1,1,1,0,1,0,1,0/1,1,0,1,1,0,1,0,1 d -")


# --- the solver as the rest of gamehall sees it ----------------------------------------------


class AcadmuSolver(Solver):
    """:func:`solve` behind the :class:`~gamehall.core.search.Solver` protocol.

    Values are the final count difference of a round under perfect play (points), from the side
    to move; a position whose round is over (between rounds, or the end) has the round's
    difference from Dark's side as its value.
    """

    kind = ValueKind.POINTS
    unit = "final count difference of the round"

    def solve(
        self, state: State, limit: Limit, *, best: BestMoves = "all", explain: bool = False
    ) -> Solution:
        if not isinstance(state, AcadmuState):
            raise InvalidStateError(f"not an Äcädmü state: {state!r}")
        if state.phase != "play":
            raise InvalidStateError(
                f"the solver needs a position in play, not the {state.phase} phase (its value "
                "is an expectation over every pour)"
            )
        if state.round_over:
            diff = state.round_difference()
            return Solution(DARK, self.kind, diff, diff, diff, note="the round is over")
        result = solve(state, time_limit=limit.seconds, all_best=best == "all")
        moves = result.best if best != "none" or not result.exact else ()
        return Solution(
            state.to_move,
            self.kind,
            result.value,
            result.lower,
            result.upper,
            tuple(moves),
            result.nodes,
            result.seconds,
            result.note,
        )

    def warm_up(self) -> None:
        warm_up()

    def describe(self, value: Value, player_name: str) -> str:
        points = int(value)
        if points == 0:
            return f"{player_name} ends level (equal counts)"
        return f"{player_name} ends {points:+d}"

    def outlook(self, value: Value | float, *, exact: bool) -> str:
        """The round's count difference said to the player: the larger heap scores the
        difference, so 'you win the round by 2 points' ('about 0.8 points' for an estimate)."""
        amount = float(value)
        size = f"{abs(amount):.0f}" if exact else f"{abs(amount):.1f}"
        about = "" if exact else "about "
        if size.strip("0.") == "":
            return f"the round ends {about}level (nobody scores)"
        points = f"{size} point{'' if size == '1' else 's'}"
        return f"you {'win' if amount > 0 else 'lose'} the round by {about}{points}"


SOLVER = AcadmuSolver()
"""The plugin's solver."""


__all__ = [
    "SOLVER",
    "AcadmuSolver",
    "SolveResult",
    "clear_table",
    "reference_solve",
    "reference_values",
    "solve",
    "warm_up",
]
