"""Threads that search together for the exact solver: a draw's outcomes side by side, a
decision's later moves while the first is searched, and the alarm that stops them all when the
time is up. Private to :mod:`gamehall.games.akros.solver`."""

from __future__ import annotations

import threading

from gamehall.games.akros import rules
from gamehall.games.akros.rules import DRAW, IFRIT_KEEP, IFRIT_PLACE
from gamehall.games.akros.solver_context import _Context

THREADS_TO_TURN = 6
"""Threads search together up to this turn (later searches take milliseconds)."""


class _OutOfTime(Exception):
    pass


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
