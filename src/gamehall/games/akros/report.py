"""Akros's sections of a self-play report: who claims each environment, the score margins,
removed tiles and the choices per turn. Drawn by the report through the core's report protocol."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

from gamehall.core.plugin import ReportBuilder
from gamehall.games.akros.metrics import ENVIRONMENTS


def sections(
    report: ReportBuilder, rows: Sequence[Mapping[str, Any]], names: Sequence[str]
) -> None:
    """Add the Akros sections to ``report`` (rows as the collector writes them)."""
    n = len(rows)
    claims = report.section("Environments: who claims them")
    table = []
    shares: dict[str, list[float]] = {"Jinn": [], "Ifrit": [], "unclaimed": []}
    for env in ENVIRONMENTS:
        counts = Counter(r[f"{env}_claim"] for r in rows)
        cells = [env.capitalize()]
        for who, label in (("jinn", "Jinn"), ("ifrit", "Ifrit"), ("none", "unclaimed")):
            rate = report.proportion(counts.get(who, 0), n)
            shares[label].append(rate.rate if n else 0.0)
            cells.append(f"{rate.rate:.1%} [{rate.low:.1%}, {rate.high:.1%}]" if n else "n/a")
        table.append(cells)
    claims.table(["environment", "Jinn claims", "Ifrit claims", "unclaimed (tie)"], table)
    claims.stacked_bars(
        "fig-claims.png",
        "Share of games in which each side claims each environment",
        [e.capitalize() for e in ENVIRONMENTS],
        shares,
        title="Who claims each environment",
        ylabel="share of games",
    )

    margins = report.section("Score margins")
    claim_margin = [r["claims_ifrit"] - r["claims_jinn"] for r in rows]
    score_margin = [r["score_ifrit"] - r["score_jinn"] for r in rows]
    margins.text(f"Claims margin (Ifrit − Jinn): {report.mean_interval(claim_margin)}.")
    margins.text(
        f"Summed environment score margin (Ifrit − Jinn): {report.mean_interval(score_margin)}."
    )
    per_environment = {
        env.capitalize(): [r[f"{env}_ifrit"] - r[f"{env}_jinn"] for r in rows]
        for env in ENVIRONMENTS
    }
    margins.table(
        ["environment", "mean margin Ifrit − Jinn (95% CI)"],
        [[env, str(report.mean_interval(values))] for env, values in per_environment.items()],
    )
    margins.histogram(
        "fig-margins.png",
        "Score margin per environment (Ifrit − Jinn)",
        per_environment,
        title="Environment score margins",
        xlabel="Ifrit − Jinn",
    )

    removed = report.section("Removed tiles")
    jinn = [r["removed_jinn"] for r in rows]
    ifrit = [r["removed_ifrit"] for r in rows]
    removed.text(
        f"Tiles removed for want of a legal place, per game: Jinn {report.mean_interval(jinn)}; "
        f"Ifrit {report.mean_interval(ifrit)}. All tiles out of the game (the bag's unseen one "
        f"included): {report.mean_interval([r['removed_total'] for r in rows])}."
    )
    removed.histogram(
        "fig-removed.png",
        "Tiles each side had to remove per game",
        {"Jinn": jinn, "Ifrit": ifrit},
        title="Removed tiles per game",
        xlabel="tiles",
    )

    decisions = report.section("Decisions per turn")
    per_turn = [json.loads(r["options_per_turn"]) for r in rows]
    turns = max((len(t) for t in per_turn), default=0)
    table = []
    means = []
    for turn in range(turns):
        options = [o for t in per_turn for o in (t[turn] if turn < len(t) else [])]
        count = len(options) / n if n else 0.0
        mean = fmean(options) if options else 0.0
        share = sum(1 for o in options if o == 1) / len(options) if options else 0.0
        means.append(mean)
        table.append([str(turn + 1), f"{count:.2f}", f"{mean:.2f}", f"{share:.1%}"])
    decisions.text("Per turn: decisions per game, mean legal actions per decision, forced share.")
    decisions.table(["turn", "decisions", "mean choices", "forced"], table)
    decisions.bars(
        "fig-decisions.png",
        "Mean number of legal actions per decision, by turn",
        [str(t) for t in range(1, turns + 1)],
        means,
        title="Choices per decision, by turn",
        xlabel="turn",
        ylabel="mean legal actions per decision",
    )
