"""The Äcädmü board of the full-screen terminal app (``gamehall tui``): a Textual widget.

Both sides' tokens by pairing (rows by colour, columns by shape, a count in each), the two beats
circles (by colour a token takes one; by shape, two), the match and the round. Moves are built
step by step with the keyboard or the mouse: your token, then the token it takes, then (a
capture by shape) the second one. The steps come from :meth:`AcadmuGame.action_parts`, never
from the notation, and the whole move goes to the app (:class:`gamehall.core.plugin.BoardHost`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.widget import Widget

from gamehall.core import Game, State
from gamehall.core.plugin import BoardHost

GLYPHS = {"T": "▲", "S": "■", "C": "●"}
COLOURS = {"R": "bold #ff4040", "B": "bold #3d8bff", "Y": "bold #ffd21f"}
NAMES = {"R": "Red", "B": "Blue", "Y": "Yellow", "T": "Triangle", "S": "Square", "C": "Circle"}
SIDES = ("d", "l")
SIDE_NAMES = {"d": "Dark", "l": "Light"}

Mark = Literal["choice", "cursor", "chosen", "last"]


def describe(pairing: str) -> str:
    return f"{NAMES[pairing[0]]} {NAMES[pairing[1]]}"


@dataclass(frozen=True)
class Choice:
    """One choice on offer: its label, the token group it marks (side letter, pairing) or None,
    and the move it completes (None: it leads to the next step)."""

    label: str
    cell: tuple[str, str] | None
    action: str | None
    value: str


def beats_circles() -> Table:
    """Who beats whom: the colour circle (takes one token) and the shape circle (takes two)."""

    def colour(letter: str) -> Text:
        return Text(NAMES[letter], style=COLOURS[letter])

    colours = Text.assemble(
        ("by colour, takes one\n", "dim"),
        "      ", colour("R"), "\n",
        "    ↗     ↘\n",
        " ", colour("Y"), " ← ", colour("B"),
    )  # fmt: skip
    shapes = Text.assemble(
        ("by shape, takes two\n", "dim"),
        "      ▲ \n",
        "    ↗   ↘\n",
        "   ●  ←  ■",
    )  # fmt: skip
    grid = Table.grid()
    grid.add_row(colours)
    grid.add_row("")
    grid.add_row(shapes)
    return grid


class AcadmuBoard(Widget, can_focus=True):
    """The Äcädmü board; see the module docstring."""

    DEFAULT_CSS = """
    AcadmuBoard { height: auto; width: 1fr; padding: 0 1; }
    AcadmuBoard:focus { background: $boost; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,up", "move(-1)", "previous", show=False),
        Binding("right,down", "move(1)", "next", show=False),
        Binding("enter", "pick", "pick", show=False),
        *(Binding(str(n), f"number({n})", show=False) for n in range(1, 10)),
        Binding("escape", "back", "back", show=False),
    ]

    def __init__(self, game: Game, host: BoardHost) -> None:
        super().__init__()
        self.game = game
        self.host = host
        self.state: State | None = None
        self.can_move = False
        self.last: str | None = None
        self.flipped = False
        self.own: str | None = None
        """The token chosen to give up."""
        self.first: str | None = None
        """The first token chosen to take (a capture by shape takes a second)."""
        self.cursor = 0

    # --- the TerminalBoard protocol ---------------------------------------------------------

    def show(self, state: State, *, can_move: bool, last: str | None, flipped: bool) -> None:
        if state is not self.state:
            self.own = self.first = None
            self.cursor = 0
        self.state, self.can_move, self.last, self.flipped = state, can_move, last, flipped
        self._announce()
        self.refresh(layout=True)

    def clear_selection(self) -> None:
        self.own = self.first = None
        self.cursor = 0
        self._announce()
        self.refresh()

    def summary(self, state: State) -> RenderableType | None:
        """At the end of a round (and of the match): why it ended, the tokens left, the points,
        the match."""
        view = state.view()
        if view["phase"] != "play" or not view["round_over"]:
            return None
        dark, light = sum(view["dark"]), sum(view["light"])
        diff = dark - light
        why = view["round_end"]["reason"]  # rule 4, in the game's words
        lines = [
            Text(f"The round is over: {why}.", style="bold"),
            Text(f"Dark has {dark} token{'s' * (dark != 1)}, Light {light}."),
        ]
        if diff == 0:
            lines.append(Text("Equal counts: nobody scores.", style="bold"))
        else:
            winner = "Dark" if diff > 0 else "Light"
            points = abs(diff)
            lines.append(
                Text(f"{winner} scores {points} point{'s' * (points != 1)}.", style="bold")
            )
        if view["first"] is not None:
            score = view["scores"]
            lines.append(
                Text(f"Match: Dark {score[0]:g} – {score[1]:g} Light (to {view['target']}).")
            )
        outcome = state.outcome()
        if outcome is not None and view["first"] is not None:
            winner = state.player_name(outcome.winner).capitalize()
            lines.append(Text(f"{winner} wins the match: {outcome.reason}.", style="bold green"))
        return Group(*lines)

    # --- the steps --------------------------------------------------------------------------

    def _captures(self) -> list[tuple[str, dict[str, Any]]]:
        if self.state is None or not self.can_move:
            return []
        return [(str(a), self.game.action_parts(a)) for a in self.state.legal_actions()]

    def _sides(self) -> tuple[str, str]:
        """(the mover's side letter, the opponent's)."""
        assert self.state is not None
        mover = self.state.view()["to_move"]
        return mover, SIDES[1 - SIDES.index(mover)]

    def choices(self) -> tuple[str, list[Choice]]:
        """What the board asks now, and the choices on offer."""
        legal = self._captures()
        if not legal:
            return "", []
        captures = [(text, parts) for text, parts in legal if parts.get("kind") == "capture"]
        if not captures:
            return "You have no capture", [Choice("pass", None, legal[0][0], "pass")]
        mine, theirs = self._sides()
        if self.own is None:
            owns = sorted({parts["own"] for _, parts in captures}, key=self._index)
            return "Your move: which of your tokens?", [
                Choice(describe(own), (mine, own), None, own) for own in owns
            ]
        with_own = [(t, p) for t, p in captures if p["own"] == self.own]
        if self.first is None:
            firsts = sorted({t for _, p in with_own for t in p["taken"]}, key=self._index)
            choices = []
            for first in firsts:
                moves = [t for t, p in with_own if first in p["taken"]]
                alone = [t for t, p in with_own if p["taken"] == [first]]
                action = alone[0] if len(moves) == 1 and alone else None
                choices.append(Choice(describe(first), (theirs, first), action, first))
            return f"Your {describe(self.own)} takes which token?", choices
        choices = []
        for text, parts in with_own:
            taken = list(parts["taken"])
            if self.first not in taken:
                continue
            taken.remove(self.first)
            if not taken:
                choices.insert(0, Choice(f"only the {describe(self.first)}", None, text, ""))
            else:
                other = taken[0]
                choices.append(Choice(f"and a {describe(other)}", (theirs, other), text, other))
        return f"Your {describe(self.own)} takes the {describe(self.first)} and…", choices

    def _index(self, pairing: str) -> int:
        assert self.state is not None
        return list(self.state.view()["pairings"]).index(pairing)

    def _announce(self) -> None:
        prompt, choices = self.choices()
        if not choices:
            self.host.prompt("")
            return
        self.cursor = min(self.cursor, len(choices) - 1)
        back = ", Esc back" if self.own is not None else ""
        self.host.prompt(f"{prompt}  ←→ choose, Enter picks{back}")

    # --- keys and mouse ---------------------------------------------------------------------

    def action_move(self, step: int) -> None:
        _, choices = self.choices()
        if choices:
            self.cursor = (self.cursor + step) % len(choices)
            self.refresh()

    def action_pick(self) -> None:
        _, choices = self.choices()
        if choices:
            self._take(choices[self.cursor])

    def action_number(self, number: int) -> None:
        """A digit picks the choice with that number (in the order the strip shows them)."""
        _, choices = self.choices()
        if 1 <= number <= len(choices):
            self.cursor = number - 1
            self._take(choices[number - 1])

    def action_back(self) -> None:
        if self.first is not None:
            self.first = None
        elif self.own is not None:
            self.own = None
        self.cursor = 0
        self._announce()
        self.refresh()

    def _take(self, choice: Choice) -> None:
        if choice.action is not None:
            self.own = self.first = None
            self.cursor = 0
            self.host.play(choice.action)
            return
        if self.own is None:
            self.own = choice.value
        else:
            self.first = choice.value
        self.cursor = 0
        self._announce()
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        meta = event.style.meta
        _, choices = self.choices()
        if "choice" in meta and meta["choice"] < len(choices):
            self._take(choices[meta["choice"]])
            return
        cell = meta.get("cell")
        if cell is None:
            return
        for index, choice in enumerate(choices):
            if choice.cell == tuple(cell):
                self.cursor = index
                self._take(choice)
                return
        if self.own is not None and tuple(cell) in ((self._sides()[0], self.own),):
            self.action_back()

    # --- drawing ----------------------------------------------------------------------------

    def _last_marks(self) -> set[tuple[str, str]]:
        """The groups the last capture touched: the mover's token and the ones it took."""
        if self.state is None or self.last is None:
            return set()
        view = self.state.view()
        try:
            parts = self.game.action_parts(self.game.parse_action(self.last))
        except ValueError:
            return set()
        if parts.get("kind") != "capture" or view["phase"] != "play":
            return set()
        # After a capture the turn passes, unless the other side has passed and plays alone.
        to_move = view["to_move"]
        mover = view["passed"] and SIDES[1 - SIDES.index(view["passed"])]
        if not mover:
            mover = SIDES[1 - SIDES.index(to_move)]
        other = SIDES[1 - SIDES.index(mover)]
        return {(mover, parts["own"]), *((other, t) for t in parts["taken"])}

    def _side_grid(
        self, view: dict[str, Any], side: str, marks: dict[tuple[str, str], Mark]
    ) -> Table:
        counts = view["dark" if side == "d" else "light"]
        total = sum(counts)
        label = Text(f"{SIDE_NAMES[side]} · {total} token{'s' * (total != 1)}", style="bold")
        if view["phase"] == "play" and not view["round_over"] and view["to_move"] == side:
            label.append("  to move", style="bold reverse")
        if view["passed"] == side:
            label.append("  passed", style="dim")
        grid = Table.grid(padding=(0, 0))
        grid.title = None
        for _ in range(3):
            grid.add_column()
        pairings = view["pairings"]
        last = self._last_marks()
        rows = []
        for row in range(3):
            cells = []
            for col in range(3):
                pairing = pairings[row * 3 + col]
                count = counts[row * 3 + col]
                mark = marks.get((side, pairing))
                cell = Text()
                pointer = (
                    "›"
                    if mark in ("choice", "cursor")
                    else ("*" if (side, pairing) in last else " ")
                )
                cell.append(pointer, style="bold bright_yellow")
                style = Style(meta={"cell": (side, pairing)})
                if mark == "cursor":
                    style += Style(bgcolor="#505050", bold=True, underline=True)
                elif mark == "chosen":
                    style += Style(bgcolor="#5a4a00", bold=True)
                glyph_style = Style.parse(COLOURS[pairing[0]]) + style
                if count:
                    cell.append(f" {GLYPHS[pairing[1]]}", style=glyph_style)
                    cell.append(f" ×{count:<2} ", style=style)
                else:
                    cell.append(f" {GLYPHS[pairing[1]]}", style=Style(dim=True) + style)
                    cell.append("  –  ", style=Style(dim=True) + style)
                cells.append(cell)
            rows.append(cells)
        for cells in rows:
            grid.add_row(*cells)
        outer = Table.grid()
        outer.add_row(label)
        outer.add_row(grid)
        return outer

    def render(self) -> RenderableType:
        if self.state is None:
            return Text("")
        view = self.state.view()
        _, choices = self.choices()
        marks: dict[tuple[str, str], Mark] = {}
        mine, theirs = self._sides()
        if self.own is not None:
            marks[(mine, self.own)] = "chosen"
        if self.first is not None:
            marks[(theirs, self.first)] = "chosen"
        for index, choice in enumerate(choices):
            if choice.cell is not None:
                marks[choice.cell] = "cursor" if index == self.cursor else "choice"
        bottom = "l" if self.flipped else "d"
        top = "d" if bottom == "l" else "l"
        header = Text("Äcädmü", style="bold")
        if view["first"] is not None:
            score = view["scores"]
            header.append(f"   match Dark {score[0]:g} – {score[1]:g} Light (to {view['target']})")
        middle = Text()
        if view["phase"] == "draw":
            middle.append("Drawing a disc each to decide who goes first…")
        elif view["phase"] == "pour":
            middle.append(f"{SIDE_NAMES[view['to_move']]} goes first. Pouring the discs…")
        else:
            diff = view["round_difference"]
            lead = (
                "level" if diff == 0 else f"{'Dark' if diff > 0 else 'Light'} leads by {abs(diff)}"
            )
            middle.append(f"Round: {lead}")
            if view["round_over"]:
                middle.append(" · the round is over", style="bold")
        sides: list[RenderableType] = []
        if view["phase"] == "play":
            sides = [
                self._side_grid(view, top, marks),
                middle,
                self._side_grid(view, bottom, marks),
            ]
        else:
            sides = [middle]
        layout = Table.grid(padding=(0, 4))
        layout.add_row(Group(*sides), beats_circles())
        parts: list[RenderableType] = [header, layout]
        if choices:
            parts.append(self._strip(choices))
        return Group(*parts)

    def _strip(self, choices: list[Choice]) -> Text:
        strip = Text("Choose: ", style="bold")
        for index, choice in enumerate(choices):
            style = Style(meta={"choice": index})
            if index == self.cursor:
                style += Style(reverse=True, bold=True)
            number = f"{index + 1}·" if index < 9 else ""
            strip.append(f" {number}{choice.label} ", style=style)
            strip.append(" ")
        return strip


def board(game: Game, host: BoardHost) -> AcadmuBoard:
    """The plugin's ``tui`` hook."""
    return AcadmuBoard(game, host)
