"""The generic board of the terminal app, for a game without one of its own: the position text,
whose turn it is, the score, and the legal actions as a list to pick from (↑↓ and Enter, or
the mouse). It follows :class:`gamehall.core.plugin.TerminalBoard` like the games' boards."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.widget import Widget

from gamehall.core import Game, State
from gamehall.core.plugin import BoardHost

SHOWN = 12
"""How many legal actions the list shows at once (it scrolls with the cursor)."""


class GenericBoard(Widget, can_focus=True):
    """Any game, drawn from the protocol alone."""

    DEFAULT_CSS = """
    GenericBoard { height: auto; width: 1fr; padding: 0 1; }
    GenericBoard:focus { background: $boost; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,left", "move(-1)", "previous", show=False),
        Binding("down,right", "move(1)", "next", show=False),
        Binding("enter", "pick", "play", show=False),
        *(Binding(str(n), f"number({n})", show=False) for n in range(1, 10)),
    ]

    def __init__(self, game: Game, host: BoardHost) -> None:
        super().__init__()
        self.game = game
        self.host = host
        self.state: State | None = None
        self.can_move = False
        self.last: str | None = None
        self.cursor = 0

    def show(self, state: State, *, can_move: bool, last: str | None, flipped: bool) -> None:
        if state is not self.state:
            self.cursor = 0
        self.state, self.can_move, self.last = state, can_move, last
        self.host.prompt("Your move: ↑↓ choose, Enter plays" if self._legal() else "")
        self.refresh(layout=True)

    def clear_selection(self) -> None:
        self.cursor = 0
        self.refresh()

    def summary(self, state: State) -> RenderableType | None:
        outcome = state.outcome()
        if outcome is None:
            return None
        scores = ", ".join(
            f"{name} {value:g}"
            for name, value in zip(state.game.player_names, outcome.scores, strict=False)
        )
        return Text(f"{outcome.reason}.\nScore: {scores}")

    def _legal(self) -> list[str]:
        if self.state is None or not self.can_move:
            return []
        return [str(a) for a in self.state.legal_actions()]

    def action_move(self, step: int) -> None:
        legal = self._legal()
        if legal:
            self.cursor = (self.cursor + step) % len(legal)
            self.refresh()

    def action_pick(self) -> None:
        legal = self._legal()
        if legal:
            self.host.play(legal[self.cursor])

    def action_number(self, number: int) -> None:
        """A digit plays the move with that number in the list."""
        legal = self._legal()
        if 1 <= number <= len(legal):
            self.host.play(legal[number - 1])

    def on_click(self, event: events.Click) -> None:
        index = event.style.meta.get("choice")
        legal = self._legal()
        if index is not None and index < len(legal):
            self.cursor = index
            self.host.play(legal[index])

    def render(self) -> RenderableType:
        if self.state is None:
            return Text("")
        state = self.state
        names = state.game.player_names
        parts: list[RenderableType] = [Text(state.game.title, style="bold"), Text(str(state))]
        scores = ", ".join(f"{n} {v:g}" for n, v in zip(names, state.scores(), strict=False))
        parts.append(Text(f"score: {scores}"))
        if self.last is not None:
            parts.append(Text(f"last: {self.last}", style="dim"))
        if not state.is_terminal() and not state.is_chance_node():
            parts.append(Text(f"{state.player_name().capitalize()} to move", style="bold"))
        legal = self._legal()
        if legal:
            start = max(0, min(self.cursor - SHOWN // 2, len(legal) - SHOWN))
            listing = Text()
            for index in range(start, min(len(legal), start + SHOWN)):
                style = Style(meta={"choice": index})
                if index == self.cursor:
                    style += Style(reverse=True, bold=True)
                listing.append(f"{index + 1:>4}. {legal[index]}\n", style=style)
            if len(legal) > SHOWN:
                listing.append(f"      ({len(legal)} legal moves)", style="dim")
            parts.append(listing)
        return Group(*parts)


def board(game: Game, host: BoardHost) -> GenericBoard:
    return GenericBoard(game, host)
