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

from gamehall.analysis.selfplay import RunSpec, game_seed, play_one
from gamehall.analysis.stats import bradley_terry, mean_interval, proportion, wilson_interval

__all__ = [
    "RunSpec",
    "bradley_terry",
    "game_seed",
    "mean_interval",
    "play_one",
    "proportion",
    "wilson_interval",
]
