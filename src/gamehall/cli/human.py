"""A person at the terminal as an agent: shows the position, reads a move, explains mistakes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console, RenderableType
from rich.markup import escape

from gamehall.core import Action, Agent, GamehallError, State


class QuitGame(Exception):
    """The person asked to stop the game."""


class HumanAgent(Agent):
    """Reads moves typed in notation; ``?`` lists the legal ones (numbered, a number picks one),
    ``quit`` stops the game (the record so far is kept when saving)."""

    name = "human"

    def __init__(
        self,
        console: Console,
        view: Callable[..., RenderableType],
        *,
        seat_name: str = "",
        read: Callable[[str], str] | None = None,
    ) -> None:
        self.console = console
        self.view = view
        self.seat_name = seat_name
        self.read = read or (lambda prompt: console.input(prompt))
        self.seat = -1
        self.last_action: Any = None

    def observe(self, state: State, action: Action) -> None:
        self.last_action = action

    def choose(self, state: State) -> Action:
        self.seat = state.current_player
        legal = state.legal_actions()
        self.console.print(self.view(state, self.last_action))
        who = state.player_name().capitalize()
        while True:
            try:
                text = self.read(f"[bold]{who}[/bold], your move (? lists moves, quit stops): ")
            except EOFError:
                raise QuitGame from None
            text = text.strip()
            if not text:
                continue
            if text.lower() in ("quit", "exit", "q"):
                raise QuitGame
            if text == "?":
                for number, action in enumerate(legal, 1):
                    self.console.print(f"  {number:>3}. {action}", highlight=False)
                continue
            if text.isascii() and text.isdigit() and 1 <= int(text) <= len(legal):
                return legal[int(text) - 1]
            try:
                return state.parse_action(text)
            except GamehallError as error:
                self.console.print(f"[red]{escape(str(error))}[/red]", highlight=False)
