"""Self-play runs that give the same results on one core, many cores, or a Dask cluster.

Reproducibility: game ``i`` of a run with seed ``S`` is fully decided by :func:`game_seed`
``(S, i)`` (numpy's ``SeedSequence`` over the pair, never Python's salted ``hash``): chance is
drawn from ``random.Random(seed)`` and the agent in seat ``k`` is ``make_agent(spec, seed +
1000 * (k + 1))``, as ``gamehall play --auto --seed`` seeds them, so a stored game can be replayed
from its seed alone. Which worker plays a game, and in what order games finish, changes nothing.

Sides alternate: in even games player A takes seat 0 (Dark, the Jinn) and B seat 1; odd games swap.

Random and greedy players (``random``/``beginner``, ``greedy``/``easy``) are played by the
game's compiled simulator where it has one (:mod:`gamehall.fast`): the same players, so the
same law for every statistic, far faster. Such a game is decided by its seed through the
simulator's own generator (``fast.play(game, seed, seats)``), and its record is a real one: the
simulator's actions are replayed through the engine's checked door (:meth:`State.apply`) before
anything is counted or stored.

Workers get a :class:`RunSpec` holding the game as its record tags (for a game on a custom board,
the board itself), so a Dask worker on another machine needs no board file.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from gamehall.ai import make_agent
from gamehall.analysis.metrics import collector_for
from gamehall.core import Game, GamehallError, PlayedGame, game_class, make_record, play_game
from gamehall.fast import plays_itself, simulator_for

SEED_BITS = 63


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``run_seed`` (a 63-bit integer that SQLite
    stores exactly). Independent of workers, order and machine."""
    if run_seed < 0 or index < 0:
        raise ValueError("seeds and game indices are non-negative")
    words = np.random.SeedSequence([run_seed, index]).generate_state(2, dtype=np.uint32)
    return (int(words[0]) << 32 | int(words[1])) & ((1 << SEED_BITS) - 1)


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` (the convention of ``gamehall play``)."""
    return seed + 1000 * (seat + 1)


@dataclass(frozen=True)
class RunSpec:
    """Everything a worker needs to play any game of a run (small and picklable)."""

    game_name: str
    game_tags: tuple[tuple[str, str], ...]
    players: tuple[str, str]
    seed: int
    label: str = ""
    """Free text naming the run (a tournament pairing, a board) for progress and storage."""

    @classmethod
    def make(cls, game: Game, players: Sequence[str], seed: int, label: str = "") -> RunSpec:
        if game.num_players != 2:
            raise GamehallError(f"self-play analysis needs a two-player game, not {game.name}")
        if len(players) != 2:
            raise GamehallError(f"give two players, A,B (got {len(players)})")
        return cls(
            game.name,
            tuple(sorted(game.record_tags().items())),
            (players[0], players[1]),
            seed,
            label,
        )

    def game(self) -> Game:
        return _game(self.game_name, self.game_tags)

    def seats(self, index: int) -> tuple[str, str]:
        """Who sits where in game ``index``: A first in even games, B first in odd ones."""
        a, b = self.players
        return (a, b) if index % 2 == 0 else (b, a)

    def parameters(self) -> dict[str, Any]:
        """What decides the results (stored with a run; a resumed run must match it)."""
        return {
            "game": self.game_name,
            "game_tags": dict(self.game_tags),
            "players": list(self.players),
            "seed": self.seed,
        }


@lru_cache(maxsize=16)
def _game(name: str, tags: tuple[tuple[str, str], ...]) -> Game:
    """The game from its record tags, made once per worker process."""
    return game_class(name).from_record_tags(dict(tags))


def _simulated(game: Game, seed: int, seats: tuple[str, str], collector: Any) -> PlayedGame | None:
    """The game played by the compiled simulator when both seats are players it plays itself,
    replayed through the engine's checked door for the collector (None: the engine plays)."""
    simulator = simulator_for(game)
    if simulator is None or not all(plays_itself(name) for name in seats):
        return None
    actions = simulator.trajectory(game, seed, seats)
    if actions is None:
        return None
    state = game.new_initial_state()
    played = PlayedGame(game, [state])
    for action in actions:
        after = state.apply(action)  # the checked door: a real game of the rules
        collector.observe(state, action, after)
        played.actions.append(action)
        played.states.append(after)
        state = after
    if not state.is_terminal():
        raise GamehallError(f"a simulated {game.name} game stopped before its end")
    return played


def play_one(spec: RunSpec, index: int) -> dict[str, Any]:
    """Play game ``index`` of the run and return its row: result, metrics and record."""
    game = spec.game()
    seed = game_seed(spec.seed, index)
    seats = spec.seats(index)
    collector = collector_for(game.name)
    played = _simulated(game, seed, seats, collector)
    if played is None:
        agents = [make_agent(name, agent_seed(seed, seat)) for seat, name in enumerate(seats)]
        played = play_game(game, agents, seed=seed, on_action=collector.observe)
    final = played.final
    outcome = final.outcome()
    if outcome is None:  # pragma: no cover - play_game runs to the end
        raise GamehallError(f"game {index} did not finish")
    a_seat = 0 if index % 2 == 0 else 1
    winner = outcome.winner
    record = make_record(game, played.actions, players=seats, seed=seed, final=final)
    row: dict[str, Any] = {
        "game_index": index,
        "seed": seed,
        "a_seat": a_seat,
        "seat0": seats[0],
        "seat1": seats[1],
        "winner": winner,
        "winner_name": None if winner is None else game.player_names[winner],
        "winner_side": None if winner is None else ("A" if winner == a_seat else "B"),
        "reason": outcome.reason,
        "score0": outcome.scores[0],
        "score1": outcome.scores[1],
        "actions": len(played.actions),
        "decisions": collector.decisions,
        "forced": collector.forced,
    }
    row.update(collector.finish(final))
    row["record"] = str(record)
    return row


def play_batch(spec: RunSpec, indices: Sequence[int]) -> list[dict[str, Any]]:
    """Play several games (one task for a worker: fewer round trips for short games)."""
    return [play_one(spec, index) for index in indices]


def collect(
    batches: Iterable[list[dict[str, Any]]],
    store: Any,
    on_row: Callable[[dict[str, Any]], None] | None,
) -> dict[int, dict[str, Any]]:
    """Take finished games as they arrive: commit each to ``store`` (if any) before telling
    ``on_row``; return the rows by game index."""
    rows: dict[int, dict[str, Any]] = {}
    for batch in batches:
        for row in batch:
            if store is not None:
                store.add(row)
            rows[row["game_index"]] = row
            if on_row is not None:
                on_row(row)
    return rows


def selfplay(
    spec: RunSpec,
    games: int,
    *,
    store: Any = None,
    workers: int = 1,
    scheduler: str | None = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Play games ``0..games-1`` of a run and return their rows by index.

    With a ``store`` (:class:`~gamehall.analysis.store.RunStore`), games already stored are
    skipped (resume) and every new game is committed as soon as it arrives; ``on_row`` is told of
    each new row (the progress bar). An exception from ``on_row`` (Ctrl-C) stops the run and keeps
    what was stored.
    """
    done = store.done() if store is not None else set()
    todo = [index for index in range(games) if index not in done]
    batches = run_tasks(play_batch, spec, todo, workers=workers, scheduler=scheduler)
    rows = collect(batches, store, on_row)
    if store is not None:
        return [row for row in store.rows() if row["game_index"] < games]
    return [rows[index] for index in sorted(rows)]


# --- running tasks: in process, on local cores, or on a Dask cluster ------------------------------


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def batches(items: Sequence[Any], workers: int, largest: int = 16) -> list[list[Any]]:
    """Split ``items`` into batches small enough to keep every worker busy and the progress bar
    moving, big enough that short games are not swamped by task overhead."""
    if not items:
        return []
    size = max(1, min(largest, len(items) // (4 * max(1, workers)) or 1))
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def run_tasks(
    function: Callable[..., list[Any]],
    first: Any,
    items: Sequence[Any],
    *,
    workers: int = 1,
    scheduler: str | None = None,
    largest_batch: int = 16,
) -> Iterator[list[Any]]:
    """Run ``function(first, batch)`` over batches of ``items`` and yield each batch's results as
    it finishes (in any order).

    ``scheduler``: the address of an existing Dask scheduler (``tcp://host:port``); otherwise
    ``workers`` local processes (1: in this process, no pool). Closing the iterator (Ctrl-C)
    cancels the work not yet started.
    """
    if scheduler is not None:
        yield from _run_dask(function, first, items, scheduler, largest_batch)
        return
    if workers <= 1:
        for batch in batches(items, 1, largest=1):
            yield function(first, batch)
        return
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from multiprocessing import get_context

    # "spawn": the parent runs threads (Rich's live display), which do not survive a fork safely.
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=get_context("spawn"), initializer=_ignore_interrupts
    )
    pending: set[Any] = set()
    try:
        todo: Iterable[list[Any]] = iter(batches(items, workers, largest_batch))
        # Keep a bounded number of batches in flight, so an interrupt leaves little queued.
        for batch in todo:
            pending.add(pool.submit(function, first, batch))
            if len(pending) >= 2 * workers:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    finally:
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops handing out work and keeps what is done
    (a terminal sends SIGINT to the whole process group)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_dask(
    function: Callable[..., list[Any]],
    first: Any,
    items: Sequence[Any],
    address: str,
    largest_batch: int,
) -> Iterator[list[Any]]:
    try:
        from dask.distributed import Client, as_completed
    except ImportError as error:  # pragma: no cover - depends on the install
        raise GamehallError(
            "--scheduler needs dask.distributed: pip install 'dask[distributed]'"
        ) from error
    try:
        client = Client(address, timeout="10s")
    except (OSError, TimeoutError) as error:
        raise GamehallError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    try:
        workers = max(1, sum(client.nthreads().values()))
        chunks = batches(items, workers, largest_batch)
        futures = client.map(function, [first] * len(chunks), chunks, pure=False)
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            client.cancel(futures)
    finally:
        client.close()
