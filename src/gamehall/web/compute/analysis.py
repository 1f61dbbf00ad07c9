"""The analysis board on the web: any position of a game, every legal move with its value.

A stranger's request names a game, its options, a position (a position text, a stored game's
position, or the start) and a line of moves played from it; the server checks each through the
game's own doors (:meth:`~gamehall.core.Game.parse_state`, ``parse_action``) and refuses what
does not parse (``bad_position``), what cannot occur (``impossible_position``) or a move the
rules forbid (``illegal_move``), changing nothing. Then the position where the line ends is
judged by :func:`gamehall.ai.analysis_board.evaluate_moves` in the hint lane's worker
(:class:`~gamehall.web.compute.workers.Lane`, off the event loop, bounded in time and memory
like a hint) within :data:`ANALYSIS_SECONDS`, at most :data:`PER_MINUTE` a minute and one at a
time per player, :data:`PER_ADDRESS` at once per network address, and kept per position (asked
again, it is not worked out again). Chance steps and ends need no search and are answered at
once (off the event loop too).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from gamehall.ai.analysis_board import chance_outcomes, evaluate_moves
from gamehall.core import GamehallError, State, UnknownGameError, game_class
from gamehall.core.errors import InvalidStateError, TooManyOutcomesError
from gamehall.protocol import (
    AnalysisAnswer,
    AnalysisMove,
    AnalysisOutcome,
    AnalysisStep,
    ErrorCode,
    ProtocolError,
)
from gamehall.web.base.engine import legal_items, make_game, played_item
from gamehall.web.base.limits import check_options, shorten_echoes
from gamehall.web.base.settings import Settings
from gamehall.web.compute.workers import InFlight, Lane, RateLimit

log = logging.getLogger("gamehall.web")

ANALYSIS_SECONDS = 3.0
"""The budget of one position's evaluation on the web."""
PER_MINUTE = 30
"""Positions a player may have evaluated in a minute (one at a time; kept ones are free)."""
PER_ADDRESS = 2
"""Evaluations worked out at once for one network address."""
KEPT = 1024
"""Positions whose evaluations are kept."""
QUEUED = 4
"""Evaluations waiting or being worked out at once, server-wide (beyond: ``busy``)."""


def worker_analysis(
    game_name: str, options_json: str, position: str, seconds: float, seed: int
) -> dict[str, Any]:
    """In a worker: the values of every legal move of ``position`` (checked by the server)."""
    state = make_game(game_name, options_json).parse_state(position)
    board = evaluate_moves(state, seconds=seconds, seed=seed)
    return {
        "moves": [move.to_json(assessment=False) for move in board.moves],
        "headline": board.position_text,
        "unit": board.unit,
        "proven": board.proven,
        "seconds": round(board.seconds, 3),
    }


@dataclass(frozen=True)
class Resolved:
    """A request made sense of: the game, its start, the line played and where it ends."""

    game_name: str
    options_json: str
    options: dict[str, Any]
    start: State
    steps: list[AnalysisStep]
    state: State


def parse_position(game: Any, text: str) -> State:
    """``text`` as a position of ``game``, refused in words as the game says: does not parse
    (``bad_position``), cannot occur (``impossible_position``)."""
    try:
        return game.parse_state(text)  # type: ignore[no-any-return]
    except InvalidStateError as error:
        raise ProtocolError(
            ErrorCode.IMPOSSIBLE_POSITION, shorten_echoes(str(error), [text])
        ) from None
    except GamehallError as error:
        raise ProtocolError(ErrorCode.BAD_POSITION, shorten_echoes(str(error), [text])) from None
    except Exception as error:  # a parser that raised something else: still the text's fault
        log.warning("%s.parse_state raised %r", game.name, error)
        raise ProtocolError(
            ErrorCode.BAD_POSITION, f"the position text does not parse: {error}"[:300]
        ) from None


def resolve(
    game_name: str,
    options: dict[str, Any],
    position: str | None,
    line: list[str],
    draw: bool,
    settings: Settings,
    rng: random.Random,
) -> Resolved:
    """Check a request and play its line (on a thread: replays and views take a while)."""
    try:
        cls = game_class(game_name)
    except UnknownGameError as error:
        raise ProtocolError(ErrorCode.UNKNOWN_GAME, str(error)) from None
    check_options(cls, options, settings)
    options_json = json.dumps(options, sort_keys=True)
    try:
        game = make_game(cls.name, options_json)
    except GamehallError as error:
        given = [*options, *options.values()]
        raise ProtocolError(ErrorCode.BAD_OPTION, shorten_echoes(str(error), given)) from None
    start = game.new_initial_state() if position is None else parse_position(game, position)
    state = start
    steps: list[AnalysisStep] = []
    for number, text in enumerate(line, 1):
        if state.is_terminal():
            raise ProtocolError(
                ErrorCode.ILLEGAL_MOVE, f"move {number} of the line comes after the game is over"
            )
        try:
            action = state.parse_action(text)
        except GamehallError as error:
            raise ProtocolError(
                ErrorCode.ILLEGAL_MOVE,
                f"move {number} of the line: {shorten_echoes(str(error), [text])}",
            ) from None
        steps.append(_step(state, action))
        state = state.apply_trusted(action)
    if draw and state.is_chance_node():
        action = state.sample_chance(rng)
        steps.append(_step(state, action))
        state = state.apply_trusted(action)
    return Resolved(cls.name, options_json, dict(options), start, steps, state)


def position_start(
    game_name: str, options: dict[str, Any], position: str, settings: Settings
) -> tuple[Any, str]:
    """A new game's start from a position text (the analysis board's "Play on from here"):
    the game with ``options`` and the position, checked by the game (``bad_position``,
    ``impossible_position``) and refused where the game is over (``bad_start``)."""
    resolved = resolve(game_name, options, position, [], False, settings, random.Random(0))
    if resolved.state.is_terminal():
        raise ProtocolError(ErrorCode.BAD_START, "the game is over in this position")
    return resolved.state.game, str(resolved.state)


def _step(state: State, action: Any) -> AnalysisStep:
    after = state.apply_trusted(action)
    return AnalysisStep(played=played_item(state, action), position=str(after), view=after.view())


def _result(state: State) -> str:
    outcome = state.outcome()
    if outcome is None:
        return ""
    names = state.game.player_names
    if outcome.winner is None:
        return "Drawn"
    name = names[outcome.winner]
    return f"{name[:1].upper()}{name[1:]} wins"


def _chance(state: State) -> list[AnalysisOutcome] | None:
    try:
        outcomes = chance_outcomes(state)
    except TooManyOutcomesError:
        outcomes = None
    if outcomes is None:
        return None
    return [AnalysisOutcome(**outcome.to_json()) for outcome in outcomes]


class AnalysisService:
    """The analysis board's evaluations (see the module docstring)."""

    def __init__(
        self,
        lane: Lane,
        settings: Settings,
        *,
        seconds: float = ANALYSIS_SECONDS,
        per_minute: int = PER_MINUTE,
        per_address: int = PER_ADDRESS,
    ) -> None:
        self.lane = lane
        self.settings = settings
        self.seconds = seconds
        self.limit = RateLimit("position evaluation", per_minute, 60.0)
        self.addresses = InFlight("position evaluation", per_address)
        self._kept: OrderedDict[tuple[str, str, str], dict[str, Any]] = OrderedDict()
        self._working: dict[tuple[str, str, str], asyncio.Future[dict[str, Any]]] = {}
        self._rng = random.Random()

    async def analyse(
        self,
        game_name: str,
        options: dict[str, Any],
        position: str | None,
        line: list[str],
        *,
        draw: bool = False,
        player_id: str,
        address: str = "",
    ) -> AnalysisAnswer:
        """Check the request, play its line and judge where it ends (see the module docstring)."""
        resolved = await asyncio.to_thread(
            resolve, game_name, options, position, line, draw, self.settings, self._rng
        )
        state = resolved.state
        fields: dict[str, Any] = {
            "moves": [],
            "headline": "",
            "unit": "",
            "proven": True,
            "seconds": 0.0,
        }
        chance = None
        if state.is_chance_node():
            chance = await asyncio.to_thread(_chance, state)
        elif not state.is_terminal():
            fields = await self._evaluate(resolved, player_id, address)
        player = state.current_player
        return AnalysisAnswer(
            game=resolved.game_name,
            options=resolved.options,
            start=str(resolved.start),
            start_view=resolved.start.view(),
            steps=resolved.steps,
            position=str(state),
            view=state.view(),
            to_move=max(player, -1),
            to_move_name="Chance"
            if state.is_chance_node()
            else ("" if state.is_terminal() else _name(state.player_name(player))),
            over=state.is_terminal(),
            result=_result(state) if state.is_terminal() else "",
            legal=legal_items(state),
            moves=[AnalysisMove(**move) for move in fields["moves"]],
            chance=chance,
            chance_random=state.is_chance_node() and chance is None,
            headline=fields["headline"],
            unit=fields["unit"],
            proven=fields["proven"],
            seconds=fields["seconds"],
        )

    async def _evaluate(self, resolved: Resolved, player_id: str, address: str) -> dict[str, Any]:
        key = (resolved.game_name, resolved.options_json, str(resolved.state))
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        working = self._working.get(key)
        if working is not None:  # asked twice at once: worked out once
            return await asyncio.shield(working)
        with self.addresses.hold(address), self.limit.hold(player_id):
            future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self._working[key] = future
            try:
                fields = await self.lane.run(
                    worker_analysis,
                    resolved.game_name,
                    resolved.options_json,
                    key[2],
                    self.seconds,
                    0,
                    client=player_id,
                )
                future.set_result(fields)
            except Exception as error:
                if not isinstance(error, ProtocolError):
                    log.exception("analysis of %s %r failed", resolved.game_name, key[2])
                    error = ProtocolError(
                        ErrorCode.ANALYSIS_FAILED, f"the position could not be evaluated: {error}"
                    )
                future.set_exception(error)
                future.exception()  # retrieved: no warning when nobody else waited
                raise error from None
            except BaseException:
                future.cancel()
                raise
            finally:
                del self._working[key]
        self._kept[key] = fields
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return fields


def _name(name: str) -> str:
    return name[:1].upper() + name[1:]


__all__ = [
    "ANALYSIS_SECONDS",
    "AnalysisService",
    "parse_position",
    "position_start",
    "resolve",
    "worker_analysis",
]
