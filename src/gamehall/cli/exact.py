"""Exact analysis for players: ``solve``, ``hint``, ``review``, ``puzzles`` and ``warm-up``.

``register(app)`` adds them to the ``gamehall`` Typer app. Every wait shows a status line or a
progress bar on stderr (Rich draws nothing there when stderr is not a terminal), so the answer on
stdout stays clean for scripts.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from gamehall.cli.options import BoardOption, VariantOption, build_game
from gamehall.core import GamehallError, Record, find_plugin, game_names

if TYPE_CHECKING:
    from gamehall.ai.hint_words import AdviceWords

console = Console()
err_console = Console(stderr=True)

GameArg = Annotated[str, typer.Argument(help="The game (`gamehall games` lists them).")]
PositionArg = Annotated[str, typer.Argument(help="A position in the game's notation.")]
DirOption = Annotated[
    Path | None,
    typer.Option("--dir", help="Where puzzles are kept (default: the user's data directory)."),
]


def register(app: typer.Typer) -> None:
    """Add ``solve``, ``hint``, ``review``, ``puzzles`` and ``warm-up`` to ``app``."""
    app.command("solve")(solve)
    app.command("hint")(hint)
    app.command("review")(review)
    app.command("warm-up")(warm_up)
    puzzles = typer.Typer(
        name="puzzles",
        help="Find and list positions with a single best move.",
        no_args_is_help=True,
    )
    puzzles.command("generate")(puzzles_generate)
    puzzles.command("list")(puzzles_list)
    app.add_typer(puzzles)


@contextmanager
def _thinking(text: str = "thinking") -> Iterator[Any]:
    """A status line on stderr while something takes time; yields a function to change it."""
    with err_console.status(f"{text}…") as status:
        yield lambda step: status.update(f"{step}…")


def _read_record(path: Path) -> Record:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise GamehallError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise GamehallError(f"{path} is not a UTF-8 text record") from None
    return Record.parse(text)


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise GamehallError(f"cannot write {path}: {error.strerror}") from None


# --- solve and hint ------------------------------------------------------------------------------


def solve(
    game_name: GameArg,
    position: PositionArg,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    seconds: Annotated[
        float,
        typer.Option("--seconds", "--time-limit", help="Seconds for the exact search."),
    ] = 30.0,
    seed: Annotated[int | None, typer.Option(help="Seed of the fallback search.")] = None,
    variant: VariantOption = None,
    board: BoardOption = None,
) -> None:
    """Solve a position exactly where the budget allows, and say which it did."""
    from gamehall.cli.solve import solve_text

    if not seconds > 0:
        raise GamehallError("--seconds must be positive")
    game = build_game(game_name, variant, board=board)
    with _thinking("solving"):
        text = solve_text(game, position, seconds=seconds, as_json=as_json, seed=seed)
    typer.echo(text)


def hint(
    game_name: GameArg,
    position: PositionArg,
    count: Annotated[int, typer.Option(help="How many moves to show.")] = 3,
    seconds: Annotated[float | None, typer.Option(help="Time to think (default 5 s).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    seed: Annotated[int, typer.Option(help="Seed of the search for estimates.")] = 0,
    variant: VariantOption = None,
    board: BoardOption = None,
) -> None:
    """The best few moves of a position for the player to move: exact where the solver settles
    them, else estimates labelled with their uncertainty; each with the line of play after it."""
    from gamehall.ai.hint_words import tell
    from gamehall.ai.hints import DEFAULT_SECONDS, advise

    game = build_game(game_name, variant, board=board)
    state = game.parse_state(position)
    seconds = DEFAULT_SECONDS if seconds is None else seconds
    if count < 1 or not seconds > 0:
        raise GamehallError("--count and --seconds must be positive")
    with _thinking() as step:
        advice = advise(state, count=count, seconds=seconds, seed=seed, on_step=step)
    if as_json:
        typer.echo(json.dumps(advice.to_json()))
        return
    if not advice.hints:
        typer.echo(
            "No moves: " + ("the game is over." if state.is_terminal() else "chance acts next.")
        )
        return
    print_hints(console, tell(advice))


def print_hints(out: Console, told: AdviceWords) -> None:
    """The hints as the terminal app and the play prompt say them too: plain lines wrapped to
    the terminal, details indented, never padded with spaces."""
    for line in told.lines(width=out.width):
        out.print(line, highlight=False, markup=False, soft_wrap=True)


# --- review --------------------------------------------------------------------------------------

VERDICT_STYLE = {
    "best": "green",
    "good": "green",
    "inaccuracy": "yellow",
    "mistake": "dark_orange",
    "blunder": "red",
}
"""How a review's classes are coloured in the terminal."""


def review(
    path: Annotated[Path, typer.Argument(help="A game's record file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the annotated record to this file.")
    ] = None,
    seconds: Annotated[
        float, typer.Option(help="Seconds the solver gets on each position.")
    ] = 10.0,
    simulations: Annotated[
        int, typer.Option(help="MCTS simulations for each position it cannot solve.")
    ] = 2000,
    seed: Annotated[int, typer.Option(help="Seed of those searches.")] = 0,
) -> None:
    """Review every move of a game: its value before and after, its cost and its class (exact
    where the solver settles the position, estimated elsewhere), and the best alternative.

    Prints the annotated record (each move followed by a comment such as {value +1 → 0, cost 1,
    mistake, best RCxRT+BT}); --out writes it to a file instead, --json prints the review. A game
    that ended off the board (resigned, on time, claimed, aborted) has its moves reviewed, and
    the review says that it has no final exact outcome (its ReviewNote tag)."""
    from gamehall.ai.review import review as review_game

    record = _read_record(path)
    progress = Progress(
        TextColumn("[bold]reviewing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("moves"),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
    )
    with progress:
        task = progress.add_task("review", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        result = review_game(
            record, seconds=seconds, simulations=simulations, seed=seed, progress=advance
        )
    annotated = str(result.annotated())
    if out is not None:
        _write(out, annotated)
    if as_json:
        typer.echo(json.dumps(result.to_json()))
    elif out is None:
        typer.echo(annotated, nl=False)
    else:
        for name in result.game.player_names:
            console.print(
                f"{name.capitalize()}: {escape(result.summary_text(name))}", highlight=False
            )
        if result.unfinished is not None:
            console.print(escape(result.unfinished), highlight=False)
        console.print(
            f"Annotated record written to {out} ({result.seconds:.1f} s)", highlight=False
        )


# --- puzzles -------------------------------------------------------------------------------------


def puzzles_generate(
    game_name: GameArg,
    count: Annotated[int, typer.Option("--count", "-n", min=1, help="Puzzles to find.")] = 10,
    games: Annotated[int, typer.Option(min=0, help="Most self-play games to look through.")] = 50,
    players: Annotated[
        str, typer.Option(help="The self-play players, A,B (sides alternate).")
    ] = "easy,easy",
    from_records: Annotated[
        list[Path] | None,
        typer.Option("--from", help="A (reviewed) record to look through first (repeatable)."),
    ] = None,
    seconds: Annotated[
        float, typer.Option(help="Seconds to settle a position and all its moves.")
    ] = 3.0,
    seed: Annotated[int, typer.Option(help="Seed of the self-play games.")] = 0,
    per_game: Annotated[
        int, typer.Option(min=1, help="Most puzzles from one game (they would share lines).")
    ] = 1,
    directory: DirOption = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="One file to add the puzzles to (a game's shipped set) instead of --dir; "
            "the settings and how far the self-play got are kept beside it, so the same "
            "command run again goes on where it stopped.",
        ),
    ] = None,
    variant: VariantOption = None,
    board: BoardOption = None,
) -> None:
    """Find positions with exactly one best move, every other move costing at least the game's
    puzzle margin (all proven exactly), and store them with their solution line and, for each
    other move, how it is punished. Each puzzle is stored as soon as it is found."""
    from itertools import chain

    from gamehall.analysis.puzzles import (
        PuzzleStore,
        find_puzzles,
        record_candidates,
        selfplay_candidates,
    )

    game = build_game(game_name, variant, board=board)
    plugin = find_plugin(game.name)
    if plugin.solver is None or plugin.judgement is None:
        raise GamehallError(f"{game.name} has no exact solver and puzzle margin: no puzzles")
    if not seconds > 0:
        raise GamehallError("--seconds must be positive")
    seats = [p.strip() for p in players.split(",") if p.strip()]
    if len(seats) != game.num_players:
        raise GamehallError(f"--players takes {game.num_players} players, A,B; got {players!r}")
    from gamehall.ai import make_agent

    for name in seats:
        make_agent(name, 0)  # an unknown name fails here, before any work
    sources = []
    for path in from_records or []:
        record = _read_record(path)
        if record.game().name != game.name:
            raise GamehallError(f"{path} is a record of {record.game().name}, not {game.name}")
        sources.append(record_candidates(record, str(path)))
    store = PuzzleStore(directory, file=out)
    settings = {
        "players": ",".join(seats),
        "seconds": seconds,
        "seed": seed,
        "per_game": per_game,
        "tags": game.record_tags(),
    }
    words = [
        "gamehall", "puzzles", "generate", game_name, "--count", str(count), "--games", str(games),
        "--players", ",".join(seats), "--seconds", f"{seconds:g}", "--seed", str(seed),
        "--per-game", str(per_game),
        *[w for path in from_records or [] for w in ("--from", str(path))],
        *[w for option in variant or [] for w in ("--variant", option)],
        *(["--board", board] if board else []),
        "--out", str(out),
    ]  # fmt: skip
    progress = _GenerationLog(out, settings, words) if out is not None else None
    start = progress.games_done if progress is not None else 0
    candidates = chain(*sources, selfplay_candidates(game, seats, seed, games, start))
    known = [p.id for p in store.load(game.name)]
    with _thinking("looking for puzzles") as step:

        def examined(done: int, found: int) -> None:
            step(f"looking for puzzles: {done} positions examined, {found} found")

        def keep(puzzle: Any) -> None:
            store.add([puzzle])
            if progress is not None:
                progress.save(len(store.load(game.name)))

        def game_done(group: str) -> None:
            if progress is not None and group.startswith("self-play"):
                progress.games_done += 1
                progress.save(len(store.load(game.name)))

        started = time.perf_counter()
        found = find_puzzles(
            game,
            count,
            candidates,
            seconds=seconds,
            per_game=per_game,
            known=known,
            on_examined=examined,
            on_found=keep,
            on_group_done=game_done,
        )
    for puzzle in found:
        console.print(
            f"{puzzle.id}  {escape(puzzle.position)}  answer [bold]{escape(puzzle.answer)}[/bold]"
            f"  [dim]({escape(puzzle.source)})[/dim]",
            highlight=False,
        )
    console.print(
        f"{len(found)} new puzzle{'s' if len(found) != 1 else ''} stored in "
        f"{store.path(game.name)} ({time.perf_counter() - started:.1f} s)",
        highlight=False,
    )
    if len(found) < count:
        console.print(
            f"only {len(found)} of {count} found: give more --games or --from records",
            highlight=False,
        )


class _GenerationLog:
    """What made a puzzle file and how far its self-play got, kept beside it
    (``<file>.command.json``): its settings, the self-play games looked through, the puzzles
    stored, and each run's exact command and time. A run with the same settings goes on after
    the games already done, so the runs together make the file one long run would have made."""

    def __init__(self, out: Path, settings: dict[str, Any], command: list[str]) -> None:
        import shlex
        from datetime import UTC, datetime

        self.path = out.with_name(out.name + ".command.json")
        self.settings = settings
        self.games_done = 0
        self.runs: list[dict[str, Any]] = []
        if self.path.exists():
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("settings") != settings:
                raise GamehallError(
                    f"{out} was made with other settings ({data.get('settings')}); "
                    "give the same ones to go on, or another --out"
                )
            self.games_done = int(data.get("games_done", 0))
            self.runs = list(data.get("runs", []))
        self.runs.append(
            {
                "command": " ".join(shlex.quote(word) for word in command),
                "started": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
                "from_game": self.games_done,
            }
        )

    def save(self, puzzles: int) -> None:
        self.runs[-1]["to_game"] = self.games_done
        data = {
            "settings": self.settings,
            "games_done": self.games_done,
            "puzzles": puzzles,
            "runs": self.runs,
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def puzzles_list(
    game_name: GameArg,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON Lines.")] = False,
    directory: DirOption = None,
) -> None:
    """List a game's puzzles (yours, then the ones the game ships; the web offers the same):
    each with where the game stands, its themes and difficulty, the answer and its line in
    words, with the notation beside."""
    from gamehall.analysis.puzzles import (
        PuzzleStore,
        all_puzzles,
        difficulty,
        puzzle_situation,
        puzzle_themes,
        starting_ratings,
    )
    from gamehall.core.words import move_words

    game = build_game(game_name)
    store = PuzzleStore(directory)
    puzzles = all_puzzles(game.name, store)
    starts = starting_ratings(puzzles)
    for puzzle in puzzles:
        rating = starts[puzzle.id]
        if as_json:
            data = puzzle.to_json()
            data["themes"] = list(puzzle_themes(puzzle))
            data["rating"] = round(rating)
            data["difficulty"] = difficulty(rating)
            typer.echo(json.dumps(data, ensure_ascii=False))
            continue
        state = puzzle.state()
        said = []
        for text in puzzle.line:
            action = state.parse_action(text)
            said.append(f"{move_words(state, action)} [dim]({escape(text)})[/dim]")
            state = state.apply_trusted(action)
        console.print(
            f"[bold]{puzzle.id}[/bold]  {difficulty(rating)} ({round(rating)}); "
            f"{escape(', '.join(puzzle_themes(puzzle)) or 'no theme')}\n"
            f"   {escape(puzzle_situation(puzzle))}\n"
            f"   [dim]{escape(puzzle.position)}[/dim]\n"
            f"   {said[0]}\n" + "".join(f"   then {line}\n" for line in said[1:]),
            highlight=False,
            end="",
        )
    if not as_json:
        yours = len({p.id for p in store.load(game.name)})
        console.print(
            f"{len(puzzles)} {game.title} puzzles: {yours} of yours in "
            f"{store.path(game.name)} and {len(puzzles) - yours} shipped with the game",
            highlight=False,
        )


# --- warm-up -------------------------------------------------------------------------------------


def warm_up() -> None:
    """Compile (or load) every game's exact solver and compiled search now, so no first move,
    hint or review waits for them; then the simulator that analysis and research runs use, and
    the batched games (:mod:`gamehall.vector`) a learner steps.

    Each step is told as it ends: [step/steps], what, and its seconds."""
    from gamehall.ai.warm import RESEARCH_STEPS, WARM_STEPS
    from gamehall.vector import warm_up as warm_vector

    # the batched games (gamehall.vector) are research too, but sit above gamehall.ai's layer
    research = [*RESEARCH_STEPS, ("batched games", warm_vector)]
    steps = [(name, what, warm) for name in game_names() for what, warm in WARM_STEPS + research]
    began = time.perf_counter()
    for number, (name, what, warm) in enumerate(steps, 1):
        label = f"[{number}/{len(steps)}] {find_plugin(name).game.title} {what}"
        started = time.perf_counter()
        with _thinking(escape(f"{label}: compiling (once after installing) or loading")):
            present = warm(name)
        told = f"ready in {time.perf_counter() - started:.1f} s" if present else "none to compile"
        console.print(f"{label}: {told}", highlight=False, markup=False, soft_wrap=True)
    console.print(
        f"Warm-up done in {time.perf_counter() - began:.1f} s: computer moves, hints and reviews "
        "start at once now.",
        highlight=False,
        soft_wrap=True,
    )
