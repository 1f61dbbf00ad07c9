"""A run's results on disk: ``DIR/games.sqlite``, committed one game at a time.

Tables:

* ``runs``: one row per invocation (``kind``, the JSON ``parameters`` that decide the results,
  games requested, start and end times). Every invocation on a directory must give the same
  parameters, so a rerun resumes the same run instead of mixing two;
* ``games`` (self-play) or ``deals`` (exact values): one row per finished item, keyed by its
  index; lists are JSON text. Read them with ``pandas.read_sql("SELECT * FROM games", con)``.

The database runs in WAL mode with ``synchronous=NORMAL``: a commit survives the process being
killed (Ctrl-C, a crash) without paying an fsync per game.
"""

from __future__ import annotations

import datetime
import json
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gamehall.core import GamehallError

DATABASE = "games.sqlite"
FORMAT = 1
"""Bumped when the tables change incompatibly."""

GAME_COLUMNS: dict[str, str] = {
    "game_index": "INTEGER PRIMARY KEY",
    "seed": "INTEGER NOT NULL",
    "a_seat": "INTEGER NOT NULL",  # the seat player A took (0 or 1)
    "seat0": "TEXT NOT NULL",  # the player in seat 0 (Dark, the Jinn)
    "seat1": "TEXT NOT NULL",
    "winner": "INTEGER",  # the winning seat; NULL for a draw
    "winner_name": "TEXT",  # its name in the game: dark, light, jinn, ifrit
    "winner_side": "TEXT",  # A or B; NULL for a draw
    "reason": "TEXT",
    "score0": "REAL",
    "score1": "REAL",
    "actions": "INTEGER",  # every action, chance included
    "decisions": "INTEGER",  # player decisions
    "forced": "INTEGER",  # decisions with a single legal action
}
RECORD_COLUMN = {"record": "TEXT NOT NULL"}

DEAL_COLUMNS: dict[str, str] = {
    "deal_index": "INTEGER PRIMARY KEY",
    "seed": "INTEGER NOT NULL",
    "size": "INTEGER",  # the deal's size when scaled down (NULL: full size)
    "position": "TEXT NOT NULL",
    "value": "REAL NOT NULL",  # perfect-play value for the player to move first
    "best": "TEXT",
    "nodes": "INTEGER",
    "seconds": "REAL",
    "exact": "INTEGER",
}


class RunMismatchError(GamehallError):
    """The directory holds a different run (other game, players, seed or options)."""


class RunStore:
    """The SQLite file of one run; create it or reopen it to resume."""

    def __init__(
        self,
        directory: Path,
        kind: str,
        parameters: Mapping[str, Any],
        columns: Mapping[str, str],
        table: str = "games",
    ) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.path = self.directory / DATABASE
        self.table = table
        self.columns = dict(columns)
        self.key = next(iter(self.columns))
        self.kind = kind
        self.parameters = {"format": FORMAT, **parameters}
        self.connection = sqlite3.connect(self.path)
        self.connection.execute("PRAGMA journal_mode=WAL")
        self.connection.execute("PRAGMA synchronous=NORMAL")
        self._create()
        self._check_parameters()

    def _create(self) -> None:
        with self.connection:
            self.connection.execute(
                "CREATE TABLE IF NOT EXISTS runs (run_id INTEGER PRIMARY KEY, kind TEXT NOT NULL,"
                " parameters TEXT NOT NULL, requested INTEGER, started TEXT, finished TEXT)"
            )
            body = ", ".join(f'"{name}" {kind}' for name, kind in self.columns.items())
            self.connection.execute(f'CREATE TABLE IF NOT EXISTS "{self.table}" ({body})')

    def _check_parameters(self) -> None:
        row = self.connection.execute(
            "SELECT kind, parameters FROM runs ORDER BY run_id LIMIT 1"
        ).fetchone()
        if row is None:
            return
        kind, text = row
        stored = json.loads(text)
        if kind != self.kind or stored != json.loads(json.dumps(self.parameters)):
            differences = _differences(stored, self.parameters) if kind == self.kind else "kind"
            raise RunMismatchError(
                f"{self.directory} holds another run ({kind}: {_summary(stored)}); this one "
                f"differs in {differences}. Use another --out directory to start a new run, or "
                "repeat the stored parameters to resume it"
            )

    def begin(self, requested: int) -> int:
        """Note an invocation; returns its run id."""
        with self.connection:
            cursor = self.connection.execute(
                "INSERT INTO runs (kind, parameters, requested, started) VALUES (?, ?, ?, ?)",
                (self.kind, json.dumps(self.parameters, sort_keys=True), requested, _now()),
            )
        return int(cursor.lastrowid or 0)

    def end(self, run_id: int) -> None:
        with self.connection:
            self.connection.execute(
                "UPDATE runs SET finished = ? WHERE run_id = ?", (_now(), run_id)
            )

    def done(self) -> set[int]:
        """The indices already stored."""
        return {
            int(i) for (i,) in self.connection.execute(f'SELECT "{self.key}" FROM "{self.table}"')
        }

    def add(self, row: Mapping[str, Any]) -> None:
        """Store one finished item and commit at once (an interrupt keeps it)."""
        names = [name for name in self.columns if name in row]
        placeholders = ", ".join("?" for _ in names)
        quoted = ", ".join(f'"{name}"' for name in names)
        with self.connection:
            self.connection.execute(
                f'INSERT INTO "{self.table}" ({quoted}) VALUES ({placeholders})',
                [row[name] for name in names],
            )

    def rows(self) -> list[dict[str, Any]]:
        """Every stored row, by index."""
        cursor = self.connection.execute(f'SELECT * FROM "{self.table}" ORDER BY "{self.key}"')
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, values, strict=True)) for values in cursor]

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_table(directory: Path, table: str = "games") -> Any:
    """The stored table as a pandas DataFrame, sorted by index."""
    try:
        import pandas as pd
    except ImportError:
        raise GamehallError(
            "reading a run as a data frame needs pandas, from the analysis extra: "
            "pip install -e '.[analysis]'"
        ) from None

    with sqlite3.connect(Path(directory) / DATABASE) as connection:
        frame = pd.read_sql(f'SELECT * FROM "{table}"', connection)
    return frame.sort_values(frame.columns[0]).reset_index(drop=True)


def read_parameters(directory: Path) -> dict[str, Any] | None:
    """The parameters of the run stored in ``directory`` (None if there is none)."""
    path = Path(directory) / DATABASE
    if not path.exists():
        return None
    with sqlite3.connect(path) as connection:
        try:
            row = connection.execute(
                "SELECT parameters FROM runs ORDER BY run_id LIMIT 1"
            ).fetchone()
        except sqlite3.OperationalError:
            return None
    return json.loads(row[0]) if row else None


def _differences(stored: Mapping[str, Any], given: Mapping[str, Any]) -> str:
    keys = sorted(set(stored) | set(given))
    changed = [
        f"{key} (stored {_short(stored.get(key))}, given {_short(given.get(key))})"
        for key in keys
        if json.dumps(stored.get(key), sort_keys=True) != json.dumps(given.get(key), sort_keys=True)
    ]
    return "; ".join(changed) or "nothing visible"


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _summary(parameters: Mapping[str, Any]) -> str:
    shown = {k: v for k, v in parameters.items() if k not in ("format", "game_tags")}
    return ", ".join(f"{k}={v}" for k, v in shown.items())


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
