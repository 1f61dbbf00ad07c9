"""``gamehall bot``: make a bot account, or seat an agent in a running hall as one.

``register(app)`` adds the command; the client is :mod:`gamehall.tui.bot` (docs/bots.md).
"""

from __future__ import annotations

import getpass
import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from gamehall.core import GamehallError

console = Console()

HELP = """Seat an agent in a running hall as a bot account, or make one.

Make a bot (once; you sign in as yourself, and the bot's token is kept for you):

    gamehall bot --create NAME --connect http://HOST:PORT

Run it (it accepts the open seeks that match, plays them within their clocks, and comes back
after a dropped connection):

    gamehall bot --connect http://HOST:PORT --name NAME --agent easy --game GAME --rated

The agent is a level (beginner, easy, medium, hard, perfect) or MODULE:CLASS, a class made
with no arguments whose choose(state) returns a legal action. Bots are tagged BOT in the hall,
rated like everyone, and never play a rated game against their owner (docs/bots.md).
"""


def register(app: typer.Typer) -> None:
    app.command("bot", help=HELP)(bot)


def bot(
    connect: Annotated[
        str, typer.Option("--connect", help="The hall's address, http://HOST:PORT.")
    ],
    create: Annotated[
        str | None,
        typer.Option(
            "--create",
            metavar="NAME",
            help="Make a bot account NAME as the person signing in (asked for, or "
            "GAMEHALL_USERNAME and GAMEHALL_PASSWORD), keep its token, and stop.",
        ),
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="The bot account to play as.")] = None,
    agent: Annotated[
        str,
        typer.Option("--agent", help="A level name (easy, hard…) or MODULE:CLASS."),
    ] = "easy",
    game: Annotated[
        str | None, typer.Option("--game", help="Play only this game (default: any).")
    ] = None,
    clock: Annotated[
        str | None,
        typer.Option(
            "--clock", help="Play only this time control, e.g. 5+3 ('none': untimed only)."
        ),
    ] = None,
    rated: Annotated[
        bool | None,
        typer.Option("--rated/--casual", help="Play only rated, or only casual, games."),
    ] = None,
    seek: Annotated[
        bool,
        typer.Option("--seek", help="Post a seek of its own (needs --game) as well as accept."),
    ] = False,
    games: Annotated[int, typer.Option("--games", min=1, max=20, help="Games at once.")] = 1,
    token_file: Annotated[
        Path | None,
        typer.Option(
            "--token-file",
            help="The bot's token (default: GAMEHALL_BOT_TOKEN, or the one --create kept).",
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the level's play.")] = None,
) -> None:
    """Make a bot account, or seat an agent in a running hall as one."""
    from gamehall.tui.bot import (
        Bot,
        Wanted,
        bot_token_path,
        create_bot,
        hall_base,
        load_agent,
        load_token,
        run_bot,
        save_token,
    )

    try:
        base = hall_base(connect)
        if create is not None:
            owner = os.environ.get("GAMEHALL_USERNAME") or input("Your username: ")
            password = os.environ.get("GAMEHALL_PASSWORD") or getpass.getpass("Your password: ")
            made = create_bot(base, owner, password, create)
            path = token_file or bot_token_path(base, made.name)
            save_token(path, made.token)
            console.print(f"Made the bot [bold]{made.name}[/] (owner: {made.owner}).")
            console.print(f"Its token is kept in {path}; run it with:")
            console.print(f"  gamehall bot --connect {base} --name {made.name} --agent easy")
            return
        if name is None:
            raise GamehallError("say which bot plays: --name NAME (or make one with --create)")
        if seek and game is None:
            raise GamehallError("--seek needs --game: the game the bot's seek offers")
        make = load_agent(agent, seed)
        runner = Bot(
            base,
            name,
            load_token(base, name, token_file),
            make,
            Wanted(game=game, clock=clock, rated=rated, seek=seek, games=games),
            say=lambda text: console.print(text, highlight=False),
        )
        console.print(f"{name} plays {agent} at {base}; Ctrl-C stops it.")
        run_bot(runner)
    except GamehallError as error:
        console.print(f"[red]{error}[/]")
        raise typer.Exit(1) from None
