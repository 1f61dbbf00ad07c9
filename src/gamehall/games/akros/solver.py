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
import threading
import time
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np

from gamehall.core.errors import GamehallError
from gamehall.core.game import State
from gamehall.core.search import BestMoves, Limit, Solution, Solver, Value, ValueKind
from gamehall.games.akros import rules
from gamehall.games.akros.board import Board
from gamehall.games.akros.game import AkrosGame, AkrosState
from gamehall.games.akros.rules import (
    DRAW,
    IFRIT_KEEP,
    IFRIT_PLACE,
    OVER,
    Keep,
    KeepDiscard,
    Place,
    Remove,
)

__all__ = ["SOLVER", "AkrosSolveResult", "AkrosSolver", "solve", "supported", "warm_up"]

DEFAULT_TT_BITS = 20
"""2**20 two-slot buckets: 2M entries, about 100 MB."""

DEFAULT_WORKERS = max(1, min(4, len(os.sched_getaffinity(0))))
"""Threads that search together (a draw's outcomes side by side, a decision's later moves
while the first is searched: :func:`_search_outcomes`, :func:`_search_split`): one a core, at
most four."""

THREADS_TO_TURN = 6
"""Threads search together up to this turn (later searches take milliseconds)."""


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


# --- the kernel's view of a board -----------------------------------------------------------------


def _board_table(board: Board) -> np.ndarray:
    """The kernel's tables of ``board`` in one array (``tab``: see the kernel's ``NB`` ...)."""
    from gamehall.games.akros import _kernel as kernel

    tab = np.zeros(kernel.TAB_SIZE, dtype=np.int64)
    for r, mask in enumerate(board.neighbour_masks):
        tab[kernel.NB + r] = mask
    for e, mask in enumerate(board.environment_masks):
        tab[kernel.ENVM + e] = mask
    for r in board.region_ids:
        tab[kernel.ENVOF + r] = board.environments[r]
    # the value scale: the number of possible draw sequences after turn t (turns t+1..6)
    scale = 1
    for t in range(10, -1, -1):
        if t + 1 <= rules.BAG_TURNS:
            scale *= comb(board.tile_count - rules.TILES_DRAWN * t, rules.TILES_DRAWN)
        tab[kernel.DAFTER + t] = scale
    for t in range(1, 10):
        pile = rules.discard_pile(t)
        tab[kernel.PILE + t] = -1 if pile is None else pile
    return tab


class _Context:
    """The kernel's tables for one board, and its transposition table. A helper of ``lead``
    shares the lead's board tables and transposition table, with move lists and counters of its
    own."""

    def __init__(self, game: AkrosGame, tt_bits: int, lead: _Context | None = None) -> None:
        from gamehall.games.akros import _kernel as kernel

        self.kernel = kernel
        board = game.board
        self.board = board
        self.tab = _board_table(board) if lead is None else lead.tab
        self.tt_bits = tt_bits
        self.tt = kernel.new_tt(tt_bits) if lead is None else lead.tt
        self.buf, self.stats = kernel.new_buffers()
        self.game = game
        self.helpers: list[_Context] = []
        """Contexts of the threads that search beside this one, sharing its table (each has its
        own move lists and counters); made on first use, then kept."""

    def team(self, workers: int) -> list[_Context]:
        """This context and ``workers - 1`` helpers, one per thread."""
        while len(self.helpers) < workers - 1:
            self.helpers.append(_Context(self.game, self.tt_bits, self))
        return [self, *self.helpers[: workers - 1]]

    def clear(self) -> None:
        self.tt[:, self.kernel.T_INFO] = -1

    def reset_stats(self, flags: int) -> None:
        self.stats[:] = 0
        self.stats[self.kernel.ST_FLAGS] = flags  # techniques switched off (measurements only)

    def stop(self) -> None:
        """Make this context's search (running in any thread) return at once, writing nothing."""
        self.stats[self.kernel.ST_ABORT] = 1

    def resume(self) -> None:
        self.stats[self.kernel.ST_ABORT] = 0

    def scale(self, enc: tuple[int, ...]) -> int:
        return int(self.kernel.scale_of(enc[0], enc[1], enc[2], self.tab))

    def search(self, enc: tuple[int, ...], alpha: int, beta: int) -> int:
        return int(
            self.kernel.search(*enc, alpha, beta, 0, self.tab, self.tt, self.buf, self.stats)
        )

    def child(self, enc: tuple[int, ...], code: int) -> tuple[int, ...]:
        return tuple(int(x) for x in self.kernel.apply_move(*enc, code, self.tab))

    def ordered_moves(self, enc: tuple[int, ...]) -> list[int]:
        """A decision's moves in the search's order (by key, the Ifrit's placements first by how
        few placements they leave the Jinn), as the kernel orders them without a table move."""
        turn, step, bag, _temple, draft, jt, it, jm, im, stacks = enc
        ply = self.kernel.MAXPLY - 1
        n = self.kernel.gen_moves(
            turn, step, bag, draft, jt, it, jm, im, stacks, self.tab, self.buf, ply, self.stats
        )
        out, keys = self.buf[ply, 0], self.buf[ply, 1]
        if step == IFRIT_PLACE and n > 1:
            self.kernel.order_by_replies(jt, jm, im, out, keys, n, self.tab)
        listed = [(int(out[i]), int(keys[i])) for i in range(n)]
        return [code for code, _key in sorted(listed, key=lambda m: -m[1])]

    def moves(self, enc: tuple[int, ...]) -> list[tuple[int, int]]:
        """(code, key) pairs: ordering keys for decisions, ways for draws."""
        turn, step, bag, _temple, draft, jt, it, jm, im, stacks = enc
        ply = self.kernel.MAXPLY - 1
        n = self.kernel.gen_moves(
            turn, step, bag, draft, jt, it, jm, im, stacks, self.tab, self.buf, ply, self.stats
        )
        return [(int(self.buf[ply, 0, i]), int(self.buf[ply, 1, i])) for i in range(n)]

    @property
    def aborted(self) -> bool:
        return bool(self.stats[1])

    @property
    def nodes(self) -> int:
        return int(self.stats[0])


_CONTEXTS: dict[Any, _Context] = {}
_ONE_SOLVE_AT_A_TIME = threading.Lock()
"""Solves in one process take turns (the kernel runs without Python's lock, and a context's
buffers serve one search at a time)."""


def supported(game: AkrosGame) -> bool:
    """Whether the kernel handles this board (its encodings have fixed widths)."""
    board = game.board
    return (
        board.size <= 19
        and max(board.bag) <= 7
        and board.tile_count - rules.TILES_DRAWN * rules.BAG_TURNS >= 0
        and board.tile_count <= 15 * 3
    )


def _context(game: AkrosGame, tt_bits: int) -> _Context:
    key = (game, tt_bits)
    ctx = _CONTEXTS.get(key)
    if ctx is None:
        if not supported(game):
            raise GamehallError(
                f"the Akros exact solver handles boards of at most 19 regions and 7 tiles per "
                f"environment; {game.board.name!r} is not one"
            )
        _CONTEXTS.clear()  # one table at a time (memory)
        ctx = _CONTEXTS[key] = _Context(game, tt_bits)
    return ctx


def _encode(state: AkrosState) -> tuple[int, ...]:
    bag = state.bag[0] | state.bag[1] << 4 | state.bag[2] << 8
    temple = 0
    for p, pile in enumerate(state.temple):
        for tile in pile:
            temple += 1 << (2 * (3 * p + tile))
    draft = 0
    for tile in state.draft:
        draft += 1 << (2 * tile)
    jt = -1 if state.jinn_tile is None else state.jinn_tile
    it = -1 if state.ifrit_tile is None else state.ifrit_tile
    jm = rules.servants_mask(state.jinn)
    im = rules.servants_mask(state.ifrit)
    stacks = 0
    for r, height in enumerate(state.stacks):
        stacks |= height << (3 * r)
    return (state.turn, state.step, bag, temple, draft, jt, it, jm, im, stacks)


def _action_code(action: Any) -> int:
    if isinstance(action, Place):
        return action.region << 8 | action.source
    if isinstance(action, Remove):
        return 0
    if isinstance(action, KeepDiscard):
        return action.keep
    if isinstance(action, Keep):
        return action.tile
    raise ValueError(f"{action!r} is not an Akros player action")


def _final_margins(enc: tuple[int, ...], board: Any) -> tuple[int, int, int]:
    _turn, _step, _bag, _temple, _draft, _jt, _it, jm, im, stacks = enc
    margin = [0, 0, 0]
    for r in board.region_ids:
        height = stacks >> (3 * (r - 1)) & 7
        if im >> r & 1:
            margin[board.environments[r]] += 1 + height
        elif jm >> r & 1:
            margin[board.environments[r]] -= 1 + height
    return (margin[0], margin[1], margin[2])


# --- solving --------------------------------------------------------------------------------------


class _OutOfTime(Exception):
    pass


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


class _Alarm:
    """Stops every search of ``team`` once ``seconds`` have passed (None: never): a timer thread
    sets each context's abort flag, which the kernel reads at every node (the kernel keeps no
    clock: it runs without Python's lock). Used as a ``with`` block around one solve; leaving it
    disarms the timer, so a late ring cannot stop the next solve."""

    def __init__(self, team: list[_Context], seconds: float | None) -> None:
        self.team = team
        self.seconds = seconds
        self.lock = threading.Lock()
        self.armed = True
        self.rung = False
        self.timer: threading.Timer | None = None

    def ring(self) -> None:
        with self.lock:
            if self.armed:
                self.rung = True
                for member in self.team:
                    member.stop()

    def resume(self, members: list[_Context]) -> None:
        """Let ``members``, stopped by another thread (not by this alarm), search again; after
        the alarm has rung they stay stopped."""
        with self.lock:
            if not self.rung:
                for member in members:
                    member.resume()

    def __enter__(self) -> _Alarm:
        if self.seconds is not None:
            if self.seconds <= 0:
                self.ring()
            else:
                self.timer = threading.Timer(self.seconds, self.ring)
                self.timer.daemon = True
                self.timer.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        with self.lock:
            self.armed = False
        if self.timer is not None:
            self.timer.cancel()


def _search_split(
    team: list[_Context], enc: tuple[int, ...], alpha: int, beta: int, alarm: _Alarm
) -> int:
    """A decision's value, fail-soft in (alpha, beta), by the threads together: the plies above
    the first draw are searched here, the first move by this same search (its own moves split in
    turn, its draw by :func:`_search_outcomes`), then every later move is tested by whichever
    thread is free, against the bound known when it starts (a null window, and a second search
    where the move proves better), as the kernel's principal variation search does one after
    the other. A move that ends the node stops the others (their searches write nothing).
    Raises :class:`_OutOfTime` when the alarm rings."""
    lead = team[0]
    turn, step = enc[0], enc[1]
    if step == DRAW:
        found = _search_outcomes(team, enc, alarm)
        if found is None:
            raise _OutOfTime
        return found
    if step == rules.OVER or turn > THREADS_TO_TURN:
        value = lead.search(enc, alpha, beta)
        if lead.aborted:
            raise _OutOfTime
        return value
    maximise = step in (IFRIT_KEEP, IFRIT_PLACE)
    children = [lead.child(enc, code) for code in lead.ordered_moves(enc)]
    best = _search_split(team, children[0], alpha, beta, alarm)
    bounds = [max(alpha, best), beta] if maximise else [alpha, min(beta, best)]
    if bounds[0] >= bounds[1] or len(children) == 1:
        return best
    queue = iter(range(1, len(children)))
    lock = threading.Lock()
    found = [best]
    state = {"cut": False}

    def work(member: _Context) -> None:
        while True:
            with lock:
                if state["cut"] or alarm.rung:
                    return
                i = next(queue, None)
                if i is None:
                    return
                lo, hi = bounds
            child = children[i]
            if maximise:
                v = member.search(child, lo, lo + 1)
                if not member.aborted and lo < v < hi:
                    v = member.search(child, v - 1, hi)
            else:
                v = member.search(child, hi - 1, hi)
                if not member.aborted and lo < v < hi:
                    v = member.search(child, lo, v + 1)
            with lock:
                if member.aborted:  # the node was cut by another move, or the time ran out
                    alarm.resume([member])
                    return
                if maximise:
                    found[0] = max(found[0], v)
                    bounds[0] = max(bounds[0], v)
                else:
                    found[0] = min(found[0], v)
                    bounds[1] = min(bounds[1], v)
                if bounds[0] >= bounds[1] and not state["cut"]:
                    state["cut"] = True
                    for other in team:
                        if other is not member:
                            other.stop()

    threads = [threading.Thread(target=work, args=(m,), daemon=True) for m in team[1:]]
    for thread in threads:
        thread.start()
    work(lead)
    for thread in threads:
        thread.join()
    if state["cut"]:
        alarm.resume(team)
    if alarm.rung:
        raise _OutOfTime
    return found[0]


def _search_outcomes(team: list[_Context], enc: tuple[int, ...], alarm: _Alarm) -> int | None:
    """A draw's value, its outcomes searched by one thread per context (the kernel runs without
    Python's lock); None when the time ran out.

    Each thread takes the next outcome, heaviest first. The threads share one table, so what one
    proves about a position the others reach is theirs too. The value is that of one search of
    the draw: at the root nothing cuts (the window is the whole scale), so every outcome is
    searched whole either way, and the draw's value is their sum weighted by their ways.

    A thread with no outcome left to take helps one still being searched: it searches that
    outcome's moves from the last in the search's order back, each on the whole window, and what
    it proves waits in the table for the thread that owns the outcome. It stops when the owner is
    done (the owner stops its search: an aborted search writes nothing)."""
    lead = team[0]
    outcomes = sorted(lead.moves(enc), key=lambda m: -m[1])
    children = [(ways, lead.child(enc, code)) for code, ways in outcomes]
    values: list[int | None] = [None] * len(children)
    running: set[int] = set()
    helping: dict[int, list[_Context]] = {}  # outcome -> the contexts helping its owner
    queue = iter(range(len(children)))
    lock = threading.Lock()  # over running, helping, the queue and stopping a helper

    def own(member: _Context, i: int) -> None:
        child = children[i][1]
        value = member.search(child, -1, member.scale(child) + 1)
        with lock:
            running.discard(i)
            if not member.aborted:  # an owner is stopped only by the alarm
                values[i] = value
            for helper in helping.pop(i, []):
                helper.stop()  # the owner is done: its helpers stop

    def assist(member: _Context, i: int) -> None:
        position = children[i][1]
        moves = sorted(member.moves(position), key=lambda m: m[1])  # the search's order, reversed
        for code, _key in moves:
            with lock:
                if i not in running or member.aborted:
                    return
            grandchild = member.child(position, code)
            member.search(grandchild, -1, member.scale(grandchild) + 1)

    def work(member: _Context, first: int | None) -> None:
        i = first
        helped_before: set[int] = set()
        while not alarm.rung:
            if i is not None:
                own(member, i)
            with lock:
                i = next(queue, None)
                if i is not None:
                    running.add(i)
                    continue
                # nothing left to take: help the heaviest outcome still searched
                busy = sorted(running - helped_before)
                if not busy:
                    return
                helped = busy[0]
                helped_before.add(helped)
                helping.setdefault(helped, []).append(member)
            assist(member, helped)
            with lock:
                if member in helping.get(helped, []):
                    helping[helped].remove(member)
                alarm.resume([member])  # stopped by the owner, not by the alarm

    first = next(queue)
    running.add(first)
    threads = [threading.Thread(target=work, args=(m, None), daemon=True) for m in team[1:]]
    for thread in threads:
        thread.start()
    work(lead, first)
    for thread in threads:
        thread.join()
    if alarm.rung or any(v is None for v in values):
        return None
    return sum(
        ways * v for (ways, _child), v in zip(children, values, strict=True) if v is not None
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
