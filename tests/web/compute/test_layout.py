"""The compute package by concern: its modules import one another one way, at the top of the
module (no import inside a function hiding a cycle), and the scheduler still offers the names
the play layer imports from it."""

from __future__ import annotations

import ast
from pathlib import Path

from gamehall.web import compute
from gamehall.web.compute import computers, workers

COMPUTE = Path(compute.__file__).parent

# Each module may import the compute modules of the layers below it, never its own or above.
LAYERS = [
    {"__init__", "workers", "agents"},
    {"hints", "review", "puzzles", "lanes", "analysis"},
    {"jobs"},
    {"runners"},
    {"computers", "worker"},
]


def _compute_imports(tree: ast.Module) -> list[tuple[ast.AST, str]]:
    found: list[tuple[ast.AST, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            if name.startswith("gamehall.web.compute."):
                module = name.removeprefix("gamehall.web.compute.").partition(".")[0]
                if (COMPUTE / f"{module}.py").exists():
                    found.append((node, module))
    return found


def test_the_modules_import_one_another_one_way_at_the_top():
    layer = {name: depth for depth, names in enumerate(LAYERS) for name in names}
    assert layer.keys() == {path.stem for path in COMPUTE.glob("*.py")}
    for path in COMPUTE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {id(node) for node in tree.body}
        for node, module in _compute_imports(tree):
            assert id(node) in top, f"{path.name}:{node.lineno} imports {module} inside code"
            assert layer[module] < layer[path.stem], f"{path.name} imports {module}"


def test_the_worker_warms_the_modules_it_runs():
    for name in workers.JOB_MODULES:
        assert (COMPUTE / f"{name.removeprefix('gamehall.web.compute.')}.py").exists(), name
    assert "gamehall.web.compute.computers" not in workers.JOB_MODULES  # the server's side


def test_the_scheduler_re_exports_what_it_lists():
    for name in computers.__all__:
        assert getattr(computers, name) is not None, name
