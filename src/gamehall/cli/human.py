"""A person at the terminal, line by line: ``gamehall play`` without the full-screen app.

:class:`LinePlay` runs a :class:`~gamehall.tui.session.Session`: computer moves and chance are
one line each, and the board is drawn once per turn of yours (at the first of your decisions
after someone else's), not after every step. At your turn type a move, or a command:

====================  ==============================================================
``?``                 list the legal moves (numbered; a number plays one)
``pos``               the position text (for ``gamehall hint``, ``solve``, ``--position``)
``hint``              the best moves with their values (exact where the solver settles it)
``undo``              back to your previous move (against the computer: its reply too)
``board``             draw the board again
``help``              these commands
``quit``              stop (the record so far is kept when saving)
====================  ==============================================================
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from rich.console import Console, RenderableType
from rich.markup import escape
from rich.text import Text

from gamehall.core import Action, Agent, GamehallError, State
from gamehall.core.words import Chapter, move_chapters, move_told, move_words, next_chapter

COMMANDS: tuple[tuple[str, str], ...] = (
    ("?", "list the legal moves (a number plays one)"),
    ("pos", "show the position text"),
    ("hint", "the best moves with their values"),
    ("undo", "back to your previous move"),
    ("board", "draw the board again"),
    ("help", "these commands"),
    ("quit", "stop the game"),
)
HINT_SECONDS = 2.0


class QuitGame(Exception):
    """The person asked to stop the game."""


class Undo(Exception):
    """The person asked to take their last move back."""


def read_move(
    console: Console,
    read: Callable[[str], str],
    state: State,
    *,
    redraw: Callable[[], None] | None = None,
    can_undo: bool = False,
) -> Action:
    """Ask the person to move until they give a legal move; commands are answered on the way.
    Raises :class:`QuitGame` (``quit``, end of input) and :class:`Undo` (``undo``)."""
    legal = state.legal_actions()
    who = state.player_name().capitalize()
    while True:
        try:
            text = read(f"[bold]{who}[/bold], your move (help lists commands): ")
        except EOFError:
            raise QuitGame from None
        text = text.strip()
        if not text:
            continue
        command = text.lower()
        if command in ("quit", "exit", "q"):
            raise QuitGame
        if text == "?":
            for line in move_columns(state, legal, console.width):
                console.print(line, highlight=False, soft_wrap=True)
            continue
        if command == "help":
            for name, meaning in COMMANDS:
                console.print(f"  {name:<6} {meaning}", highlight=False)
            console.print("  or type a move in notation", highlight=False)
            continue
        if command in ("pos", "position"):
            console.print(str(state), highlight=False, markup=False, soft_wrap=True)
            continue
        if command == "board":
            if redraw is not None:
                redraw()
            continue
        if command == "hint":
            _hint(console, state)
            continue
        if command == "undo":
            if not can_undo:
                console.print("[red]There is no move of yours to take back.[/red]")
                continue
            raise Undo
        if text.isascii() and text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        try:
            return state.parse_action(text)
        except GamehallError as error:
            console.print(f"[red]{escape(str(error))}[/red]", highlight=False)


def move_columns(state: State, legal: list[Action], width: int) -> list[Text]:
    """The legal moves, numbered, in as many columns as fit ``width`` (numbered down each
    column, as ``ls`` does): each in words, its notation dim beside it where the words do not
    hold it. No line is longer than ``width`` (unless one move alone is) or ends in spaces."""
    items = []
    digits = len(str(len(legal)))
    for number, action in enumerate(legal, 1):
        told, label = move_words(state, action), str(action)
        item = Text(f"{number:>{digits}}. {told}")
        if label not in told:
            item.append(f"  {label}", style="dim")
        items.append(item)
    if not items:
        return []
    gap, indent = 3, 2
    cell = max(item.cell_len for item in items)
    columns = max(1, (width - indent + gap) // (cell + gap))
    rows = -(-len(items) // columns)
    lines = []
    for row in range(rows):
        line = Text(" " * indent)
        cells = items[row::rows]
        for index, item in enumerate(cells):
            line.append_text(item)
            if index < len(cells) - 1:
                line.append(" " * (cell - item.cell_len + gap))
        lines.append(line)
    return lines


def _hint(console: Console, state: State) -> None:
    from gamehall.ai.hint_words import tell
    from gamehall.ai.hints import advise
    from gamehall.cli.exact import print_hints

    console.print(f"[dim]thinking up to {HINT_SECONDS:g} s…[/dim]")
    print_hints(console, tell(advise(state, count=3, seconds=HINT_SECONDS)))


class HumanAgent(Agent):
    """A person as an agent (for code that plays through agents): reads moves typed in
    notation, with the commands of :func:`read_move` (no undo)."""

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
        self.console.print(self.view(state, self.last_action))
        return read_move(
            self.console,
            self.read,
            state,
            redraw=lambda: self.console.print(self.view(state, self.last_action)),
        )


class LinePlay:
    """Play a session at the terminal line by line (see the module docstring)."""

    def __init__(
        self,
        session: Any,
        console: Console,
        view: Callable[..., RenderableType],
        *,
        read: Callable[[str], str] | None = None,
        show: bool = True,
    ) -> None:
        self.session = session
        self.console = console
        self.view = view
        self.read = read or (lambda prompt: console.input(prompt))
        self.show = show
        self.board_at: int | None = None
        self.chapters: list[Chapter] | None = None
        """The chapter of each action so far (None: not yet worked out; a resumed game's
        earlier round results are not told again)."""
        """The action count when the board was last drawn for a person (None: not yet)."""

    def say(self, text: str, style: str = "") -> None:
        if self.show:
            self.console.print(
                f"[{style}]{escape(text)}[/{style}]" if style else escape(text), highlight=False
            )

    def thinking(self, text: str) -> AbstractContextManager[object]:
        """A spinner with ``text`` while the computer thinks: it shows on a terminal once the
        wait passes a tenth of a second, and is wiped when the move comes (nothing is written
        to a file or a pipe)."""
        if not self.show:
            return nullcontext()
        return self.console.status(escape(text))

    def draw(self) -> None:
        session = self.session
        last = session.actions[-1] if session.actions else None
        self.console.print(self.view(session.state, last))
        self.board_at = len(session.actions)

    def _needs_board(self) -> bool:
        """A board at the first decision of each turn of yours: when anyone else has decided
        since the last board (chance and your own moves do not count)."""
        if self.board_at is None or self.board_at > len(self.session.actions):
            return True
        seat = self.session.state.current_player
        states = self.session.states[self.board_at : -1]
        return any(s.current_player >= 0 and s.current_player != seat for s in states)

    def run(self) -> None:
        """Play until the game ends; raises :class:`QuitGame` when the person stops."""
        session = self.session
        while not session.over:
            self._tell_round_ends()
            state = session.state
            who = state.player_name().capitalize()
            if session.chance_to_move():
                action, _ = session.play_chance()
                self.say(move_told(state, action), "dim")
                continue
            if session.computer_to_move():
                agent = session.computer_agent()
                with self.thinking(f"{who} (the computer) is thinking…"):
                    action = agent.choose(state)
                session.play(action)
                note = agent.describe_last_choice()
                told = move_told(state, action)
                self.say(told + (f": {note}" if note else ""), "cyan")
                continue
            forced = session.forced_action()
            if forced is not None:
                session.play(forced)
                told = move_told(state, forced)
                self.say(f"{who} has one legal move, played for you: {told}.", "cyan")
                continue
            if self._needs_board():
                self.draw()
            else:
                count = len(state.legal_actions())
                self.say(f"{who} again: {count} legal moves (board draws the board again).", "dim")
            try:
                action = read_move(
                    self.console, self.read, state, redraw=self.draw, can_undo=session.can_undo()
                )
            except Undo:
                taken = session.undo()
                self.say(f"Took back {taken} move{'s' * (taken != 1)}.", "yellow")
                self.board_at = None
                continue
            session.play(action)
        self._tell_round_ends()
        if self.show:
            self.draw()

    def _tell_round_ends(self) -> None:
        """Say each round's result once its last move is played ("Round 1: Dark +2, match
        2–0"), keeping the chapters in step with the moves (an undo shortens them)."""
        states = self.session.states
        if self.chapters is None:
            self.chapters = move_chapters(states)
            return
        del self.chapters[len(states) - 1 :]
        while len(self.chapters) < len(states) - 1:
            k = len(self.chapters)
            previous = self.chapters[-1] if self.chapters else None
            chapter = next_chapter(states[k], states[k + 1], previous)
            self.chapters.append(chapter)
            if chapter.end:
                self.say(chapter.end, "bold")
