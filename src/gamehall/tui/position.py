"""The analysis board's panel for setting up a position by typing (or pasting) its text."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from gamehall.core import Game, GamehallError, State


class PositionScreen(ModalScreen[State | None]):
    """Ask for a position's text and give back the position (None: cancelled). Text the game
    cannot read is answered in words under the field, and nothing changes until it can."""

    DEFAULT_CSS = """
    PositionScreen { align: center middle; }
    PositionScreen > Vertical {
        width: 100; max-width: 96%; height: auto; border: thick $accent; background: $panel;
        padding: 1 2;
    }
    PositionScreen #position-error { color: $error; margin-top: 1; }
    PositionScreen .hint { color: $text-muted; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel", show=False)]

    def __init__(self, game: Game, current: str) -> None:
        super().__init__()
        self.game = game
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(f"Set up a position of {self.game.title}", style="bold"))
            yield Input(value=self.current, id="position-text")
            yield Static(id="position-error")
            yield Static(
                "The position's text, as gamehall writes it (p in a game shows it). "
                "Enter sets it up; Esc leaves the board as it was.",
                classes="hint",
            )

    def on_mount(self) -> None:
        self.query_one("#position-text", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        error = self.query_one("#position-error", Static)
        if not text:
            error.update("Type a position's text, or press Esc.")
            return
        try:
            state = self.game.parse_state(text)
        except GamehallError as problem:
            error.update(f"That is not a position of {self.game.title}: {problem}")
            return
        self.dismiss(state)

    def action_cancel(self) -> None:
        self.dismiss(None)
