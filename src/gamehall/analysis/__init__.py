"""Self-play analysis: reproducible runs on any number of cores (or a Dask cluster), their
statistics, reports, tournaments and exact values.

* :mod:`~gamehall.analysis.stats`: Wilson intervals, means, Bradley–Terry / Elo (pure);
* :mod:`~gamehall.analysis.metrics`: what each finished game tells us, as a flat row (pure);
* :mod:`~gamehall.analysis.selfplay`: seeds, playing games, running tasks on workers;
* :mod:`~gamehall.analysis.store`: the SQLite file of a run (resume);
* :mod:`~gamehall.analysis.report`: report.md / report.html with matplotlib figures;
* :mod:`~gamehall.analysis.tournament`: round robins; :mod:`~gamehall.analysis.exact`: solved deals.

``store`` and ``report`` write files; the command line (``gamehall.cli.analysis``) drives them.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "RunSpec": "selfplay",
    "game_seed": "selfplay",
    "play_one": "selfplay",
    "bradley_terry": "stats",
    "mean_interval": "stats",
    "proportion": "stats",
    "wilson_interval": "stats",
}
"""Where each name lives: imported when first asked for, so importing one module of the package
(the web server's puzzle store, say) does not import self-play and its compiled simulators
(numba: a third of a second of the server's start)."""


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = [
    "RunSpec",
    "bradley_terry",
    "game_seed",
    "mean_interval",
    "play_one",
    "proportion",
    "wilson_interval",
]
