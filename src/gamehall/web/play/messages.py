"""The state message written as text: the part fixed within a version, the history delta, the seats.

A state message is written as text, not built as a :class:`~gamehall.protocol.StateMessage` model
and serialised: the server makes one after every action and presence change, and validating what
the server itself made cost more than the rest of the message. Its fields are plain data in the
model's order, serialised by pydantic's own serialiser (``pydantic_core.to_json``), so the text is
the one ``StateMessage.model_dump_json`` would write; the tests hold the two equal, and the REST
answer (:meth:`~gamehall.web.play.live.LiveGame.state_message`) is still the validated model.

A message is written in three parts. The fields from ``type`` to ``mode`` do not change within a
version (:class:`Fixed`, written once per version, with the legal actions). The fields that change
with presence and time (:data:`DYNAMIC`) are written at each broadcast, once for every reader. The
history (:data:`HISTORY`) is a delta for each reader: the game's actions after those the reader
still has right (``since``: the actions it was sent that no takeback has undone since).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic_core import to_json

from gamehall.core import Game
from gamehall.protocol import LegalAction, SeatInfo
from gamehall.store.rows import GameRow
from gamehall.web.base.engine import legal_entries, parts_of
from gamehall.web.play.history import Played

DYNAMIC = ("seats", "rematch", "clock", "pause", "takeback", "absent", "abortable", "table")
"""The state message's fields written when it is sent (they change with presence and time)."""
HISTORY = ("since", "actions", "movers", "words", "chapters", "ends")
"""The state message's history fields, a delta for each reader."""


@dataclass(frozen=True)
class Fixed:
    """What a game's state messages share within one version."""

    version: int
    static: dict[str, Any]
    """StateMessage's fields from ``type`` to ``mode``, as plain data."""
    head: str
    """Their JSON, without the closing brace."""
    legal: list[LegalAction]
    legal_json: str

    @classmethod
    def of(cls, played: Played, game_id: str, mode: str) -> Fixed:
        """The fixed part of the game ``game_id`` as ``played`` stands: its fields, their JSON,
        the legal items and their JSON (each item's text is written once per game and action)."""
        static = static_fields(played, game_id, mode)
        legal = (
            legal_entries(played.state, played.state.legal_actions())
            if static["to_move"] is not None
            else []
        )
        head = to_json(static).decode()
        return cls(
            played.version,
            static,
            head[:-1],
            [item for item, _ in legal],
            "[" + ",".join(text for _, text in legal) + "]",
        )


def static_fields(played: Played, game_id: str, mode: str) -> dict[str, Any]:
    """The fields that do not change within a version (StateMessage's, ``type`` to ``mode``)."""
    state, game = played.state, played.game
    ended = played.ended is not None
    player = state.current_player if not ended else -1
    last = None
    if played.actions:
        action = game.parse_action(played.actions[-1])
        last = {
            "text": str(action),
            "mover": played.movers[-1],
            "words": played.words[-1],
            "chapter": played.chapters[-1],
            "end": played.ends[-1],
            **parts_of(game, action),
        }
    return {
        "type": "state",
        "version": played.version,
        "game": game.name,
        "rules_version": game.rules_version,
        "id": game_id,
        "position": str(state),
        "view": state.view(),
        "to_move": player if player >= 0 else None,
        "to_move_name": state.player_name() if not ended else "nobody",
        "last": last,
        "over": played.over,
        "outcome": played.outcome(),
        "status": "finished" if played.over else "ongoing",
        "mode": mode,
    }


def history_text(played: Played, since: int) -> str:
    """The history fields' JSON from ``since``'s value on, for a reader who had version
    ``since``: the actions it does not have right."""
    kept = played.kept(since)
    actions = json.dumps(played.actions[kept:], ensure_ascii=False, separators=(",", ":"))
    movers = json.dumps(played.movers[kept:], separators=(",", ":"))
    words = json.dumps(played.words[kept:], ensure_ascii=False, separators=(",", ":"))
    chapters = json.dumps(played.chapters[kept:], ensure_ascii=False, separators=(",", ":"))
    ends = json.dumps(played.ends[kept:], ensure_ascii=False, separators=(",", ":"))
    return (
        f'{kept},"actions":{actions},"movers":{movers},"words":{words},'
        f'"chapters":{chapters},"ends":{ends}'
    )


def splice(head: str, history: str, you: Iterable[int], legal: str) -> str:
    """The whole message: its JSON up to ``"since":``, the history, the reader's seats and the
    legal items (the message ends with since, actions, movers, words, chapters, ends, you and
    legal)."""
    seats = ",".join(str(seat) for seat in sorted(you))
    return f'{head}{history},"you":[{seats}],"legal":{legal}}}'


def seat_infos(
    game: Game | type[Game],
    row: GameRow,
    players: dict[int, str] | None = None,
    bots: frozenset[int] = frozenset(),
) -> list[SeatInfo]:
    """The seats of a stored game as the protocol shows them (never their tokens), with the
    names of the players holding them if given, and which are bot accounts."""
    players = players or {}
    return [
        SeatInfo(
            index=index,
            name=game.player_names[index],
            kind=seat.kind,  # type: ignore[arg-type]
            level=seat.level,
            player=players.get(index),
            bot=index in bots,
        )
        for index, seat in enumerate(row.seats)
    ]


__all__ = ["DYNAMIC", "HISTORY", "Fixed", "history_text", "seat_infos", "splice", "static_fields"]
