"""``gamehall tui``: start the full-screen terminal app on a new, resumed, loaded or online game.

``register(app)`` adds the command. Textual is imported only when the command runs.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from gamehall.ai import make_agent
from gamehall.cli.options import BoardOption, VariantOption, build_game, seat_flags
from gamehall.core import Game, GamehallError, State

console = Console()


def register(app: typer.Typer) -> None:
    app.command("tui", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(
        tui
    )


def tui(
    ctx: typer.Context,
    game_name: Annotated[
        str | None,
        typer.Argument(
            help="The game (without one, a start screen chooses: a new game, a saved one, "
            "or a server's)."
        ),
    ] = None,
    target: Annotated[
        int | None, typer.Option(help="Points that win, in games played to a target.")
    ] = None,
    board: BoardOption = None,
    variant: VariantOption = None,
    seed: Annotated[int | None, typer.Option(help="Seed for chance and the computer.")] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the last unfinished game.")
    ] = False,
    load: Annotated[
        Path | None, typer.Option("--load", help="Open a game record and play on from its end.")
    ] = None,
    position: Annotated[
        str | None, typer.Option("--position", help="Start from this position (the game's text).")
    ] = None,
    clock: Annotated[
        str | None,
        typer.Option("--clock", help="A time control: MINUTES or MINUTES+SECONDS a move (5, 3+2)."),
    ] = None,
    connect: Annotated[
        str | None,
        typer.Option(
            "--connect",
            help="Play or watch a game of a running server: its link (a seat link seats you).",
        ),
    ] = None,
    analyse: Annotated[
        bool,
        typer.Option(
            "--analyse",
            "--analyze",
            help="Open the analysis board: every legal move valued, lines and branches.",
        ),
    ] = False,
    record_file: Annotated[
        Path | None,
        typer.Option("--from", help="With --analyse: the line of this game record."),
    ] = None,
    step: Annotated[
        int | None,
        typer.Option("--step", help="With --from: look at the position after this many moves."),
    ] = None,
) -> None:
    """The full-screen terminal app: play against the computer, hot-seat, or online.

    Without a game it opens a start screen: choose the game, your side, the level and a clock,
    resume a saved game, or connect to a server.
    The board, the move list, hints, undo and clocks. Give each seat a player with --<seat> PLAYER (--dark hard,
    --jinn human; both human for hot-seat). Every move is saved in your data directory, so
    Ctrl-C loses nothing: --resume goes on with the last game. Press ? in the app for its keys.

    --analyse opens the analysis board instead: every legal move of the position valued (exact
    where the solver settles it, else estimated), stepping through lines and branching them,
    from the start, a --position, or a record (--from FILE, --step K for its position after K
    moves)."""
    from gamehall.tui.session import (
        Clock,
        last_unfinished,
        new_save_path,
        read_record,
        session_from_record,
    )

    extra = list(ctx.args)
    if game_name is not None and game_name.startswith("-"):  # a seat flag, not a game
        extra.insert(0, game_name)
        game_name = None
    if analyse or record_file is not None or step is not None:
        if resume or load is not None or connect is not None or clock is not None:
            raise GamehallError(
                "the analysis board takes --position or --from, not --resume, --load, "
                "--connect or --clock"
            )
        _analyse(game_name, extra, position, record_file, step, target, board, variant, seed)
        return
    sources = [resume, load is not None, position is not None, connect is not None]
    if sum(sources) > 1:
        raise GamehallError("give at most one of --resume, --load, --position and --connect")
    time_control = Clock.parse(clock) if clock else None
    if connect is not None:
        _connect(connect)
        return
    if resume:
        path = last_unfinished()
        if path is None:
            raise GamehallError(
                "there is no unfinished game to resume; start one: gamehall tui GAME"
            )
        _resume(path, game_name, extra, time_control)
        return
    if load is not None:
        record = read_record(load)
        game = record.game()
        if game_name is not None and build_game(game_name).name != game.name:
            raise GamehallError(f"the record is of {game.name}, not {game_name}")
        given = seat_flags(game, extra)
        _check_players(given.values())
        save_path = new_save_path(game)
        _run(session_from_record(record, given, save_path=save_path, clock=time_control))
        return
    if game_name is None:
        if extra or position is not None or any(x is not None for x in (target, board, variant)):
            raise GamehallError("name the game, e.g. gamehall tui GAME (gamehall games lists them)")
        _start_screen(seed, time_control)
        return
    game = build_game(game_name, variant, target=target, board=board)
    given = seat_flags(game, extra)
    _check_players(given.values())
    start = game.parse_state(position) if position is not None else None
    _new_game(game, given, seed=seed, start=start, clock=time_control)


def _new_game(
    game: Game,
    given: dict[str, str],
    *,
    seed: int | None,
    start: State | None = None,
    clock: Any = None,
) -> None:
    _run(new_session(game, given, seed=seed, start=start, clock=clock))


def new_session(
    game: Game,
    given: dict[str, str],
    *,
    seed: int | None,
    start: State | None = None,
    clock: Any = None,
) -> Any:
    """A new local game, saved at once in the data directory (``--resume`` finds it)."""
    from gamehall.tui.session import Session, new_save_path, seat_players

    session = Session(
        game,
        seat_players(game, None, given),
        seed=seed if seed is not None else int(datetime.datetime.now().timestamp()),
        start=start,
        save_path=new_save_path(game),
        clock=clock,
    )
    session.save()
    return session


def chosen_session(chosen: Any, seed: int | None = None, clock: Any = None) -> Any:
    """The new game the start screen chose (a :class:`gamehall.tui.start.NewGame`)."""
    from gamehall.tui.session import Clock

    game = build_game(chosen.game)
    chosen_clock = Clock.parse(chosen.clock) if chosen.clock else clock
    return new_session(game, chosen.players(game.player_names), seed=seed, clock=chosen_clock)


def _start_screen(seed: int | None, clock: Any) -> None:
    """No game named: the start screen chooses a new game, a saved one or a server's."""
    from gamehall.tui.start import ConnectTo, NewGame, ResumeGame, choose

    chosen = choose()
    if isinstance(chosen, NewGame):
        _run(chosen_session(chosen, seed, clock))
    elif isinstance(chosen, ResumeGame):
        _resume(chosen.path, None, [], clock)
    elif isinstance(chosen, ConnectTo):
        _connect(chosen.url)


def _connect(url: str) -> None:
    from gamehall.tui.remote import connect_session

    _run(connect_session(url))


def _resume(path: Path, game_name: str | None, extra: list[str], clock: Any) -> None:
    """Go on with the saved game at ``path``: a local game here, an online game on its server
    (reconnected as this terminal's identity, which holds its seats), or, if that game has
    ended meanwhile, say so and keep its end in the saved copy."""
    from gamehall.tui.session import read_record, session_from_record

    record = read_record(path)
    game = record.game()
    if game_name is not None and build_game(game_name).name != game.name:
        raise GamehallError(f"the record is of {game.name}, not {game_name}")
    if "GameId" in record.tags and "Site" in record.tags:
        if extra or clock is not None:
            raise GamehallError(
                "an online game goes on with its server's seats and clock: "
                "give no seat options or --clock with it"
            )
        _resume_online(path, record.tags["Site"], record.tags["GameId"])
        return
    given = seat_flags(game, extra)
    _check_players(given.values())
    _run(session_from_record(record, given, save_path=path, clock=clock))


def _resume_online(path: Path, site: str, game_id: str) -> None:
    from gamehall.tui.remote import connect_session, game_link

    link = game_link(site, game_id)
    session = connect_session(link, save_path=path)
    told = session.server_state
    if told is not None and told.over:
        session.close()
        reason = told.outcome.reason if told.outcome is not None else "it has ended"
        _keep_end(path, session)
        console.print(
            f"That online game is over: {reason[:1].upper()}{reason[1:]}.\n"
            f"Look at it with: gamehall tui --connect {link}",
            highlight=False,
        )
        return
    _run(session)


def _keep_end(path: Path, session: Any) -> None:
    """Keep the server's record of an online game that ended in its saved copy, so it is
    resumed no more."""
    from gamehall.core import Record

    record = session.server_record
    tags = {**record.tags, **session.online_tags()}
    if tags.get("Result", "*") == "*":
        tags["Ending"] = tags.get("Ending") or "the game has ended"
    try:
        path.write_text(str(Record(tags=tags, actions=list(record.actions))), encoding="utf-8")
    except OSError:
        return  # the copy stays as it was; the server has the game


def _analyse(
    game_name: str | None,
    extra: list[str],
    position: str | None,
    record_file: Path | None,
    step: int | None,
    target: int | None,
    board: str | None,
    variant: str | None,
    seed: int | None,
) -> None:
    """``--analyse``: the analysis board on a new game, a position, or a record's line."""
    from gamehall.tui.session import read_record

    if extra:
        raise GamehallError(
            f"the analysis board has no seats to give players to: {' '.join(extra)}"
        )
    if record_file is None and step is not None:
        raise GamehallError("--step goes with --from RECORD_FILE")
    if record_file is not None and position is not None:
        raise GamehallError("give --position or --from, not both")
    actions: list[Any] = []
    if record_file is not None:
        record = read_record(record_file)
        game = record.game()
        if game_name is not None and build_game(game_name).name != game.name:
            raise GamehallError(f"the record is of {game.title}, not {game_name}")
        states = record.replay()
        actions = [states[i].parse_action(text) for i, text in enumerate(record.actions)]
        start = states[0]
        if step is not None and not 0 <= step <= len(actions):
            raise GamehallError(
                f"--step {step}: the record has {len(actions)} moves; give 0 to {len(actions)}"
            )
    else:
        if game_name is None:
            raise GamehallError(
                "name the game, e.g. gamehall tui GAME --analyse (gamehall games lists them)"
            )
        game = build_game(game_name, variant, target=target, board=board)
        start = game.parse_state(position) if position is not None else game.new_initial_state()
    from gamehall.tui.analysis import AnalysisApp

    AnalysisApp(game, start, actions=actions, step=step, seed=seed).run()


def _check_players(players: Iterable[str]) -> None:
    for player in players:
        if str(player).lower() != "human":
            make_agent(str(player), 0)  # an unknown name fails here, before the screen opens


def _run(session: Any) -> None:
    from gamehall.tui.app import GamehallApp

    app = GamehallApp(session)
    try:
        app.run()
    finally:
        session.close()
    path = session.save_path
    if path is None:
        return
    if session.over:
        console.print(f"The game's record is in {path}", highlight=False)
    else:
        console.print(
            f"Game saved to {path}; gamehall tui --resume goes on with it.", highlight=False
        )
