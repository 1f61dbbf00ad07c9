"""The hall's server for the tests of this folder (see tests/web/hall_helpers.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from gamehall.core import register_plugin, unregister_plugin
from tests.nim.plugin import PLUGIN
from tests.web.hall_helpers import CHEAP
from tests.web.web_helpers import FakeClock

HALL = {"passwords": CHEAP, "lobby_tick": None, "leaderboard": (1, 350)}
"""The hall's settings: a cheap password hasher, a lobby that pairs only when told (tick), and a
leaderboard that shows anyone with a rated game."""


@pytest.fixture
def nim_registered() -> Iterator[None]:
    """Nim is a game of the hall for the test."""
    register_plugin(PLUGIN)
    try:
        yield
    finally:
        unregister_plugin(PLUGIN.name)


@pytest.fixture
def hall_server(server_factory, nim_registered) -> Iterator[Any]:
    """A server with Nim and the hall's settings (:data:`HALL`)."""
    with server_factory(**HALL) as server:
        yield server


@pytest.fixture
def make_timed_hall(server_factory, nim_registered) -> Callable[[FakeClock], Any]:
    """Starts a server like :func:`hall_server` on the given test clock (call it again for a
    restart)."""
    return lambda clock: server_factory(**HALL, clock=clock)


@pytest.fixture
def timed_hall(make_timed_hall) -> Iterator[tuple[Any, FakeClock]]:
    """A server like :func:`hall_server` whose time is the test's; the server and its clock."""
    clock = FakeClock()
    with make_timed_hall(clock) as server:
        yield server, clock
