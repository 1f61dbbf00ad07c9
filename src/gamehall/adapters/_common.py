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


def ascii_title(game: Game) -> str:
    """The game's title without accents and spaces, for environment ids (accents dropped, words capitalised)."""
    plain = unicodedata.normalize("NFKD", game.title).encode("ascii", "ignore").decode()
    return "".join(part.capitalize() if part.islower() else part for part in plain.split())
