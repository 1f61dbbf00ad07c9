"""Game options from the command line: ``--variant NAME=VALUE`` and shortcut flags.

A shortcut flag (``--board dawn``, ``--target 18``) sets the option of that name. Where the game
offers the option as a list of choices and also ``NAME_file`` as a path, a value that is not one of
the choices is taken as the file (``--board my-board.toml``): the command line is a trusted door.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from gamehall.core import Game, GamehallError, find_game, game_class
from gamehall.core.game import parse_option_assignments

VariantOption = Annotated[
    list[str] | None,
    typer.Option("--variant", "-V", help="A game option, NAME=VALUE (repeatable)."),
]
BoardOption = Annotated[
    str | None,
    typer.Option(
        "--board", help="The board, for games played on one: a packaged name or a TOML file."
    ),
]


def shortcut_options(game_name: str, **shortcuts: Any) -> dict[str, Any]:
    """Options from shortcut flags (None: not given), mapped onto the game's option names."""
    specs = {spec.name: spec for spec in game_class(game_name).option_specs}
    options: dict[str, Any] = {}
    for name, value in shortcuts.items():
        if value is None:
            continue
        spec = specs.get(name)
        if spec is None:
            raise GamehallError(f"{game_class(game_name).name} has no --{name} option")
        file_spec = specs.get(f"{name}_file")
        if (
            spec.kind == "choice"
            and str(value) not in spec.allowed_choices()
            and file_spec is not None
            and file_spec.kind == "path"
        ):
            options[file_spec.name] = str(value)
        else:
            options[name] = value
    return options


def build_game(name: str, variants: list[str] | None = None, **shortcuts: Any) -> Game:
    """Make the game from --variant NAME=VALUE items and shortcut flags like --board."""
    options: dict[str, Any] = parse_option_assignments(variants or [])
    options.update(shortcut_options(name, **shortcuts))
    return find_game(name, **options)


def seat_flags(game: Game, extra: list[str]) -> dict[str, str]:
    """``--<seat> PLAYER`` pairs (``--dark hard``, ``--jinn=human``) from the extra arguments."""
    seats: dict[str, str] = {}
    items = list(extra)
    while items:
        item = items.pop(0)
        name, sep, value = item.partition("=")
        seat = name[2:].lower() if name.startswith("--") else ""
        if seat not in game.player_names:
            shown = ", ".join(f"--{p}" for p in game.player_names)
            raise GamehallError(
                f"{item!r} is not an option here; {game.name}'s seats are {shown} "
                "(each takes a player: human or a computer level)"
            )
        if not sep:
            if not items:
                raise GamehallError(f"{name} needs a player: human or a computer level")
            value = items.pop(0)
        seats[seat] = value
    return seats
