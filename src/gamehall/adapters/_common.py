"""What the adapters share: the game and its research parts, episodes, text rendering."""

from __future__ import annotations

import io
import random
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gamehall.core import Game, GamehallError, State, find_game, find_plugin
from gamehall.core.encoding import Encoding, GameFacts
from gamehall.core.plugin import GamePlugin

MATCH = "game"
"""The episode that is the whole game (a whole match, where the game is a match)."""


@dataclass(frozen=True)
class Research:
    """One game with the parts the adapters need from its plugin."""

    game: Game
    plugin: GamePlugin
    encoding: Encoding
    facts: GameFacts
    episode: str

    @classmethod
    def of(
        cls, name: str | Game, episode: str = MATCH, options: Mapping[str, Any] | None = None
    ) -> Research:
        game = find_game(name, **(options or {})) if isinstance(name, str) else name
        plugin = find_plugin(game.name)
        make_encoding = plugin.load_encoding()
        make_facts = plugin.load_facts()
        if make_encoding is None or make_facts is None:
            raise GamehallError(
                f"{game.name} has no observation encoding or facts for research adapters"
            )
        episodes = plugin.load_episodes()
        if episode != MATCH and episode not in episodes:
            offered = ", ".join([MATCH, *episodes])
            raise GamehallError(f"{game.name} has no episode {episode!r}; episodes: {offered}")
        return cls(game, plugin, make_encoding(game), make_facts(game), episode)

    def __deepcopy__(self, memo: dict[int, Any]) -> Research:
        return self  # never changes once made

    def start(self, rng: random.Random) -> State:
        """The first state of an episode (chance still to come is left to the caller)."""
        if self.episode == MATCH:
            return self.game.new_initial_state()
        return self.plugin.load_episodes()[self.episode](self.game, rng)

    def render_text(self, state: State, last_action: Any = None) -> str:
        """The game's terminal view as plain text (its text form if it has no view)."""
        view = self.plugin.load_view()
        if view is None:
            return str(state) + "\n"
        from rich.console import Console

        buffer = io.StringIO()
        console = Console(file=buffer, width=100, color_system=None, force_terminal=False)
        console.print(view(state, last_action))
        return buffer.getvalue()


def env_id(research: Research) -> str:
    """The game's environment id: ``gamehall/<Title>-v<version>`` (the version from its facts)."""
    return f"gamehall/{ascii_title(research.game)}-v{research.facts.env_version}"


def ascii_title(game: Game) -> str:
    """The game's title without accents and spaces, for environment ids (accents dropped, words capitalised)."""
    plain = unicodedata.normalize("NFKD", game.title).encode("ascii", "ignore").decode()
    return "".join(part.capitalize() if part.islower() else part for part in plain.split())


RENDER_MODES = ["ansi", "rgb_array", "human"]
"""What ``render_mode`` may be: the terminal view as text, an image of the board (an ``H x W x 3``
``uint8`` array), or that image shown in a window (the text view printed where there is no
display)."""

PICTURE_SIZE = (6.4, 4.8)
"""The picture's size in inches (at 100 dots an inch: 640 x 480 pixels)."""


def check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode is one of {RENDER_MODES}, not {render_mode!r}")


def draw_text_view(ax: Any, text: str) -> None:
    """The generic picture: the text view, in a fixed-width font (a game without a picture)."""
    ax.set_axis_off()
    lines = text.rstrip("\n").splitlines() or [""]
    width, height = (inches * 72 for inches in PICTURE_SIZE)  # in points
    # as large as fits: a fixed-width character is about 0.6 of the size wide, a line 1.2 tall
    size = min(
        14.0, 0.9 * width / (0.6 * max(1, *map(len, lines))), 0.9 * height / (1.2 * len(lines))
    )
    ax.text(0.04, 0.96, "\n".join(lines), family="monospace", fontsize=size, va="top", ha="left")


def render_rgb(research: Research, state: State, last_action: Any = None) -> Any:
    """The board as an ``H x W x 3`` ``uint8`` array, drawn by the game's picture (its plugin's
    ``picture``) or, without one, as its text view."""
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=PICTURE_SIZE, dpi=100)
    canvas = FigureCanvasAgg(figure)
    ax = figure.add_axes((0.0, 0.0, 1.0, 1.0))
    picture = research.plugin.load_picture()
    if picture is None:
        draw_text_view(ax, research.render_text(state, last_action))
    else:
        picture(ax, state, last_action)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[:, :, :3].copy()


class HumanWindow:
    """``render_mode="human"``: the picture in a matplotlib window, updated in place; where
    there is no display (a headless backend), the text view printed instead."""

    def __init__(self) -> None:
        self.figure: Any = None
        self.image: Any = None

    def show(self, research: Research, state: State, last_action: Any = None) -> None:
        import matplotlib
        from matplotlib.backends import backend_registry

        interactive = matplotlib.get_backend().lower() in {
            name.lower() for name in backend_registry.list_builtin(_interactive_filter())
        }
        if not interactive:
            print(research.render_text(state, last_action))
            return
        import matplotlib.pyplot as plt

        pixels = render_rgb(research, state, last_action)
        if self.figure is None or not plt.fignum_exists(self.figure.number):
            self.figure = plt.figure(research.game.title, figsize=PICTURE_SIZE, dpi=100)
            ax = self.figure.add_axes((0.0, 0.0, 1.0, 1.0))
            ax.set_axis_off()
            self.image = ax.imshow(pixels)
        else:
            self.image.set_data(pixels)
        self.figure.canvas.draw_idle()
        plt.pause(0.001)  # lets the window's event loop draw it

    def close(self) -> None:
        if self.figure is not None:
            import matplotlib.pyplot as plt

            plt.close(self.figure)
            self.figure = None


def _interactive_filter() -> Any:
    from matplotlib.backends import BackendFilter

    return BackendFilter.INTERACTIVE
