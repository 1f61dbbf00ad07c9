"""Tic-tac-toe, as OpenSpiel writes a game: the facts first, then a small immutable state.

Cross and Nought take turns putting their mark on an empty square of a board of three by three,
Cross first. Three of one side's marks in a row, a column or a diagonal win; a full board
without three in a row is a draw.

Squares are named as on a chess board, files a to c from left to right and ranks 1 to 3 from the
bottom up, and a square's dense index is ``file + 3 * rank`` (python-chess's A1 = 0)::

    rank 3    6 7 8      a3 b3 c3
    rank 2    3 4 5      a2 b2 c2
    rank 1    0 1 2      a1 b1 c1
              a b c

Notation::

    position  x.o/.x./..o   the ranks from 3 down to 1, separated by /: x, o or . (empty);
                            whose turn it is follows from the marks (Cross moves first)
    action    b2            the mover puts a mark on b2
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from gamehall.core import (
    TERMINAL,
    Action,
    Game,
    InvalidStateError,
    NotationError,
    Option,
    Outcome,
    State,
)

FILES, RANKS = "abc", "123"
CROSS, NOUGHT = 0, 1
MARKS = "xo"
"""Each seat's mark, by seat index."""
EMPTY = "."
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
"""The eight rows, columns and diagonals, as square indices."""


@dataclass(frozen=True, slots=True)
class Place:
    """The mover puts a mark on ``square`` (0 to 8, a1 = 0)."""

    square: int

    def __str__(self) -> str:
        return FILES[self.square % 3] + RANKS[self.square // 3]

    def __repr__(self) -> str:
        return f"Place.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Place:
        name = text.strip().lower()
        if len(name) != 2 or name[0] not in FILES or name[1] not in RANKS:
            raise NotationError("tic-tac-toe move", text, "a square a1 to c3, e.g. 'b2'")
        return Place(FILES.index(name[0]) + 3 * RANKS.index(name[1]))


class TicTacToeGame(Game):
    """Tic-tac-toe on a board of three by three; no options."""

    name: ClassVar[str] = "tictactoe"
    title: ClassVar[str] = "Tic-tac-toe"
    player_names: ClassVar[tuple[str, ...]] = ("cross", "nought")
    rules_version: ClassVar[str] = "1"
    option_specs: ClassVar[tuple[Option, ...]] = ()

    @property
    def max_game_length(self) -> int:
        return 9

    def new_initial_state(self) -> TicTacToeState:
        return TicTacToeState(self, EMPTY * 9)

    def parse_state(self, text: str) -> TicTacToeState:
        ranks = text.strip().lower().split("/")
        if len(ranks) != 3 or any(len(rank) != 3 or set(rank) - set("xo.") for rank in ranks):
            raise NotationError(
                "tic-tac-toe position",
                text,
                "three ranks of x, o or . from rank 3 down to rank 1, e.g. 'x.o/.x./...'",
            )
        state = TicTacToeState(self, "".join(reversed(ranks)))
        state.validate()
        return state

    def parse_action(self, text: str) -> Action:
        return Place.parse(text)

    @property
    def num_distinct_actions(self) -> int:
        return 9

    def action_index(self, action: Action) -> int:
        if not isinstance(action, Place) or not 0 <= action.square < 9:
            raise ValueError(f"{action!r} is not a move of tic-tac-toe")
        return action.square

    def index_action(self, index: int) -> Place:
        if not 0 <= index < 9:
            raise ValueError(f"action index {index} is outside 0..8")
        return Place(index)

    def action_parts(self, action: Action) -> dict[str, Any]:
        """The square as its file and rank (0 to 2 each), for the board to find it."""
        assert isinstance(action, Place)
        return {"kind": "place", "file": action.square % 3, "rank": action.square // 3}


@dataclass(frozen=True, slots=True)
class TicTacToeState(State):
    """The nine squares a1 to c3, each ``x``, ``o`` or ``.``."""

    game: TicTacToeGame
    board: str

    def validate(self) -> None:
        """A position the rules can reach: Cross moves first, and nobody moves after a win."""
        crosses, noughts = self.board.count("x"), self.board.count("o")
        if crosses - noughts not in (0, 1):
            raise InvalidStateError(
                f"tic-tac-toe position {self}: {crosses} crosses and {noughts} noughts "
                "(Cross moves first, so there are as many crosses as noughts, or one more)"
            )
        rows = {self.board[line[0]] for line in LINES if self._three(line)}
        if rows == {"x", "o"}:
            raise InvalidStateError(f"tic-tac-toe position {self}: both sides have three in a row")
        if (rows == {"x"} and crosses == noughts) or (rows == {"o"} and crosses > noughts):
            winner = "Cross" if rows == {"x"} else "Nought"
            raise InvalidStateError(f"tic-tac-toe position {self}: a move after {winner} won")

    def _three(self, line: tuple[int, ...]) -> bool:
        a, b, c = (self.board[square] for square in line)
        return a != EMPTY and a == b == c

    def winning_line(self) -> tuple[int, ...] | None:
        """Three in a row wins: the first line (in LINES order) that holds one side's marks."""
        return next((line for line in LINES if self._three(line)), None)

    @property
    def current_player(self) -> int:
        """Cross moves first; the game ends at three in a row or a full board."""
        if self.winning_line() is not None or EMPTY not in self.board:
            return TERMINAL
        return CROSS if self.board.count("x") == self.board.count("o") else NOUGHT

    def legal_actions(self) -> tuple[Action, ...]:
        """Any empty square, in square order (the dense-index order)."""
        if self.is_terminal():
            return ()
        return tuple(Place(square) for square, mark in enumerate(self.board) if mark == EMPTY)

    def apply_trusted(self, action: Action) -> TicTacToeState:
        assert isinstance(action, Place)
        square, mark = action.square, MARKS[self.current_player]
        return TicTacToeState(self.game, self.board[:square] + mark + self.board[square + 1 :])

    def explain_illegal(self, action: Action) -> str:
        if isinstance(action, Place) and self.board[action.square] != EMPTY:
            taken = self.game.player_names[MARKS.index(self.board[action.square])]
            return f"{action} is taken by {taken}"
        return super().explain_illegal(action)

    def _winner(self) -> int | None:
        line = self.winning_line()
        return None if line is None else MARKS.index(self.board[line[0]])

    def returns(self) -> tuple[float, ...]:
        winner = self._winner()
        if winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if winner == CROSS else (-1.0, 1.0)

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        winner, line = self._winner(), self.winning_line()
        if winner is None or line is None:
            return Outcome(None, "the board is full without three in a row", self.returns())
        squares = " ".join(str(Place(square)) for square in line)
        reason = f"{self.game.player_names[winner].capitalize()} has three in a row: {squares}"
        return Outcome(winner, reason, self.returns())

    def view(self) -> dict[str, Any]:
        """The position text, each square's mark (a1 to c3) and the winning line, if any."""
        line = self.winning_line()
        return {"position": str(self), "marks": list(self.board), "line": line and list(line)}

    def __str__(self) -> str:
        return "/".join(self.board[start : start + 3] for start in (6, 3, 0))
