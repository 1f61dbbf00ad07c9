"""This folder runs with no socket, no process and no PostgreSQL (tests/isolation.py)."""

from tests.isolation import isolated

__all__ = ["isolated"]
