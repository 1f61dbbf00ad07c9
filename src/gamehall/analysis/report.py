"""Reports of a run: ``report.md`` with PNG figures beside it, and ``report.html`` with the same
figures embedded (base64), so the HTML file travels alone.

Figures use matplotlib's Agg backend (no display). Every rate comes with its 95% Wilson interval,
every mean with its 95% normal interval.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from gamehall.analysis.stats import Proportion, mean_interval, proportion

MATCH_TARGETS = (12, 18, 24)
ENVIRONMENTS = ("forest", "sea", "mountain")


def _pyplot() -> Any:
    import matplotlib

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

    def text(self, text: str) -> None:
        self.items.append(text)

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        self.items.append(Table(list(headers), [[str(cell) for cell in row] for row in rows]))

    def figure(self, name: str, caption: str, fig: Any) -> None:
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
        _pyplot().close(fig)
        self.items.append(Figure(name, caption, buffer.getvalue()))


@dataclass
class Report:
    title: str
    summary: list[tuple[str, str]] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)

    def section(self, title: str) -> Section:
        section = Section(title)
        self.sections.append(section)
        return section

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
    if game_name == "akros":
        _akros_sections(report, rows, player_names)
    elif game_name == "acadmu":
        _acadmu_sections(report, rows)
    return report


def _none_for_nan(row: Mapping[str, Any]) -> dict[str, Any]:
    """pandas reads SQL NULLs in numeric columns as NaN; the report wants None."""
    return {k: (None if isinstance(v, float) and np.isnan(v) else v) for k, v in row.items()}


def _akros_sections(
    report: Report, rows: Sequence[Mapping[str, Any]], names: Sequence[str]
) -> None:
    n = len(rows)
    claims = report.section("Environments: who claims them")
    table = []
    shares: dict[str, list[float]] = {"jinn": [], "ifrit": [], "none": []}
    for env in ENVIRONMENTS:
        counts = Counter(r[f"{env}_claim"] for r in rows)
        cells = [env.capitalize()]
        for who in ("jinn", "ifrit", "none"):
            rate = proportion(counts.get(who, 0), n)
            shares[who].append(rate.rate if n else 0.0)
            cells.append(f"{rate.rate:.1%} [{rate.low:.1%}, {rate.high:.1%}]" if n else "n/a")
        table.append(cells)
    claims.table(["environment", "Jinn claims", "Ifrit claims", "unclaimed (tie)"], table)
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    bottom = np.zeros(len(ENVIRONMENTS))
    for who, colour in (("jinn", "#d62728"), ("ifrit", "#1f77b4"), ("none", "#bbbbbb")):
        ax.bar(
            [e.capitalize() for e in ENVIRONMENTS],
            shares[who],
            bottom=bottom,
            label=who,
            color=colour,
        )
        bottom += np.array(shares[who])
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games")
    ax.set_title("Who claims each environment")
    ax.legend()
    claims.figure(
        "fig-akros-claims.png", "Share of games in which each side claims each environment", fig
    )

    margins = report.section("Score margins")
    claim_margin = [r["claims_ifrit"] - r["claims_jinn"] for r in rows]
    score_margin = [r["score_ifrit"] - r["score_jinn"] for r in rows]
    margins.text(f"Claims margin (Ifrit − Jinn): {mean_interval(claim_margin)}.")
    margins.text(f"Summed environment score margin (Ifrit − Jinn): {mean_interval(score_margin)}.")
    margins.table(
        ["environment", "mean margin Ifrit − Jinn (95% CI)"],
        [
            [
                env.capitalize(),
                str(mean_interval([r[f"{env}_ifrit"] - r[f"{env}_jinn"] for r in rows])),
            ]
            for env in ENVIRONMENTS
        ],
    )
    margins.figure(
        "fig-akros-margins.png",
        "Score margin per environment (Ifrit − Jinn)",
        _histogram(
            [],
            "Environment score margins",
            "Ifrit − Jinn",
            series={
                env.capitalize(): [r[f"{env}_ifrit"] - r[f"{env}_jinn"] for r in rows]
                for env in ENVIRONMENTS
            },
        ),
    )

    removed = report.section("Removed tiles")
    jinn = [r["removed_jinn"] for r in rows]
    ifrit = [r["removed_ifrit"] for r in rows]
    removed.text(
        f"Tiles removed for want of a legal place, per game: Jinn {mean_interval(jinn)}; "
        f"Ifrit {mean_interval(ifrit)}. All tiles out of the game (the bag's unseen one "
        f"included): {mean_interval([r['removed_total'] for r in rows])}."
    )
    removed.figure(
        "fig-akros-removed.png",
        "Tiles each side had to remove per game",
        _histogram([], "Removed tiles per game", "tiles", series={"Jinn": jinn, "Ifrit": ifrit}),
    )

    decisions = report.section("Decisions per turn")
    per_turn = [json.loads(r["options_per_turn"]) for r in rows]
    turns = max((len(t) for t in per_turn), default=0)
    table = []
    means, forced = [], []
    for turn in range(turns):
        options = [o for t in per_turn for o in (t[turn] if turn < len(t) else [])]
        count = len(options) / n if n else 0.0
        mean = float(np.mean(options)) if options else 0.0
        share = sum(1 for o in options if o == 1) / len(options) if options else 0.0
        means.append(mean)
        forced.append(share)
        table.append([str(turn + 1), f"{count:.2f}", f"{mean:.2f}", f"{share:.1%}"])
    decisions.text("Per turn: decisions per game, mean legal actions per decision, forced share.")
    decisions.table(["turn", "decisions", "mean choices", "forced"], table)
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    ax.bar(range(1, turns + 1), means, color="#2ca02c")
    ax.set_xlabel("turn")
    ax.set_ylabel("mean legal actions per decision")
    ax.set_title("Choices per decision, by turn")
    ax.set_xticks(range(1, turns + 1))
    decisions.figure(
        "fig-akros-decisions.png", "Mean number of legal actions per decision, by turn", fig
    )


def match_lengths(points: Sequence[Sequence[int]], target: int) -> int | None:
    """How many rounds a match with these round points takes to reach ``target`` (None: the
    played match stopped before anyone got there)."""
    dark = light = 0
    for number, (d, lt) in enumerate(points, 1):
        dark += d
        light += lt
        if max(dark, light) >= target:
            return number
    return None


def _acadmu_sections(report: Report, rows: Sequence[Mapping[str, Any]]) -> None:
    rounds = []  # (first player's points minus the other's, length, passes)
    for r in rows:
        points = json.loads(r["round_points"])
        firsts = json.loads(r["round_first"])
        lengths = json.loads(r["round_lengths"])
        passes = json.loads(r["round_passes"])
        for p, f, length, np_ in zip(points, firsts, lengths, passes, strict=False):
            f = 0 if f is None else f
            rounds.append((p[f] - p[1 - f], length, np_, max(p)))
    n_rounds = len(rounds)

    scores = report.section("Round scores")
    won_points = Counter(r[3] for r in rounds)
    scores.text(
        f"{n_rounds} rounds in {len(rows)} matches. Points scored by a round's winner "
        "(0: equal counts):"
    )
    scores.table(
        ["points", "rounds", "share"],
        [[str(k), str(v), f"{v / n_rounds:.1%}"] for k, v in sorted(won_points.items())],
    )
    scores.figure(
        "fig-acadmu-round-scores.png",
        "Round score from the first player's side (first player's points − the other's)",
        _histogram([r[0] for r in rounds], "Round scores", "first player − second player"),
    )

    first = report.section("First-player advantage")
    decisive = [r for r in rounds if r[0] != 0]
    wins = sum(1 for r in decisive if r[0] > 0)
    rate = proportion(wins, len(decisive))
    ties = proportion(n_rounds - len(decisive), n_rounds)
    first.text(
        f"Rounds won by the player who moved first, among decisive rounds: {rate}. "
        f"Rounds with equal counts: {ties}."
    )
    first.text(f"Mean round score for the first player: {mean_interval([r[0] for r in rounds])}.")
    match_first = [json.loads(r["round_first"])[0] for r in rows if json.loads(r["round_first"])]
    match_rate = proportion(
        sum(1 for r, f in zip(rows, match_first, strict=False) if r["winner"] == f),
        len(match_first),
    )
    first.text(f"Matches won by the player who started round 1: {match_rate}.")
    first.figure(
        "fig-acadmu-first-player.png",
        "First player's share of decisive rounds and of matches (95% Wilson intervals)",
        _rate_bars(["rounds", "matches"], [rate, match_rate], "First-player advantage"),
    )

    length = report.section("Round length")
    first_lengths = [r[1] for r in rounds]
    length.text(f"Moves per round (passes included): {mean_interval(first_lengths)}.")
    length.figure(
        "fig-acadmu-round-length.png",
        "Moves per round",
        _histogram(first_lengths, "Round length", "moves"),
    )

    matches = report.section("Match length by target")
    played = max((r["target"] or 0 for r in rows), default=0)
    table = []
    series = {}
    for target in MATCH_TARGETS:
        needed = [match_lengths(json.loads(r["round_points"]), target) for r in rows]
        known = [x for x in needed if x is not None]
        if target > played or not known:
            table.append(
                [
                    str(target),
                    "n/a",
                    f"matches were played to {played}; rerun with "
                    f"--variant target={max(MATCH_TARGETS)}",
                ]
            )
            continue
        series[f"to {target}"] = known
        table.append([str(target), str(mean_interval(known)), f"{len(known)} matches"])
    matches.text(
        "Rounds needed to reach each target, derived from each match's round points "
        "(a match played to T shows every target up to T)."
    )
    matches.table(["target", "rounds (mean, 95% CI)", "note"], table)
    if series:
        matches.figure(
            "fig-acadmu-match-length.png",
            "Rounds needed to reach each target",
            _histogram([], "Match length", "rounds", series=series),
        )

    passes = report.section("Passes")
    per_game = [r["passes"] for r in rows]
    passes.text(
        f"Passes per match: {mean_interval(per_game)}; per round: "
        f"{mean_interval([r[2] for r in rounds])}. By Dark: "
        f"{sum(r['passes_dark'] for r in rows)}, by Light: "
        f"{sum(r['passes_light'] for r in rows)}. Captures by colour: "
        f"{sum(r['colour_captures'] for r in rows)}, by shape: "
        f"{sum(r['shape_captures'] for r in rows)}."
    )
    passes.figure(
        "fig-acadmu-passes.png",
        "Passes per round",
        _histogram([r[2] for r in rounds], "Passes per round", "passes"),
    )


# --- the exact-value report ----------------------------------------------------------------------


def exact_report(rows: Sequence[Mapping[str, Any]], *, tokens: int, seed: int) -> Report:
    """The perfect-play value of random deals: the first player's advantage."""
    values = [float(r["value"]) for r in rows]
    report = Report("gamehall analyze acadmu --exact: perfect-play value of random deals")
    report.summary = [
        ("deals", str(len(rows))),
        ("tokens a side", str(tokens)),
        ("seed", str(seed)),
        ("value", "round score for the first player (Dark, to move) under perfect play"),
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
