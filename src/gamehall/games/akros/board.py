"""Akros boards as data: regions, their environments and neighbours, and where servants start.

A board is a TOML file (the default, ``dawn``, ships in ``boards/dawn.toml``)::

    name = "dawn"                 # optional; default: the file's stem
    title = "Dawn of the World"   # optional
    servants = 4                  # servants per player (optional, default 4)

    [bag]                         # the tile bag (optional, default F 6, S 6, M 7 = 19)
    F = 6
    S = 6
    M = 7

    [start]                       # the servants' starting regions
    ifrit = [5, 10, 11, 14]
    jinn = [2, 7, 13, 18]

    [[region]]                    # one table per region; ids run 1..N
    id = 1
    environment = "M"             # F, S, M (or Forest, Sea, Mountain)
    row = 0                       # where to draw it: doubled-width hex coordinates
    col = 2
    neighbours = [2, 4, 5]        # optional: give every region a list, or none

Positions use "doubled-width" hex coordinates (row, col): a hex's neighbours sit at
``(row, col ± 2)`` and ``(row ± 1, col ± 1)``. When no region lists ``neighbours``, adjacency is
derived from the positions that way; explicit lists must be symmetric.

Loading checks everything and raises :class:`BoardError` (an ``InvalidOptionError``) naming the
region at fault.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from gamehall.core.errors import InvalidOptionError
from gamehall.games.akros.rules import ENVIRONMENT_LETTERS, ENVIRONMENT_NAMES

DEFAULT_BOARD = "dawn"
DEFAULT_BAG = (6, 6, 7)
DEFAULT_SERVANTS = 4
BAG_DRAWS = 18
"""Six turns of three tiles: the bag must hold at least this many."""


class BoardError(InvalidOptionError):
    """A board file that is malformed or breaks a board rule; the message names the region."""


@dataclass(frozen=True, slots=True)
class Region:
    """One region of the board: its id, printed environment, drawing position and neighbours."""

    id: int
    environment: int
    row: int
    col: int
    neighbours: tuple[int, ...]


@dataclass(frozen=True)
class Board:
    """A validated board. ``regions[id - 1]`` is the region with that id.

    The bitmask fields are derived for speed: bit ``id`` stands for region ``id`` (bit 0 unused).
    """

    name: str
    title: str
    regions: tuple[Region, ...]
    jinn_start: tuple[int, ...]
    ifrit_start: tuple[int, ...]
    bag: tuple[int, int, int] = DEFAULT_BAG
    servants: int = DEFAULT_SERVANTS
    neighbour_masks: tuple[int, ...] = field(init=False, compare=False, repr=False)
    environment_masks: tuple[int, ...] = field(init=False, compare=False, repr=False)
    environments: tuple[int, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        masks = [0] * (len(self.regions) + 1)
        by_environment = [0, 0, 0]
        for region in self.regions:
            for neighbour in region.neighbours:
                masks[region.id] |= 1 << neighbour
            by_environment[region.environment] |= 1 << region.id
        object.__setattr__(self, "neighbour_masks", tuple(masks))
        object.__setattr__(self, "environment_masks", tuple(by_environment))
        object.__setattr__(
            self, "environments", (-1, *(region.environment for region in self.regions))
        )

    @property
    def size(self) -> int:
        return len(self.regions)

    @property
    def region_ids(self) -> range:
        return range(1, len(self.regions) + 1)

    @property
    def tile_count(self) -> int:
        return sum(self.bag)

    def environment_of(self, region: int) -> int:
        return self.regions[region - 1].environment

    def to_dict(self) -> dict[str, Any]:
        """The board as plain data, in the TOML file's layout (explicit neighbours)."""
        return {
            "name": self.name,
            "title": self.title,
            "servants": self.servants,
            "bag": dict(zip(ENVIRONMENT_LETTERS, self.bag, strict=True)),
            "start": {"ifrit": list(self.ifrit_start), "jinn": list(self.jinn_start)},
            "region": [
                {
                    "id": r.id,
                    "environment": ENVIRONMENT_LETTERS[r.environment],
                    "row": r.row,
                    "col": r.col,
                    "neighbours": list(r.neighbours),
                }
                for r in self.regions
            ],
        }

    def to_json(self) -> str:
        """The board on one line (JSON of :meth:`to_dict`), as records carry it."""
        return json.dumps(self.to_dict(), separators=(",", ":"))


# --- loading -------------------------------------------------------------------------------------


def load_board(spec: str) -> Board:
    """The board called ``spec``: a packaged board's name (``dawn``) or a path to a TOML file
    (the trusted doors only: the command line and record files)."""
    if spec in packaged_board_names():
        return packaged_board(spec)
    path = Path(spec)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise BoardError(
            f"board {spec!r}: not a packaged board ({DEFAULT_BOARD}) and not a readable file "
            f"({error.strerror or error})"
        ) from None
    return board_from_toml(text, source=spec, name=path.stem)


@cache
def packaged_board_names() -> frozenset[str]:
    """The boards shipped as package data (``boards/*.toml``)."""
    folder = resources.files("gamehall.games.akros").joinpath("boards")
    return frozenset(
        entry.name.removesuffix(".toml")
        for entry in folder.iterdir()
        if entry.name.endswith(".toml")
    )


@cache
def packaged_board(name: str) -> Board:
    """A board shipped as package data, loaded once."""
    entry = resources.files("gamehall.games.akros").joinpath("boards", f"{name}.toml")
    return board_from_toml(entry.read_text(encoding="utf-8"), source=name, name=name)


def board_from_toml(text: str, *, source: str = "<text>", name: str = "custom") -> Board:
    """Read and validate a board from TOML text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise BoardError(f"board {source!r}: not valid TOML: {error}") from None
    return board_from_dict(data, source=source, name=name)


def board_from_text(text: str) -> Board:
    """A board written out as an option value: the JSON of :meth:`Board.to_json`, or TOML."""
    if text.lstrip().startswith("{"):
        return board_from_json(text, source="board_data")
    return board_from_toml(text, source="board_data", name="custom")


def board_from_json(text: str, *, source: str = "<record>") -> Board:
    """Read and validate a board from the one-line JSON that :meth:`Board.to_json` writes."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise BoardError(f"board {source!r}: not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise BoardError(f"board {source!r}: expected a table of board data")
    return board_from_dict(data, source=source, name=str(data.get("name", "custom")))


_TOP_KEYS = {"name", "title", "servants", "bag", "start", "region"}
_REGION_KEYS = {"id", "environment", "row", "col", "neighbours"}


def board_from_dict(data: dict[str, Any], *, source: str, name: str) -> Board:
    """Validate board data (as read from TOML) and build the :class:`Board`."""

    def fail(message: str) -> BoardError:
        return BoardError(f"board {source!r}: {message}")

    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise fail(f"unknown key {unknown[0]!r}; keys are {', '.join(sorted(_TOP_KEYS))}")
    board_name = _text(data.get("name", name), "name", fail)
    title = _text(data.get("title", board_name), "title", fail)
    servants = _integer(data.get("servants", DEFAULT_SERVANTS), "servants", fail)
    if servants < 1:
        raise fail(f"servants must be at least 1, not {servants}")
    bag = _bag(data.get("bag"), fail)
    raw_regions = data.get("region")
    if not isinstance(raw_regions, list) or not raw_regions:
        raise fail("no regions: give one [[region]] table per region")
    regions = _regions(raw_regions, fail)
    start = data.get("start")
    if not isinstance(start, dict):
        raise fail("no [start] table with the servants' regions (ifrit = [...], jinn = [...])")
    extra = sorted(set(start) - {"ifrit", "jinn"})
    if extra:
        raise fail(f"start: unknown key {extra[0]!r}; keys are ifrit, jinn")
    taken: dict[int, str] = {}
    starts = {}
    for player in ("jinn", "ifrit"):
        places = start.get(player)
        shown = player.capitalize()
        if not isinstance(places, list) or not all(_is_int(p) for p in places):
            raise fail(f"start: {player} must be a list of region ids")
        if len(places) != servants:
            raise fail(f"start: {len(places)} {shown} servants, expected {servants}")
        for place in places:
            if not 1 <= place <= len(regions):
                raise fail(f"start: {shown} servant on region {place}, which is not a region")
            if place in taken:
                raise fail(f"start: region {place} is taken twice ({taken[place]} and {shown})")
            taken[place] = shown
        starts[player] = tuple(sorted(places))
    if 2 * servants > len(regions):
        raise fail(f"{2 * servants} servants do not fit on {len(regions)} regions")
    return Board(
        name=board_name,
        title=title,
        regions=regions,
        jinn_start=starts["jinn"],
        ifrit_start=starts["ifrit"],
        bag=bag,
        servants=servants,
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: object, key: str, fail: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise fail(f"{key} must be a non-empty string, not {value!r}")
    return value.strip()


def _integer(value: object, key: str, fail: Any) -> int:
    if not _is_int(value):
        raise fail(f"{key} must be an integer, not {value!r}")
    return value  # type: ignore[return-value]


def _bag(raw: object, fail: Any) -> tuple[int, int, int]:
    if raw is None:
        return DEFAULT_BAG
    if not isinstance(raw, dict):
        raise fail("bag must be a table like {F = 6, S = 6, M = 7}")
    counts = [0, 0, 0]
    for key, value in raw.items():
        environment = _environment(key)
        if environment is None:
            raise fail(f"bag: unknown environment {key!r}; expected F, S or M")
        if not _is_int(value) or value < 0:
            raise fail(f"bag: {key} must be a count of tiles, not {value!r}")
        counts[environment] = value
    if sum(counts) < BAG_DRAWS:
        raise fail(
            f"bag holds {sum(counts)} tiles; the game draws {BAG_DRAWS} (six turns of three)"
        )
    return (counts[0], counts[1], counts[2])


def _environment(text: object) -> int | None:
    if not isinstance(text, str):
        return None
    key = text.strip().lower()
    for index, (letter, name) in enumerate(
        zip(ENVIRONMENT_LETTERS, ENVIRONMENT_NAMES, strict=True)
    ):
        if key in (letter.lower(), name.lower()):
            return index
    return None


def _regions(raw_regions: list[Any], fail: Any) -> tuple[Region, ...]:
    count = len(raw_regions)
    by_id: dict[int, dict[str, Any]] = {}
    for number, raw in enumerate(raw_regions, 1):
        if not isinstance(raw, dict) or not _is_int(raw.get("id")):
            raise fail(f"region table #{number} has no integer id")
        region_id = raw["id"]
        unknown = sorted(set(raw) - _REGION_KEYS)
        if unknown:
            raise fail(f"region {region_id}: unknown key {unknown[0]!r}")
        if region_id in by_id:
            raise fail(f"region {region_id} is listed twice")
        if not 1 <= region_id <= count:
            raise fail(f"region {region_id}: ids must run from 1 to {count}")
        by_id[region_id] = raw
    explicit = [rid for rid, raw in by_id.items() if "neighbours" in raw]
    if explicit and len(explicit) != count:
        missing = min(set(by_id) - set(explicit))
        raise fail(
            f"region {missing} has no neighbours list (give every region one, "
            "or none to derive adjacency from row/col)"
        )
    positions: dict[tuple[int, int], int] = {}
    environments: dict[int, int] = {}
    for region_id in sorted(by_id):
        raw = by_id[region_id]
        environment = _environment(raw.get("environment"))
        if environment is None:
            raise fail(
                f"region {region_id}: unknown environment {raw.get('environment')!r}; "
                "expected F, S or M (Forest, Sea, Mountain)"
            )
        environments[region_id] = environment
        row, col = raw.get("row"), raw.get("col")
        if not _is_int(row) or not _is_int(col):
            raise fail(f"region {region_id}: row and col must be integers")
        if (row, col) in positions:
            raise fail(f"region {region_id} has the same row/col as region {positions[row, col]}")
        positions[row, col] = region_id
    neighbours: dict[int, tuple[int, ...]] = {}
    if explicit:
        for region_id in sorted(by_id):
            listed = by_id[region_id]["neighbours"]
            if not isinstance(listed, list) or not all(_is_int(n) for n in listed):
                raise fail(f"region {region_id}: neighbours must be a list of region ids")
            for neighbour in listed:
                if neighbour == region_id:
                    raise fail(f"region {region_id} is listed as its own neighbour")
                if neighbour not in by_id:
                    raise fail(f"region {region_id}: neighbour {neighbour} is not a region")
            if len(set(listed)) != len(listed):
                raise fail(f"region {region_id} lists a neighbour twice")
            neighbours[region_id] = tuple(sorted(listed))
        for region_id, listed in neighbours.items():
            for neighbour in listed:
                if region_id not in neighbours[neighbour]:
                    raise fail(
                        f"region {region_id} lists {neighbour} as a neighbour but region "
                        f"{neighbour} does not list {region_id} (adjacency is one-sided)"
                    )
    else:
        for (row, col), region_id in positions.items():
            around = _hex_around(row, col)
            neighbours[region_id] = tuple(sorted(positions[p] for p in around if p in positions))
    return tuple(
        Region(
            id=region_id,
            environment=environments[region_id],
            row=by_id[region_id]["row"],
            col=by_id[region_id]["col"],
            neighbours=neighbours[region_id],
        )
        for region_id in range(1, count + 1)
    )


def hex_neighbours(board: Board) -> dict[int, tuple[int, ...]]:
    """Each region's neighbours derived from the drawing positions (doubled-width hex)."""
    positions = {(r.row, r.col): r.id for r in board.regions}
    result = {}
    for r in board.regions:
        around = _hex_around(r.row, r.col)
        result[r.id] = tuple(sorted(positions[p] for p in around if p in positions))
    return result


def _hex_around(row: int, col: int) -> tuple[tuple[int, int], ...]:
    """The six positions next to (row, col) in doubled-width hex coordinates."""
    return (
        (row, col - 2),
        (row, col + 2),
        (row - 1, col - 1),
        (row - 1, col + 1),
        (row + 1, col - 1),
        (row + 1, col + 1),
    )
