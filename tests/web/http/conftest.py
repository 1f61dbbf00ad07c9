"""The hall's server for the tests of this folder (see tests/web/hall_helpers.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from gamehall.core import register_plugin, unregister_plugin
from tests.nim.plugin import PLUGIN
from tests.web.hall_helpers import CHEAP


@pytest.fixture
def hall_server(server_factory) -> Iterator[Any]:
    """A server with Nim, a cheap password hasher, a lobby that pairs only when told (tick),
    and a leaderboard that shows anyone with a rated game."""
    register_plugin(PLUGIN)
    try:
        with server_factory(passwords=CHEAP, lobby_tick=None, leaderboard=(1, 350)) as server:
            yield server
    finally:
        unregister_plugin(PLUGIN.name)
