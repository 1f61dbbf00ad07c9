"""The analysis commands: ``analyze``, ``tournament`` and ``compare-boards``.

``register(app)`` adds them to the ``gamehall`` Typer app. Bad input raises
:class:`~gamehall.core.GamehallError`, which the app's ``main`` turns into one line and exit
status 2. Ctrl-C stops a run with every finished game kept; the same command resumes it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from gamehall.analysis import exact as exact_values
from gamehall.analysis.metrics import metric_columns
from gamehall.analysis.report import exact_report, selfplay_report
from gamehall.analysis.selfplay import RunSpec, default_workers, run_tasks, selfplay
from gamehall.analysis.stats import proportion, rate_difference
from gamehall.analysis.store import (
    DEAL_COLUMNS,
    GAME_COLUMNS,
    RECORD_COLUMN,
    RunStore,
)
from gamehall.analysis.tournament import (
    RANKING_HEADERS,
    TOURNAMENT_COLUMNS,
    head_to_head_rows,
    ranking_rows,
    run_tournament,
    standings,
    tournament_specs,
)
from gamehall.cli.options import BoardOption, build_game
from gamehall.core import Game, GamehallError, find_plugin

console = Console()
err_console = Console(stderr=True)

GameArg = Annotated[str, typer.Argument(help="The game (gamehall games lists them).")]
PlayersOption = Annotated[
    str | None, typer.Option("--players", help="Comma-separated players, e.g. greedy,random.")
]
GamesOption = Annotated[int, typer.Option("--games", "-n", min=1, help="Games to play.")]
SeedOption = Annotated[
    int, typer.Option("--seed", min=0, help="The run's seed (games derive theirs).")
]
VariantOption = Annotated[
    list[str] | None,
    typer.Option("--variant", "-V", help="A game option, NAME=VALUE (repeatable)."),
]
WorkersOption = Annotated[
    int | None, typer.Option("--workers", "-j", min=1, help="Local processes (default: all cores).")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
SchedulerOption = Annotated[
    str | None,
    typer.Option(
        "--scheduler", help="A Dask scheduler address, tcp://HOST:PORT (instead of local cores)."
    ),
]


def register(app: typer.Typer) -> None:
    """Add ``analyze``, ``tournament`` and ``compare-boards`` to ``app``."""
    app.command("analyze")(analyze)
    app.command("tournament")(tournament)
    app.command("compare-boards")(compare_boards)


# --- helpers -------------------------------------------------------------------------------------


def _game(name: str, variants: list[str] | None, board: str | None = None) -> Game:
    return build_game(name, variants, board=board)


def _variant_label(game: Game, board: str | None) -> str:
    """How the report names the variant: the board as given, else the options' text."""
    return board if board is not None else game.variant_text()


def _players(text: str | None, count: int | None = 2) -> list[str]:
    if not text:
        raise GamehallError("give the players, e.g. --players greedy,random")
    players = [p.strip() for p in text.split(",") if p.strip()]
    if count is not None and len(players) != count:
        raise GamehallError(f"--players takes {count} players, A,B; got {text!r}")
    from gamehall.ai import make_agent

    for name in players:
        make_agent(name, 0)  # an unknown name fails here, before any work
    return players


class RateColumn(ProgressColumn):
    """Games per second since the start."""

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed or 0.0
        rate = task.completed / elapsed if elapsed > 0 and task.completed else 0.0
        return Text(f"{rate:6.1f}/s", style="progress.data.speed")


@contextmanager
def _progress(description: str, total: int, done: int) -> Iterator[Callable[[Any], None]]:
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=err_console,
        transient=False,
    )
    with progress:
        task = progress.add_task(description, total=total, completed=done)

        def advance(_row: Any) -> None:
            progress.advance(task)

        yield advance


def _interrupted(out: Path | None, count: int) -> None:
    where = f" in {out}" if out else ""
    err_console.print(
        f"Interrupted: {count} finished games stored{where}; run the same command again to resume.",
        highlight=False,
    )
    raise typer.Exit(130)


def _run_stored(
    store: Any,
    out: Path | None,
    description: str,
    total: int,
    done: int,
    play: Callable[[Callable[[dict[str, Any]], None]], list[dict[str, Any]]],
) -> list[dict[str, Any]]:
    """Run ``play(on_row)`` as one stored run with a live progress bar; on Ctrl-C say how many
    games are kept and exit 130 (a rerun resumes)."""
    run_id = store.begin(total)
    count = [0]
    with _progress(description, total, done) as advance:

        def on_row(row: dict[str, Any]) -> None:
            count[0] += 1
            advance(row)

        try:
            rows = play(on_row)
        except KeyboardInterrupt:
            _interrupted(out, done + count[0])
    store.end(run_id)
    return rows


# --- analyze -------------------------------------------------------------------------------------


def analyze(
    game_name: GameArg,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Directory for games.sqlite and the report.")
    ],
    players: PlayersOption = None,
    games: GamesOption = 100,
    seed: SeedOption = 0,
    variant: VariantOption = None,
    board: BoardOption = None,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    exact: Annotated[
        bool,
        typer.Option(
            "--exact", help="The perfect-play value of random deals (games with a solver)."
        ),
    ] = False,
    deals: Annotated[int, typer.Option(min=1, help="With --exact: how many deals.")] = 100,
    size: Annotated[
        int | None,
        typer.Option(min=1, help="With --exact: smaller deals (e.g. tokens a side, game's own)."),
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option(
            "--seconds", "--time-limit", help="With --exact: seconds per deal for the solver."
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Self-play GAME between two players and write every game and a report to --out.

    Games alternate sides (A takes seat 0 in even games). Game i's seed comes from --seed and i,
    so results are the same on any number of workers. Rerun the same command to resume.
    """
    workers = workers or default_workers()
    if seconds is not None and not seconds > 0:
        raise GamehallError("--seconds must be positive")
    if exact:
        _analyze_exact(
            game_name, out, seed, variant, workers, scheduler, deals, size, seconds, as_json
        )
        return
    game = _game(game_name, variant, board)
    spec = RunSpec.make(game, _players(players), seed)
    columns = {**GAME_COLUMNS, **metric_columns(game.name), **RECORD_COLUMN}
    started = time.perf_counter()
    with RunStore(out, "selfplay", spec.parameters(), columns) as store:
        done = len({i for i in store.done() if i < games})
        rows = _run_stored(
            store,
            out,
            f"{game.name} {spec.players[0]} vs {spec.players[1]}",
            games,
            done,
            lambda on_row: selfplay(
                spec, games, store=store, workers=workers, scheduler=scheduler, on_row=on_row
            ),
        )
    elapsed = time.perf_counter() - started
    report = selfplay_report(
        rows,
        game_name=game.name,
        player_names=game.player_names,
        players=spec.players,
        seed=seed,
        variant=_variant_label(game, board),
    )
    report.write(out)
    a_wins = sum(1 for r in rows if r["winner_side"] == "A")
    b_wins = sum(1 for r in rows if r["winner_side"] == "B")
    draws = len(rows) - a_wins - b_wins
    score_a = proportion(a_wins + draws / 2, len(rows))
    if as_json:
        _echo_json(
            {
                "game": game.name,
                "players": {"A": spec.players[0], "B": spec.players[1]},
                "games": len(rows),
                "new_games": games - done,
                "seconds": round(elapsed, 3),
                "wins": {"A": a_wins, "B": b_wins},
                "draws": draws,
                "score_a": _rate_json(score_a),
                "report": str(out / "report.html"),
                "store": str(out / "games.sqlite"),
            }
        )
        return
    console.print(
        f"{len(rows)} games ({games - done} new, {elapsed:.1f} s): A {spec.players[0]} {a_wins}, "
        f"B {spec.players[1]} {b_wins}, draws {draws}; A scores {score_a}",
        highlight=False,
    )
    console.print(f"Report: {out / 'report.html'} (and report.md); games: {out / 'games.sqlite'}")


def _analyze_exact(
    game_name: str,
    out: Path,
    seed: int,
    variant: list[str] | None,
    workers: int,
    scheduler: str | None,
    deals: int,
    size: int | None,
    seconds: float | None,
    as_json: bool,
) -> None:
    game = _game(game_name, variant)
    spec = exact_values.make_spec(game, seed, size, seconds)  # fails before any work
    with RunStore(out, "exact", spec.parameters(), DEAL_COLUMNS, table="deals") as store:
        done = store.done()
        todo = [i for i in range(deals) if i not in done]
        run_id = store.begin(deals)
        count = 0
        with _progress("exact deals", deals, len({i for i in done if i < deals})) as advance:
            try:
                for batch in run_tasks(
                    exact_values.solve_batch,
                    spec,
                    todo,
                    workers=workers,
                    scheduler=scheduler,
                    largest_batch=1,
                ):
                    for row in batch:
                        store.add(row)
                        count += 1
                        advance(row)
            except KeyboardInterrupt:
                _interrupted(out, len(done) + count)
        store.end(run_id)
        rows = [r for r in store.rows() if r["deal_index"] < deals]
    solver = find_plugin(game.name).load_solver()
    unit = solver.unit if solver is not None else "value"
    report = exact_report(rows, game_name=game.name, size=size, seed=seed, unit=unit)
    report.write(out)
    from gamehall.analysis.stats import mean_interval

    value = mean_interval([r["value"] for r in rows])
    if as_json:
        _echo_json(
            {
                "game": game.name,
                "deals": len(rows),
                "unit": unit,
                "first_player_value": {
                    "mean": value.mean,
                    "low": value.low,
                    "high": value.high,
                },
                "report": str(out / "report.html"),
                "store": str(out / "games.sqlite"),
            }
        )
        return
    console.print(f"{len(rows)} deals: first-player value {value}")
    console.print(f"Report: {out / 'report.html'} (and report.md); deals: {out / 'games.sqlite'}")


# --- tournament ----------------------------------------------------------------------------------


def tournament(
    game_name: GameArg,
    players: PlayersOption = None,
    games: GamesOption = 20,
    seed: SeedOption = 0,
    variant: VariantOption = None,
    board: BoardOption = None,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Directory for the games and ranking (default: tournament-GAME)."
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """A round robin with an Elo ranking and the head-to-head table.

    Every pair plays --games games (sides alternated); Elo ratings with 95% intervals
    (Bradley–Terry, draws count half)."""
    workers = workers or default_workers()
    game = _game(game_name, variant, board)
    names = _players(players, count=None)
    specs = tournament_specs(game, names, seed)
    out = out or Path(f"tournament-{game.name}")
    parameters = {
        "game": game.name,
        "game_tags": dict(sorted(game.record_tags().items())),
        "players": names,
        "seed": seed,
        "games_per_pair": games,
    }
    columns = {**GAME_COLUMNS, **TOURNAMENT_COLUMNS, **metric_columns(game.name), **RECORD_COLUMN}
    total = games * len(specs)
    with RunStore(out, "tournament", parameters, columns) as store:
        rows = _run_stored(
            store,
            out,
            f"{game.name} round robin",
            total,
            len(store.done()),
            lambda on_row: run_tournament(
                specs, games, store=store, workers=workers, scheduler=scheduler, on_row=on_row
            ),
        )
    table = standings(names, rows)
    ranking = ranking_rows(table)
    h2h = head_to_head_rows(table)
    _write_tables(out / "ranking", RANKING_HEADERS, ranking)
    _write_tables(out / "head_to_head", ["", *names], h2h)
    summary = {
        "game": game.name,
        "players": names,
        "games_per_pair": games,
        "elo": dict(zip(table.players, table.ratings.elo, strict=True)),
        "elo_se": dict(zip(table.players, table.ratings.elo_se, strict=True)),
        "wins": table.wins.tolist(),
        "draws": table.draws.tolist(),
    }
    (out / "ranking.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    if as_json:
        _echo_json({**summary, "ranking": str(out / "ranking.md")})
        return
    _print_table(
        "Ranking (Elo, mean 0; 95% interval from the Fisher information)", RANKING_HEADERS, ranking
    )
    _print_table("Head to head (row's wins-draws-losses against column)", ["", *names], h2h)
    console.print(f"Ranking written to {out / 'ranking.md'} (and .csv, .json)")


def _echo_json(payload: dict[str, Any]) -> None:
    typer.echo(json.dumps(payload))


def _rate_json(rate: Any) -> dict[str, Any]:
    return {
        "successes": rate.successes,
        "trials": rate.trials,
        "rate": rate.rate,
        "low": rate.low,
        "high": rate.high,
    }


def _print_table(title: str, headers: list[str], rows: list[list[str]]) -> None:
    table = Table(title=title)
    for header in headers:
        table.add_column(header, justify="right")
    for row in rows:
        table.add_row(*row)
    console.print(table)


def _write_tables(stem: Path, headers: list[str], rows: list[list[str]]) -> None:
    import csv

    with stem.with_suffix(".csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(headers)
        writer.writerows(rows)
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    stem.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")


# --- compare-boards ------------------------------------------------------------------------------


def compare_boards(
    game_name: GameArg,
    boards: Annotated[
        list[str], typer.Argument(help="Two or more boards: packaged names (dawn) or TOML files.")
    ],
    players: PlayersOption = "greedy,greedy",
    games: GamesOption = 100,
    seed: SeedOption = 0,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Keep each board's games under DIR/<n>-<board> (resumable)."
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Compare boards: the second seat's win rate on each, and the differences.

    The same players on every board (sides alternated, the same seeds), each rate with its 95%
    Wilson interval, and each board's difference from the first board with its 95% interval
    (Newcombe's) and whether it is significant."""
    if len(boards) < 2:
        raise GamehallError("give at least two boards to compare, e.g. dawn my-board.toml")
    workers = workers or default_workers()
    names = _players(players)
    made = [(board, _game(game_name, None, board)) for board in boards]  # every board checked first
    results = []
    for number, (board, game) in enumerate(made, 1):
        stem = Path(board).stem
        spec = RunSpec.make(game, names, seed, label=stem)
        store = None
        if out is not None:
            columns = {**GAME_COLUMNS, **metric_columns(game.name), **RECORD_COLUMN}
            store = RunStore(out / f"{number}-{stem}", "selfplay", spec.parameters(), columns)
        try:
            done = len(store.done()) if store else 0
            with _progress(board, games, min(done, games)) as advance:
                try:
                    rows = selfplay(
                        spec,
                        games,
                        store=store,
                        workers=workers,
                        scheduler=scheduler,
                        on_row=advance,
                    )
                except KeyboardInterrupt:
                    _interrupted(out, done)
        finally:
            if store is not None:
                store.close()
        second = proportion(sum(1 for r in rows if r["winner"] == 1), len(rows))
        results.append((board, game.variant_text() or "default", second))
    game = made[0][1]
    seat = game.player_names[1].capitalize()
    reference = results[0][2]
    differences = [rate_difference(rate, reference) for _, _, rate in results]
    if as_json:
        _echo_json(
            {
                "game": game.name,
                "players": names,
                "games_per_board": games,
                "seat": game.player_names[1],
                "reference": results[0][0],
                "boards": [
                    {
                        "board": board,
                        "variant": variant,
                        "wins": _rate_json(rate),
                        "difference": None
                        if index == 0
                        else {
                            "difference": diff.difference,
                            "low": diff.low,
                            "high": diff.high,
                            "significant": diff.significant,
                        },
                    }
                    for index, ((board, variant, rate), diff) in enumerate(
                        zip(results, differences, strict=True)
                    )
                ],
            }
        )
        return
    headers = ["board", "variant", f"{seat} wins", "rate", "95% interval"]
    table = [
        [
            path,
            name,
            f"{rate.successes:g}/{rate.trials}",
            f"{rate.rate:.1%}",
            f"[{rate.low:.1%}, {rate.high:.1%}]",
        ]
        for path, name, rate in results
    ]
    _print_table(
        f"{seat} win rate, {names[0]} vs {names[1]}, {games} games per board", headers, table
    )
    reference_name = results[0][0]
    lines = [f"{seat} win rate: difference from {reference_name}, 95% interval (Newcombe):"]
    for (path, _, _), diff in zip(results[1:], differences[1:], strict=True):
        verdict = "significant" if diff.significant else "not significant"
        lines.append(f"  {path}: {diff} ({verdict})")
    for line in lines:
        console.print(line, highlight=False)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        _write_tables(out / "compare", headers, table)
        (out / "compare.md").write_text(
            (out / "compare.md").read_text(encoding="utf-8") + "\n" + "\n".join(lines) + "\n",
            encoding="utf-8",
        )
        console.print(f"Comparison written to {out / 'compare.md'} (and .csv)")
