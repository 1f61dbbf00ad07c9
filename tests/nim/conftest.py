"""The ``nim`` fixture: Nim registered for the test, and taken away after it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gamehall.core import GamePlugin, register_plugin, unregister_plugin
from tests.nim.plugin import PLUGIN


@pytest.fixture
def nim() -> Iterator[GamePlugin]:
    register_plugin(PLUGIN)
    try:
        yield PLUGIN
    finally:
        unregister_plugin(PLUGIN.name)
