"""The documentation: the site builds strictly, and the README stays a door into the repository.

``mkdocs build --strict`` turns every warning into a failure: a link to a page or an anchor that
does not exist, a page missing from the nav, a docstring the API reference cannot render, a game
whose How to play diagram is not a real position.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

# A Markdown link or image target: [text](target) or ![alt](target).
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    """The whole site, the generated game pages and the API reference included, with no warning."""
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for page in ("index.html", "performance/index.html", "api/core/index.html"):
        assert (site / page).is_file(), page
    games = site / "rules"
    assert (games / "acadmu" / "index.html").is_file()
    assert (games / "akros" / "index.html").is_file()
    akros = (games / "akros" / "index.html").read_text(encoding="utf-8")
    assert "The complete rules" in akros and "How to play" in akros


def test_the_readme_links_only_into_the_repository() -> None:
    """Every link of the README is a relative path to something in the repository."""
    text = README.read_text(encoding="utf-8")
    assert "../" not in text, "the README points outside the repository"
    targets = LINK.findall(text)
    assert targets, "the README links nothing"
    for target in targets:
        path = target.split("#", 1)[0]
        assert "://" not in target and not target.startswith("/"), target
        if path:
            found = (ROOT / path).resolve()
            assert found.is_relative_to(ROOT), target
            assert found.exists(), f"the README links {target}, which does not exist"


def test_the_readme_starts_with_the_two_commands() -> None:
    """Near its top the README gives a newcomer exactly two commands: make run and make test."""
    lines = README.read_text(encoding="utf-8").splitlines()
    fences = [i for i, line in enumerate(lines) if line.startswith("```")]
    assert len(fences) >= 2
    first, end = fences[0], fences[1]
    assert first < 40, "the first command block is not near the README's top"
    commands = [line.split("#", 1)[0].strip() for line in lines[first + 1 : end]]
    assert [c for c in commands if c] == ["make run", "make test"]


def test_no_game_rules_live_outside_their_package() -> None:
    """Nothing in the repository sends a reader to rules outside it (the games ship their own)."""
    outside = "../" + "shared"  # spelled in two, so this file does not find itself
    skip = {".git", ".venv", "build", "test-artifacts", "node_modules", "__pycache__"}
    offenders = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [d for d in subfolders if d not in skip and not d.startswith(".")]
        for name in files:
            if name.endswith((".py", ".md", ".toml")):
                path = Path(folder, name)
                if outside in path.read_text(encoding="utf-8", errors="replace"):
                    offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
