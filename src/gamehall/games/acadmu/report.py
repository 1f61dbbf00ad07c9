"""Äcädmü's sections of a self-play report: round scores, the first player's advantage, round and
match lengths, and passes. Drawn by the report through the core's report protocol."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from gamehall.core.plugin import ReportBuilder

MATCH_TARGETS = (12, 18, 24)


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


def sections(
    report: ReportBuilder, rows: Sequence[Mapping[str, Any]], names: Sequence[str]
) -> None:
    """Add the Äcädmü sections to ``report`` (rows as the collector writes them)."""
    rounds = []  # (first player's points minus the other's, length, passes, winner's points)
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
    scores.histogram(
        "fig-round-scores.png",
        "Round score from the first player's side (first player's points − the other's)",
        {"": [r[0] for r in rounds]},
        title="Round scores",
        xlabel="first player − second player",
    )

    first = report.section("First-player advantage")
    decisive = [r for r in rounds if r[0] != 0]
    rate = report.proportion(sum(1 for r in decisive if r[0] > 0), len(decisive))
    ties = report.proportion(n_rounds - len(decisive), n_rounds)
    first.text(
        f"Rounds won by the player who moved first, among decisive rounds: {rate}. "
        f"Rounds with equal counts: {ties}."
    )
    first.text(
        f"Mean round score for the first player: {report.mean_interval([r[0] for r in rounds])}."
    )
    match_first = [json.loads(r["round_first"])[0] for r in rows if json.loads(r["round_first"])]
    match_rate = report.proportion(
        sum(1 for r, f in zip(rows, match_first, strict=False) if r["winner"] == f),
        len(match_first),
    )
    first.text(f"Matches won by the player who started round 1: {match_rate}.")
    first.rate_bars(
        "fig-first-player.png",
        "First player's share of decisive rounds and of matches (95% Wilson intervals)",
        {"rounds": rate, "matches": match_rate},
        title="First-player advantage",
    )

    length = report.section("Round length")
    lengths = [r[1] for r in rounds]
    length.text(f"Moves per round (passes included): {report.mean_interval(lengths)}.")
    length.histogram(
        "fig-round-length.png",
        "Moves per round",
        {"": lengths},
        title="Round length",
        xlabel="moves",
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
        table.append([str(target), str(report.mean_interval(known)), f"{len(known)} matches"])
    matches.text(
        "Rounds needed to reach each target, derived from each match's round points "
        "(a match played to T shows every target up to T)."
    )
    matches.table(["target", "rounds (mean, 95% CI)", "note"], table)
    if series:
        matches.histogram(
            "fig-match-length.png",
            "Rounds needed to reach each target",
            series,
            title="Match length",
            xlabel="rounds",
        )

    passes = report.section("Passes")
    per_game = [r["passes"] for r in rows]
    passes.text(
        f"Passes per match: {report.mean_interval(per_game)}; per round: "
        f"{report.mean_interval([r[2] for r in rounds])}. By Dark: "
        f"{sum(r['passes_dark'] for r in rows)}, by Light: "
        f"{sum(r['passes_light'] for r in rows)}. Captures by colour: "
        f"{sum(r['colour_captures'] for r in rows)}, by shape: "
        f"{sum(r['shape_captures'] for r in rows)}."
    )
    passes.histogram(
        "fig-passes.png",
        "Passes per round",
        {"": [r[2] for r in rounds]},
        title="Passes per round",
        xlabel="passes",
    )
