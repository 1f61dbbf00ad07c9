"""The REST request bodies of games: create one, join one, ask for a hint, answer a puzzle.

Every text in a body is checked before any field is read (:class:`~gamehall.protocol.base._Body`);
the hall's bodies (names, accounts, seeks) are in :mod:`gamehall.protocol.hall`.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictStr

from gamehall.protocol.base import Mode, _Body

POSITION_CHARS = 2000
"""The longest position text a body may hold."""
LINE_MOVES = 200
"""The most moves a line of analysis may hold."""


class StartFrom(BaseModel):
    """Where a new game starts: the position of game ``game_id`` after its first ``step``
    actions (the server finds the position itself; a client never sends one)."""

    model_config = ConfigDict(extra="forbid")

    game_id: Annotated[str, Field(min_length=1, max_length=32)]
    step: Annotated[int, Field(ge=0, le=100_000)]


class CreateGame(_Body):
    """``POST /api/games``. ``clock`` is a time control: ``"5+3"`` (minutes each, seconds added
    per move; minutes may be fractional) or ``"d3"`` (days per move); none by default. With
    ``start``, the game (and its options) are those of the game it starts from."""

    model_config = ConfigDict(extra="forbid")

    game: Annotated[str, Field(min_length=1, max_length=64)]
    options: dict[str, bool | int | str] = Field(default_factory=dict)
    mode: Mode = "computer"
    seat: Annotated[int, Field(ge=0, le=16)] = 0
    level: Annotated[str, Field(max_length=64)] = "easy"
    clock: Annotated[str, Field(max_length=20)] | None = None
    start: StartFrom | None = None
    position: Annotated[StrictStr, Field(min_length=1, max_length=POSITION_CHARS)] | None = None
    """A position text of ``game`` (with ``options``) to start from instead of the beginning
    (the analysis board's "Play on from here"); checked by the game's own parser."""


AnalysisMoveText = Annotated[StrictStr, Field(min_length=1, max_length=100)]


class AnalysisRequest(_Body):
    """``POST /api/analysis/{game}``: the analysis board's position, with ``options`` (the
    game's; none: its defaults), then ``line`` played from it; the answer values every legal
    move where the line ends. The position is ``position`` (a position text), or ``start``
    (a stored game's position after ``step`` actions: the line starts at that game's start,
    with its options and its first ``step`` actions; a finished game, or one against the
    computer or hot-seat), or else the game's start. ``draw``: where the line
    ends at a chance step, the server draws its outcome at random and plays it too."""

    model_config = ConfigDict(extra="forbid")

    position: Annotated[StrictStr, Field(min_length=1, max_length=POSITION_CHARS)] | None = None
    options: Annotated[dict[str, bool | int | str], Field(max_length=16)] = Field(
        default_factory=dict
    )
    start: StartFrom | None = None
    line: Annotated[list[AnalysisMoveText], Field(max_length=LINE_MOVES)] = Field(
        default_factory=list
    )
    draw: bool = False


class HintRequest(_Body):
    """``POST /api/games/{id}/hint``: hints for the position at ``version`` (the current one;
    omitted: whatever is current)."""

    model_config = ConfigDict(extra="forbid")

    version: Annotated[int | None, Field(ge=0)] = None


class PuzzleTry(_Body):
    """``POST /api/puzzles/{game}/{id}/answer``: the move (the text of one of the puzzle's
    ``legal`` items)."""

    model_config = ConfigDict(extra="forbid")

    move: Annotated[StrictStr, Field(min_length=1, max_length=500)]


class Join(_Body):
    """``POST /api/games/{id}/join``."""

    model_config = ConfigDict(extra="ignore")

    seat: Annotated[str, Field(min_length=1, max_length=200)]
