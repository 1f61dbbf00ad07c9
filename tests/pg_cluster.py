"""A throwaway PostgreSQL cluster for the tests that run the store (and the web server) on a real
PostgreSQL server (``--db postgresql+psycopg://...``).

The cluster is started for the test session with the PostgreSQL binaries found under
``/usr/lib/postgresql/*/bin`` (Debian's ``postgresql`` package) or on PATH; no system service is
used. PostgreSQL refuses to run as root, so as root the cluster runs as the ``postgres`` OS user
(``runuser``). It listens on 127.0.0.1 on a free port (its unix socket in its temporary
directory), with trust authentication and no fsync. :func:`fresh_database` gives each test an
empty database.

PostgreSQL and psycopg are hard dependencies of the test suite (``make test`` installs Debian's
``postgresql``; the ``test`` extra brings psycopg): without them the tests that need them fail,
saying what is missing, and are never skipped.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest


def _unavailable(reason: str) -> NoReturn:
    """A missing piece is a broken install: fail, saying what to install."""
    pytest.fail(f"the PostgreSQL tests cannot run: {reason}", pytrace=False)


def _find_bin_dir() -> Path | None:
    """The newest ``/usr/lib/postgresql/N/bin`` with initdb and pg_ctl, else PATH's."""

    def major(path: str) -> int:
        try:
            return int(Path(path).parent.name)
        except ValueError:
            return -1

    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=major, reverse=True):
        if all(os.access(Path(candidate) / b, os.X_OK) for b in ("initdb", "pg_ctl", "postgres")):
            return Path(candidate)
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if initdb and pg_ctl and Path(initdb).parent == Path(pg_ctl).parent:
        return Path(initdb).parent
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Cluster:
    bin_dir: Path
    base: Path  # the temporary directory: data/, the socket and the log
    port: int
    as_user: list[str]  # the command prefix that runs as the cluster's owner

    @property
    def data(self) -> Path:
        return self.base / "data"

    @property
    def log(self) -> Path:
        return self.base / "postgres.log"

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.as_user, *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=self.base,  # readable by the cluster's owner (root's cwd may not be)
            check=False,
        )

    def start(self) -> bool:
        options = " ".join(
            [
                "-c listen_addresses=127.0.0.1",
                f"-p {self.port}",
                f"-k {self.base}",  # unix socket here, not /var/run/postgresql
                "-c fsync=off",
                "-c synchronous_commit=off",
                "-c full_page_writes=off",
                "-c shared_buffers=32MB",
                "-c max_connections=50",
            ]
        )
        done = self.run(
            str(self.bin_dir / "pg_ctl"),
            "start",
            "-w",
            "-t",
            "30",
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            options,
        )
        return done.returncode == 0

    def stop(self) -> None:
        self.run(str(self.bin_dir / "pg_ctl"), "stop", "-w", "-m", "fast", "-D", str(self.data))

    def admin(self, sql: str) -> None:
        """Run ``sql`` on the ``postgres`` database, outside a transaction."""
        import psycopg

        with psycopg.connect(
            host="127.0.0.1", port=self.port, user="postgres", dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(sql)


def _log_tail(cluster: Cluster) -> str:
    try:
        return cluster.log.read_text(errors="replace")[-2000:]
    except OSError:
        return "(no log)"


def run_cluster() -> Iterator[Cluster]:
    """A PostgreSQL cluster of its own (for the test session), stopped and removed afterwards."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _unavailable("psycopg is not installed (pip install 'psycopg[binary]>=3.1')")
    bin_dir = _find_bin_dir()
    if bin_dir is None:
        _unavailable(
            "no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin "
            "or on PATH (apt-get install postgresql)"
        )
    as_user: list[str] = []
    owner: tuple[int, int] | None = None
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: run it as `postgres`
        import pwd

        runuser = shutil.which("runuser")
        try:
            entry = pwd.getpwnam("postgres")
        except KeyError:
            entry = None
        if runuser is None or entry is None:
            _unavailable("running as root, but there is no `postgres` OS user or no runuser")
        as_user = [runuser, "-u", "postgres", "--"]
        owner = (entry.pw_uid, entry.pw_gid)

    base = Path(tempfile.mkdtemp(prefix="gamehall-pg-"))
    try:
        if owner is not None:
            os.chown(base, *owner)
        cluster = Cluster(bin_dir, base, 0, as_user)
        done = cluster.run(
            str(bin_dir / "initdb"),
            "-D",
            str(cluster.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
            timeout=120,
        )
        if done.returncode != 0:
            pytest.fail(f"initdb failed:\n{done.stdout}\n{done.stderr}", pytrace=False)
        for _ in range(5):  # a free port may be taken before the server binds it: try again
            cluster.port = _free_port()
            if cluster.start():
                break
        else:
            pytest.fail(f"pg_ctl start failed; log:\n{_log_tail(cluster)}", pytrace=False)
        try:
            yield cluster
        finally:
            cluster.stop()
    finally:
        shutil.rmtree(base, ignore_errors=True)


_numbers = itertools.count(1)


def fresh_database(cluster: Cluster) -> str:
    """The URL of a new, empty database on ``cluster``."""
    name = f"gamehall_t{next(_numbers)}"
    cluster.admin(f"CREATE DATABASE {name}")
    return cluster.url(name)
