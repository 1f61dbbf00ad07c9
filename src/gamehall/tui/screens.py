"""The terminal app's panels over the game: help, the position text, saving, and summaries."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

KEYS: tuple[tuple[str, str], ...] = (
    (
        "← → ↑ ↓",
        "move over the legal choices (your token, the tokens it takes; the tile, the region, the servant)",
    ),
    ("Enter", "pick the choice under the cursor; the last choice plays the move"),
    ("1–9", "pick the choice with that number"),
    ("Esc", "go back one step of the move (in the move line: back to the board)"),
    ("mouse", "click a highlighted choice"),
    ("/ or :", "type a move in notation (RTxBS, M5<10), Enter plays it"),
    ("h", "hint: the best moves with their values (exact where the solver settles it)"),
    ("u", "undo: back to your previous move (against the computer: its reply too)"),
    ("f", "flip the board"),
    ("s", "save the game's record to a file"),
    ("p", "show the position text and copy it to the clipboard"),
    ("?", "this help"),
    ("q, Ctrl-C", "quit (the game is saved after every move: gamehall tui --resume)"),
)
"""Every key of the app, for the help panel (and the README)."""


class Panel(ModalScreen[None]):
    """A box over the game with a title and a body; any of Esc, Enter, q or Space closes it.
    A body taller than the terminal scrolls (arrows, PgUp, PgDn, the mouse wheel)."""

    DEFAULT_CSS = """
    Panel { align: center middle; }
    Panel > VerticalScroll {
        width: 76; max-width: 96%; height: auto; max-height: 96%;
        border: thick $accent; background: $panel; padding: 1 2;
    }
    Panel > VerticalScroll:focus { background-tint: transparent; }
    Panel .title { text-style: bold; margin-bottom: 1; }
    Panel .hint { color: $text-muted; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,q,space", "close", "close", show=False),
    ]

    def __init__(self, title: str, body: RenderableType, *, hint: str = "Enter closes") -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.hint = hint

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.title_text, classes="title")
            yield Static(self.body, classes="body")
            yield Static(self.hint, classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)


def help_panel() -> Panel:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for key, meaning in KEYS:
        table.add_row(key, meaning)
    return Panel("Keys", table, hint="↑ ↓ PgUp PgDn scroll · Enter closes")


def position_panel(position: str, copied: bool) -> Panel:
    note = (
        "Copied to the clipboard (where the terminal allows it); select it to copy by hand."
        if copied
        else "Select it to copy."
    )
    body = Text.assemble((position, "bold"), "\n\n", (note, "dim"))
    body.append(
        '\nUse it with: gamehall hint GAME "POSITION", gamehall solve, --position.', style="dim"
    )
    return Panel("Position", body)


class SaveScreen(ModalScreen[Path | None]):
    """Ask for a file name and give it back (None: cancelled)."""

    DEFAULT_CSS = """
    SaveScreen { align: center middle; }
    SaveScreen > Vertical {
        width: 70; max-width: 96%; height: auto; border: thick $accent; background: $panel;
        padding: 1 2;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel", show=False)]

    def __init__(self, default: Path) -> None:
        super().__init__()
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Save the record to (Enter saves, Esc cancels):")
            yield Input(value=str(self.default), id="save-path")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.dismiss(Path(text).expanduser() if text else None)

    def action_cancel(self) -> None:
        self.dismiss(None)
