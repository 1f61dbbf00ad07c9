"""``gamehall tui``: the full-screen terminal app (Textual).

A fixed board (the game's own, named by its plugin's ``tui`` part, else a generic one), the move
list with movers, whose turn, the scores, the clocks when there is a time control, and a status
line that says what the computer is doing while it thinks. The computer thinks in a Textual
worker thread, so the screen stays live. It talks only to the core protocol, the plugins and
the session (:mod:`gamehall.tui.session`): no game is named here.
"""

from __future__ import annotations

import datetime
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Footer, Input, Static
from textual.widgets.data_table import ColumnKey

from gamehall.ai import LEVELS
from gamehall.core import Action, GamehallError, State, find_plugin
from gamehall.core.plugin import TerminalBoard
from gamehall.core.words import move_chapters, move_words
from gamehall.tui.board import board as generic_board
from gamehall.tui.screens import Panel, SaveScreen, help_panel, position_panel

if TYPE_CHECKING:
    from gamehall.ai.hint_words import AdviceWords

NARROW = 100
SIDE_WIDTH = 44
"""The side column's width on a wide terminal (the seats and the moves)."""
MOVE_WIDTH = SIDE_WIDTH - 12
"""The moves table's words column: the side column less the number column and the padding."""
"""Below this many columns the move list goes under the board instead of beside it."""
HINT_SECONDS = 2.0


def clock_text(seconds: float) -> str:
    whole = int(seconds + 0.999) if seconds < 10 else int(seconds)
    minutes, secs = divmod(whole, 60)
    return f"{minutes}:{secs:02d}"


class GamehallApp(App[None]):
    """The terminal app for one game session (local, or an online game through ``remote``)."""

    TITLE = "gamehall"
    CSS = """
    Screen { layout: vertical; }
    #title { height: auto; max-height: 3; background: $accent; color: $text; text-style: bold; padding: 0 1; }
    #main { height: 1fr; }
    #board-pane { width: 1fr; height: 1fr; }
    #side { width: 44; height: 1fr; padding: 0 1; border-left: tall $panel; }
    #seats { height: auto; margin-bottom: 1; }
    #moves { height: 1fr; }
    #prompt { height: auto; max-height: 2; padding: 0 1; color: $text; }
    #status { height: auto; max-height: 2; padding: 0 1; background: $panel; }
    #move-input { display: none; }
    #move-input.open { display: block; }
    App.narrow #main { layout: vertical; }
    App.narrow #board-pane { height: auto; max-height: 85%; }
    App.narrow #side { width: 1fr; height: 1fr; border-left: none; border-top: tall $panel; }
    App.narrow #seats { margin-bottom: 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "hint", "hint"),
        Binding("u", "undo", "undo"),
        Binding("f", "flip", "flip"),
        Binding("s", "save", "save"),
        Binding("p", "position", "position"),
        Binding("question_mark", "help", "help", key_display="?"),
        Binding("slash,colon", "type_move", "type", key_display="/", tooltip="type a move"),
        Binding("q", "quit_game", "quit"),
        Binding("ctrl+c", "quit_game", "quit", show=False, priority=True),
    ]

    def __init__(self, session: Any, *, think_delay: float = 0.0) -> None:
        super().__init__()
        self.session = session
        self.game = session.game
        self.plugin = find_plugin(self.game.name)
        self.flipped = False
        self.generation = 0
        """Bumped on every change, so a computer move for an older position is dropped."""
        self.thinking_since: float | None = None
        self.thinking_seat: int | None = None
        self.hint_since: float | None = None
        self.summarised = -1
        self.moves_shown: tuple[int, int] | None = None
        """The moves table's key: how many actions and the last state it shows."""
        """The action count whose summary panel has been shown."""
        self.ended = False
        self.refused = False
        """Whether the last move a person made here was refused."""
        self.think_delay = think_delay
        self.status_text = ""
        self.prompt_text = ""
        hook = self.plugin.load_tui() or generic_board
        board = hook(self.game, self)
        self.board: Widget = board
        """The board as a widget (to mount and focus)."""
        self.drawing: TerminalBoard = board
        """The same board as the plugin protocol (to show states on)."""

    # --- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="main"):
            with VerticalScroll(id="board-pane"):
                yield self.board
            with Vertical(id="side"):
                yield Static(id="seats")
                yield DataTable(id="moves", cursor_type="row", zebra_stripes=True)
        yield Static(id="prompt")
        yield Static(id="status")
        yield Input(
            placeholder="a move in notation (RTxBS, M5<10); Enter plays it, Esc back",
            compact=True,
            id="move-input",
        )
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        table = self.query_one("#moves", DataTable)
        table.add_column("#", width=4)
        table.add_column("move", key="move", width=MOVE_WIDTH)
        self._apply_width(self.size.width)
        self.set_interval(0.25, self._tick)
        self.session.wake = lambda: self.call_from_thread(self._news)
        self.board.focus()
        self.advance()

    def on_resize(self, event: Any) -> None:
        self._apply_width(event.size.width)
        self.board.refresh(layout=True)  # a board may draw itself smaller on a short terminal

    def _apply_width(self, width: int) -> None:
        self.set_class(width < NARROW, "narrow")
        # The moves wrap to the side column (the whole width when narrow).
        table = self.query_one("#moves", DataTable)
        move_width = max(20, width - 14) if width < NARROW else MOVE_WIDTH
        column = table.columns.get(ColumnKey("move"))
        if column is not None and column.width != move_width:
            column.width = move_width
            self.moves_shown = None
            if self.is_mounted:
                self._moves()

    # --- BoardHost ----------------------------------------------------------------------------

    def play(self, action: str) -> None:
        """A person's move, from the board, the move line or a forced move."""
        self.refused = True
        if not self.session.human_to_move():
            self.say("It is not your move.", error=True)
            return
        before = self.session.state
        try:
            self.session.play(action)
        except GamehallError as error:
            self.say(str(error), error=True)
            return
        self.refused = False
        if not self.session.drives_chance:  # online: it counts when the server says so
            told = move_words(before, before.parse_action(action))
            self.say(f"Sent: {told} ({action})…")
            self.redraw()
            return
        self.say("")
        self.changed()

    def prompt(self, text: str) -> None:
        self.prompt_text = text
        if self.is_mounted:
            self.query_one("#prompt", Static).update(Text(text))

    # --- the flow of the game -------------------------------------------------------------------

    def say(self, text: str, *, error: bool = False) -> None:
        self.status_text = text
        status = self.query_one("#status", Static)
        status.update(Text(text, style="bold red" if error else ""))

    def changed(self) -> None:
        """The position changed: redraw, then let whoever is to act act."""
        self.generation += 1
        self.thinking_since = None
        self.drawing.clear_selection()
        self.advance()

    def advance(self) -> None:
        session = self.session
        self.redraw()
        if session.over:
            self._end()
            return
        state = session.state
        count = len(session.actions)
        summary = self.drawing.summary(state)
        if summary is not None and self.summarised != count:
            self.summarised = count
            self.push_screen(Panel("Round over", summary), lambda _: self.advance())
            return
        if session.chance_to_move():
            if session.drives_chance:
                before = session.state
                action, _ = session.play_chance()
                self.say(move_words(before, action))
                self.generation += 1
                self.call_later(self.advance)
            else:
                self.say("Waiting for the server to draw…")
            return
        if session.computer_to_move():
            if session.drives_computer:
                self._think()
            else:
                seat = state.current_player
                self.say(f"{session.seat_label(seat)} to move: waiting…")
            return
        forced = session.forced_action()
        if forced is not None and session.drives_chance:
            who = state.player_name().capitalize()
            told = move_words(state, forced)
            session.play(forced)
            self.notify(f"{who} had one legal move, played for you: {told}.", timeout=4)
            self.say(f"{told} ({forced}; the only legal move)")
            self.generation += 1
            self.call_later(self.advance)
            return
        if session.human_to_move():
            if self.status_text.endswith("…"):  # no longer waiting for anyone
                self.say(f"{state.player_name().capitalize()}: your move.")
            if not self.query_one("#move-input", Input).has_focus:
                self.board.focus()

    def redraw(self) -> None:
        session = self.session
        state: State = session.state
        last = str(session.actions[-1]) if session.actions else None
        self.drawing.show(state, can_move=session.human_to_move(), last=last, flipped=self.flipped)
        self.query_one("#title", Static).update(self._title())
        self.query_one("#seats", Static).update(self._seats())
        self._moves()

    def _title(self) -> Text:
        session = self.session
        title = Text(f"{self.game.title} · ")
        result = session.result_text()
        if result is not None:
            title.append(result)
        elif session.state.is_chance_node():
            title.append("a draw by chance next")
        else:
            title.append(f"{session.seat_label(session.state.current_player)} to move")
        if session.remote_note:
            title.append(f" · {session.remote_note}")
        return title

    def _seats(self) -> RenderableType:
        session = self.session
        state = session.state
        table = Table.grid(padding=(0, 1))
        table.add_column(width=1)
        table.add_column()
        table.add_column(justify="right")
        if session.clock is not None:
            table.add_column(justify="right")
        scores = state.scores()
        now = session.now()
        for seat in range(self.game.num_players):
            to_move = not session.over and state.current_player == seat
            row: list[Any] = [
                Text("▶" if to_move else " ", style="bold"),
                Text(session.seat_label(seat), style="bold" if to_move else ""),
                f"{scores[seat]:g}",
            ]
            if session.clock is not None:
                left = session.clock.remaining(seat, now)
                style = "bold red" if left < 10 else ("bold" if to_move else "")
                row.append(Text(clock_text(left), style=style))
            table.add_row(*row)
        return table

    def _moves(self) -> None:
        """The moves in words, notation beside, grouped by round or turn with each round's
        result kept (the game's plugin, through :mod:`gamehall.core.words`)."""
        table = self.query_one("#moves", DataTable)
        session = self.session
        actions, states = session.actions, session.states
        shown = (len(actions), id(states[-1]))
        if self.moves_shown == shown:
            return
        self.moves_shown = shown
        table.clear()
        heading = ""
        for number, chapter in enumerate(move_chapters(states[: len(actions) + 1])):
            if chapter.heading and chapter.heading != heading:
                table.add_row("", Text(chapter.heading, style="bold underline"))
            heading = chapter.heading
            before, action = states[number], actions[number]
            chance = before.is_chance_node()
            # The words, wrapped to the column, then the notation as a small dim label.
            told = Text(move_words(before, action), style="dim" if chance else "")
            told.append(f"  {action}", style="dim italic")
            table.add_row(str(number + 1), told, height=None)
            if chapter.end:
                table.add_row("", Text(chapter.end, style="bold"), height=None)
                heading = ""
        if actions:
            table.move_cursor(row=table.row_count - 1, animate=False)

    def _end(self) -> None:
        if self.ended:
            return
        self.ended = True
        self.thinking_since = None
        state = self.session.state
        body: RenderableType | None = self.drawing.summary(state)
        result = self.session.result_text() or "The game is over."
        if body is None or self.session.forfeit is not None:
            body = Text(result)
        self.say(result)
        self.clear_notifications()  # no notice covers the game's end
        where = self.session.save_path
        hint = "Enter closes; q quits" + (f" · record: {where}" if where else "")
        self.push_screen(Panel("Game over", body, hint=hint))

    # --- the computer -------------------------------------------------------------------------

    def _think(self) -> None:
        session = self.session
        seat = session.state.current_player
        if self.thinking_since is not None and self.thinking_seat == seat:
            return
        self.thinking_since = time.monotonic()
        self.thinking_seat = seat
        generation = self.generation
        agent = session.computer_agent()
        state = session.state
        self._thinking_status()
        self.run_worker(
            lambda: self._choose(generation, agent, state),
            thread=True,
            group="computer",
            exit_on_error=False,
        )

    def _choose(self, generation: int, agent: Any, state: State) -> None:
        """In the worker thread: ask the computer, then hand its move to the UI thread."""
        if self.think_delay:
            time.sleep(self.think_delay)
        try:
            action = agent.choose(state)
            note = agent.describe_last_choice()
        except Exception as error:  # a bug in a player must not take the app down
            self.call_from_thread(self.say, f"The computer failed: {error}", error=True)
            return
        self.call_from_thread(self._computer_moved, generation, state, action, note)

    def _computer_moved(
        self, generation: int, state: State, action: Action, note: str | None
    ) -> None:
        session = self.session
        if generation != self.generation or session.state is not state:
            return  # the position changed meanwhile (undo): this move is for another position
        told = move_words(state, action)
        try:
            session.play(action)
        except GamehallError as error:
            self.say(f"The computer's move ({told}, {action}) was refused: {error}", error=True)
            return
        self.say(f"{told} ({action})" + (f": {note}" if note else ""))
        self.thinking_since = None
        self.changed()

    def _thinking_status(self) -> None:
        if self.thinking_since is None or self.thinking_seat is None:
            return
        session = self.session
        seat = self.thinking_seat
        player = session.players[seat]
        what = LEVELS.get(player, player)
        spent = time.monotonic() - self.thinking_since
        self.query_one("#status", Static).update(
            Text(f"{session.seat_label(seat)} is thinking ({what})… {spent:.1f} s", style="italic")
        )

    def _tick(self) -> None:
        self._thinking_status()
        self._hint_status()
        session = self.session
        if session.clock is not None and not self.ended:
            if session.check_clock() is not None:
                self.generation += 1
                self.redraw()
                self._end()
                return
            self.query_one("#seats", Static).update(self._seats())
        self._news()

    def _news(self) -> None:
        """Take in what arrived from elsewhere (an online game's server)."""
        session = self.session
        before = len(session.actions)
        if not session.poll():
            return
        if len(session.actions) != before:
            self.changed()
        else:
            self.redraw()
        if session.last_error:
            self.say(session.last_error, error=True)

    # --- keys ---------------------------------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "move-input":
            return
        text = event.value.strip()
        if not text:
            return
        event.input.value = ""
        self.play(text)
        if self.refused:
            return  # the line stays open to put the move right
        self._close_move_line()

    def _close_move_line(self) -> None:
        self.query_one("#move-input", Input).remove_class("open")
        self.board.focus()

    def on_key(self, event: Any) -> None:
        field = self.query_one("#move-input", Input)
        if event.key == "escape" and field.has_focus:
            field.value = ""
            self._close_move_line()
            event.stop()

    def action_type_move(self) -> None:
        field = self.query_one("#move-input", Input)
        field.add_class("open")
        field.focus()

    def notify(self, message: str, **options: Any) -> None:  # type: ignore[override]
        """A notice; once the game is over, the status line says it instead (no notice covers
        the game-over panel)."""
        if self.ended:
            self.say(message)
            return
        super().notify(message, **options)

    def action_hint(self) -> None:
        session = self.session
        if not session.human_to_move():
            self.say("Hints are for your move.", error=True)
            return
        state = session.state
        generation = self.generation
        self.hint_since = time.monotonic()
        self._hint_status()

        def work() -> None:
            from gamehall.ai.hint_words import tell
            from gamehall.ai.hints import advise

            try:
                found = tell(advise(state, count=3, seconds=HINT_SECONDS))
            except Exception as error:
                self.hint_since = None
                self.call_from_thread(self.say, f"No hint: {error}", error=True)
                return
            self.call_from_thread(self._show_hints, generation, found)

        self.run_worker(work, thread=True, group="hint", exit_on_error=False)

    def _hint_status(self) -> None:
        if self.hint_since is not None:
            spent = time.monotonic() - self.hint_since
            self.say(
                f"Looking for the best moves (the search takes {HINT_SECONDS:g} s)… {spent:.1f} s"
            )

    def _show_hints(self, generation: int, found: AdviceWords) -> None:
        self.hint_since = None
        if generation != self.generation:
            return
        if not found.hints:
            self.say("No hint here.")
            return
        self.say(found.hints[0].sentence)
        # The same sentences as the command line's and the web's (gamehall.ai.hint_words).
        width = max(30, min(70, int(self.size.width * 0.96) - 6))  # inside the panel's frame
        self.push_screen(Panel("Hint", Text("\n".join(found.lines(width=width)))))

    def action_undo(self) -> None:
        session = self.session
        if not session.can_undo():
            self.say("Nothing to undo.", error=True)
            return
        taken = session.undo()
        self.ended = False
        self.say(f"Took back {taken} move{'s' * (taken != 1)}.")
        self.changed()

    def action_flip(self) -> None:
        self.flipped = not self.flipped
        self.redraw()

    def action_save(self) -> None:
        date = datetime.date.today().strftime("%Y%m%d")
        default = Path.cwd() / f"{self.game.name}-{date}.txt"

        def done(path: Path | None) -> None:
            if path is None:
                return
            try:
                self.session.save(path)
            except GamehallError as error:
                self.say(str(error), error=True)
                return
            self.say(f"Saved to {path}")
            self.notify(f"Saved to {path}")

        self.push_screen(SaveScreen(default), done)

    def action_position(self) -> None:
        text = str(self.session.state)
        copied = True
        try:
            self.copy_to_clipboard(text)
        except Exception:
            copied = False
        self.push_screen(position_panel(text, copied))

    def action_help(self) -> None:
        self.push_screen(help_panel())

    def action_quit_game(self) -> None:
        self.exit()
