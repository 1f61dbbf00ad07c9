"""Reports of a run: ``report.md`` with PNG figures beside it, and ``report.html`` with the same
figures embedded (base64), so the HTML file travels alone.

Figures use matplotlib's Agg backend (no display). Every rate comes with its 95% Wilson interval,
every mean with its 95% normal interval.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from gamehall.analysis.stats import Proportion, mean_interval, proportion
from gamehall.core import GamehallError, find_plugin


def _pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend; a clear error when the ``analysis`` extra (which
    brings matplotlib) is not installed: playing does not need it."""
    try:
        import matplotlib
    except ImportError:
        raise GamehallError(
            "a report's figures need matplotlib, from the analysis extra: "
            "pip install -e '.[analysis]' (make test installs it)"
        ) from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


# --- a small document model: sections of text, tables and figures --------------------------------


@dataclass
class Figure:
    name: str
    caption: str
    png: bytes


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]


@dataclass
class Section:
    title: str
    items: list[str | Table | Figure] = field(default_factory=list)
    prefix: str = ""
    """Put before every figure's file name (a game's sections get the game's name)."""

    def text(self, text: str) -> None:
        self.items.append(text)

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        self.items.append(Table(list(headers), [[str(cell) for cell in row] for row in rows]))

    def figure(self, name: str, caption: str, fig: Any) -> None:
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
        _pyplot().close(fig)
        self.items.append(Figure(self.prefix + name, caption, buffer.getvalue()))

    # The figures a game's report hook may ask for (gamehall.core.plugin.ReportSection).

    def histogram(
        self,
        name: str,
        caption: str,
        series: Mapping[str, Sequence[float]],
        *,
        title: str,
        xlabel: str,
        discrete: bool = True,
    ) -> None:
        only = list(series) == [""]
        fig = _histogram(
            list(series[""]) if only else [],
            title,
            xlabel,
            discrete=discrete,
            series=None if only else series,
        )
        self.figure(name, caption, fig)

    def rate_bars(self, name: str, caption: str, rates: Mapping[str, Any], *, title: str) -> None:
        self.figure(name, caption, _rate_bars(list(rates), list(rates.values()), title))

    def stacked_bars(
        self,
        name: str,
        caption: str,
        categories: Sequence[str],
        stacks: Mapping[str, Sequence[float]],
        *,
        title: str,
        ylabel: str,
    ) -> None:
        plt = _pyplot()
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        bottom = np.zeros(len(categories))
        colours = [*plt.rcParams["axes.prop_cycle"].by_key()["color"][: len(stacks) - 1], "#bbbbbb"]
        for (label, values), colour in zip(stacks.items(), colours, strict=False):
            ax.bar(list(categories), list(values), bottom=bottom, label=label, color=colour)
            bottom += np.array(values, dtype=float)
        ax.set_ylim(0, 1)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.legend()
        self.figure(name, caption, fig)

    def bars(
        self,
        name: str,
        caption: str,
        labels: Sequence[str],
        heights: Sequence[float],
        *,
        title: str,
        xlabel: str,
        ylabel: str,
    ) -> None:
        plt = _pyplot()
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        ax.bar(list(labels), list(heights), color="#2ca02c")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        self.figure(name, caption, fig)


@dataclass
class Report:
    title: str
    summary: list[tuple[str, str]] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)

    figure_prefix: str = ""

    def section(self, title: str) -> Section:
        section = Section(title, prefix=self.figure_prefix)
        self.sections.append(section)
        return section

    # The statistics a game's report hook may ask for (gamehall.core.plugin.ReportBuilder).

    @staticmethod
    def proportion(successes: float, trials: int) -> Proportion:
        return proportion(successes, trials)

    @staticmethod
    def mean_interval(values: Sequence[float]) -> Any:
        return mean_interval(values)

    def figures(self) -> list[Figure]:
        return [item for s in self.sections for item in s.items if isinstance(item, Figure)]

    def markdown(self) -> str:
        lines = [f"# {self.title}", ""]
        lines += [f"- **{name}**: {value}" for name, value in self.summary]
        for section in self.sections:
            lines += ["", f"## {section.title}", ""]
            for item in section.items:
                if isinstance(item, Table):
                    lines.append("| " + " | ".join(item.headers) + " |")
                    lines.append("|" + "|".join("---" for _ in item.headers) + "|")
                    lines += ["| " + " | ".join(row) + " |" for row in item.rows]
                    lines.append("")
                elif isinstance(item, Figure):
                    lines += [f"![{item.caption}]({item.name})", "", f"*{item.caption}*", ""]
                else:
                    lines += [item, ""]
        return "\n".join(lines).rstrip() + "\n"

    def html(self) -> str:
        e = html.escape
        out = [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{e(self.title)}</title>",
            "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}"
            "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;"
            "padding:.2em .6em;text-align:right}th{background:#eee}img{max-width:100%}"
            "figcaption{font-style:italic}</style>",
            "</head><body>",
            f"<h1>{e(self.title)}</h1>",
            "<ul>",
        ]
        out += [f"<li><b>{e(name)}</b>: {e(value)}</li>" for name, value in self.summary]
        out.append("</ul>")
        for section in self.sections:
            out.append(f"<h2>{e(section.title)}</h2>")
            for item in section.items:
                if isinstance(item, Table):
                    out.append("<table><thead><tr>")
                    out += [f"<th>{e(h)}</th>" for h in item.headers]
                    out.append("</tr></thead><tbody>")
                    for row in item.rows:
                        out.append("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>")
                    out.append("</tbody></table>")
                elif isinstance(item, Figure):
                    data = base64.b64encode(item.png).decode("ascii")
                    out.append(
                        f'<figure><img alt="{e(item.caption)}" src="data:image/png;base64,{data}">'
                        f"<figcaption>{e(item.caption)}</figcaption></figure>"
                    )
                else:
                    out.append(f"<p>{e(item)}</p>")
        out.append("</body></html>")
        return "\n".join(out) + "\n"

    def write(self, directory: Path) -> dict[str, Path]:
        """Write report.md, report.html and the PNGs into ``directory``."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        written = {}
        for figure in self.figures():
            path = directory / figure.name
            path.write_bytes(figure.png)
            written[figure.name] = path
        (directory / "report.md").write_text(self.markdown(), encoding="utf-8")
        (directory / "report.html").write_text(self.html(), encoding="utf-8")
        written["report.md"] = directory / "report.md"
        written["report.html"] = directory / "report.html"
        return written


# --- plotting helpers ----------------------------------------------------------------------------


def _rate_bars(labels: Sequence[str], rates: Sequence[Proportion], title: str) -> Any:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    values = np.array([r.rate if r.trials else 0.0 for r in rates])
    low = np.clip(values - np.array([r.low for r in rates]), 0.0, None)
    high = np.clip(np.array([r.high for r in rates]) - values, 0.0, None)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    ax.bar(labels, values, yerr=[low, high], capsize=6, color=colours[: len(labels)])
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title(title)
    for x, v in enumerate(values):
        ax.annotate(
            f"{v:.1%}", (x, v), ha="center", va="bottom", xytext=(24, 2), textcoords="offset points"
        )
    return fig


def _histogram(
    values: Sequence[float], title: str, xlabel: str, *, discrete: bool = True, series: Any = None
) -> Any:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    groups = series if series is not None else {"": values}
    for label, data in groups.items():
        data = np.asarray(list(data), dtype=float)
        if data.size == 0:
            continue
        if discrete:
            low, high = int(np.floor(data.min())), int(np.ceil(data.max()))
            bins = np.arange(low - 0.5, high + 1.5, 1.0)
        else:
            bins = min(40, max(5, int(np.sqrt(data.size)) + 1))
        ax.hist(
            data,
            bins=bins,
            alpha=0.7 if series is not None else 1.0,
            label=label or None,
            edgecolor="black",
            linewidth=0.5,
        )
    if series is not None:
        ax.legend()
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("count")
    return fig


def _rate_row(name: str, rate: Proportion) -> list[str]:
    return [
        name,
        f"{rate.successes:g}/{rate.trials}",
        f"{rate.rate:.1%}" if rate.trials else "n/a",
        f"[{rate.low:.1%}, {rate.high:.1%}]",
    ]


RATE_HEADERS = ["", "score/games", "rate", "95% interval"]


def _score(rows: Sequence[Mapping[str, Any]], won: Any) -> tuple[float, int]:
    """Wins plus half the draws, and the number of games."""
    score = 0.0
    for row in rows:
        if row["winner"] is None:
            score += 0.5
        elif won(row):
            score += 1.0
    return score, len(rows)


# --- the self-play report ------------------------------------------------------------------------


def selfplay_report(
    rows: Sequence[Mapping[str, Any]],
    *,
    game_name: str,
    player_names: Sequence[str],
    players: Sequence[str],
    seed: int,
    variant: str = "",
) -> Report:
    """The report of a self-play run (rows as stored in the ``games`` table)."""
    rows = [_none_for_nan(row) for row in rows]
    report = Report(f"gamehall analyze {game_name}: {players[0]} (A) vs {players[1]} (B)")
    report.summary = [
        ("game", game_name + (f" ({variant})" if variant else "")),
        ("players", f"A = {players[0]}, B = {players[1]} (A takes seat 0 in even games)"),
        ("games", str(len(rows))),
        ("seed", str(seed)),
    ]
    results = report.section("Results")
    a = proportion(*_score(rows, lambda r: r["winner_side"] == "A"))
    b = proportion(*_score(rows, lambda r: r["winner_side"] == "B"))
    seat0 = proportion(*_score(rows, lambda r: r["winner"] == 0))
    seat1 = proportion(*_score(rows, lambda r: r["winner"] == 1))
    draws = sum(1 for r in rows if r["winner"] is None)
    results.text(
        "Win rates per player and per seat, with 95% Wilson intervals; a draw counts half "
        f"({draws} draws)."
    )
    results.table(
        RATE_HEADERS,
        [
            _rate_row(f"A ({players[0]})", a),
            _rate_row(f"B ({players[1]})", b),
            _rate_row(f"{player_names[0]} (seat 0)", seat0),
            _rate_row(f"{player_names[1]} (seat 1)", seat1),
        ],
    )
    results.figure(
        "fig-win-rates.png",
        "Win rates per player and per seat (95% Wilson intervals)",
        _rate_bars(
            [f"A {players[0]}", f"B {players[1]}", player_names[0], player_names[1]],
            [a, b, seat0, seat1],
            "Win rates",
        ),
    )
    length = mean_interval([r["decisions"] for r in rows])
    results.text(
        f"Decisions per game: {length}; forced (one legal action): "
        f"{sum(r['forced'] for r in rows)} of {sum(r['decisions'] for r in rows)}."
    )
    hook = find_plugin(game_name).load_report()
    if hook is not None:
        report.figure_prefix = f"fig-{game_name}-"
        hook(report, rows, player_names)
        report.figure_prefix = ""
    return report


def _none_for_nan(row: Mapping[str, Any]) -> dict[str, Any]:
    """pandas reads SQL NULLs in numeric columns as NaN; the report wants None."""
    return {k: (None if isinstance(v, float) and np.isnan(v) else v) for k, v in row.items()}


# --- the exact-value report ----------------------------------------------------------------------


def exact_report(
    rows: Sequence[Mapping[str, Any]], *, game_name: str, size: int | None, seed: int, unit: str
) -> Report:
    """The perfect-play value of random deals: the first player's advantage."""
    values = [float(r["value"]) for r in rows]
    report = Report(f"gamehall analyze {game_name} --exact: perfect-play value of random deals")
    report.summary = [
        ("deals", str(len(rows))),
        ("size", "full" if size is None else str(size)),
        ("seed", str(seed)),
        ("value", f"{unit}, for the player to move first, under perfect play"),
    ]
    section = report.section("First-player advantage under perfect play")
    section.text(f"Mean value: {mean_interval(values)}.")
    n = len(values)
    section.table(
        RATE_HEADERS,
        [
            _rate_row("first player wins", proportion(sum(1 for v in values if v > 0), n)),
            _rate_row("equal counts", proportion(sum(1 for v in values if v == 0), n)),
            _rate_row("second player wins", proportion(sum(1 for v in values if v < 0), n)),
        ],
    )
    inexact = sum(1 for r in rows if not r.get("exact", 1))
    if inexact:
        section.text(f"Warning: {inexact} values are not proven exact (time limit).")
    section.figure(
        "fig-exact-values.png",
        "Perfect-play value of each deal (first player's side)",
        _histogram(values, "Perfect-play values", "value for the first player"),
    )
    return report
