"""The protocol package by concern: its modules import one another one way, at the top of the
module (no import inside a function hiding a cycle), and the package names what it re-exports."""

from __future__ import annotations

import ast
from pathlib import Path

from gamehall import protocol

PROTOCOL = Path(protocol.__file__).parent

# Each module may import the protocol modules of the layers below it, never its own or above.
LAYERS = [
    {"errors"},
    {"base"},
    {"client", "bodies", "server", "challenges"},
    {"answers", "hall"},
    {"schema"},
    {"__init__", "__main__"},
]


def _imports(tree: ast.Module) -> list[tuple[ast.AST, str]]:
    found: list[tuple[ast.AST, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append((node, node.module))
        elif isinstance(node, ast.Import):
            found += [(node, alias.name) for alias in node.names]
    return found


def test_the_modules_import_one_another_one_way_at_the_top():
    layer = {name: depth for depth, names in enumerate(LAYERS) for name in names}
    assert layer.keys() == {path.stem for path in PROTOCOL.glob("*.py")}
    for path in PROTOCOL.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {id(node) for node in tree.body}
        for node, module in _imports(tree):
            assert id(node) in top, f"{path.name}:{node.lineno} imports {module} inside code"
            if module == "gamehall.protocol" or module.startswith("gamehall.protocol."):
                target = module.removeprefix("gamehall.protocol").lstrip(".") or "__init__"
                assert layer[target] < layer[path.stem], f"{path.name} imports {target}"


def test_the_package_re_exports_what_it_lists():
    assert len(set(protocol.__all__)) == len(protocol.__all__)
    for name in protocol.__all__:
        assert getattr(protocol, name) is not None, name
