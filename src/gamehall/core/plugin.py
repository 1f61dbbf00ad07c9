"""The plugin record: everything a game brings, in one place.

Each game is one package under ``gamehall.games`` (or anywhere else) that names one
:class:`GamePlugin` through the entry-point group ``gamehall.games``::

    [project.entry-points."gamehall.games"]
    mygame = "mypackage.plugin:PLUGIN"

The record holds the game class and, optionally, the game's own parts that generic layers use
when they are there and do without when they are not: an exact solver, computer-level overrides,
a self-play metrics collector, report sections, a terminal view, a board for the full-screen
terminal app, a web board module, the player-facing rules text, its golden playthroughs (what
``gamehall check-game`` and :mod:`gamehall.testing` compare against), and for research: a compiled
simulator, an observation encoding, chance as small listable steps, and named episodes. Heavy or
front-end parts are named by import path (``"module:attr"``)
and loaded only when asked for, so listing games imports no solver and no terminal library.

Outside the game's package nothing names a game: front ends, AI and analysis ask the plugin.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any, Protocol

from gamehall.core.game import Action, Game, State

if TYPE_CHECKING:
    import random

    from gamehall.core.encoding import ChanceSteps, Encoding, GameFacts
    from gamehall.core.metrics import Collector
    from gamehall.core.search import Judgement, LevelOverride, Solver

Ref = str
"""An import path ``"package.module:attribute"``, resolved when first needed."""


def load_ref(ref: Ref) -> Any:
    """The object an import path ``module:attribute`` names."""
    module_name, sep, attribute = ref.partition(":")
    if not sep or not attribute:
        raise ValueError(f"{ref!r} is not an import path like 'package.module:name'")
    value: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        value = getattr(value, part)
    return value


class ReportSection(Protocol):
    """One section of an analysis report, as a game's report hook fills it."""

    def text(self, text: str) -> None: ...

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> None: ...

    def histogram(
        self,
        name: str,
        caption: str,
        series: Mapping[str, Sequence[float]],
        *,
        title: str,
        xlabel: str,
        discrete: bool = True,
    ) -> None: ...

    def rate_bars(
        self, name: str, caption: str, rates: Mapping[str, Any], *, title: str
    ) -> None: ...

    def stacked_bars(
        self,
        name: str,
        caption: str,
        categories: Sequence[str],
        stacks: Mapping[str, Sequence[float]],
        *,
        title: str,
        ylabel: str,
    ) -> None: ...

    def bars(
        self,
        name: str,
        caption: str,
        labels: Sequence[str],
        heights: Sequence[float],
        *,
        title: str,
        xlabel: str,
        ylabel: str,
    ) -> None: ...


class ReportBuilder(Protocol):
    """What a game's report hook is given: new sections, and the report's statistics (a rate
    with its 95% Wilson interval; a mean with its 95% interval), so every figure reads alike."""

    def section(self, title: str) -> ReportSection: ...

    def proportion(self, successes: float, trials: int) -> Any: ...

    def mean_interval(self, values: Sequence[float]) -> Any: ...


ReportHook = Callable[[ReportBuilder, Sequence[Mapping[str, Any]], Sequence[str]], None]
"""``sections(report, rows, player_names)``: add the game's sections to a self-play report."""


class BoardHost(Protocol):
    """What a game's terminal-app board is given (see :attr:`GamePlugin.tui`): the app it
    lives in, so the board never imports the app."""

    def play(self, action: str) -> None:
        """Play ``action`` (notation; one of the legal actions the board was shown)."""

    def prompt(self, text: str) -> None:
        """Say what the board asks for now (``Your Red Triangle: choose a token to take``)."""


class TerminalBoard(Protocol):
    """A game's board widget for the full-screen terminal app (a Textual widget).

    It draws the state through the protocol (``state.view()``), steps over the legal choices
    with the keyboard (arrows move, Enter picks, Escape goes back; the mouse picks too) using
    :meth:`~gamehall.core.game.Game.action_parts`, and hands a whole action to
    :meth:`BoardHost.play`."""

    def show(self, state: State, *, can_move: bool, last: str | None, flipped: bool) -> None:
        """Draw ``state``; ``can_move``: the person at the keyboard is to move; ``last``: the
        last action's notation; ``flipped``: draw the board from the other side."""

    def clear_selection(self) -> None:
        """Forget a half-made move (after undo, or when the position changes)."""

    def summary(self, state: State) -> Any:
        """A Rich renderable summing up a resting point (the end of a round) or the end of the
        game, shown in a panel; None where there is nothing to sum up."""


TuiHook = Callable[["Game", BoardHost], Any]
"""``board(game, host)``: a new Textual widget that is a :class:`TerminalBoard`."""

DealHook = Callable[["Game", "random.Random", "int | None"], State]
"""``deal(game, rng, size)``: a random position for exact analysis (``size`` scales it down)."""

EpisodeStart = Callable[["Game", "random.Random"], State]
"""``start(game, rng)``: the first state of an episode other than the whole game."""


@dataclass(frozen=True)
class Diagram:
    """A real position drawn for people (the home page's picture, a How to play diagram).

    ``position`` is the state's text (:meth:`Game.parse_state`, default options); ``action``, if
    given, is legal there and is drawn as the move: on the position before it, or, with
    ``after``, on the position it leads to (as the move just played). ``caption`` says what the
    diagram shows."""

    position: str
    action: str | None = None
    after: bool = False
    caption: str = ""


DIAGRAM_FENCE = "```diagram"
"""How a How to play page marks a diagram: a fenced block of ``key: value`` lines (the fields
of :class:`Diagram`), e.g.::

    ```diagram
    position: 1,0,0,0,0,0,0,0,0/0,0,0,0,1,0,0,0,0 d -
    action: RTxBS
    caption: Red beats Blue: the Red Triangle takes the Blue Square.
    ```
"""


def parse_page(text: str, where: str = "page") -> list[str | Diagram]:
    """A How to play page as its parts: Markdown text and the :class:`Diagram` blocks between."""
    parts: list[str | Diagram] = []
    lines = text.splitlines()
    chunk: list[str] = []
    i = 0
    while i < len(lines):
        if lines[i].strip() != DIAGRAM_FENCE:
            chunk.append(lines[i])
            i += 1
            continue
        if "\n".join(chunk).strip():
            parts.append("\n".join(chunk).strip("\n") + "\n")
        chunk = []
        start = i + 1
        fields: dict[str, str] = {}
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            key, sep, value = lines[i].partition(":")
            if lines[i].strip():
                if not sep or key.strip() not in {"position", "action", "after", "caption"}:
                    raise ValueError(
                        f"{where}, line {i + 1}: a diagram line is 'key: value' with the key one "
                        f"of position, action, after, caption; not {lines[i].strip()!r}"
                    )
                fields[key.strip()] = value.strip()
            i += 1
        if i == len(lines):
            raise ValueError(f"{where}, line {start}: the diagram block is not closed by ```")
        if "position" not in fields:
            raise ValueError(f"{where}, line {start}: a diagram needs a position")
        parts.append(
            Diagram(
                position=fields["position"],
                action=fields.get("action") or None,
                after=fields.get("after", "").lower() in {"1", "true", "yes"},
                caption=fields.get("caption", ""),
            )
        )
        i += 1
    if "\n".join(chunk).strip():
        parts.append("\n".join(chunk).strip("\n") + "\n")
    return parts


@dataclass(frozen=True)
class Playthrough:
    """One seeded random game of a golden playthrough file: the seed and the game's options."""

    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Playthroughs:
    """A game's golden playthroughs (OpenSpiel's playthrough files): a text file in the game's
    package recording seeded random ``games`` state by state, so any change of behaviour shows
    as a diff. ``gamehall check-game NAME`` plays them again and compares; ``--regen`` writes
    the file (:mod:`gamehall.testing.playthrough`)."""

    file: str
    """The file's path inside the game's package, e.g. ``"playthroughs.txt"``."""
    games: tuple[Playthrough, ...] = (Playthrough(1), Playthrough(2))


@dataclass(frozen=True)
class GamePlugin:
    """One game's plugin record (see the module docstring).

    ``solver``, ``levels``, ``collector``, ``report``, ``view``, ``tui``, ``deal``,
    ``estimate_position``, ``simulator``, ``vector``, ``encoding``, ``chance_steps``, ``facts``,
    ``episodes`` and ``picture`` are import paths; ``board_module``, ``rules_text`` and ``starter_puzzles`` are
    files inside the game's package; ``judgement`` and ``playthrough`` are values. Each is
    optional.
    """

    game: type[Game]
    aliases: tuple[str, ...] = ()
    summary: str = ""
    """A sentence or two for people who do not know the game."""
    solver: Ref | None = None
    """A :class:`~gamehall.core.search.Solver` instance."""
    levels: Ref | None = None
    """A mapping of level name to :class:`~gamehall.core.search.LevelOverride`."""
    level_words: Ref | None = None
    """A mapping of level name to what the level does, in the game's words (the level menu's
    labels; levels it leaves out keep the generic words, :data:`gamehall.ai.LEVEL_WORDS`)."""
    level_note: Ref | None = None
    """A sentence on what the levels' ratings mean in this game (e.g. per match, not per
    round), shown with them."""
    collector: Ref | None = None
    """A :class:`~gamehall.core.metrics.Collector` subclass for self-play rows."""
    report: Ref | None = None
    """A :data:`ReportHook` adding the game's sections to self-play reports."""
    view: Ref | None = None
    """``render(state, last_action=None)``: a Rich renderable for the terminal."""
    tui: Ref | None = None
    """A :data:`TuiHook`: the game's board in the full-screen terminal app (``gamehall tui``),
    a Textual widget following :class:`TerminalBoard`. Without one the app shows a generic
    board: the position text and the legal actions as a list."""
    deal: Ref | None = None
    """A :data:`DealHook`: random positions for ``analyze --exact``."""
    judgement: Judgement | None = None
    """How reviews class moves by their cost, and the margin a puzzle's answer must win by, in
    the solver's unit (:class:`~gamehall.core.search.Judgement`)."""
    estimate_position: Ref | None = None
    """``position(state) -> State``: what to search (MCTS) to estimate the solver's value of
    ``state`` where it cannot be solved: a state with the same player to move and legal actions
    whose returns are the solver's values (points), or +1/-1 for a win/loss (probabilities).
    Default: the state itself."""
    simulator: Ref | None = None
    """A :class:`~gamehall.kernels.simulator.Simulator`: the game's compiled simulator, which
    :mod:`gamehall.fast`, self-play analysis and MCTS use where they can."""
    vector: Ref | None = None
    """A :class:`~gamehall.kernels.batch.BatchKernels`: the game's compiled batched step over
    its simulator's kernels, which :mod:`gamehall.vector` runs (N games stepped together, the
    observation written in compiled code with the same layout as ``encoding``). Needs
    ``simulator`` and ``encoding``."""
    encoding: Ref | None = None
    """``encoding(game)`` → :class:`~gamehall.core.encoding.Encoding`: the fixed-size numeric
    observation of a state for one player, with its layout documented (the RL adapters)."""
    chance_steps: Ref | None = None
    """A :class:`~gamehall.core.encoding.ChanceSteps`: chance nodes too big to list, as a
    sequence of small listable steps (the OpenSpiel adapter's exact ``chance_outcomes``)."""
    facts: Ref | None = None
    """``facts(game)`` → :class:`~gamehall.core.encoding.GameFacts`: the return range, the
    largest chance node and the longest game, as OpenSpiel's game info declares them."""
    episodes: Ref | None = None
    """A mapping of name to :data:`EpisodeStart`: ways to start an episode other than the whole
    game (e.g. a single round of a match), offered by the RL adapters as ``episode=NAME``."""
    words: Ref | None = None
    """A :data:`~gamehall.core.words.MoveWords` ``(state, action) -> str``: an action played in
    ``state`` told in a sentence in the game's words ("Dark's Red Circle takes two Red
    Triangles, by shape"), for every text a person reads; without it, the mover and the
    notation."""
    chapters: Ref | None = None
    """A :data:`~gamehall.core.words.Chapters` ``(before, after, previous) -> Chapter``: an
    action's round or turn and, after the action that ends a round, the round's result, so
    move lists are grouped and keep the results; without it, one group."""
    puzzle_themes: Ref | None = None
    """``themes(state, answer, line) -> tuple[str, ...]``: a puzzle's themes as a player reads
    them ("Capture by shape", "Contesting a region"), read off the position, the answer and the
    solution line (:mod:`gamehall.analysis.puzzles`)."""
    situation: Ref | None = None
    """``situation(state) -> str``: where the game stands and what follows from it, in a
    sentence or two ("Turn 7 of 9, the Ifrit to place her Mountain: then the Jinn places his
    Sea; ..."), for a puzzle's prompt."""
    picture: Ref | None = None
    """``draw(ax, state, last_action=None)``: draws the position on a matplotlib ``Axes`` (the
    RL adapters' ``render_mode="rgb_array"`` and ``"human"``); without one, the text view is
    drawn."""
    board_module: str | None = None
    """An ES module in the package that draws the board in the browser."""
    board_style: str | None = None
    """A stylesheet in the package for that board."""
    editor_module: str | None = None
    """An ES module in the package: the analysis board's position editor (an ``Editor``
    class: ``element``, ``load(view)``, ``text()`` giving the edited position's text; see
    docs/adding-a-game.md). Without one, positions are set up by their text alone."""
    rules_text: str | None = None
    """Markdown in the package: the complete rules, written for readers."""
    how_to_play: str | None = None
    """Markdown in the package: a first lesson for players, with ``diagram`` blocks of real
    positions (see :data:`DIAGRAM_FENCE`)."""
    sample: Diagram | None = None
    """A real position that shows what the game looks like (the home page's picture)."""
    duration: str = ""
    """How long a game takes, for people choosing one (e.g. "about 15 minutes")."""
    starter_puzzles: str | None = None
    """JSON Lines in the package: the game's shipped puzzles (as ``gamehall puzzles generate
    --out`` stores them, :mod:`gamehall.analysis.puzzles`, with the commands that made them in
    ``<file>.command.json`` beside it), offered beside the user's own."""
    level_ratings: str | None = None
    """JSON in the package: ``{"ratings": {level: rating}, ...}``, the computer levels' fixed
    ratings on the hall's Glicko-2 scale, estimated by ``bench/level_ratings.py`` with the
    tournament tool (data, never computed when asked for)."""
    playthrough: Playthroughs | None = None
    """The game's golden playthroughs: a file in the package and the seeded games it records
    (optional: a game without one is still checked by everything else)."""
    # Each record its own (init=False: a copy made with dataclasses.replace starts empty rather
    # than sharing, and answering with, the parts its original loaded).
    _cache: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def package(self) -> str:
        """The Python package the game lives in."""
        return self.game.__module__.rpartition(".")[0]

    def _load(self, key: str, ref: Ref | None) -> Any:
        if ref is None:
            return None
        if key not in self._cache:
            self._cache[key] = load_ref(ref)
        return self._cache[key]

    def load_solver(self) -> Solver | None:
        return self._load("solver", self.solver)

    def load_levels(self) -> Mapping[str, LevelOverride]:
        return self._load("levels", self.levels) or {}

    def load_level_words(self) -> Mapping[str, str]:
        return self._load("level_words", self.level_words) or {}

    def load_level_note(self) -> str:
        return self._load("level_note", self.level_note) or ""

    def load_collector(self) -> type[Collector] | None:
        return self._load("collector", self.collector)

    def load_report(self) -> ReportHook | None:
        return self._load("report", self.report)

    def load_view(self) -> Callable[..., Any] | None:
        return self._load("view", self.view)

    def load_tui(self) -> TuiHook | None:
        return self._load("tui", self.tui)

    def load_deal(self) -> DealHook | None:
        return self._load("deal", self.deal)

    def load_estimate_position(self) -> Callable[[State], State] | None:
        return self._load("estimate_position", self.estimate_position)

    def load_simulator(self) -> Any:
        """The :class:`gamehall.kernels.simulator.Simulator`, or None (typed ``Any``: core
        knows no layer above it)."""
        return self._load("simulator", self.simulator)

    def load_vector(self) -> Any:
        """The :class:`gamehall.kernels.batch.BatchKernels`, or None (typed ``Any``: core
        knows no layer above it)."""
        return self._load("vector", self.vector)

    def load_encoding(self) -> Callable[[Game], Encoding] | None:
        return self._load("encoding", self.encoding)

    def load_picture(self) -> Callable[..., None] | None:
        return self._load("picture", self.picture)

    def load_chance_steps(self) -> ChanceSteps | None:
        return self._load("chance_steps", self.chance_steps)

    def load_facts(self) -> Callable[[Game], GameFacts] | None:
        return self._load("facts", self.facts)

    def load_puzzle_themes(
        self,
    ) -> Callable[[State, Action, Sequence[Action]], tuple[str, ...]] | None:
        return self._load("puzzle_themes", self.puzzle_themes)

    def load_situation(self) -> Callable[[State], str] | None:
        return self._load("situation", self.situation)

    def load_episodes(self) -> Mapping[str, EpisodeStart]:
        return self._load("episodes", self.episodes) or {}

    def resource_text(self, path: str | None) -> str | None:
        """The text of a file inside the game's package (None if there is none)."""
        if path is None:
            return None
        entry = resources.files(self.package).joinpath(path)
        return entry.read_text(encoding="utf-8") if entry.is_file() else None

    def playthrough_text(self) -> str | None:
        """The golden playthrough file's text (None if the game declares none or it is missing)."""
        return self.resource_text(self.playthrough.file if self.playthrough else None)

    def board_source(self) -> str | None:
        """The web board module's JavaScript source, if the game has one."""
        return self.resource_text(self.board_module)

    def editor_source(self) -> str | None:
        """The analysis board's position editor (JavaScript), if the game has one."""
        return self.resource_text(self.editor_module)

    def board_css(self) -> str | None:
        """The web board's stylesheet, if the game has one."""
        return self.resource_text(self.board_style)

    def rules(self) -> str | None:
        """The player-facing rules (Markdown), if the game has them."""
        return self.resource_text(self.rules_text)

    def how_to_play_page(self) -> list[str | Diagram] | None:
        """The How to play page as Markdown parts and diagrams, if the game has one."""
        text = self.resource_text(self.how_to_play)
        if text is None:
            return None
        return parse_page(text, f"{self.name} {self.how_to_play}")

    def _level_ratings_data(self) -> dict[str, Any]:
        if "level_ratings" not in self._cache:
            text = self.resource_text(self.level_ratings)
            self._cache["level_ratings"] = json.loads(text) if text else {}
        return self._cache["level_ratings"]

    def level_ratings_table(self) -> dict[str, int]:
        """The computer levels' fixed ratings (empty if the game has none)."""
        ratings = self._level_ratings_data().get("ratings", {})
        return {str(k): int(v) for k, v in ratings.items()}

    def level_intervals_table(self) -> dict[str, int]:
        """Half the 95% interval of each level's rating, relative to the anchor level's."""
        intervals = self._level_ratings_data().get("interval_95", {})
        return {str(k): int(v) for k, v in intervals.items()}


__all__ = [
    "DIAGRAM_FENCE",
    "BoardHost",
    "DealHook",
    "Diagram",
    "EpisodeStart",
    "GamePlugin",
    "Playthrough",
    "Playthroughs",
    "Ref",
    "ReportBuilder",
    "ReportHook",
    "ReportSection",
    "TerminalBoard",
    "TuiHook",
    "load_ref",
    "parse_page",
]
