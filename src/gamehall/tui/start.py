"""``gamehall tui`` with no game: the start screen.

Choose the game (every registered plugin, through the registry: no game is named here), the
side you play (or both, hot-seat), the computer's level and a clock, then Play; or resume one
of the unfinished games the terminal keeps (:func:`gamehall.tui.session.saved_games`, online
ones included); or connect to a game of a running server by its link. The screen only chooses:
it hands back a :data:`StartChoice`, and ``gamehall tui`` opens the game it names.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, OptionList, Select, Static
from textual.widgets.option_list import Option

from gamehall.ai import LEVELS
from gamehall.core import GamehallError, Record
from gamehall.core.registry import plugins

HOT_SEAT = "*both"
"""The side choice for two people at one keyboard (no seat name starts with ``*``)."""
NO_CLOCK = "none"
CLOCKS: tuple[tuple[str, str], ...] = (
    ("No clock", NO_CLOCK),
    ("1 minute", "1"),
    ("3 minutes + 2 s a move", "3+2"),
    ("5 minutes", "5"),
    ("10 minutes + 5 s a move", "10+5"),
    ("15 minutes + 10 s a move", "15+10"),
    ("30 minutes", "30"),
)
DEFAULT_LEVEL = "easy"


@dataclass(frozen=True)
class NewGame:
    """A new game at this terminal: ``side`` is the seat you play (None: every seat, hot-seat),
    ``level`` the computer's for the other seats, ``clock`` a time control's text or None."""

    game: str
    side: str | None
    level: str
    clock: str | None

    def players(self, seats: tuple[str, ...]) -> dict[str, str]:
        """Each seat's player: ``human`` for yours (all of them, hot-seat), else the level."""
        return {
            seat: "human" if self.side is None or seat == self.side else self.level
            for seat in seats
        }


@dataclass(frozen=True)
class ResumeGame:
    """Go on with a saved game (an online one reconnects)."""

    path: Path


@dataclass(frozen=True)
class ConnectTo:
    """Play or watch a game of a running server, by its link."""

    url: str


StartChoice = NewGame | ResumeGame | ConnectTo


def saved_label(path: Path, record: Record) -> Text:
    """A saved game as the resume list shows it: the game, who plays, how far, when."""
    tags = record.tags
    try:
        game = record.game()
        title, seats = game.title, game.player_names
    except GamehallError:
        title, seats = tags.get("Game", "?"), ()
    who = ", ".join(f"{s.capitalize()} {tags.get(s.capitalize(), '?')}" for s in seats)
    moves = len(record.actions)
    when = datetime.datetime.fromtimestamp(path.stat().st_mtime).strftime("%d %b %H:%M")
    label = Text(title, style="bold")
    if "GameId" in tags:
        label.append(" · online", style="bold")
    label.append(f" · {who} · {moves} move{'s' * (moves != 1)} · {when}")
    return label


class StartScreen(Screen[StartChoice | None]):
    """The start screen (see the module docstring)."""

    DEFAULT_CSS = """
    StartScreen { layout: vertical; }
    StartScreen #start-title {
        height: 1; background: $accent; color: $text; text-style: bold; padding: 0 1;
    }
    StartScreen #start-body { height: 1fr; max-width: 100; padding: 0 1; }
    StartScreen .heading { text-style: bold; margin-top: 1; }
    StartScreen .label { width: 8; height: 1; }
    StartScreen .row { height: 1; margin-bottom: 1; }
    StartScreen .row Select { width: 1fr; }
    StartScreen #game-summary { color: $text-muted; height: auto; }
    StartScreen #play { margin-left: 8; min-width: 12; }
    StartScreen #connect { margin-left: 1; min-width: 11; }
    StartScreen #saved { height: auto; max-height: 8; }
    StartScreen #url { width: 1fr; }
    StartScreen #start-error { color: $error; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "leave", "quit"),
    ]

    def __init__(self, saved: list[tuple[Path, Record]] | None = None) -> None:
        super().__init__()
        self.games = {name: plugin for name, plugin in sorted(plugins().items())}
        self.saved = saved if saved is not None else _saved()

    def compose(self) -> ComposeResult:
        yield Static("gamehall · start a game", id="start-title")
        with VerticalScroll(id="start-body"):
            yield Static("New game", classes="heading")
            first = next(iter(self.games))
            with Horizontal(classes="row"):
                yield Static("Game", classes="label")
                yield Select(
                    [(plugin.game.title, name) for name, plugin in self.games.items()],
                    value=first,
                    allow_blank=False,
                    compact=True,
                    id="game",
                )
            yield Static(id="game-summary")
            with Horizontal(classes="row"):
                yield Static("Side", classes="label")
                yield Select(self._sides(first), allow_blank=False, compact=True, id="side")
            with Horizontal(classes="row"):
                yield Static("Level", classes="label")
                yield Select(
                    [(f"{name.capitalize()} · {what}", name) for name, what in LEVELS.items()],
                    value=DEFAULT_LEVEL,
                    allow_blank=False,
                    compact=True,
                    id="level",
                )
            with Horizontal(classes="row"):
                yield Static("Clock", classes="label")
                yield Select(
                    list(CLOCKS), value=NO_CLOCK, allow_blank=False, compact=True, id="clock"
                )
            yield Button("Play", id="play", variant="primary", compact=True)
            yield Static("Resume a saved game", classes="heading")
            if self.saved:
                yield OptionList(
                    *(
                        Option(saved_label(path, record), id=str(index))
                        for index, (path, record) in enumerate(self.saved)
                    ),
                    id="saved",
                )
            else:
                yield Static("No unfinished game is saved yet.", id="saved-none")
            yield Static("Connect to a server", classes="heading")
            yield Static("A game's link: http://HOST:PORT/game/ID (a seat link seats you).")
            with Horizontal(classes="row"):
                yield Input(placeholder="http://HOST:PORT/game/ID", compact=True, id="url")
                yield Button("Connect", id="connect", compact=True)
            yield Static(id="start-error")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self._game_chosen()
        self.query_one("#game", Select).focus()

    def _sides(self, name: str) -> list[tuple[str, str]]:
        seats = self.games[name].game.player_names
        options = [
            (f"{seat.capitalize()}" + (" (moves first)" if index == 0 else ""), seat)
            for index, seat in enumerate(seats)
        ]
        options.append(("Every side: hot-seat, people take turns at this keyboard", HOT_SEAT))
        return options

    def _game_chosen(self) -> None:
        name = str(self.query_one("#game", Select).value)
        plugin = self.games[name]
        summary = plugin.summary
        self.query_one("#game-summary", Static).update(summary)
        side = self.query_one("#side", Select)
        options = self._sides(name)
        if side.value not in [value for _, value in options]:
            side.set_options(options)
            side.value = options[0][1]

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "game":
            self._game_chosen()
        elif event.select.id == "side":
            self.query_one("#level", Select).disabled = event.value == HOT_SEAT

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "play":
            self.dismiss(self.new_game())
        elif event.button.id == "connect":
            self._connect()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "url":
            self._connect()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        index = int(event.option.id or 0)
        self.dismiss(ResumeGame(self.saved[index][0]))

    def new_game(self) -> NewGame:
        side = str(self.query_one("#side", Select).value)
        clock = str(self.query_one("#clock", Select).value)
        return NewGame(
            game=str(self.query_one("#game", Select).value),
            side=None if side == HOT_SEAT else side,
            level=str(self.query_one("#level", Select).value),
            clock=None if clock == NO_CLOCK else clock,
        )

    def _connect(self) -> None:
        from gamehall.tui.remote import parse_link

        url = self.query_one("#url", Input).value.strip()
        error = self.query_one("#start-error", Static)
        if not url:
            error.update("Give the game's link first (the address of its page on the server).")
            return
        try:
            parse_link(url)
        except GamehallError as problem:
            error.update(str(problem))
            return
        self.dismiss(ConnectTo(url))

    def action_leave(self) -> None:
        self.dismiss(None)


def _saved() -> list[tuple[Path, Record]]:
    from gamehall.tui.session import saved_games

    return saved_games()


class StartApp(App[StartChoice | None]):
    """The start screen on its own: its answer is the app's return value."""

    TITLE = "gamehall"

    def __init__(self, saved: list[tuple[Path, Record]] | None = None) -> None:
        super().__init__()
        self.saved = saved

    def on_mount(self) -> None:
        self.push_screen(StartScreen(self.saved), self.exit)


def choose() -> StartChoice | None:
    """Show the start screen; what was chosen (None: the person left)."""
    return StartApp().run()
