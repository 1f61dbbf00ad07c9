"""The boundary between the games and everything else, enforced on the source tree.

Outside ``src/gamehall/games/`` no file names a game, and no module reads a state's fields by
``getattr`` (the front ends, AI and analysis ask the plugin or the protocol). The import layers
are import-linter's contracts in pyproject.toml (``lint-imports``, run by ``make test``).
"""

from __future__ import annotations

import ast
import re
import unicodedata
from pathlib import Path

import pytest

from gamehall.core import plugins

SRC = Path(__file__).resolve().parents[2] / "src" / "gamehall"
GAMES = SRC / "games"
TEXT_SUFFIXES = {".py", ".js", ".mjs", ".html", ".css", ".md"}


def game_packages() -> list[str]:
    """The games in the tree: every package under ``src/gamehall/games/``."""
    return sorted(
        path.name
        for path in GAMES.iterdir()
        if (path / "__init__.py").is_file() and not path.name.startswith("_")
    )


def game_words() -> set[str]:
    """What names an in-tree game: its package's name, and its registry name and title (as
    written and without accents) from the plugin its package registers. Aliases that are plain
    words (Äcädmü's "tokens") are left out; a game installed from elsewhere is none of these."""
    packages = {f"gamehall.games.{name}" for name in game_packages()}
    words = set(game_packages())
    for plugin in plugins().values():
        if plugin.package in packages:
            for text in (plugin.name, plugin.game.title):
                words.add(text.lower())
                plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
                words.add(plain.lower())
    return {word for word in words if word}


GAME_NAMES = re.compile(
    "|".join(re.escape(word) for word in sorted(game_words(), key=len, reverse=True)),
    re.IGNORECASE,
)

# Every getattr/hasattr outside games/, with what it reads: none of them is a state.
ALLOWED_ATTRIBUTE_PROBES = {
    ("cli/app.py", "getattr", "error"),  # a Click exception's format_message / exit_code
    ("cli/app.py", "hasattr", "error"),
    ("core/game.py", "getattr", "self"),  # an Option's own limits, by field name
    ("core/plugin.py", "getattr", "value"),  # resolving an import path "module:attribute"
    ("store/ratings.py", "getattr", "error.orig"),  # a driver error's SQLSTATE, if it has one
    # a bot's agent named MODULE:CLASS: the class, and that it has a choose()
    ("tui/bot.py", "getattr", "module"),
    ("tui/bot.py", "getattr", "made"),
    # the analysis package's names, imported when first asked for (keeps numba out of the server)
    ("analysis/__init__.py", "getattr", "importlib.import_module(f'{__name__}.{module}')"),
}


def files_outside_games(suffixes: set[str]) -> list[Path]:
    return sorted(
        path
        for path in SRC.rglob("*")
        if path.is_file()
        and path.suffix.lower() in suffixes
        and GAMES not in path.parents
        and "__pycache__" not in path.parts
    )


def test_the_game_names_come_from_the_game_packages():
    """Every package under games/ is a registered game whose names the pattern knows, so a new
    game's name outside games/ is caught without touching this file."""
    packages = {f"gamehall.games.{name}" for name in game_packages()}
    registered = {plugin.package for plugin in plugins().values()}
    assert packages and packages <= registered, "a package under games/ registers no game"
    for plugin in plugins().values():
        if plugin.package in packages:
            assert GAME_NAMES.fullmatch(plugin.name) and GAME_NAMES.fullmatch(plugin.game.title)


def test_the_tree_is_where_the_test_looks():
    names = {path.relative_to(SRC).as_posix() for path in files_outside_games(TEXT_SUFFIXES)}
    assert {"core/game.py", "web/static/app.js", "web/static/index.html"} <= names
    assert any(GAME_NAMES.search(p.read_text(encoding="utf-8")) for p in GAMES.rglob("*.py"))


def test_no_file_outside_games_names_a_game():
    found = []
    for path in files_outside_games(TEXT_SUFFIXES):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if GAME_NAMES.search(line) or GAME_NAMES.search(path.name):
                found.append(f"{path.relative_to(SRC)}:{number}: {line.strip()}")
    assert found == [], "game names outside src/gamehall/games/:\n" + "\n".join(found)


def attribute_probes(path: Path) -> list[tuple[str, str, int]]:
    """Every ``getattr``/``hasattr``/``vars`` call in a module: (function, first argument, line)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    probes = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr", "vars")
        ):
            target = ast.unparse(node.args[0]) if node.args else ""
            probes.append((node.func.id, target, node.lineno))
    return probes


def test_no_module_outside_games_probes_attributes_it_was_not_told_of():
    unexpected = []
    for path in files_outside_games({".py"}):
        relative = path.relative_to(SRC).as_posix()
        for function, target, line in attribute_probes(path):
            if (relative, function, target) not in ALLOWED_ATTRIBUTE_PROBES:
                unexpected.append(f"{relative}:{line}: {function}({target}, ...)")
    assert unexpected == [], (
        "getattr/hasattr/vars outside games/ (ask the plugin or the protocol instead of reading a "
        "state's fields; if it reads no state, list it in ALLOWED_ATTRIBUTE_PROBES):\n"
        + "\n".join(unexpected)
    )


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("getattr(state, 'phase', None)", [("getattr", "state", 1)]),
        ("x = hasattr(live.state, 'turn')", [("hasattr", "live.state", 1)]),
        ("vars(state)['phase']", [("vars", "state", 1)]),
        ("state.phase", []),
    ],
)
def test_the_probe_finder_finds_probes(tmp_path, source, expected):
    module = tmp_path / "m.py"
    module.write_text(source)
    assert attribute_probes(module) == expected


TESTS = Path(__file__).resolve().parents[1]
SKIPPING = re.compile(r"pytest\.skip\(|importorskip|mark\.skip|skipif|find_spec|mark\.xfail")


def test_no_test_turns_a_failure_into_a_skip():
    """A missing dependency or an unready machine fails; nothing in the tests skips."""
    found = [
        f"{path.relative_to(TESTS)}:{number}: {line.strip()}"
        for path in sorted(TESTS.rglob("*.py"))
        if path != Path(__file__).resolve()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if SKIPPING.search(line)
    ]
    assert found == [], "skips in the tests:\n" + "\n".join(found)
