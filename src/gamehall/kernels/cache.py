"""Numba's on-disk cache, kept honest: a cached kernel is reused only while every source it was
compiled from is unchanged.

numba checks only the file that defines a cached function. The games' simulators and batch
loops inline kernels of other modules (this package's loops, the game's own ``fast`` module), so
after an edit to one of those a cached loop would go on running the old code. At import,
:func:`clear_stale_caches` compares a hash of every module with compiled code (this package's
and each game package's) with the hash saved beside the caches; when they differ, the cached
kernels of those packages are removed, and numba compiles them again on first use.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

STAMP = "numba-sources.sha256"
"""The file, in this package's ``__pycache__``, that holds the hash of the compiled sources."""


def sources_hash(packages: list[Path]) -> str:
    """One hash of the names and contents of the modules of ``packages`` (folders) with numba
    code, in a stable order (each read once)."""
    digest = hashlib.sha256()
    for package in packages:
        for module in sorted(package.glob("*.py")):
            source = module.read_bytes()
            if b"numba" in source:
                digest.update(module.name.encode())
                digest.update(source)
    return digest.hexdigest()


def clear_stale_caches(packages: list[Path], stamp: Path) -> int:
    """Remove the numba caches (``__pycache__/*.nbi``, ``*.nbc``) of ``packages`` when their
    compiled sources differ from the hash in ``stamp``, then save the new hash; how many cache
    files were removed. A folder that cannot be written (an installed, read-only package)
    changes nothing: numba then keeps its caches elsewhere, and they are as old as the install."""
    current = sources_hash(packages)
    try:
        if stamp.read_text(encoding="ascii") == current:
            return 0
    except OSError:
        pass
    removed = 0
    for package in packages:
        for cached in [*package.glob("__pycache__/*.nbi"), *package.glob("__pycache__/*.nbc")]:
            try:
                cached.unlink()
                removed += 1
            except OSError:
                pass  # gone already (another process cleared it) or not ours to remove
    try:
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(current, encoding="ascii")
    except OSError:
        pass
    return removed


def kernel_packages() -> list[Path]:
    """This package and every game package beside ``gamehall.games``."""
    here = Path(__file__).resolve().parent
    games = here.parent / "games"
    return [here, *sorted(p for p in games.iterdir() if (p / "__init__.py").exists())]


def clear_stale_kernel_caches() -> int:
    """:func:`clear_stale_caches` for the kernels and the games (called at import)."""
    packages = kernel_packages()
    return clear_stale_caches(packages, packages[0] / "__pycache__" / STAMP)
