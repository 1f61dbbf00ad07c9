"""Hints on the web: the best moves of a game's position, from :mod:`gamehall.ai.hints`.

Hints are given in games against the computer and hot-seat games, to a person holding the seat
to move; never in online games (a hint there would be help from an engine against a person), and
the server refuses them there with ``no_hints``. A hint is worked out in the hint lane's worker
process (:class:`~gamehall.web.compute.workers.Lane`, off the event loop) within a bounded budget
(:data:`HINT_SECONDS`, plus the short lines of play after exact hints), at most
:data:`PER_MINUTE` a minute and one at a time per player, and kept for the position: asked
again, it is not worked out again.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from typing import Any

from gamehall.protocol import ErrorCode, HintAnswer, ProtocolError
from gamehall.web.base.engine import derived_seed, make_game, replay
from gamehall.web.base.position import Position
from gamehall.web.compute.workers import InFlight, Lane, RateLimit

log = logging.getLogger("gamehall.web")

HINT_SECONDS = 3.0
"""The budget of a hint on the web (the solver, then MCTS for what it does not settle)."""
HINT_COUNT = 3
"""How many moves a hint shows."""
PER_MINUTE = 6
"""Hints a player may ask for in a minute (one at a time; one refused as ``busy`` is not
counted)."""
PER_ADDRESS = 2
"""Hints being worked out at once for one network address (of the lane's few)."""
KEPT = 256
"""Positions whose hints are kept."""
HINT_MODES = ("computer", "hotseat")


def worker_hint(
    game_name: str,
    options_json: str,
    setup: str | None,
    actions: list[str],
    count: int,
    seconds: float,
    seed: int,
) -> dict[str, Any]:
    """In a worker: the hints of the position after ``actions``, as the answer's fields, told
    in the same sentences as the terminal's (:func:`gamehall.ai.hint_words.tell`)."""
    from gamehall.ai.hint_words import tell
    from gamehall.ai.hints import advise

    game = make_game(game_name, options_json)
    state = replay(game, actions, checked=False, setup=setup)  # stored actions, checked then
    advice = advise(state, count=count, seconds=seconds, seed=seed)
    told = tell(advice)
    return {
        "to_move": advice.player,
        "to_move_name": state.player_name(advice.player),
        "headline": told.headline,
        "summary": told.summary,
        "unit": told.unit,
        "note": told.note,
        "proven": advice.proven,
        "seconds": round(advice.seconds, 3),
        "hints": [
            {
                "move": str(hint.action),
                "sentence": words.sentence,
                "label": words.label,
                "words": words.move,
                "outlook": words.outlook,
                "method": hint.method,
                "details": list(words.details),
                "line_kind": words.line_kind,
                "line_words": list(words.line),
                "evaluation": hint.evaluation,
                "visits": hint.visits,
                "line": [str(a) for a in hint.line],
                "line_exact": hint.line_exact,
            }
            for hint, words in zip(advice.hints, told.hints, strict=True)
        ],
    }


class HintService:
    """Hints for live games (see the module docstring)."""

    def __init__(
        self,
        lane: Lane,
        *,
        seconds: float = HINT_SECONDS,
        count: int = HINT_COUNT,
        per_minute: int = PER_MINUTE,
    ) -> None:
        self.lane = lane
        self.seconds = seconds
        self.count = count
        self.limit = RateLimit("hint", per_minute, 60.0)
        self.addresses = InFlight("hint", PER_ADDRESS)
        self._kept: OrderedDict[tuple[str, int], HintAnswer] = OrderedDict()
        self._working: dict[tuple[str, int], asyncio.Future[HintAnswer]] = {}

    @staticmethod
    def check(position: Position, seats: frozenset[int], version: int | None) -> None:
        """Refuse a hint this reader may not have (ProtocolError naming why)."""
        if position.mode not in HINT_MODES:
            raise ProtocolError(
                ErrorCode.NO_HINTS,
                f"hints are not given in {position.mode} games, only in games against the "
                "computer and hot-seat games",
            )
        state = position.state
        if state.is_terminal():
            raise ProtocolError(ErrorCode.GAME_OVER, "the game is over: there is no move to hint")
        if not seats:
            raise ProtocolError(
                ErrorCode.NOT_YOUR_SEAT, "hints are for the players of the game; you are watching"
            )
        player = state.current_player
        if player < 0 or player not in seats:
            raise ProtocolError(
                ErrorCode.NOT_YOUR_TURN,
                f"hints are for the player to move, and {state.player_name()} is to move",
            )
        if version is not None and version != position.version:
            raise ProtocolError(
                ErrorCode.STALE_VERSION,
                f"the hint was asked for version {version}, and the game is at {position.version}",
            )

    async def hint(
        self,
        position: Position,
        seats: frozenset[int],
        player_id: str,
        version: int | None = None,
        address: str = "",
    ) -> HintAnswer:
        """The hints for ``position``, for a reader holding ``seats`` (at ``address``)."""
        self.check(position, seats, version)
        key = (position.game_id, position.version)
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        working = self._working.get(key)
        if working is not None:  # asked twice at once (two tabs): worked out once
            return await asyncio.shield(working)
        with self.addresses.hold(address), self.limit.hold(player_id):
            future: asyncio.Future[HintAnswer] = asyncio.get_running_loop().create_future()
            self._working[key] = future
            try:
                fields = await self.lane.run(
                    worker_hint,
                    position.game.name,
                    json.dumps(dict(position.game.options), sort_keys=True),
                    position.setup,
                    list(position.actions),
                    self.count,
                    self.seconds,
                    derived_seed(position.seed, "hint", position.version) % 2**31,
                    client=player_id,
                )
                answer = HintAnswer(id=position.game_id, version=key[1], **fields)
                future.set_result(answer)
            except Exception as error:
                if not isinstance(error, ProtocolError):
                    log.exception("hint for %s at %d failed", position.game_id, key[1])
                    error = ProtocolError(
                        ErrorCode.ANALYSIS_FAILED, f"the hint could not be worked out: {error}"
                    )
                future.set_exception(error)
                future.exception()  # retrieved: no warning when nobody else waited
                raise error from None
            except BaseException:
                future.cancel()
                raise
            finally:
                del self._working[key]
        self._kept[key] = answer
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return answer


__all__ = ["HINT_SECONDS", "HintService", "worker_hint"]
