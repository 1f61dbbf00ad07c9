"""Fixtures every test folder may use: stores on SQLite and on PostgreSQL (a throwaway cluster of
the session's own, see pg_cluster.py), the ``postgres`` mark on every test that needs the cluster,
and Hypothesis without its clock."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.pg_cluster import Cluster, fresh_database, run_cluster

# Hypothesis times each example (a deadline of 200 ms) and the generation of its data (the
# too_slow health check): wall-clock bounds that a loaded machine fails and a fast one hides.
# Speed is bench/'s to measure; a property test here is about what holds.
settings.register_profile("gamehall", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("gamehall")


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'gamehall-test.sqlite3'}"


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """A PostgreSQL cluster of its own for the test session (see pg_cluster.py)."""
    yield from run_cluster()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty store on each backend: SQLite in a temporary file, and a fresh PostgreSQL
    database on the session's cluster."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'gamehall-store.sqlite3'}"
    return fresh_database(request.getfixturevalue("postgres_cluster"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that needs the cluster says so (``@pytest.mark.postgres``), so that
    ``-m "not postgres"`` (make check) leaves out exactly those: one that forgets fails here."""
    unmarked = [
        item.nodeid
        for item in items
        if "postgres_cluster" in getattr(item, "fixturenames", ())
        and item.get_closest_marker("postgres") is None
    ]
    if unmarked:
        raise pytest.UsageError(
            "these tests use the PostgreSQL cluster without @pytest.mark.postgres: "
            + ", ".join(unmarked)
        )
