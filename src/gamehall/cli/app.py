"""The ``gamehall`` command line (Typer + Rich). It talks only to the core protocol, the agents
and the views: it knows no game's internals.

Bad input anywhere exits with status 2 and a one-line message, never a traceback.
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from gamehall.ai import make_agent
from gamehall.cli.analysis import register as register_analysis
from gamehall.cli.exact import register as register_exact
from gamehall.cli.human import HumanAgent, QuitGame
from gamehall.cli.options import BoardOption, VariantOption, build_game
from gamehall.cli.views import view_for
from gamehall.core import (
    Agent,
    Game,
    GamehallError,
    Record,
    State,
    TooManyOutcomesError,
    game_names,
    make_record,
    play_game,
)

app = typer.Typer(
    name="gamehall",
    help="Play, check, analyse and replay the games of the hall.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
register_analysis(app)
register_exact(app)
console = Console()
err_console = Console(stderr=True)

GameArg = Annotated[str, typer.Argument(help="The game (`gamehall games` lists them).")]
PositionArg = Annotated[str, typer.Argument(help="A position in the game's notation.")]
Variant = VariantOption
Board = BoardOption


class UsageError(GamehallError):
    """Bad command-line input that is not about the game itself."""


def _seat_flags(game: Game, extra: list[str]) -> dict[str, str]:
    """``--<seat> PLAYER`` pairs (``--dark hard``, ``--jinn=human``) from the extra arguments."""
    seats: dict[str, str] = {}
    items = list(extra)
    while items:
        item = items.pop(0)
        name, sep, value = item.partition("=")
        seat = name[2:].lower() if name.startswith("--") else ""
        if seat not in game.player_names:
            shown = ", ".join(f"--{p}" for p in game.player_names)
            raise UsageError(
                f"{item!r} is not an option of play; {game.name}'s seats are {shown} "
                "(each takes a player: human or a computer level)"
            )
        if not sep:
            if not items:
                raise UsageError(f"{name} needs a player: human or a computer level")
            value = items.pop(0)
        seats[seat] = value
    return seats


def _seat_agent(game: Game, seat: int, spec: str, seed: int | None) -> Agent:
    if spec.lower() == "human":
        return HumanAgent(console, view_for(game.name), seat_name=game.player_names[seat])
    return make_agent(spec, seed)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
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
) -> None:
    """Play a game in the terminal: people and computer players in any seats.

    Give each seat a player with --<seat> PLAYER, using the game's seat names (--dark hard,
    --jinn human ...): human, or a computer level (beginner, easy, medium, hard, perfect), or
    random, greedy, mcts. Unnamed seats: the first is human, the others easy."""
    if resume is not None:
        record = _read_record(resume)
        game = record.game()
        if game.name != build_game(game_name).name:
            raise UsageError(f"{resume} is a record of {game.name}, not {game_name}")
        states = record.replay()
        actions = [states[i].parse_action(t) for i, t in enumerate(record.actions)]
        start = states[-1]
        try:
            seed = int(record.tags.get("Seed", "0"))
        except ValueError:
            raise UsageError(
                f"{resume}: Seed tag {record.tags['Seed']!r} is not a number"
            ) from None
        # Chance goes on from a generator of its own, so the record keeps the seed it began with.
        chance_seed = seed + len(actions)
        setup = states[0] if "SetUp" in record.tags else None
        recorded_players = [record.tags.get(p.capitalize()) for p in game.player_names]
        if start.is_terminal():
            raise UsageError(f"the game in {resume} is already over ({record.tags.get('Result')})")
        save = save or resume
    else:
        game = build_game(game_name, variant, target=target, board=board)
        start, actions, setup = game.new_initial_state(), [], None
        seed = seed if seed is not None else int(datetime.datetime.now().timestamp())
        chance_seed = seed
        recorded_players = [None] * game.num_players
    seats = _seat_flags(game, ctx.args)
    specs = []
    for index, player in enumerate(game.player_names):
        spec = seats.get(player) or recorded_players[index] or ("human" if index == 0 else "easy")
        if auto and spec == "human":
            spec = "greedy"
        specs.append(spec)
    agents = [_seat_agent(game, i, spec, seed + 1000 * (i + 1)) for i, spec in enumerate(specs)]
    view = view_for(game.name)
    date = datetime.date.today().strftime("%Y.%m.%d")
    show = not auto

    def write(final: State, moves: list[Any]) -> None:
        if save is not None:
            record = make_record(
                game, moves, players=specs, seed=seed, date=date, setup=setup, final=final
            )
            try:
                save.write_text(str(record), encoding="utf-8")
            except OSError as error:
                raise UsageError(f"cannot save the record to {save}: {error.strerror}") from None

    def on_action(before: State, action: Any, after: State) -> None:
        actions.append(action)
        write(after, actions)
        mover = before.current_player
        if show and mover >= 0 and not isinstance(agents[mover], HumanAgent):
            how = agents[mover].describe_last_choice()
            if how:  # say how the computer chose: exact, bounded search, MCTS …
                console.print(
                    f"[dim]{before.player_name(mover).capitalize()} played {escape(str(action))}: "
                    f"{escape(how)}[/dim]"
                )
        if show and not any(
            isinstance(a, HumanAgent) and a.seat == after.current_player for a in agents
        ):
            console.print(view(after, action))
            console.rule(style="dim")

    if show:
        console.print(view(start, actions[-1] if actions else None))
    try:
        played = play_game(game, agents, seed=chance_seed, start=start, on_action=on_action)
    except QuitGame:
        console.print(f"Game stopped{f'; saved to {save}' if save else ''}.")
        return
    final = played.final
    outcome = final.outcome()
    if show:
        console.print(view(final, actions[-1] if actions else None))
    if outcome is not None:
        console.print(f"[bold]Result {outcome.result_tag()}[/bold]: {outcome.reason}")
    if save is not None:
        console.print(f"Record saved to {save}")


@app.command()
def games() -> None:
    """List the games of the hall: name, title and seats."""
    from gamehall.core import find_plugin

    for name in game_names():
        plugin = find_plugin(name)
        seats = ", ".join(plugin.game.player_names)
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
) -> None:
    """Apply moves to a position and print the resulting position."""
    game = build_game(game_name, variant, board=board)
    state = game.parse_state(position)
    for number, text in enumerate(actions, 1):
        try:
            state = state.apply(state.parse_action(text))
        except GamehallError as error:
            raise UsageError(f"move {number} ({text}): {error}") from None
    typer.echo(str(state))


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
) -> None:
    """Serve the web app: play in the browser against the computer, hot-seat or online."""
    from gamehall.web.server import serve as run_server

    run_server(host=host, port=port, db=db, puzzles=puzzles)


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
    board: Annotated[
        bool, typer.Option("--board", help="Draw the board after every move.")
    ] = False,
) -> None:
    """Check a record and show it move by move (or print only the final state)."""
    record = _read_record(path)
    states = record.replay()
    game = record.game()
    if final:
        typer.echo(str(states[-1]))
        return
    view = view_for(game.name)
    for name, value in record.tags.items():
        console.print(f"[dim]{name}:[/dim] {escape(value)}", highlight=False)
    console.print(view(states[0]))
    for number, (text, state) in enumerate(zip(record.actions, states[1:], strict=True), 1):
        mover = states[number - 1].player_name()
        console.print(
            f"{number:>4}. [bold]{escape(text)}[/bold] [dim]({mover})[/dim]  {escape(str(state))}",
            highlight=False,
        )
        comment = record.comments.get(number)
        if comment is not None:  # e.g. a review's {value +1 → 0, cost 1, mistake, best ...}
            console.print(f"      [italic]{{{escape(comment)}}}[/italic]", highlight=False)
        if board:
            console.print(view(state, text))
    console.print(view(states[-1], record.actions[-1] if record.actions else None))
    typer.echo(f"{len(record.actions)} moves checked; final position: {states[-1]}")


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app, turning every bad input into one line and exit status 2."""
    try:
        result = app(args=argv, standalone_mode=False)
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


def _fail(message: str, status: int = 2) -> None:
    err_console.print(
        f"error: {' '.join(message.split())}", highlight=False, markup=False, soft_wrap=True
    )
    sys.exit(status)


if __name__ == "__main__":
    main()
