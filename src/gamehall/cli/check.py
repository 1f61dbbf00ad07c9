"""``gamehall check-game NAME``: gamehall's checks on any registered game, one line per check.

The conformance checks (every promise of the core protocol), the golden playthrough if the game
declares one, and the research adapters' own checkers (PettingZoo, Gymnasium, OpenSpiel) when
the ``rl`` extra is installed and the game offers them: :mod:`gamehall.testing`, the kit a game's
author also runs from their own tests. ``--regen`` first writes the golden playthrough from how
the game plays now (after a deliberate change; read the diff). Exit status 0 when every check
passes, 1 when one fails (with a one-line error naming them), 2 for bad input.

``register(app)`` adds the command.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console

from gamehall.core import GamehallError, find_plugin
from gamehall.testing import CheckResult, all_checks, research_unavailable
from gamehall.testing.playthrough import write_playthrough

err_console = Console(stderr=True)
STATUS = {"ok": "ok", "fail": "FAIL", "skip": "skip"}


def register(app: typer.Typer) -> None:
    app.command("check-game")(check_game)


def _status(result: CheckResult) -> str:
    if result.skipped is not None:
        return "skip"
    return "ok" if result.ok else "fail"


def _line(result: CheckResult) -> str:
    status = _status(result)
    text = f"{STATUS[status]:<4}  {result.kind:<11}  {result.name}"
    if status == "skip":
        return f"{text}: {result.skipped}"
    if status == "ok":
        return text
    first, *rest = (result.error or "").splitlines() or [""]
    return "\n".join([f"{text}: {first}", *(f"      {line}" for line in rest)])


def check_game(
    game_name: Annotated[str, typer.Argument(help="The game (`gamehall games` lists them).")],
    regen: Annotated[
        bool,
        typer.Option(
            "--regen",
            help="First write the game's golden playthrough file from how it plays now "
            "(after a deliberate change: read the diff, change rules_version).",
        ),
    ] = False,
    research: Annotated[
        bool,
        typer.Option(
            "--research/--no-research",
            help="Run the research adapters' checkers (with the rl extra installed).",
        ),
    ] = True,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON: every check with its status and message.")
    ] = False,
) -> None:
    """Run gamehall's checks on a game: conformance, golden playthrough, research adapters.

    One line per check; exit status 1 if any fails. A game's author runs the same checks from
    their own tests with gamehall.testing (check_game, GameConformance)."""
    plugin = find_plugin(game_name)
    name = plugin.name
    regenerated: dict[str, Any] | None = None
    if regen:
        if plugin.playthrough is None:
            raise GamehallError(
                f"{name} declares no golden playthrough: add playthrough=Playthroughs(FILE) to "
                "its plugin record (gamehall.core.plugin) to have one written"
            )
        path, changed = write_playthrough(name)
        regenerated = {"file": str(path), "changed": changed}
        if not as_json:
            typer.echo(f"{path}: {'rewritten' if changed else 'unchanged'}")
    results: list[CheckResult] = []
    for check in all_checks(name, research=research):
        with err_console.status(f"{name}: {check.name}…"):
            result = check.result()
        results.append(result)
        if not as_json:
            typer.echo(_line(result))
    unavailable = research_unavailable(name) if research else None
    if unavailable is not None:
        results.append(CheckResult("research", "research adapters", skipped=unavailable))
        if not as_json:
            typer.echo(_line(results[-1]))
    failed = [r for r in results if _status(r) == "fail"]
    ran = [r for r in results if _status(r) != "skip"]
    if as_json:
        payload: dict[str, Any] = {
            "game": name,
            "ok": not failed,
            "passed": len(ran) - len(failed),
            "failed": len(failed),
            "skipped": len(results) - len(ran),
            "checks": [
                {
                    "kind": r.kind,
                    "name": r.name,
                    "status": _status(r),
                    "message": r.error if r.skipped is None else r.skipped,
                    "seconds": round(r.seconds, 3),
                }
                for r in results
            ],
        }
        if regenerated is not None:
            payload["regenerated"] = regenerated
        typer.echo(json.dumps(payload))
    elif not failed:
        typer.echo(f"{name}: all {len(ran)} checks passed")
    if failed:
        names = "; ".join(f"{r.kind}: {r.name}" for r in failed)
        err_console.print(
            f"error: {name} fails {len(failed)} of {len(ran)} checks: {names}",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )
        raise typer.Exit(1)


__all__ = ["check_game", "register"]
