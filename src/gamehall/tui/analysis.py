"""``gamehall tui GAME --analyse``: the terminal app's analysis board.

The game's own board (its plugin's ``tui`` part, as the play screen uses), and beside it every
legal move of the position with its value for the player to move, best first: exact where the
game's solver settles it within the budget, else a labelled estimate
(:mod:`gamehall.ai.analysis_board`, the web's too). Each move is told in words, its notation a small label.
Picking a move (from the list, on the board, or typed) plays it; back and forward step through
the line, and a different move from an earlier position starts a branch, shown in the lines
tree below (:mod:`gamehall.tui.lines`). At a chance step the list offers the outcomes and
"random". A position can be set up by typing its text. The values are worked out in a worker
thread, so the screen never freezes; positions already valued are remembered.

Nobody plays for a side here: both sides, and chance, are moved by the person at the keyboard.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Footer, Input, OptionList, Static, Tree
from textual.widgets.option_list import Option

from gamehall.ai.analysis_board import (
    DEFAULT_SECONDS,
    BoardEvaluation,
    ChanceOutcome,
    MoveValue,
    evaluate_moves,
)
from gamehall.core import Action, Game, GamehallError, State, find_plugin
from gamehall.core.plugin import TerminalBoard
from gamehall.core.words import move_label, move_words, mover_name
from gamehall.tui.board import board as generic_board
from gamehall.tui.lines import Line, MoveTree
from gamehall.tui.position import PositionScreen
from gamehall.tui.screens import Panel

NARROW = 100
"""Below this many columns the moves and lines go under the board instead of beside it."""
RANDOM = "random"
"""The option at a chance step that lets chance draw."""
LONGER = 4
"""``+`` values the position again with this many times the budget."""
LONGEST = 32.0
"""The most seconds ``+`` gives a position (quitting waits for a valuing under way)."""

KEYS: tuple[tuple[str, str], ...] = (
    ("↑ ↓, Enter", "in the list of moves: choose a move and play it (the mouse too)"),
    ("← → ↑ ↓, Enter", "on the board: build a move step by step, as when playing"),
    ("Tab", "go from the board to the moves, to the lines and back"),
    ("b or <", "back one move"),
    ("n or >", "forward one move (along the line you came back from)"),
    ("Home, End", "the start; the end of the line"),
    ("p", "set up a position: type or paste its text"),
    ("/ or :", "type a move in notation"),
    ("r", "at a chance step: let chance draw at random"),
    ("+", "value this position again, thinking longer"),
    ("x", "delete this move and what follows it"),
    ("l", "the lines explored (on a narrow screen: instead of the moves, l again goes back)"),
    ("f", "flip the board"),
    ("?", "these keys"),
    ("q, Ctrl-C", "quit"),
)
"""Every key of the analysis board, for its help panel."""


@dataclass(frozen=True)
class Pending:
    """A legal move listed while the worker values the moves."""

    action: Action
    words: str
    label: str


Row = MoveValue | ChanceOutcome | Pending
"""What a row of the moves list shows: a valued move, a chance outcome, or a move being valued."""


class AnalysisApp(App[None]):
    """The analysis board for one game, from a starting position (and a line played from it)."""

    TITLE = "gamehall analysis"
    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $accent; color: $text; text-style: bold; padding: 0 1; }
    #main { height: 1fr; }
    #board-pane { width: 1fr; height: 1fr; }
    #side { width: 58; height: 1fr; padding: 0 1; border-left: tall $panel; }
    #verdict { height: auto; margin-bottom: 1; }
    #moves { height: 2fr; min-height: 4; }
    #detail { height: auto; color: $text-muted; }
    #lines { height: 1fr; min-height: 4; margin-top: 1; }
    #prompt { height: auto; padding: 0 1; }
    #status { height: 1; padding: 0 1; background: $panel; }
    #move-input { height: 3; display: none; }
    #move-input.open { display: block; }
    App.narrow #main { layout: vertical; }
    App.narrow #board-pane { height: auto; max-height: 50%; }
    App.narrow #side { width: 1fr; height: 1fr; border-left: none; border-top: tall $panel; }
    App.narrow #verdict { margin-bottom: 0; }
    App.narrow #lines { margin-top: 0; display: none; }
    App.narrow.show-lines #lines { display: block; height: 1fr; }
    App.narrow.show-lines #moves, App.narrow.show-lines #detail { display: none; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("b,less_than_sign", "back", "back"),
        Binding("n,greater_than_sign", "forward", "forward"),
        Binding("home", "start", "start", show=False),
        Binding("end", "end", "end", show=False),
        Binding("p", "position", "set up"),
        Binding("slash,colon", "type_move", "type a move", key_display="/", show=False),
        Binding("r", "random", "random draw", show=False),
        Binding("plus", "longer", "think longer", key_display="+", show=False),
        Binding("x", "cut", "delete move", show=False),
        Binding("l", "toggle_lines", "lines"),
        Binding("f", "flip", "flip", show=False),
        Binding("question_mark", "help", "help", key_display="?"),
        Binding("q", "quit", "quit"),
        Binding("ctrl+c", "quit", "quit", show=False, priority=True),
    ]

    def __init__(
        self,
        game: Game,
        start: State | None = None,
        *,
        actions: tuple[Action, ...] | list[Action] = (),
        step: int | None = None,
        budget: float = DEFAULT_SECONDS,
        seed: int | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.line_tree = MoveTree(start if start is not None else game.new_initial_state(), actions)
        if step is not None:
            self.line_tree.start()
            for _ in range(step):
                self.line_tree.forward()
        self.budget = budget
        self.rng = random.Random(seed)
        self.flipped = False
        self.cache: dict[tuple[str, float], BoardEvaluation] = {}
        """Positions valued so far, by position text and budget."""
        self.busy: tuple[str, float] | None = None
        """The position being valued in the worker (one at a time)."""
        self.wanted: dict[str, float] = {}
        """The budget asked for each position (more after ``+``)."""
        self.choices: list[Action | str] = []
        """What each row of the moves list plays (an action, or :data:`RANDOM`)."""
        self.shown: list[Row | None] = []
        """What each row of the moves list shows (None: :data:`RANDOM`)."""
        self.filled = ""
        """The position whose moves the list shows."""
        plugin = find_plugin(game.name)
        hook = plugin.load_tui() or generic_board
        board = hook(game, self)
        self.board: Widget = board
        self.drawing: TerminalBoard = board

    # --- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="main"):
            with VerticalScroll(id="board-pane"):
                yield self.board
            with Vertical(id="side"):
                yield Static(id="verdict")
                yield OptionList(id="moves")
                yield Static(id="detail")
                yield Tree("Start", id="lines")
        yield Static(id="prompt")
        yield Static(id="status")
        yield Input(placeholder="a move in notation; Enter plays it, Esc back", id="move-input")
        yield Footer()

    def on_mount(self) -> None:
        self.set_class(self.size.width < NARROW, "narrow")
        self.query_one("#moves", OptionList).border_title = "Moves"
        self.query_one("#lines", Tree).border_title = "Lines"
        self.changed()
        self.query_one("#moves", OptionList).focus()

    def on_resize(self, event: Any) -> None:
        self.set_class(event.size.width < NARROW, "narrow")

    # --- BoardHost ----------------------------------------------------------------------------

    def play(self, action: str | Action) -> None:
        """Play a move (notation or an action) from the position looked at, for whichever side
        is to move: along a line that has it, else as a new branch."""
        state = self.line_tree.state
        try:
            chosen = state.parse_action(action) if isinstance(action, str) else action
            known = any(child.action == chosen for child in self.line_tree.current.children)
            branch = bool(self.line_tree.current.children) and not known
            node = self.line_tree.play(chosen)
        except GamehallError as error:
            self.say(str(error), error=True)
            return
        note = " (a new branch)" if branch else ""
        self.say(f"{node.depth}. {node.words}{note}")
        self.changed()

    def prompt(self, text: str) -> None:
        if self.is_mounted:
            self.query_one("#prompt", Static).update(Text(text))

    # --- drawing --------------------------------------------------------------------------------

    def say(self, text: str, *, error: bool = False) -> None:
        self.query_one("#status", Static).update(Text(text, style="bold red" if error else ""))

    def changed(self) -> None:
        """The position looked at (or the tree) changed: redraw everything, value the moves."""
        self.drawing.clear_selection()
        self.redraw()
        self._lines()
        self._moves()

    def redraw(self) -> None:
        state = self.line_tree.state
        node = self.line_tree.current
        last = node.label or None
        can_move = not state.is_terminal() and not state.is_chance_node()
        self.drawing.show(state, can_move=can_move, last=last, flipped=self.flipped)
        self.query_one("#title", Static).update(self._title())

    def _title(self) -> Text:
        state = self.line_tree.state
        title = Text(f"{self.game.title} · analysis board · ")
        if state.is_terminal():
            title.append("the game is over")
        elif state.is_chance_node():
            title.append("chance acts")
        else:
            title.append(f"{mover_name(state)} to move")
        depth = self.line_tree.current.depth
        total = len(self.line_tree.line()) - 1
        title.append(f" · move {depth} of {total}" if total else " · the start")
        return title

    def _moves(self) -> None:
        """The moves of the position: valued if known, else listed in words while the worker
        values them."""
        state = self.line_tree.state
        key = (str(state), self.wanted.get(str(state), self.budget))
        found = self.cache.get(key)
        if found is None:
            found = self._best_known(str(state))
        if found is not None:
            self._show(found)
        else:
            self._show_unvalued(state)
        if key not in self.cache:
            self._evaluate()

    def _best_known(self, text: str) -> BoardEvaluation | None:
        known = [(budget, a) for (position, budget), a in self.cache.items() if position == text]
        return max(known, key=lambda item: item[0])[1] if known else None

    def _show_unvalued(self, state: State) -> None:
        if state.is_terminal() or state.is_chance_node():
            moves: list[Pending] = []
        else:
            moves = [
                Pending(action, move_words(state, action), move_label(action))
                for action in state.legal_actions()
            ]
        self._fill(state, moves, Text("Valuing the moves…", style="italic"))

    def _show(self, found: BoardEvaluation) -> None:
        state = found.state
        verdict = Text(found.summary, style="bold")
        rows: Sequence[Row] = found.moves
        if found.chance and found.outcomes is None:
            verdict.append("\nPress r to draw at random, or / to type the outcome.", style="dim")
        elif found.chance:
            rows = found.outcomes or ()
            verdict.append("\nPick the outcome, or random (r).", style="dim")
        elif found.moves:
            exact = sum(1 for move in found.moves if move.exact)
            told = "all exact" if exact == len(found.moves) else f"{exact} exact, ~ estimated"
            verdict.append(f"\nValues for {found.to_move_name}, to move · {told}", style="dim")
        self._fill(state, rows, verdict)

    def _fill(self, state: State, moves: Sequence[Row], verdict: Text) -> None:
        self.query_one("#verdict", Static).update(verdict)
        listing = self.query_one("#moves", OptionList)
        # the same position again (its values arrived): the cursor stays; another: the best
        was = listing.highlighted if self.filled == str(state) else None
        self.filled = str(state)
        listing.clear_options()
        self.choices, self.shown = [], []
        chance = state.is_chance_node()
        if chance:
            self.choices.append(RANDOM)
            self.shown.append(None)
            listing.add_option(Option(self._row("", "Random: let chance draw", "r")))
        for move in moves:
            self.choices.append(move.action)
            self.shown.append(move)
            listing.add_option(Option(self._row(self._value(move), move.words, move.label)))
        count = len(moves) if chance else len(state.legal_actions())
        what = "Outcomes" if chance else "Moves"
        listing.border_title = f"{what} ({count})" if count else what
        index = None
        if self.choices:
            index = 0 if was is None else min(was, len(self.choices) - 1)
            listing.highlighted = index
        self._detail(index)

    @staticmethod
    def _value(move: Row) -> Text:
        if isinstance(move, ChanceOutcome):
            return Text(move.chance, style="dim")
        if isinstance(move, Pending):
            return Text("…", style="dim")
        return Text(move.value, style="bold" if move.exact else "italic")

    @staticmethod
    def _row(value: Text | str, words: str, label: str) -> Table:
        row = Table.grid(padding=(0, 1), expand=True)
        row.add_column(width=7, justify="right", no_wrap=True)
        row.add_column(ratio=1)
        row.add_column(no_wrap=True, style="dim")
        shown = label if label and label not in words else ""
        row.add_row(value, words, shown)
        return row

    def _lines(self) -> None:
        """The tree of lines: the main line flat, each branch under the move it replaces."""
        widget = self.query_one("#lines", Tree)
        widget.clear()
        root = self.line_tree.root
        widget.root.label = self._label(root)
        widget.root.data = root
        widget.root.expand()
        current = {"node": widget.root}

        def add(parent: Any, node: Line) -> None:
            while node.children:
                main, *others = node.children
                item = self._add(parent, main, expand=bool(others))
                if main is self.line_tree.current:
                    current["node"] = item
                for other in others:
                    branch = self._add(item, other, expand=bool(other.children), branch=True)
                    if other is self.line_tree.current:
                        current["node"] = branch
                    add(branch, other)
                node = main

        add(widget.root, root)
        self.call_after_refresh(widget.move_cursor, current["node"])

    def _add(self, parent: Any, node: Line, *, expand: bool, branch: bool = False) -> Any:
        """A move of the lines tree: a leaf, or (with moves under it) an open node."""
        label = self._label(node, branch=branch)
        if expand:
            return parent.add(label, data=node, expand=True)
        return parent.add_leaf(label, data=node)

    def _label(self, node: Line, *, branch: bool = False) -> Text:
        here = node is self.line_tree.current
        if node.parent is None:
            text = Text("Start position", style="bold" if here else "")
        else:
            text = Text(f"{node.depth}. ", style="dim")
            if branch:
                text.append("instead: ", style="italic")
            text.append(node.words, style="bold" if here else "")
            if node.label not in node.words:
                text.append(f"  {node.label}", style="dim")
        if here:
            text.append("  ◀", style="bold")
        return text

    # --- valuing in a worker --------------------------------------------------------------------

    def _evaluate(self) -> None:
        """Value the position looked at in the worker, unless it is busy (then when it is done)."""
        if self.busy is not None:
            return
        state = self.line_tree.state
        text = str(state)
        budget = self.wanted.get(text, self.budget)
        key = (text, budget)
        if key in self.cache:
            return
        self.busy = key
        self.run_worker(
            lambda: self._work(state, key), thread=True, group="evaluate", exit_on_error=False
        )

    def _work(self, state: State, key: tuple[str, float]) -> None:
        """In the worker thread: value the moves, then hand them to the UI thread."""
        try:
            found = evaluate_moves(state, seconds=key[1])
        except Exception as error:  # a bug in the search must not take the board down
            self.call_from_thread(self._failed, key, str(error))
            return
        self.call_from_thread(self._valued, key, found)

    def _valued(self, key: tuple[str, float], found: BoardEvaluation) -> None:
        self.busy = None
        self.cache[key] = found
        text = str(self.line_tree.state)
        if text == key[0]:
            self._show(found)
        self._evaluate()  # the position looked at now, if it is another one

    def _failed(self, key: tuple[str, float], error: str) -> None:
        self.busy = None
        self.say(f"The moves could not be valued: {error}", error=True)

    # --- choosing -------------------------------------------------------------------------------

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id != "moves" or not 0 <= event.option_index < len(self.choices):
            return
        choice = self.choices[event.option_index]
        if choice == RANDOM:
            self.action_random()
        else:
            self.play(choice)  # type: ignore[arg-type]

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The highlighted move's value in words, and its notation, under the list."""
        if event.option_list.id == "moves" and self.is_running:
            self._detail(event.option_index)

    def _detail(self, index: int | None) -> None:
        if index is None or not 0 <= index < len(self.shown):
            self.query_one("#detail", Static).update("")
            return
        move = self.shown[index]
        if move is None:
            text = Text("Chance draws at random, by the game's odds (r)")
        else:
            text = Text(move.label, style="bold")
            if isinstance(move, ChanceOutcome):
                text.append(f" · drawn {move.chance} of the time")
            elif isinstance(move, MoveValue):
                exact = " with best play (exact)" if move.exact else ""
                text.append(f" · {move.text}{exact}")
        self.query_one("#detail", Static).update(text)

    def on_tree_node_selected(self, event: Tree.NodeSelected[Any]) -> None:
        node = event.node.data
        if isinstance(node, Line) and node is not self.line_tree.current:
            self.line_tree.go(node)
            self.say(f"Looking at move {node.depth}" if node.depth else "The start")
            self.changed()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "move-input":
            return
        text = event.value.strip()
        if not text:
            return
        before = self.line_tree.current
        self.play(text)
        if self.line_tree.current is not before:
            event.input.value = ""
            self._close_input()

    def on_key(self, event: Any) -> None:
        field = self.query_one("#move-input", Input)
        if event.key == "escape" and field.has_focus:
            self._close_input()
            event.stop()

    def _close_input(self) -> None:
        field = self.query_one("#move-input", Input)
        field.value = ""
        field.remove_class("open")
        self.query_one("#moves", OptionList).focus()

    # --- actions --------------------------------------------------------------------------------

    def action_back(self) -> None:
        if self.line_tree.back():
            self.say("")
            self.changed()
        else:
            self.say("This is the start.")

    def action_forward(self) -> None:
        if self.line_tree.forward():
            self.say(f"{self.line_tree.current.depth}. {self.line_tree.current.words}")
            self.changed()
        else:
            self.say("This is the end of the line.")

    def action_start(self) -> None:
        self.line_tree.start()
        self.say("The start")
        self.changed()

    def action_end(self) -> None:
        self.line_tree.end()
        self.say("The end of the line")
        self.changed()

    def action_random(self) -> None:
        state = self.line_tree.state
        if not state.is_chance_node():
            self.say("Chance does not act here: pick a move.", error=True)
            return
        self.play(state.sample_chance(self.rng))

    def action_longer(self) -> None:
        state = self.line_tree.state
        if state.is_terminal() or state.is_chance_node():
            self.say("There is nothing to value here.")
            return
        text = str(state)
        budget = self.wanted.get(text, self.budget)
        if budget >= LONGEST:
            self.say(f"These values had {budget:g} s, the most there is.")
            return
        self.wanted[text] = min(LONGEST, budget * LONGER)
        self.say(f"Valuing again for {self.wanted[text]:g} s…")
        self._moves()

    def action_cut(self) -> None:
        node = self.line_tree.current
        if self.line_tree.cut():
            self.say(f"Deleted move {node.depth} ({node.words}) and what followed it.")
            self.changed()
        else:
            self.say("There is no move to delete at the start.", error=True)

    def action_type_move(self) -> None:
        field = self.query_one("#move-input", Input)
        field.add_class("open")
        field.focus()

    def action_position(self) -> None:
        def done(state: State | None) -> None:
            if state is None:
                return
            self.line_tree.reset(state)
            self.say("A new position: the lines so far are gone.")
            self.changed()

        self.push_screen(PositionScreen(self.game, str(self.line_tree.state)), done)

    def action_toggle_lines(self) -> None:
        """On a narrow screen, show the lines instead of the moves (or back)."""
        if not self.has_class("narrow"):
            self.query_one("#lines", Tree).focus()
            return
        self.toggle_class("show-lines")
        showing = self.has_class("show-lines")
        self.query_one("#lines" if showing else "#moves").focus()

    def action_flip(self) -> None:
        self.flipped = not self.flipped
        self.redraw()

    def action_help(self) -> None:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for key, meaning in KEYS:
            table.add_row(key, meaning)
        self.push_screen(Panel("Keys of the analysis board", table))


__all__ = ["KEYS", "AnalysisApp"]
