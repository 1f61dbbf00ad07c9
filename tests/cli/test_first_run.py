"""The lean first run: `make run` installs only what playing needs, in numbered steps; `make run`
after `make test` installs nothing; what only analysis needs names its extra when missing."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from gamehall.core import GamehallError

ROOT = Path(__file__).resolve().parents[2]
NOT_TO_PLAY = (
    "matplotlib", "pandas", "dask", "gymnasium", "pettingzoo", "open_spiel", "pytest",
    "playwright", "mkdocs", "ruff", "hypothesis", "psycopg", "torch",
)  # fmt: skip


def _name(requirement: str) -> str:
    return re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0].lower()


def test_playing_needs_none_of_the_extras():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    base = {_name(r) for r in project["dependencies"]}
    assert not base & set(NOT_TO_PLAY), base & set(NOT_TO_PLAY)
    extras = project["optional-dependencies"]
    assert "matplotlib" in {_name(r) for r in extras["analysis"]}
    assert "matplotlib" in {_name(r) for r in extras["test"]}  # make test still has it


def _make(*args: str) -> str:
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_make_run_installs_the_base_alone_in_numbered_steps(tmp_path):
    planned = _make("run", f"VENV={tmp_path / 'venv'}")
    steps = re.findall(r"\[(\d)/3\] ([^\n]*)", planned)
    numbers = [n for n, _ in steps]  # (make -n shows step 1's both ways, and runs it)
    assert sorted(set(numbers)) == ["1", "2", "3"] and numbers == sorted(numbers)
    assert all(re.search(r"\(.*(min|seconds).*\)|nothing to install", text) for _, text in steps)
    installs = re.findall(r"pip install --quiet (-e \S+)", planned)
    assert installs == ["-e ."], installs  # no extras, and not the example game
    assert "gamehall warm-up" in planned and "gamehall serve" in planned


def test_make_run_after_make_test_installs_nothing(tmp_path):
    venv = tmp_path / "venv"
    venv.mkdir()
    full = _make("test", f"VENV={venv}")
    assert "-e '.[test,rl,docs,train]'" in full  # the training example's torch too
    assert re.search(r"touch \S*\.installed \S*\.installed-play", full)
    (venv / ".installed").touch()
    (venv / ".installed-play").touch()  # what the full install's recipe touches
    planned = _make("run", f"VENV={venv}")
    assert "nothing to install" in planned and "pip install" not in planned


def test_a_report_without_matplotlib_names_the_extra(monkeypatch):
    from gamehall.analysis import report

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    with pytest.raises(GamehallError, match=r"analysis extra: pip install -e '\.\[analysis\]'"):
        report._pyplot()
