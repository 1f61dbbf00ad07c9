"""The Akros board of the full-screen terminal app (``gamehall tui``): a Textual widget.

It draws the hex board with the cells of :mod:`gamehall.games.akros.view`, the Temple, the bag,
the hands and the score per environment, and steps over the legal choices by keyboard or mouse:
first the tile to keep, then the region to place it on, then the servant that moves there (a
step with one choice is taken for you). Moves are built from :meth:`AkrosGame.action_parts`,
never from the notation, and handed whole to the app (:class:`gamehall.core.plugin.BoardHost`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.widget import Widget

from gamehall.core import Game, State
from gamehall.core.plugin import BoardHost
from gamehall.games.akros.view import (
    LEGEND,
    SIDE_STYLES,
    Mark,
    board_text,
    last_region,
    score_table,
    side_table,
    tiles_text,
    title_text,
)

WIDE = 92
"""From this many columns the Temple and the score stand beside the board, not below it."""
NARROW = 72
"""Below this many columns (or rows, :data:`TALL`) the Temple, the bag, the hands and the
score are told in a few lines under the board, so the whole board fits a small terminal."""
TALL = 40
"""From this many rows of terminal the Temple and the score stand as tables under the board."""


@dataclass(frozen=True)
class Choice:
    """One choice on offer: what it shows, the region it marks (if any), and the action it
    completes (None: it leads to the next step)."""

    label: str
    region: int | None
    action: str | None
    value: Any


class AkrosBoard(Widget, can_focus=True):
    """The Akros board; see the module docstring."""

    DEFAULT_CSS = """
    AkrosBoard { height: auto; width: 1fr; padding: 0 1; }
    AkrosBoard:focus { background: $boost; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1, 0)", "previous", show=False),
        Binding("right", "move(1, 0)", "next", show=False),
        Binding("up", "move(0, -1)", "up", show=False),
        Binding("down", "move(0, 1)", "down", show=False),
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
        self.chosen_region: int | None = None
        """The region chosen for the tile (the placement's first step)."""
        self.cursor = 0

    # --- the TerminalBoard protocol ---------------------------------------------------------

    def show(self, state: State, *, can_move: bool, last: str | None, flipped: bool) -> None:
        if state is not self.state:
            self.chosen_region, self.cursor = None, 0
        self.state, self.can_move, self.last, self.flipped = state, can_move, last, flipped
        self._announce()
        self.refresh(layout=True)

    def clear_selection(self) -> None:
        self.chosen_region, self.cursor = None, 0
        self._announce()
        self.refresh()

    def summary(self, state: State) -> RenderableType | None:
        """At the end of the game: who wins, and the score per environment."""
        outcome = state.outcome()
        if outcome is None:
            return None
        winner = state.player_name(outcome.winner).capitalize()
        return Group(
            Text(f"{winner} wins: {outcome.reason}.", style="bold"),
            Text(""),
            score_table(state.view(), "Final score"),
        )

    # --- the steps --------------------------------------------------------------------------

    def _legal(self) -> list[tuple[str, dict[str, Any]]]:
        if self.state is None or not self.can_move:
            return []
        return [(str(a), self.game.action_parts(a)) for a in self.state.legal_actions()]

    def choices(self) -> tuple[str, list[Choice]]:
        """What the board asks now, and the choices on offer, in reading order."""
        legal = self._legal()
        if not legal:
            return "", []
        names = {e["environment"]: e["name"] for e in self.state.view()["environments"]}  # type: ignore[union-attr]
        kinds = {parts.get("kind") for _, parts in legal}
        if kinds & {"keep", "keep-discard"}:
            seen: dict[str, Choice] = {}
            for text, parts in legal:
                if parts["tile"] not in seen:
                    seen[parts["tile"]] = Choice(names[parts["tile"]], None, text, parts["tile"])
            discards = "keep-discard" in kinds
            tail = " (the other goes to the Temple)" if discards else ""
            return f"Keep which tile?{tail}", list(seen.values())
        places = [(text, parts) for text, parts in legal if parts.get("kind") == "place"]
        if places:
            tile = names[places[0][1]["tile"]]
            if self.chosen_region is None:
                targets: dict[int, list[str]] = {}
                for text, parts in places:
                    targets.setdefault(parts["region"], []).append(text)
                return f"Place your {tile}: which region?", [
                    Choice(
                        f"region {region}", region, texts[0] if len(texts) == 1 else None, region
                    )
                    for region, texts in sorted(targets.items(), key=lambda kv: self._order(kv[0]))
                ]
            sources = [
                Choice(f"the servant on {parts['source']}", parts["source"], text, parts["source"])
                for text, parts in places
                if parts["region"] == self.chosen_region
            ]
            sources.sort(key=lambda c: self._order(c.region or 0))
            return f"{tile} on region {self.chosen_region}: which servant moves there?", sources
        text, parts = legal[0]
        return f"No legal place for your {names[parts['tile']]}", [
            Choice("remove it", None, text, parts["tile"])
        ]

    def _positions(self) -> dict[int, tuple[int, int]]:
        assert self.state is not None
        regions = self.state.view()["regions"]
        rows = max(r["row"] for r in regions)
        cols = max(r["col"] for r in regions)
        if self.flipped:
            return {r["id"]: (rows - r["row"], cols - r["col"]) for r in regions}
        return {r["id"]: (r["row"], r["col"]) for r in regions}

    def _order(self, region: int) -> tuple[int, int]:
        return self._positions()[region]

    def _announce(self) -> None:
        prompt, choices = self.choices()
        if not choices:
            self.host.prompt("")
            return
        self.cursor = min(self.cursor, len(choices) - 1)
        keys = "←→↑↓ choose, Enter picks" + (", Esc back" if self.chosen_region is not None else "")
        self.host.prompt(f"{prompt}  {keys}")

    # --- keys and mouse ---------------------------------------------------------------------

    def action_move(self, across: int, down: int) -> None:
        _, choices = self.choices()
        if not choices:
            return
        if down == 0 or any(c.region is None for c in choices):
            step = across or down
            self.cursor = (self.cursor + step) % len(choices)
        else:
            self.cursor = self._vertical(choices, down)
        self.refresh()

    def _vertical(self, choices: list[Choice], down: int) -> int:
        """The nearest choice in the next row up or down (the same one if there is none)."""
        positions = self._positions()
        row, col = positions[choices[self.cursor].region or 0]
        best, best_key = self.cursor, None
        for index, choice in enumerate(choices):
            other_row, other_col = positions[choice.region or 0]
            if (other_row - row) * down <= 0:
                continue
            key = (abs(other_row - row), abs(other_col - col))
            if best_key is None or key < best_key:
                best, best_key = index, key
        return best

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
        if self.chosen_region is not None:
            self.clear_selection()

    def _take(self, choice: Choice) -> None:
        if choice.action is not None:
            self.chosen_region, self.cursor = None, 0
            self.host.play(choice.action)
            return
        self.chosen_region, self.cursor = choice.value, 0
        self._announce()
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        meta = event.style.meta
        _, choices = self.choices()
        if "choice" in meta and meta["choice"] < len(choices):
            self._take(choices[meta["choice"]])
        elif "region" in meta:
            for index, choice in enumerate(choices):
                if choice.region == meta["region"]:
                    self.cursor = index
                    self._take(choice)
                    return
            if self.chosen_region is not None and meta["region"] == self.chosen_region:
                self.clear_selection()

    # --- drawing ----------------------------------------------------------------------------

    def render(self) -> RenderableType:
        if self.state is None:
            return Text("")
        view = self.state.view()
        _, choices = self.choices()
        marks: dict[int, Mark] = {}
        if self.chosen_region is not None:
            marks[self.chosen_region] = "chosen"
        for index, choice in enumerate(choices):
            if choice.region is not None:
                marks[choice.region] = "cursor" if index == self.cursor else "choice"
        regions = view["regions"]
        if self.flipped:
            positions = self._positions()
            regions = [
                {**r, "row": positions[r["id"]][0], "col": positions[r["id"]][1]} for r in regions
            ]
        title = Text(title_text(self.state), style="bold")
        if not self.state.is_terminal() and not self.state.is_chance_node():
            mover = self.state.player_name()
            title.highlight_words([mover.capitalize()], SIDE_STYLES[mover])
        board = board_text(
            regions, marks, last_region=last_region(self.last, self.state), meta=True
        )
        parts: list[RenderableType] = [title, board, Text(LEGEND, style="dim")]
        if choices:
            parts.append(self._strip(choices))
        width = self.size.width
        if width >= WIDE:
            side = Group(side_table(view), Text(""), score_table(view))
            grid = Table.grid(padding=(0, 3))
            grid.add_row(Group(*parts), side)
            return grid
        if width >= NARROW and self.app.size.height >= TALL:
            grid = Table.grid(padding=(0, 3))
            grid.add_row(side_table(view), score_table(view))
            return Group(*parts, Text(""), grid)
        return Group(*parts, *compact_side(view))

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


def compact_side(view: dict[str, Any]) -> list[Text]:
    """The Temple, the bag, the draft, the hands, the removed tiles and the score in a few
    lines, for a small terminal (the same as :func:`side_table` and :func:`score_table`)."""
    names = {e["environment"]: e["name"] for e in view["environments"]}
    piles = "  ".join(f"{number}: {tiles_text(pile)}" for number, pile in view["temple"].items())
    bag = "  ".join(f"{letter} {n}" for letter, n in view["bag"].items())
    first = Text.assemble(("Temple ", "bold"), piles, ("  Bag ", "bold"), bag)
    second = Text.assemble(("Draft ", "bold"), tiles_text(view["draft"]))
    for player in ("jinn", "ifrit"):
        tile = view["hands"][player]
        second.append(f"  {player.capitalize()} keeps ", style=SIDE_STYLES[player])
        second.append("-" if tile is None else names[tile])
    removed = tiles_text(letter * n for letter, n in view["removed"].items())
    second.append("  Removed ", style="bold")
    second.append(removed)
    score = Text.assemble(("Score ", "bold"))
    score.append("Jinn", style=SIDE_STYLES["jinn"])
    score.append("–")
    score.append("Ifrit", style=SIDE_STYLES["ifrit"])
    score.append(":")
    for environment in view["environments"]:
        claimed = environment["claimed_by"]
        score.append(f"  {environment['name']} {environment['jinn']}–{environment['ifrit']}")
        if claimed is not None:
            score.append(f" {claimed.capitalize()}", style=SIDE_STYLES[claimed])
    return [first, second, score]


def board(game: Game, host: BoardHost) -> AkrosBoard:
    """The plugin's ``tui`` hook."""
    return AkrosBoard(game, host)
