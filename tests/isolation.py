"""A guard for the test folders that promise to run alone: no socket, no process, no PostgreSQL.

``tests/protocol`` and ``tests/web/play`` test pure values and the hub over fake transports;
their ``conftest.py`` uses :func:`isolated` for every test, so a test there that opens a network
connection, listens, starts a process or connects to PostgreSQL fails at that call (naming it)
instead of quietly depending on a server. asyncio's own wake-up socket pair is no connection and
stays allowed.
"""

from __future__ import annotations

import multiprocessing.process
import os
import socket
import subprocess
from collections.abc import Iterator
from typing import Any, NoReturn

import pytest


class NotIsolated(AssertionError):
    """A test of an isolated folder reached outside its process."""


def _refuse(what: str) -> Any:
    def refuse(*args: Any, **kwargs: Any) -> NoReturn:
        raise NotIsolated(
            f"{what} in a test that runs with no socket, no process and no PostgreSQL "
            "(tests/isolation.py): move the test to the layer that owns that resource"
        )

    return refuse


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every way out of the process fails for the length of a test."""
    monkeypatch.setattr(socket.socket, "connect", _refuse("a socket connection"))
    monkeypatch.setattr(socket.socket, "connect_ex", _refuse("a socket connection"))
    monkeypatch.setattr(socket.socket, "bind", _refuse("a listening socket"))
    monkeypatch.setattr(socket, "create_connection", _refuse("a socket connection"))
    monkeypatch.setattr(subprocess.Popen, "__init__", _refuse("a subprocess"))
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", _refuse("a process"))
    monkeypatch.setattr(os, "fork", _refuse("a fork"))
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is a test dependency
        pass
    else:
        monkeypatch.setattr(psycopg, "connect", _refuse("a PostgreSQL connection"))
        monkeypatch.setattr(psycopg.Connection, "connect", _refuse("a PostgreSQL connection"))
        monkeypatch.setattr(psycopg.AsyncConnection, "connect", _refuse("a PostgreSQL connection"))
    yield
