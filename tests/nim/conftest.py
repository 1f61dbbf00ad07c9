"""The ``nim`` and ``fixed_nim`` fixtures: a game registered for the test, and taken away after
it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gamehall.core import GamePlugin
from gamehall.testing import registered
from tests.nim.plugin import FIXED, PLUGIN


@pytest.fixture
def nim() -> Iterator[GamePlugin]:
    with registered(PLUGIN):
        yield PLUGIN


@pytest.fixture
def fixed_nim() -> Iterator[GamePlugin]:
    with registered(FIXED):
        yield FIXED
