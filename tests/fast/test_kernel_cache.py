"""A cached kernel is never older than the sources it was compiled from: numba checks only the
defining file, so the kernels' import clears the caches when any compiled source changed."""

from __future__ import annotations

from pathlib import Path

from gamehall.kernels.cache import STAMP, clear_stale_caches, kernel_packages


def _package(root: Path, name: str, source: str) -> Path:
    package = root / name
    (package / "__pycache__").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "fast.py").write_text(source)
    for cached in ("fast.step-10.py311.nbi", "fast.step-10.py311.nbc", "fast.cpython-311.pyc"):
        (package / "__pycache__" / cached).write_text("cached")
    return package


def test_an_edit_to_any_compiled_source_clears_every_kernel_cache(tmp_path: Path) -> None:
    loops = _package(tmp_path, "kernels", "from numba import njit\n")
    game = _package(tmp_path, "game", "from numba import njit\n")
    stamp = loops / "__pycache__" / STAMP
    assert clear_stale_caches([loops, game], stamp) == 4  # no stamp yet: nothing is trusted
    for package in (loops, game):
        names = sorted(p.name for p in (package / "__pycache__").iterdir())
        assert "fast.cpython-311.pyc" in names  # Python's own caches are left alone
        assert not [n for n in names if n.endswith((".nbi", ".nbc"))]
    (game / "__pycache__" / "fast.step-10.py311.nbi").write_text("compiled again")
    assert clear_stale_caches([loops, game], stamp) == 0  # unchanged: the caches are kept
    # The loops change; the game's cache (which inlines them) goes too.
    (loops / "fast.py").write_text("from numba import njit\nX = 1\n")
    assert clear_stale_caches([loops, game], stamp) == 1
    assert not (game / "__pycache__" / "fast.step-10.py311.nbi").exists()


def test_modules_without_compiled_code_do_not_count(tmp_path: Path) -> None:
    game = _package(tmp_path, "game", "from numba import njit\n")
    stamp = game / "__pycache__" / STAMP
    clear_stale_caches([game], stamp)
    (game / "words.py").write_text("TEXT = 'edited'\n")
    (game / "__pycache__" / "fast.step-10.py311.nbi").write_text("compiled")
    assert clear_stale_caches([game], stamp) == 0


def test_the_guard_covers_the_kernels_and_every_game_package() -> None:
    packages = kernel_packages()
    assert packages[0].name == "kernels"
    assert all((p / "__init__.py").exists() for p in packages)
    assert len(packages) >= 3  # the kernels and the two games that ship with the hall
