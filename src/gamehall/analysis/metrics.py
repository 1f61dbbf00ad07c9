"""What a finished self-play game tells us, as one flat row: the generic columns, and the game's
own through its plugin's collector (see :class:`gamehall.core.metrics.Collector`)."""

from __future__ import annotations

from gamehall.core import find_plugin
from gamehall.core.metrics import Collector, SQLType


def _collector_class(game_name: str) -> type[Collector]:
    return find_plugin(game_name).load_collector() or Collector


def collector_for(game_name: str) -> Collector:
    """A fresh collector for one game of ``game_name``."""
    return _collector_class(game_name)()


def metric_columns(game_name: str) -> dict[str, SQLType]:
    """The game-specific columns of ``game_name``'s rows."""
    return dict(_collector_class(game_name).columns)


__all__ = ["Collector", "collector_for", "metric_columns"]
