"""Game review on the web: a finished game reviewed once, in the background, kept with the game.

``POST /api/games/{id}/review`` asks for the review of a finished game: the first ask claims it
in the store (``reviews``, status ``queued``) and starts a background job in the review lane's
worker (:class:`~gamehall.web.compute.workers.Lane`: a process of its own, so a long review holds up no
hint and no computer move); every later ask, from anyone, gets the same job's progress or the
stored result (asked twice, it is computed once). A review is started only for one of the
game's players or a signed-in account (``account_needed`` otherwise; anyone may read one that
is done), and one network address has at most :data:`PER_ADDRESS` reviews in flight. The result is stored with the game, so it
survives a restart, and a server that restarts with reviews unfinished carries them on.

The review itself is :func:`gamehall.ai.review.review` on the game's record with the web's
budget (:data:`BUDGET`: per position, and a bound on the whole review however long the game).
What is stored is what the review page draws (:class:`~gamehall.protocol.ReviewData`, less
the board views of the best moves, which are made when it is read) and the annotated record.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from gamehall.core import GamehallError, Record
from gamehall.protocol import (
    ErrorCode,
    ProtocolError,
    ReviewAnswer,
    ReviewData,
    ReviewMove,
)
from gamehall.web.base.engine import played_item
from gamehall.web.base.position import Load, Position, StoreCall
from gamehall.web.compute.workers import InFlight, Lane, Progress, RateLimit

log = logging.getLogger("gamehall.web")

BUDGET: dict[str, float] = {
    "seconds": 5.0,
    "simulations": 1000,
    "estimate_seconds": 1.0,
    "total_seconds": 300.0,
}
"""The web's review budget: the solver's time per position, the MCTS simulations (and time) of
each estimated position, and the whole review's time after which only the positions the solver
settles quickly are solved (the rest estimated)."""
PER_HOUR = 20
PER_ADDRESS = 4
"""Reviews queued or running at once for one network address (of the lane's
:data:`~gamehall.web.http.assist.REVIEWS_QUEUED`)."""
"""Reviews a player may ask for in an hour."""
KEPT = 32
"""Reviews kept in memory, ready to send (the store keeps them all)."""


# --- in the worker -------------------------------------------------------------------------------


def worker_review(
    record_text: str, budget: dict[str, float], progress: Progress | None = None
) -> dict[str, Any]:
    """Review a record (in the review lane's worker); what the store keeps (see the module
    docstring): ``data`` (the review page's fields) and ``annotated`` (the record's text)."""
    from gamehall.ai.review import review

    record = Record.parse(record_text)
    result = review(
        record,
        seconds=budget["seconds"],
        simulations=int(budget["simulations"]),
        estimate_seconds=budget["estimate_seconds"],
        total_seconds=budget.get("total_seconds"),
        progress=progress,
    )
    return {"data": review_data(result), "annotated": str(result.annotated())}


def review_data(result: Any) -> dict[str, Any]:
    """A :class:`gamehall.ai.review.Review` as the review page's fields (JSON-ready)."""
    from gamehall.ai.review import judgement_json  # in the worker, as review() is
    from gamehall.ai.review_summary import value_change

    names = result.game.player_names
    moves = []
    for move in result.moves:
        note = move.annotation()
        moves.append(
            {
                "number": move.number,
                "player": move.player,
                "move": str(move.action),
                "before": note.before,
                "after": note.after,
                "cost": note.cost,
                "exact": move.exact,
                "verdict": move.verdict,
                "best": note.best,
                "forced": move.forced,
                "comment": str(note),
                "words": move.words,
                "value_words": value_change(
                    result.kind,
                    names[move.player].capitalize(),
                    move.before.point,
                    move.after.point,
                    exact=move.exact,
                ),
            }
        )
    return {
        "kind": result.kind.value,
        "unit": result.unit,
        "perspective": names[0],
        "judgement": judgement_json(result.judgement),
        "budget": {k: float(v) for k, v in result.budget.items()},
        "seconds": round(result.seconds, 3),
        "moves": moves,
        "summary": [player.to_json() for player in result.players()],
        "series": series(result),
        "unfinished": unfinished_words(result),
    }


def unfinished_words(result: Any) -> str | None:
    """For the review page, how a game that stopped before its end was reviewed, in a player's
    words (the annotated record keeps the record's own note, with its tags)."""
    if result.unfinished is None:
        return None
    ended = result.record.tags.get("Ending", "").strip()
    how = (
        f"The game ended before its last position was played out ({ended})"
        if ended
        else ("The game ended before its last position was played out")
    )
    if not result.moves:
        return f"{how}, and no player made a move: there is nothing to judge."
    return (
        f"{how}, so each move is judged against the best play from its position; there is no "
        "final result of the board to measure them against."
    )


def series(result: Any) -> list[dict[str, Any]]:
    """The evaluation graph's points from the first seat's side: the value before each judged
    move, then after the last. Exact values are points; an estimate has a band (its 95%
    interval within the proven bounds), bare bounds a band and no point. Two-player games only
    (a value from one side gives the other's)."""
    if result.game.num_players != 2 or not result.moves:
        return []
    kind = result.kind
    points = [(m.number, m.before, m.player) for m in result.moves]
    last = result.moves[-1]
    points.append((last.number + 1, last.after, last.player))
    found = []
    for number, evaluation, player in points:
        value = evaluation.point
        if evaluation.exact or evaluation.estimate is None:
            low, high = evaluation.lower, evaluation.upper
        else:
            low, high = evaluation.interval or (evaluation.estimate, evaluation.estimate)
            # Each end moved inside the proven bounds: an interval lying wholly outside them
            # becomes the bound it overshot, never a band whose low end is above its high one.
            low, high = evaluation.within_bounds(low), evaluation.within_bounds(high)
        if evaluation.exact:
            low = high = evaluation.value
        if player != 0:
            value = None if value is None else kind.other(value)
            low, high = kind.other(high), kind.other(low)
        found.append(
            {
                "number": number,
                "value": None if value is None else float(value),
                "low": float(low) if math.isfinite(low) else None,
                "high": float(high) if math.isfinite(high) else None,
                "exact": evaluation.exact,
            }
        )
    return found


# --- on the server -------------------------------------------------------------------------------


@dataclass
class _Job:
    status: str
    done: int
    total: int
    task: asyncio.Task[None] | None = None
    address: str = ""
    """The network address that asked for it ("" for one carried on after a restart)."""


class ReviewService:
    """Background reviews of finished games (see the module docstring)."""

    def __init__(
        self,
        lane: Lane,
        budget: dict[str, float] | None = None,
        *,
        db: StoreCall,
        store: Any,
        load: Load,
    ) -> None:
        self.db = db
        """Runs a method of ``store`` (the reviews' rows) off the event loop."""
        self.store = store
        self.load = load
        """Finds a game's position (with its record) by id."""
        self.lane = lane
        self.budget = dict(budget or BUDGET)
        self.limit = RateLimit("review", PER_HOUR, 3600.0, at_once=PER_HOUR)
        self.addresses = InFlight("review", PER_ADDRESS)
        self.jobs: dict[str, _Job] = {}
        self._ready: OrderedDict[str, ReviewData] = OrderedDict()
        self._annotated: OrderedDict[str, str] = OrderedDict()
        self._lock = asyncio.Lock()

    async def start(self) -> None:
        """Carry on the reviews a previous run of the server did not finish."""
        for game_id in await self.db(self.store.unfinished_reviews):
            try:
                position = await self.load(game_id)
            except ProtocolError as error:
                await self.db(self.store.set_review, game_id, "failed", error=error.message)
                continue
            self._launch(position)

    async def stop(self) -> None:
        tasks = [job.task for job in self.jobs.values() if job.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def request(
        self,
        position: Position,
        player_id: str,
        *,
        player: bool = True,
        signed_in: bool = False,
        address: str = "",
    ) -> ReviewAnswer:
        """Ask for the review of ``position``'s game (with its record), once it has ended (by the
        rules or off the board: the moves played are judged): start it if nobody has
        (and the asker is one of its players, ``player``, or ``signed_in``), else its progress
        or result."""
        if not (position.over or position.state.is_terminal()):
            raise ProtocolError(
                ErrorCode.NOT_FINISHED,
                f"game {position.game_id} is not finished: a game is reviewed once it is over",
            )
        async with self._lock:  # one claim at a time in this server (the store guards others)
            answer = await self.status(position)
            if answer.status in ("queued", "running", "done"):
                return answer
            if not player and not signed_in:
                raise ProtocolError(
                    ErrorCode.ACCOUNT_NEEDED,
                    "a review is started by one of the game's players or a signed-in account; "
                    "sign in to ask for the review of a game you watched",
                )
            self.addresses.check(address, sum(job.address == address for job in self.jobs.values()))
            with self.limit.hold(player_id):
                if len(self.jobs) >= self.lane.limit:
                    raise ProtocolError(
                        ErrorCode.BUSY,
                        f"the server has {len(self.jobs)} reviews to do already; "
                        "ask again in a little while",
                    )
                _, claimed = await self.db(self.store.claim_review, position.game_id, self.budget)
                if claimed:
                    self._launch(position, player_id, address)
            return await self.status(position)

    def _launch(self, position: Position, client: str = "", address: str = "") -> None:
        """Start the review job, in turn with ``client``'s others (who asked for it, from
        ``address``)."""
        if position.record is None:
            raise ValueError(f"the position of game {position.game_id} is given without a record")
        job = _Job("queued", 0, position.decisions(), address=address)
        self.jobs[position.game_id] = job
        job.task = asyncio.get_running_loop().create_task(self._run(position, job, client))

    async def _run(self, position: Position, job: _Job, client: str) -> None:
        def progress(done: int, total: int) -> None:
            job.status, job.done, job.total = "running", done, total

        store = self.store
        game_id = position.game_id
        try:
            result = await self.lane.run(
                worker_review, position.record, self.budget, progress=progress, client=client
            )
            await self.db(store.set_review, game_id, "done", result=json.dumps(result))
        except asyncio.CancelledError:  # the server is stopping: carried on at its next start
            raise
        except Exception as error:
            reason = error.message if isinstance(error, ProtocolError) else str(error)
            if not isinstance(error, ProtocolError | GamehallError):
                log.exception("review of %s failed", game_id)
            with contextlib.suppress(Exception):
                await self.db(store.set_review, game_id, "failed", error=reason)
        finally:
            self.jobs.pop(game_id, None)

    async def status(self, position: Position) -> ReviewAnswer:
        """Where the review of ``position``'s game is: never asked for, queued, running (with
        its progress), done (with the review) or failed (with why)."""
        game_id = position.game_id
        job = self.jobs.get(game_id)
        if job is not None:
            return ReviewAnswer(id=game_id, status=job.status, done=job.done, total=job.total)  # type: ignore[arg-type]
        total = position.decisions()
        ready = self._ready.get(game_id)
        if ready is not None:
            return ReviewAnswer(id=game_id, status="done", done=total, total=total, review=ready)
        row = await self.db(self.store.get_review, game_id)
        if row is None:
            return ReviewAnswer(id=game_id, status="none", done=0, total=total)
        if row.status != "done" or row.result is None:
            # queued or running without a job here: another server on the same store has it
            return ReviewAnswer(
                id=game_id,
                status=row.status,  # type: ignore[arg-type]
                done=0,
                total=total,
                error=row.error,
            )
        stored = json.loads(row.result)
        data = await asyncio.to_thread(with_best_moves, position, stored["data"])
        self._keep(self._ready, game_id, data)
        self._keep(self._annotated, game_id, stored["annotated"])
        return ReviewAnswer(id=game_id, status="done", done=total, total=total, review=data)

    async def annotated(self, position: Position) -> str:
        """The game's record with the review's comments (ProtocolError(no_review) before)."""
        text = self._annotated.get(position.game_id)
        if text is None:
            answer = await self.status(position)
            text = self._annotated.get(position.game_id)
            if answer.status != "done" or text is None:
                raise ProtocolError(
                    ErrorCode.NO_REVIEW, f"game {position.game_id} has no finished review yet"
                )
        return text

    @staticmethod
    def _keep(kept: OrderedDict[str, Any], key: str, value: Any) -> None:
        kept[key] = value
        kept.move_to_end(key)
        while len(kept) > KEPT:
            kept.popitem(last=False)


def with_best_moves(position: Position, data: dict[str, Any]) -> ReviewData:
    """The stored review with each best alternative as an item and the board's view after it."""
    states = position.states()
    moves = []
    for move in data["moves"]:
        best_item = best_view = None
        if move["best"] is not None:
            before = states[move["number"] - 1]
            try:
                action = before.parse_action(move["best"])
            except GamehallError:  # pragma: no cover - the review found it in this position
                action = None
            if action is not None:
                best_item = played_item(before, action)
                best_view = before.apply_trusted(action).view()
        moves.append(ReviewMove(**move, best_item=best_item, best_view=best_view))
    summary = [_current_summary(player) for player in data["summary"]]
    return ReviewData(**{**data, "moves": moves, "summary": summary})


_OLD_SUMMARY = ("given_up", "given_up_estimated")
"""Fields of a player's summary in reviews stored before it was told as accuracy and counts:
such a review is read without them (its accuracy and worst moment unknown, its counts kept)."""


def _current_summary(player: dict[str, Any]) -> dict[str, Any]:
    """A stored player's summary as the wire has it now."""
    player = {k: v for k, v in player.items() if k not in _OLD_SUMMARY}
    classes = player.get("classes", {})
    player.setdefault("mistakes", classes.get("mistake", 0))
    player.setdefault("blunders", classes.get("blunder", 0))
    return player


__all__ = ["BUDGET", "ReviewService", "review_data", "series", "worker_review"]
