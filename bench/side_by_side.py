"""Run a bench on two versions of the code side by side, in one run, and compare its figures.

Usage::

    .venv/bin/python bench/side_by_side.py OLD NEW [--rounds N] [--raw] -- BENCH [ARGS...]

    .venv/bin/python bench/side_by_side.py 0906963 HEAD --rounds 3 -- move_cost.py
    .venv/bin/python bench/side_by_side.py 0906963 WORKTREE --rounds 3 -- \\
        load.py --paced --games 1000 --seconds 60 --warmup 60

OLD and NEW are commit-ishes; NEW may also be ``WORKTREE``: the working tree as it is, uncommitted
files included. Each commit is exported (``git archive``, which leaves the repository's worktree
list alone) into a temporary directory, removed at the end, also on failure or Ctrl-C; the same
commit given twice gets two trees, so both sides pay the same. BENCH is a script of ``bench/``
(``move_cost.py``, ``load.py``, or a path from the top of the tree), and each side runs its own
commit's copy of it on its own source: the same interpreter (``sys.executable``), environment
``PYTHONPATH=<tree>/src`` (it comes before the editable install's entry on ``sys.path``; each tree
checks which ``gamehall`` it imports), and the tree as the working directory. ``load.py``'s
servers are subprocesses with the same environment, so they run that tree's code too.

Before anything is measured each tree is byte-compiled and runs ``gamehall warm-up``, which
compiles the games' numba kernels into that tree's ``__pycache__`` (10-25 s on a quiet machine,
minutes on a loaded one; both trees at once, since nothing is measured yet): no round pays for
compiling. A warning is printed if a tree's ``pyproject.toml`` declares entry points (the games'
plugins) the editable install does not have, since those are read from the installed metadata.

The rounds alternate, old, new, old, new, ...: a shared machine's load drifts over minutes (other
jobs start and stop, caches and CPU frequency change), and running all of one side first would
charge that drift to the difference between the two. Interleaved, drift lands on both sides
alike, and the spread of each side's rounds shows how large the noise is.

The bench's standard output is captured (its standard error goes to the terminal as it runs) and
the figures it prints are read with named regular expressions for the benches known here
(``move_cost.py``: CPU per move, store transactions per action, messages; ``load.py``: moves/s,
latency p50 / p99 / mean / max, servers' and clients' CPU per move, for each ``--games`` count).
The report gives for every figure each side's median, each round's values and the ratio new/old,
then the date, the machine's load, the exact command lines, and Markdown table rows to paste into
a performance page. For a bench not known here (or with ``--raw``) it prints the raw outputs.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import math
import os
import re
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from types import FrameType

REPO = Path(__file__).resolve().parents[1]
WORKTREE = "WORKTREE"

NUM = r"[-+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+|nan|inf)"
"""A number as the benches print it (``f"{x:.1f}"``, ``f"{n}"``; ``nan`` when nothing counted)."""


# --- what the benches print ---------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """One named group of a line's pattern: what it is, its unit and how it is reported.

    ``kind`` is ``key`` (a figure the comparison is about: in the table and the rows to paste),
    ``figure`` (in the table) or ``context`` (in the table of context: counts, the load average)."""

    name: str
    unit: str = ""
    kind: str = "figure"


@dataclass(frozen=True)
class Line:
    """A line of a bench's report: a pattern (matched from the line's start) and its figures."""

    pattern: re.Pattern[str]
    figures: dict[str, Figure]


@dataclass(frozen=True)
class Bench:
    """How to read one bench's standard output.

    ``block`` starts a new block of the report (``load.py`` prints one per ``--games`` count):
    its group ``label`` names the figures after it. ``notes`` are lines shown as they are."""

    lines: list[Line]
    block: re.Pattern[str] | None = None
    block_label: str = "{label}"
    notes: list[re.Pattern[str]] = field(default_factory=list)


def line(pattern: str, **figures: Figure) -> Line:
    compiled = re.compile(pattern.replace("NUM", NUM))
    missing = set(figures) - set(compiled.groupindex)
    assert not missing, f"no group {missing} in {pattern}"
    return Line(compiled, figures)


BENCHES: dict[str, Bench] = {
    # bench/move_cost.py's run(): four lines, the third only where the hub counts its commits.
    "move_cost": Bench(
        lines=[
            line(
                r"(?P<games>\d+) games at once, (?P<moves>\d+) moves "
                r"\((?P<actions>\d+) actions with chance\) in (?P<wall>NUM) s",
                games=Figure("games at once", kind="context"),
                moves=Figure("moves", kind="context"),
                actions=Figure("actions (with chance)", kind="context"),
                wall=Figure("wall time", "s", "context"),
            ),
            line(r"CPU per move: (?P<cpu>NUM) ms", cpu=Figure("CPU per move", "ms", "key")),
            line(
                r"store transactions per action: (?P<commits>NUM)",
                commits=Figure("store transactions per action", kind="key"),
            ),
            line(
                r"messages sent: (?P<messages>NUM) per move, (?P<size>NUM) B each",
                messages=Figure("messages sent per move", kind="key"),
                size=Figure("message size", "B"),
            ),
        ]
    ),
    # bench/load.py's report(): one block per --games count, the latency, CPU and lag lines
    # only when moves were counted (CPU only with servers of its own, not --url).
    "load": Bench(
        block=re.compile(r"games: (?P<label>\d+) concurrent"),
        block_label="{label} games",
        lines=[
            line(
                r"games: (?P<games>\d+) concurrent to target \d+, .*?, (?P<servers>\d+) server "
                r"process\(es\).*, (?P<counted>NUM) s counted \((?P<cpus>\d+) CPUs, load average "
                r"(?P<load>NUM)\)",
                counted=Figure("seconds counted", "s", "context"),
                load=Figure("load average at the end", kind="context"),
            ),
            line(
                r"games started (?P<started>\d+), finished (?P<finished>\d+)",
                started=Figure("games started", kind="context"),
                finished=Figure("games finished", kind="context"),
            ),
            line(
                r"moves: (?P<moves>\d+), (?P<rate>NUM) moves/s",
                moves=Figure("moves counted", kind="context"),
                rate=Figure("moves/s", kind="key"),
            ),
            line(
                r"move latency: p50 (?P<p50>NUM) ms, p99 (?P<p99>NUM) ms, mean (?P<mean>NUM) ms, "
                r"max (?P<max>NUM) ms",
                p50=Figure("latency p50", "ms", "key"),
                p99=Figure("latency p99", "ms", "key"),
                mean=Figure("latency mean", "ms"),
                max=Figure("latency max", "ms"),
            ),
            line(
                r"CPU per move: servers (?P<server>NUM) ms, clients (?P<client>NUM) ms",
                server=Figure("servers' CPU per move", "ms", "key"),
                client=Figure("clients' CPU per move", "ms", "key"),
            ),
            line(
                r"client loop lag \(a 10 ms timer woken late\): p99 (?P<lag99>NUM) ms, "
                r"max (?P<lagmax>NUM) ms",
                lag99=Figure("client loop lag p99", "ms"),
                lagmax=Figure("client loop lag max", "ms"),
            ),
            line(
                r"errors: .*, failed games/connections: (?P<failed>\d+)",
                failed=Figure("failed games/connections"),
            ),
        ],
        notes=[re.compile(r"errors: "), re.compile(r"largest game count with p99")],
    ),
}


# --- the two sides --------------------------------------------------------------------------------


@dataclass
class Side:
    role: str
    """``old`` or ``new``."""
    spec: str
    """As given: a commit-ish or WORKTREE."""
    commit: str
    """The full hash (for WORKTREE, of HEAD)."""
    title: str
    """Short hash and subject, for the report (``+ uncommitted`` for WORKTREE)."""
    tree: Path = Path()
    module: str = ""
    """``gamehall.__file__`` as this side's interpreter imports it."""

    @property
    def short(self) -> str:
        return self.commit[:7] + (" + working tree" if self.spec == WORKTREE else "")


def git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(REPO), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def resolve(role: str, spec: str) -> Side:
    """The commit ``spec`` names (read-only git commands only)."""
    name = "HEAD" if spec == WORKTREE else spec
    try:
        commit = git("rev-parse", "--verify", "--quiet", f"{name}^{{commit}}")
    except subprocess.CalledProcessError:
        raise SystemExit(f"{role}: {spec!r} is not a commit") from None
    title = git("log", "-1", "--format=%h %s", commit)
    if spec == WORKTREE:
        changed = git("status", "--porcelain", "--untracked-files=no").splitlines()
        title += f" + the working tree ({len(changed)} tracked files changed)"
    return Side(role, spec, commit, title)


def export(side: Side, into: Path) -> None:
    """The tree of ``side``'s commit in ``into`` (WORKTREE: the repository itself)."""
    if side.spec == WORKTREE:
        side.tree = REPO
        return
    into.mkdir(parents=True)
    archive = subprocess.Popen(
        ["git", "-C", str(REPO), "archive", "--format=tar", side.commit], stdout=subprocess.PIPE
    )
    try:
        subprocess.run(["tar", "-x", "-C", str(into)], stdin=archive.stdout, check=True)
    finally:
        assert archive.stdout is not None
        archive.stdout.close()
        if archive.wait() != 0:
            raise SystemExit(f"git archive {side.commit} failed")
    side.tree = into


def environment(side: Side) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(side.tree / "src")
    env["PYTHONIOENCODING"] = "utf-8"  # load.py prints "–" and "≤", whatever the locale
    return env


# --- running ----------------------------------------------------------------------------------


def interrupted(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def leftover(pgid: int) -> None:
    """Stop what is left of the process group of a child we started (its own servers, had it
    left them running): SIGTERM, then SIGKILL. Nothing else can be in that group."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pgid, sig)
        except (ProcessLookupError, PermissionError):
            return
        note(f"stopped processes the bench left behind (group {pgid}, signal {sig})")
        time.sleep(1.0)


@dataclass
class Done:
    status: int
    out: str
    err: str
    seconds: float


def run_all(jobs: list[tuple[list[str], Side]], capture_stderr: bool = False) -> list[Done]:
    """Run each ``(command, side)`` at once, in the side's tree with its source first on the
    path, and wait for them all: their exit status, standard output and (if captured) error.

    Output goes to temporary files, not pipes, so no child can block on a full pipe. Each child
    gets a session of its own, so that a Ctrl-C here reaches it as one SIGINT (load.py then stops
    its servers) and whatever it leaves behind is stopped with its process group."""
    with contextlib.ExitStack() as stack:
        files = [
            (
                stack.enter_context(
                    tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")
                ),
                stack.enter_context(
                    tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")
                ),
            )
            for _ in jobs
        ]
        started = time.perf_counter()
        processes: list[subprocess.Popen[str]] = []
        try:
            for (command, side), (out, err) in zip(jobs, files, strict=True):
                processes.append(
                    subprocess.Popen(
                        command,
                        cwd=side.tree,
                        env=environment(side),
                        stdout=out,
                        stderr=err if capture_stderr else None,
                        start_new_session=True,
                    )
                )
            ended: dict[int, float] = {}
            while len(ended) < len(processes):  # each one's own time, whichever ends first
                for process in processes:
                    if process.pid not in ended and process.poll() is not None:
                        ended[process.pid] = time.perf_counter() - started
                if len(ended) < len(processes):
                    if len(processes) == 1:
                        processes[0].wait()
                    else:
                        time.sleep(0.2)
            seconds = [ended[process.pid] for process in processes]
        except BaseException:
            for process in processes:
                if process.poll() is None:
                    process.send_signal(signal.SIGINT)
            for process in processes:
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
            raise
        finally:
            for process in processes:
                leftover(process.pid)
        done = []
        for process, (out, err), taken in zip(processes, files, seconds, strict=True):
            out.seek(0)
            err.seek(0)
            done.append(Done(process.returncode, out.read(), err.read(), taken))
        return done


def run(command: list[str], side: Side, capture_stderr: bool = False) -> Done:
    """:func:`run_all` for one command."""
    return run_all([(command, side)], capture_stderr)[0]


def prepare(sides: list[Side]) -> None:
    """Check which gamehall each side imports, then byte-compile both trees and compile their
    kernels (``gamehall warm-up``), both sides at once: nothing is measured yet."""
    code = "import gamehall; print(gamehall.__file__)"
    for side in sides:
        done = run([sys.executable, "-c", code], side, capture_stderr=True)
        if done.status != 0:
            raise SystemExit(f"{side.role}: cannot import gamehall from {side.tree}:\n{done.err}")
        side.module = done.out.strip()
        if not Path(side.module).resolve().is_relative_to((side.tree / "src").resolve()):
            raise SystemExit(f"{side.role} imports {side.module}, not its own {side.tree / 'src'}")
        note(f"{side.role} {side.short}: gamehall is {side.module}")
    for side in sides:
        if differs := entry_points_differ(side):
            note(f"warning: {side.role}'s pyproject.toml declares {differs}")
    compile_all = [sys.executable, "-m", "compileall", "-q", "src", "bench"]
    run_all([(compile_all, side) for side in sides], capture_stderr=True)
    note("compiling the games' kernels in both trees (gamehall warm-up)")
    warm_up = [sys.executable, "-m", "gamehall.cli.app", "warm-up"]
    for side, done in zip(sides, run_all([(warm_up, s) for s in sides], True), strict=True):
        if done.status != 0:
            note(f"warning: {side.role}'s warm-up failed ({done.status}); its first round pays:")
            note(done.out + done.err)
        else:
            note(f"{side.role} {side.short}: warm-up done in {done.seconds:.1f} s")


def entry_points_differ(side: Side) -> str:
    """What the tree's ``pyproject.toml`` declares as entry points (the games' plugins, the
    ``gamehall`` script) that the installed metadata does not have: PYTHONPATH changes where
    modules come from, but entry points are still read from the editable install's metadata."""
    try:
        project = tomllib.loads((side.tree / "pyproject.toml").read_text())["project"]
        dist = metadata.distribution("gamehall")
    except (OSError, KeyError, tomllib.TOMLDecodeError, metadata.PackageNotFoundError):
        return ""
    declared = {("console_scripts", k, v) for k, v in project.get("scripts", {}).items()}
    for group, entries in project.get("entry-points", {}).items():
        declared |= {(group, k, v) for k, v in entries.items()}
    installed = {(e.group, e.name, e.value) for e in dist.entry_points}
    missing = sorted(declared - installed)
    if not missing:
        return ""
    return ", ".join(f"{g} {k} = {v}" for g, k, v in missing) + " (not installed)"


def note(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def bench_path(bench: str) -> Path:
    """``bench`` as a path from the top of the tree: a bare name is in bench/."""
    return Path(bench) if "/" in bench else Path("bench") / bench


# --- reading ----------------------------------------------------------------------------------


@dataclass
class Value:
    number: float
    text: str
    """As printed, for its number of decimals."""


@dataclass
class Run:
    side: Side
    round: int
    seconds: float
    status: int
    out: str
    values: dict[str, Value] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def number(text: str) -> float:
    return float(text.replace(",", ""))


def parse(bench: Bench, out: str) -> tuple[dict[str, Value], list[str], dict[str, Figure]]:
    """The figures of one run's output by key (``label: name`` within a block), its notes, and
    what each key is."""
    values: dict[str, Value] = {}
    kinds: dict[str, Figure] = {}
    notes: list[str] = []
    label = ""
    for raw in out.splitlines():
        text = raw.strip()
        if bench.block and (start := bench.block.match(text)):
            label = bench.block_label.format(**start.groupdict())
        if any(p.match(text) for p in bench.notes):
            notes.append(text)
        for pattern in bench.lines:
            if not (found := pattern.pattern.match(text)):
                continue
            for group, figure in pattern.figures.items():
                if found[group] is None:
                    continue
                key = f"{label}: {figure.name}" if label else figure.name
                values[key] = Value(number(found[group]), found[group])
                kinds[key] = figure
    return values, notes, kinds


# --- the report -------------------------------------------------------------------------------


def decimals(values: list[Value]) -> int:
    return max((len(v.text.partition(".")[2]) for v in values), default=0)


def show(x: float, places: int) -> str:
    return "–" if math.isnan(x) else f"{x:.{places}f}"


def middle(median: float, places: int) -> str:
    """A median as its values are printed, with one more decimal if it is between two of them
    (0.115 of 0.11 and 0.12 is neither 0.11 nor 0.12)."""
    exact = not math.isnan(median) and math.isclose(round(median, places), median, abs_tol=1e-9)
    return show(median, places if exact or math.isnan(median) else places + 1)


@dataclass
class Row:
    key: str
    figure: Figure
    old: list[Value]
    new: list[Value]

    def median(self, values: list[Value]) -> float:
        numbers = [v.number for v in values if not math.isnan(v.number)]
        return statistics.median(numbers) if numbers else math.nan

    @property
    def ratio(self) -> float:
        old, new = self.median(self.old), self.median(self.new)
        return new / old if old and not math.isnan(old) and not math.isnan(new) else math.nan

    @property
    def overlap(self) -> str:
        """Whether the two sides' ranges of rounds overlap (``yes``: no difference beyond the
        noise these rounds show)."""
        old = [v.number for v in self.old if not math.isnan(v.number)]
        new = [v.number for v in self.new if not math.isnan(v.number)]
        if not old or not new:
            return "–"
        return "yes" if max(old) >= min(new) and max(new) >= min(old) else "no"


def rows(runs: list[Run], kinds: dict[str, Figure]) -> list[Row]:
    order: list[str] = []
    for r in runs:
        order += [k for k in r.values if k not in order]
    return [
        Row(
            key,
            kinds[key],
            [r.values[key] for r in runs if r.side.role == "old" and key in r.values],
            [r.values[key] for r in runs if r.side.role == "new" and key in r.values],
        )
        for key in order
    ]


def table(title: str, chosen: list[Row]) -> None:
    if not chosen:
        return
    head = ["figure", "old median", "new median", "new/old", "overlap", "old rounds", "new rounds"]
    body = []
    for row in chosen:
        places = decimals(row.old + row.new)
        name = f"{row.key} ({row.figure.unit})" if row.figure.unit else row.key
        body.append(
            [
                name,
                middle(row.median(row.old), places),
                middle(row.median(row.new), places),
                show(row.ratio, 2),
                row.overlap,
                " ".join(v.text for v in row.old) or "–",
                " ".join(v.text for v in row.new) or "–",
            ]
        )
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
    right = {1, 2, 3}
    print(f"\n{title}")
    for r in [head, *body]:
        cells = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ]
        print("  " + "  ".join(cells).rstrip())


def command_line(side: Side, bench: list[str], relative: bool) -> str:
    """The command a side ran, as a shell line (``relative``: as the README writes them)."""
    python = Path(sys.executable)
    with contextlib.suppress(ValueError):
        python = python.relative_to(REPO) if relative else python
    script = bench_path(bench[0])
    line = shlex.join([str(python), str(script), *bench[1:]])
    if relative:
        return line
    return f"cd {shlex.quote(str(side.tree))} && PYTHONPATH={shlex.quote(str(side.tree / 'src'))} {line}"


def paste_rows(all_rows: list[Row], old: Side, new: Side, bench: list[str], rounds: int) -> None:
    if not any(row.figure.kind == "key" for row in all_rows):
        return
    day = datetime.date.today().isoformat()
    command = command_line(new, bench, relative=True)
    mine = [".venv/bin/python", "bench/side_by_side.py", old.spec, new.spec]
    ours = shlex.join([*mine, "--rounds", str(rounds), "--", *bench])
    print(
        f"\nto paste (Markdown; {day}, {rounds} round{'s' if rounds > 1 else ''} alternating, `{ours}`):\n"
    )
    print(f"| what | before (`{old.short}`) | after (`{new.short}`) | after/before | command |")
    print("|---|---|---|---|---|")
    same = False
    for row in all_rows:
        if row.figure.kind != "key":
            continue
        places = decimals(row.old + row.new)
        unit = f" {row.figure.unit}" if row.figure.unit else ""

        def cell(values: list[Value], median: float, places: int = places, unit: str = unit) -> str:
            listed = ", ".join(v.text for v in values) or "–"
            if len(values) > 1:
                listed += f" (median {middle(median, places)})"
            return listed + unit

        where = "same" if same else f"`{command}` ({day}, side by side)"
        same = True
        print(
            f"| {row.key} | {cell(row.old, row.median(row.old))} | "
            f"{cell(row.new, row.median(row.new))} | {show(row.ratio, 2)} | {where} |"
        )


def report(
    runs: list[Run],
    kinds: dict[str, Figure],
    sides: list[Side],
    bench: list[str],
    args: argparse.Namespace,
    known: Bench | None,
    started: datetime.datetime,
    loads: tuple[float, float],
    failure: str,
) -> None:
    old, new = sides
    print(
        f"side by side: {shlex.join(bench)}, {args.rounds} round{'s' if args.rounds > 1 else ''}, old then new in each"
    )
    print(
        f"date: {started:%Y-%m-%d %H:%M %Z}, {os.cpu_count()} CPUs, load average "
        f"{loads[0]:.1f} at the start, {loads[1]:.1f} at the end"
    )
    for side in sides:
        print(f"{side.role}: {side.title}")
        print(f"  gamehall from {side.module}")
        print(f"  {command_line(side, bench, relative=False)}")
    if failure:
        print(f"\nINCOMPLETE: {failure}")
    if args.raw or known is None or failure:
        for r in runs:
            print(f"\n--- round {r.round} {r.side.role} ({r.seconds:.1f} s, exit {r.status}) ---")
            print(r.out.rstrip())
    if known is None:
        print(f"\n(no figures read: {bench[0]} is not one of {', '.join(sorted(BENCHES))})")
        return
    for r in runs:
        if not r.values:
            print(f"\nnothing read from round {r.round} {r.side.role}'s output:\n{r.out.rstrip()}")
    found = rows(runs, kinds)
    table(
        "figures (median of the rounds; new/old of the medians; overlap: ranges meet)",
        [row for row in found if row.figure.kind != "context"],
    )
    table("context", [row for row in found if row.figure.kind == "context"])
    notes = [f"round {r.round} {r.side.role}: {n}" for r in runs for n in r.notes]
    if notes:
        print("\nnotes from the runs:")
        for n in notes:
            print(f"  {n}")
    paste_rows(found, old, new, bench, args.rounds)


# --- main -------------------------------------------------------------------------------------


def arguments(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        usage="%(prog)s OLD NEW [--rounds N] [--raw] -- BENCH [ARGS...]",
    )
    parser.add_argument("old", help="the commit before (a commit-ish)")
    parser.add_argument("new", help=f"the commit after (a commit-ish, or {WORKTREE})")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each side (3)")
    parser.add_argument("--raw", action="store_true", help="also print every run's raw output")
    if "--" not in argv:
        parser.error("give the bench after --, e.g. -- move_cost.py --games 50")
    cut = argv.index("--")
    args = parser.parse_args(argv[:cut])
    bench = argv[cut + 1 :]
    if not bench:
        parser.error("give the bench after --, e.g. -- move_cost.py --games 50")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.old == WORKTREE:
        parser.error(f"{WORKTREE} can only be NEW")
    return args, bench


@contextlib.contextmanager
def trees(sides: list[Side]) -> Iterator[None]:
    """Each side's tree, in a temporary directory removed when done."""
    with tempfile.TemporaryDirectory(prefix="side_by_side-") as tmp:
        for side in sides:
            export(side, Path(tmp) / side.role)
            note(f"{side.role}: {side.title} in {side.tree}")
        yield


def main() -> None:
    args, bench = arguments(sys.argv[1:])
    signal.signal(signal.SIGTERM, interrupted)
    known = BENCHES.get(Path(bench[0]).stem)
    sides = [resolve("old", args.old), resolve("new", args.new)]
    started = datetime.datetime.now().astimezone()
    load_start = os.getloadavg()[0]
    runs: list[Run] = []
    kinds: dict[str, Figure] = {}
    failure = ""
    with trees(sides):
        for side in sides:
            script = side.tree / bench_path(bench[0])
            if not script.is_file():
                raise SystemExit(
                    f"{side.role} ({side.short}) has no {script.relative_to(side.tree)}"
                )
        prepare(sides)
        try:
            for number in range(1, args.rounds + 1):
                for side in sides:  # old then new, every round: see the docstring
                    command = [sys.executable, str(bench_path(bench[0])), *bench[1:]]
                    note(f"round {number}/{args.rounds}, {side.role} {side.short}: running")
                    ran = run(command, side)
                    status, out, taken = ran.status, ran.out, ran.seconds
                    done = Run(side, number, taken, status, out)
                    if known:
                        done.values, done.notes, found = parse(known, out)
                        kinds.update(found)
                    runs.append(done)
                    note(
                        f"round {number}/{args.rounds}, {side.role} {side.short}: {taken:.1f} s, "
                        f"exit {status}, {len(done.values)} figures read"
                    )
                    if status != 0:
                        raise RuntimeError(f"round {number} {side.role} exited with {status}")
        except (RuntimeError, KeyboardInterrupt) as error:
            failure = str(error) or "interrupted"
    report(
        runs, kinds, sides, bench, args, known, started, (load_start, os.getloadavg()[0]), failure
    )
    if failure:
        sys.exit(1)


if __name__ == "__main__":
    main()
