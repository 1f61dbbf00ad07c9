"""Fixtures every test folder may use: stores on SQLite and on PostgreSQL (a throwaway cluster of
the session's own, see pg_cluster.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pg_cluster import Cluster, fresh_database, run_cluster


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'gamehall-test.sqlite3'}"


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """A PostgreSQL cluster of its own for the test session (see pg_cluster.py)."""
    yield from run_cluster()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty store on each backend: SQLite in a temporary file, and a fresh PostgreSQL
    database on the session's cluster."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'gamehall-store.sqlite3'}"
    return fresh_database(request.getfixturevalue("postgres_cluster"))
