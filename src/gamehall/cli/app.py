"""The ``gamehall`` command line (Typer + Rich). It talks only to the core protocol, the agents
and the views: it knows no game's internals.

Bad input anywhere exits with status 2 and a one-line message, never a traceback.
"""

from __future__ import annotations

import datetime
import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import click
import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperCommand, TyperGroup

from gamehall.ai import LEVELS, make_agent
from gamehall.cli.analysis import register as register_analysis
from gamehall.cli.bot import register as register_bot
from gamehall.cli.check import register as register_check
from gamehall.cli.exact import register as register_exact
from gamehall.cli.human import LinePlay, QuitGame
from gamehall.cli.options import BoardOption, VariantOption, build_game, seat_flags
from gamehall.cli.tui import register as register_tui
from gamehall.cli.views import view_for
from gamehall.core import (
    GamehallError,
    Record,
    State,
    TooManyOutcomesError,
    game_names,
)
from gamehall.core.words import move_chapters, move_words

SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Play", ("play", "tui", "serve", "games", "replay")),
    ("Analyse positions and games", ("hint", "solve", "review", "moves", "apply", "puzzles")),
    ("Research and game design", ("analyze", "tournament", "compare-boards", "check-game")),
    ("Set-up", ("warm-up",)),
)
"""``gamehall --help``'s sections, in the order a player needs them; a command not named here
is listed last, under "Other"."""


def summary(command: click.Command) -> str:
    """A command's whole first paragraph, on one line (Click would cut it at about 45 characters)."""
    text = command.short_help or (command.help or "").split("\n\n")[0]
    return " ".join(text.split())


class HallGroup(TyperGroup):
    """The ``gamehall`` group: its commands listed by :data:`SECTIONS`, each with its whole
    summary."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        known = super().list_commands(ctx)
        ordered = [name for _, names in SECTIONS for name in names if name in known]
        return ordered + [name for name in known if name not in ordered]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        listed = self.list_commands(ctx)
        sections = [*SECTIONS, ("Other", tuple(n for n in listed if not _sectioned(n)))]
        for title, names in sections:
            rows = [
                (name, summary(command))
                for name in names
                if name in listed
                and (command := self.get_command(ctx, name)) is not None
                and not command.hidden
            ]
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


def _sectioned(name: str) -> bool:
    return any(name in names for _, names in SECTIONS)


app = typer.Typer(
    name="gamehall",
    cls=HallGroup,
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)
register_analysis(app)
register_exact(app)
register_tui(app)
register_check(app)
register_bot(app)
console = Console()
err_console = Console(stderr=True)

GameArg = Annotated[str, typer.Argument(help="The game (`gamehall games` lists them).")]
PositionArg = Annotated[str, typer.Argument(help="A position in the game's notation.")]
Variant = VariantOption
Board = BoardOption


class UsageError(GamehallError):
    """Bad command-line input that is not about the game itself."""


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"gamehall {version('gamehall')}")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print gamehall's version.", is_eager=True, callback=_version
        ),
    ] = False,
) -> None:
    """Play, check, analyse and replay the games of the hall.

    The same option means the same everywhere: --variant NAME=VALUE and --board for a game's
    options, --seconds for a time budget, --json for a result as JSON, --seed for chance."""


def _players_help() -> str:
    """Every computer player a seat takes, for ``play --help``: the levels and the aliases."""
    levels = "; ".join(f"{name} ({meaning})" for name, meaning in LEVELS.items())
    return (
        f"Computer levels: {levels}. Aliases: random (= beginner), greedy (= easy), mcts "
        "(MCTS, 2,000 simulations a move)."
    )


PLAY_HELP = f"""Play a game in the terminal, line by line: people and computer players in any seats.

Give each seat a player with --<seat> PLAYER, using the game's seat names (the seat options
below): human, or a computer player. Unnamed seats: the first is human, the others easy.

{_players_help()}

At your move type a move in notation, or ? (list the moves), pos (the position text), hint,
undo, board, help or quit. The full-screen app is gamehall tui."""


class PlayCommand(TyperCommand):
    """``play``: its help lists each game's seat options (given as extra arguments, so Click
    cannot list them itself)."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_options(ctx, formatter)
        from gamehall.core import find_plugin

        rows = []
        for name in game_names():
            game = find_plugin(name).game
            for index, seat in enumerate(game.player_names):
                default = "human" if index == 0 else "easy"
                rows.append(
                    (
                        f"--{seat} PLAYER",
                        f"{game.title} ({name}): {seat.capitalize()}'s player (default {default})",
                    )
                )
        with formatter.section("Seat options (human or a computer player)"):
            formatter.write_dl(rows)


@app.command(
    cls=PlayCommand,
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    help=PLAY_HELP,
)
def play(
    ctx: typer.Context,
    game_name: GameArg,
    target: Annotated[
        int | None, typer.Option(help="Points that win, in games played to a target.")
    ] = None,
    board: Board = None,
    seed: Annotated[int | None, typer.Option(help="Seed for chance and the computer.")] = None,
    variant: Variant = None,
    save: Annotated[
        Path | None, typer.Option(help="Write the record here after every move.")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(help="Continue the unfinished game in a record.")
    ] = None,
    auto: Annotated[
        bool, typer.Option(help="Computer against computer; print the result.")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="With --auto: print the result as JSON.")
    ] = False,
) -> None:
    from gamehall.tui.session import Session, seat_players, session_from_record

    if as_json and not auto:
        raise UsageError("--json goes with --auto (a game with people prints as it goes)")
    if resume is not None:
        record = _read_record(resume)
        game = record.game()
        if game.name != build_game(game_name).name:
            raise UsageError(f"{resume} is a record of {game.name}, not {game_name}")
        given = seat_flags(game, ctx.args)
        session = session_from_record(record, given, save_path=save or resume)
        if session.over:
            raise UsageError(f"the game in {resume} is already over ({record.tags.get('Result')})")
    else:
        game = build_game(game_name, variant, target=target, board=board)
        given = seat_flags(game, ctx.args)
        players = seat_players(game, None, given)
        for player in players:
            if player != "human":
                make_agent(player, 0)  # an unknown player fails here, before the game starts
        session = Session(
            game,
            players,
            seed=seed if seed is not None else int(datetime.datetime.now().timestamp()),
            save_path=save,
        )
    if auto:
        session.players = ["greedy" if p == "human" else p for p in session.players]
        session.reset_agents()
    view = view_for(game.name)
    player = LinePlay(session, console, view, show=not auto)
    try:
        player.run()
    except QuitGame:
        console.print(_stopped(session), soft_wrap=True, highlight=False)
        return
    except KeyboardInterrupt:
        console.print()
        console.print(_stopped(session), soft_wrap=True, highlight=False)
        raise typer.Exit(130) from None
    outcome = session.state.outcome()
    if as_json:
        assert outcome is not None
        typer.echo(
            json.dumps(
                {
                    "game": game.name,
                    "players": dict(zip(game.player_names, session.players, strict=True)),
                    "seed": session.seed,
                    "result": outcome.result_tag(),
                    "winner": None if outcome.winner is None else game.player_names[outcome.winner],
                    "reason": outcome.reason,
                    "scores": dict(zip(game.player_names, outcome.scores, strict=True)),
                    "actions": len(session.actions),
                    "final": str(session.state),
                    "record": None if session.save_path is None else str(session.save_path),
                }
            )
        )
        return
    if outcome is not None:
        console.print(f"[bold]Result {outcome.result_tag()}[/bold]: {escape(outcome.reason)}")
    if session.save_path is not None:
        console.print(f"Record saved to {session.save_path}")


def _stopped(session: Any) -> str:
    """What ``play`` says when a game stops before its end: where it is saved, or that it is not."""
    if session.save_path is None:
        return "Game stopped; it was not saved (--save FILE keeps a game to --resume later)."
    return (
        f"Game stopped; saved to {session.save_path} "
        f"(gamehall play {session.game.name} --resume {session.save_path} goes on with it)."
    )


@app.command()
def games() -> None:
    """List the games of the hall: name, title and seats."""
    from gamehall.core import find_plugin

    for name in game_names():
        plugin = find_plugin(name)
        seats = ", ".join(name.capitalize() for name in plugin.game.player_names)
        console.print(f"[bold]{name}[/bold]  {escape(plugin.game.title)}  (seats: {seats})")
        if plugin.summary:
            console.print(f"  {escape(plugin.summary)}", highlight=False)


@app.command()
def moves(
    game_name: GameArg,
    position: PositionArg,
    as_json: Annotated[
        bool, typer.Option("--json", help="Also say if it is over and the score.")
    ] = False,
    variant: Variant = None,
    board: Board = None,
) -> None:
    """List the legal moves of a position, one per line (nothing when it is over).

    At a chance node the listable outcomes are printed (with --json, their probabilities)."""
    game = build_game(game_name, variant, board=board)
    state = game.parse_state(position)
    legal = [str(a) for a in state.legal_actions()]
    chance: list[dict[str, str]] = []
    if state.is_chance_node():
        try:
            chance = [{"action": str(a), "probability": str(p)} for a, p in state.chance_outcomes()]
        except TooManyOutcomesError:
            chance = []  # e.g. the pour: too many outcomes to list
        legal = [item["action"] for item in chance]
    if as_json:
        payload = {
            "position": str(state),
            "to_move": state.player_name(),
            "moves": legal,
            "chance": state.is_chance_node(),
            "probabilities": {item["action"]: item["probability"] for item in chance},
            "over": state.is_terminal(),
            "score": dict(zip(game.player_names, state.scores(), strict=True)),
        }
        outcome = state.outcome()
        if outcome is not None:
            payload["winner"] = (
                None if outcome.winner is None else game.player_names[outcome.winner]
            )
            payload["reason"] = outcome.reason
        typer.echo(json.dumps(payload))
    else:
        for move in legal:
            typer.echo(move)


@app.command()
def apply(
    game_name: GameArg,
    position: PositionArg,
    actions: Annotated[list[str], typer.Argument(help="Moves in notation, applied in order.")],
    variant: Variant = None,
    board: Board = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON: each move's mover and position.")
    ] = False,
) -> None:
    """Apply moves to a position and print the resulting position."""
    game = build_game(game_name, variant, board=board)
    state = game.parse_state(position)
    steps = []
    for number, text in enumerate(actions, 1):
        try:
            action = state.parse_action(text)
            mover = state.player_name()
            state = state.apply(action)
        except GamehallError as error:
            raise UsageError(f"move {number} ({text}): {error}") from None
        steps.append({"action": str(action), "mover": mover, "position": str(state)})
    if as_json:
        typer.echo(json.dumps({"start": position, "moves": steps, **_summary(state)}))
        return
    typer.echo(str(state))


def _summary(state: State) -> dict[str, Any]:
    """A position as JSON: its text, who is to move, whether it is over, the score, the end."""
    names = state.game.player_names
    payload: dict[str, Any] = {
        "position": str(state),
        "to_move": state.player_name(),
        "over": state.is_terminal(),
        "score": dict(zip(names, state.scores(), strict=True)),
    }
    outcome = state.outcome()
    if outcome is not None:
        payload["winner"] = None if outcome.winner is None else names[outcome.winner]
        payload["reason"] = outcome.reason
        payload["result"] = outcome.result_tag()
    return payload


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(help="SQLAlchemy URL of the store (default: SQLite in the data directory)."),
    ] = None,
    puzzles: Annotated[
        Path | None,
        typer.Option(help="Folder of stored puzzles (default: the data directory's puzzles)."),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option(help="A TOML file of server settings (limits and policies, see the README)."),
    ] = None,
    setting: Annotated[
        list[str] | None,
        typer.Option("--set", help="One setting as NAME=VALUE (repeatable; after --config)."),
    ] = None,
    https: Annotated[
        bool,
        typer.Option("--https", help="The server is reached over HTTPS (Secure cookies)."),
    ] = False,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(help="Another origin whose pages may play here (repeatable)."),
    ] = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="A proxy in front (address or network) whose X-Forwarded-For names the client "
            "(repeatable; default: none, the client is the connection's address)."
        ),
    ] = None,
    host_name: Annotated[
        list[str] | None,
        typer.Option(
            help="A host name the server answers for besides localhost and the address it "
            "listens on, such as its public name behind a proxy (repeatable)."
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            help="Server processes sharing the port (above 1: PostgreSQL only; see docs/deploy.md)."
        ),
    ] = 1,
    log_level: Annotated[
        str,
        typer.Option(
            help="Print the server's log from this level up: debug, info or warning (default)."
        ),
    ] = "warning",
) -> None:
    """Serve the web app: play in the browser against the computer, hot-seat or online."""
    from gamehall.store import default_url
    from gamehall.web.base.settings import Settings, SettingsError
    from gamehall.web.http.server import LOG_LEVELS, ServeError, check_workers
    from gamehall.web.http.server import serve as run_server

    try:
        settings = Settings.from_toml(config) if config is not None else Settings()
        settings = settings.replace(Settings.assignments(setting or []))
        if https:
            settings = settings.replace({"https": True})
        if allow_origin:
            origins = (*settings.allowed_origins, *allow_origin)
            settings = settings.replace({"allowed_origins": list(origins)})
        if trusted_proxy:
            proxies = (*settings.trusted_proxies, *trusted_proxy)
            settings = settings.replace({"trusted_proxies": list(proxies)})
        if host_name:
            settings = settings.replace({"host_names": [*settings.host_names, *host_name]})
    except SettingsError as error:
        raise UsageError(str(error)) from None
    try:
        check_workers(db or default_url(), workers)
    except ServeError as error:
        raise UsageError(str(error)) from None
    if log_level not in LOG_LEVELS:
        raise UsageError(f"--log-level is one of {', '.join(LOG_LEVELS)}, not {log_level!r}")
    _check_port(host, port)
    run_server(
        host=host,
        port=port,
        db=db,
        puzzles=puzzles,
        settings=settings,
        workers=workers,
        log_level=log_level,
    )


def _check_port(host: str, port: int) -> None:
    """Fail in one line, before the server starts, when the address cannot be listened on."""
    import socket

    if not 0 < port < 65536:
        raise UsageError(f"--port is from 1 to 65535, not {port}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise UsageError(f"cannot listen on {host}: {error.strerror}") from None
    family, kind, protocol, _, address = infos[0]
    with socket.socket(family, kind, protocol) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            busy = " (another server may be running there; --port picks another)"
            raise UsageError(
                f"cannot listen on {host}:{port}: {error.strerror}"
                + (busy if error.errno in (98, 48, 10048) else "")
            ) from None


def _read_record(path: Path) -> Record:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not a UTF-8 text record") from None
    return Record.parse(text)


@app.command()
def replay(
    path: Annotated[Path, typer.Argument(help="A game record file.")],
    final: Annotated[bool, typer.Option("--final", help="Print only the final position.")] = False,
    boards: Annotated[
        bool, typer.Option("--boards", help="Draw the board after every move.")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON: the tags and every move with its position.")
    ] = False,
) -> None:
    """Check a record and show it move by move, and how the game ended (or print only the final
    state). A game ended off the board (resigned, on time, claimed, aborted) stops on a position
    that is not over; its Termination tag says why."""
    record = _read_record(path)
    states = record.replay()
    game = record.game()
    if as_json:
        moves = [
            {
                "number": number,
                "action": text,
                "mover": before.player_name(),
                "position": str(after),
            }
            for number, (text, before, after) in enumerate(
                zip(record.actions, states, states[1:], strict=False), 1
            )
        ]
        ending = {
            "result": record.tags.get("Result", "*"),
            "termination": record.termination,
            "ending": record.ending(states[-1]),
        }
        payload = {"game": game.name, "tags": record.tags, "moves": moves}
        typer.echo(json.dumps({**payload, **ending, **_summary(states[-1])}))
        return
    if final:
        typer.echo(str(states[-1]))
        return
    view = view_for(game.name)
    for name, value in record.tags.items():
        console.print(f"[dim]{name}:[/dim] {escape(value)}", highlight=False)
    console.print(view(states[0]))
    heading = ""
    chapters = move_chapters(states)
    for number, (text, state) in enumerate(zip(record.actions, states[1:], strict=True), 1):
        before = states[number - 1]
        chapter = chapters[number - 1]
        if chapter.heading and chapter.heading != heading:
            console.print(f"[bold underline]{escape(chapter.heading)}[/bold underline]")
        heading = chapter.heading
        told = move_words(before, before.game.parse_action(text))
        console.print(
            f"{number:>4}. [bold]{escape(told)}[/bold]  [dim]{escape(text)} · {escape(str(state))}[/dim]",
            highlight=False,
        )
        if chapter.end:
            console.print(
                f"      [bold italic]{escape(chapter.end)}[/bold italic]", highlight=False
            )
            heading = ""
        comment = record.comments.get(number)
        if comment is not None:  # e.g. a review's {value +1 → 0, cost 1, mistake, best ...}
            console.print(f"      [italic]{{{escape(comment)}}}[/italic]", highlight=False)
        if boards:
            console.print(view(state, text))
    console.print(view(states[-1], record.actions[-1] if record.actions else None))
    typer.echo(record.ending(states[-1]))
    typer.echo(f"{len(record.actions)} moves checked; final position: {states[-1]}")


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app, turning every bad input into one line and exit status 2."""
    try:
        result = app(args=argv, prog_name="gamehall", standalone_mode=False)
    except BrokenPipeError:
        _quiet_broken_pipe()
    except GamehallError as error:
        _fail(str(error))
    except (ValueError, RecursionError) as error:  # a safety net: bad input is never a traceback
        _fail(f"bad input: {error}")
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as error:
        # Typer's (vendored) Click raises usage errors that carry a message and an exit code.
        message = getattr(error, "format_message", None)
        if callable(message):
            text = str(message()).strip()
            if not text:  # Click's NoArgsIsHelpError: the help is already shown
                sys.exit(getattr(error, "exit_code", 2) or 2)
            _fail(text, getattr(error, "exit_code", 2) or 2)
        if hasattr(error, "exit_code"):  # typer.Exit
            sys.exit(error.exit_code)
        raise
    if isinstance(result, int) and result:
        sys.exit(result)


def _quiet_broken_pipe() -> None:
    """The reader went away (``gamehall moves ... | head``): stop quietly, with no traceback
    when Python flushes standard output on the way out."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    sys.exit(0)


def _fail(message: str, status: int = 2) -> None:
    err_console.print(
        f"error: {' '.join(message.split())}", highlight=False, markup=False, soft_wrap=True
    )
    sys.exit(status)


if __name__ == "__main__":
    main()
