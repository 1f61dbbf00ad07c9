"""MkDocs hooks: each game's page is made at build time from the game's own package.

This hook emits ``rules/<name>.md`` from those files for the games that ship with gamehall (the
registry's games under ``gamehall.games``) and for the example games under ``examples/`` (each a
distribution of its own, read from its ``pyproject.toml`` entry point and its ``src/``, installed
or not), so nothing is copied into ``docs/`` by hand and the site is the same wherever it is
built. The nav entry ``rules/index.md`` is expanded into a section with one page per game.

A ``diagram`` block of *How to play* is drawn with the game's terminal view (the plugin's
``view``), after checking its position and move through the game's own doors: a diagram that is
not a real position or move fails the build, as it fails the web's page.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from rich.console import Console

from gamehall.core import Diagram, GamePlugin, State, plugins
from gamehall.core.plugin import load_ref

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})(\s)")
_INDEX = "rules/index.md"
_ROOT = Path(__file__).resolve().parent.parent
_EXAMPLES = _ROOT / "examples"


def _example(project: Path) -> list[GamePlugin]:
    """The games an example distribution registers, loaded from its source tree."""
    meta = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    refs = meta.get("project", {}).get("entry-points", {}).get("gamehall.games", {})
    if str(project / "src") not in sys.path:
        sys.path.append(str(project / "src"))
    return [load_ref(ref) for ref in refs.values()]


_FOLDERS: dict[str, str] = {}
"""Each game's package folder, relative to the repository, as :func:`_games` found it."""


def _games() -> list[GamePlugin]:
    """gamehall's own games in registry order, then the examples' games by folder."""
    games = [p for p in plugins().values() if p.package.startswith("gamehall.games.")]
    for plugin in games:
        _FOLDERS[plugin.name] = "src/" + plugin.package.replace(".", "/") + "/"
    for project in sorted(_EXAMPLES.glob("*/pyproject.toml")):
        for plugin in _example(project.parent):
            if plugin.name not in {g.name for g in games}:
                games.append(plugin)
                where = project.parent.relative_to(_ROOT).as_posix()
                _FOLDERS[plugin.name] = f"{where}/src/{plugin.package.replace('.', '/')}/"
    return games


def _folder(plugin: GamePlugin) -> str:
    """The game's package folder, relative to the repository."""
    return _FOLDERS[plugin.name]


def _is_example(plugin: GamePlugin) -> bool:
    return _folder(plugin).startswith("examples/")


def _shift_headings(text: str, by: int) -> str:
    """The Markdown ``text`` with every heading ``by`` levels deeper (code blocks left alone)."""
    out, in_code = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_code = not in_code
        elif not in_code and (m := _HEADING.match(line)):
            line = "#" * min(6, len(m.group(1)) + by) + line[len(m.group(1)) :]
        out.append(line)
    return "\n".join(out).strip("\n") + "\n"


def _drop_title(text: str) -> str:
    """``text`` without its first line if that is a level-1 heading (the page gives its own)."""
    first, _, rest = text.lstrip("\n").partition("\n")
    return rest if first.startswith("# ") else text


def _draw(plugin: GamePlugin, state: State, last: Any = None) -> str:
    """The state as the game's terminal view draws it, as plain text (no colours)."""
    view = plugin.load_view()
    if view is None:
        return str(state)
    console = Console(width=80, color_system=None, record=True, file=_Null())
    console.print(view(state, last))
    lines = console.export_text(styles=False).rstrip().splitlines()
    return "\n".join(line.rstrip() for line in lines)


class _Null:
    """A file that forgets what it is written (the console records for export instead)."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def _diagram(plugin: GamePlugin, diagram: Diagram) -> str:
    """A How to play diagram as Markdown: the board, the move and the caption."""
    game = plugin.game()
    state = game.parse_state(diagram.position)
    note = f"Position `{diagram.position}`"
    if diagram.action is not None:
        action = state.parse_action(diagram.action)
        if diagram.after:
            state = state.apply(action)
            picture = _draw(plugin, state, action)
            note += f", after `{diagram.action}`"
        else:
            picture = _draw(plugin, state)
            note += f"; the move: `{diagram.action}`"
    else:
        picture = _draw(plugin, state)
    caption = f"*{diagram.caption}*  \n" if diagram.caption else ""
    return f"```text\n{picture}\n```\n\n{caption}{note}.\n"


def _options(plugin: GamePlugin) -> str:
    """The game's options (its variants) as a table, from the ``Option``s it declares."""
    specs = plugin.game.option_specs
    if not specs:
        return ""
    rows = [
        f"| `{o.name}` | `{o.default!r}` | {o.kind} | {o.help} |".replace("`''`", "(none)")
        for o in specs
    ]
    return (
        "## Options\n\n"
        "Chosen with `--variant NAME=VALUE` on the command line, in the web's new-game form and "
        "as game parameters in the research adapters.\n\n"
        "| option | default | kind | what it does |\n|---|---|---|---|\n" + "\n".join(rows) + "\n"
    )


def game_page(plugin: GamePlugin) -> str:
    """The whole Markdown page of one game: a summary, How to play, the rules, the options."""
    title = plugin.game.title
    seats = " and ".join(name.capitalize() for name in plugin.game.player_names)
    parts = [f"# {title}\n"]
    if plugin.summary:
        parts.append(plugin.summary + "\n")
    facts = f"Two players: {seats}. Its name on the command line is `{plugin.name}`."
    if plugin.duration:
        facts += f" {plugin.duration.rstrip('.')}."
    if _is_example(plugin):
        facts += (
            " It does not ship with gamehall: it is the worked example of "
            "[Adding a game](../adding-a-game.md), a distribution of its own "
            f"(`pip install -e {_folder(plugin).split('/src/')[0]}`)."
        )
    parts.append(
        facts + " This page is made from the files in the game's package "
        f"(`{_folder(plugin)}`), the same text the web's *How to play* and *Rules* pages show; "
        "the diagrams are drawn as the terminal shows them.\n"
    )
    page = plugin.how_to_play_page()
    if page:
        parts.append("## How to play\n")
        for part in page:
            parts.append(
                _shift_headings(part, 2) if isinstance(part, str) else _diagram(plugin, part)
            )
    rules = plugin.rules()
    if rules:
        parts.append("## The complete rules\n")
        parts.append(_shift_headings(_drop_title(rules), 1))
    parts.append(_options(plugin))
    return "\n".join(p for p in parts if p)


def index_page(games: list[GamePlugin]) -> str:
    """The games section's first page: a line per game, linking its page."""
    lines = [
        "# The games\n",
        "How to play and the complete rules of each game, made from the game's own package when "
        "the site is built (the same text the web's *How to play* and *Rules* pages show).\n",
    ]
    for plugin in games:
        summary = f": {plugin.summary}" if plugin.summary else ""
        example = (
            " (the example of [Adding a game](../adding-a-game.md))" if _is_example(plugin) else ""
        )
        lines.append(f"- [{plugin.game.title}]({plugin.name}.md){example}{summary}")
    return "\n".join(lines) + "\n"


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Expand the nav entry ``rules/index.md`` into a section: the index, then each game."""
    games = [{p.game.title: f"rules/{p.name}.md"} for p in _games()]

    def expand(items: list[Any]) -> list[Any]:
        out: list[Any] = []
        for item in items:
            if isinstance(item, dict):
                (label, value), *_ = item.items()
                if value == _INDEX:
                    out.append({label: [_INDEX, *games]})
                elif isinstance(value, list):
                    out.append({label: expand(value)})
                else:
                    out.append(item)
            else:
                out.append({"The games": [_INDEX, *games]} if item == _INDEX else item)
        return out

    if config.nav:
        config.nav = expand(config.nav)
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the games' pages, generated from their packages."""
    games = _games()
    files.append(File.generated(config, _INDEX, content=index_page(games)))
    for plugin in games:
        files.append(File.generated(config, f"rules/{plugin.name}.md", content=game_page(plugin)))
    return files
