"""Setup shared by the terminal app's tests: Textual's pilot runs on asyncio, and autosaves go
to a throwaway data directory."""

from __future__ import annotations

import pytest


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    """Autosaves go to a throwaway data directory."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"
