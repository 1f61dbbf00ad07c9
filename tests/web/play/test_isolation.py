"""The guard of this folder holds: a test here cannot reach a socket, a process or PostgreSQL."""

import asyncio
import socket
import subprocess

import psycopg
import pytest

from tests.isolation import NotIsolated


def test_a_connection_a_listener_and_a_process_are_refused():
    with pytest.raises(NotIsolated, match="socket connection"):
        socket.create_connection(("127.0.0.1", 9))
    with socket.socket() as listener, pytest.raises(NotIsolated, match="listening socket"):
        listener.bind(("127.0.0.1", 0))
    with pytest.raises(NotIsolated, match="subprocess"):
        subprocess.run(["true"], check=False)
    with pytest.raises(NotIsolated, match="PostgreSQL"):
        psycopg.connect("dbname=gamehall")


def test_an_event_loop_still_runs():
    async def answer() -> int:
        await asyncio.sleep(0)
        return 42

    assert asyncio.run(answer()) == 42
