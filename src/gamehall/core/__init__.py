"""The core game protocol that every game, player and front end builds on."""

from gamehall.core.agent import Agent
from gamehall.core.errors import (
    GamehallError,
    IllegalActionError,
    InvalidOptionError,
    InvalidStateError,
    NotationError,
    RecordError,
    TooManyOutcomesError,
    UnknownGameError,
)
from gamehall.core.game import CHANCE, TERMINAL, Action, Game, Option, Outcome, State
from gamehall.core.metrics import Collector
from gamehall.core.play import PlayedGame, play_game
from gamehall.core.plugin import Diagram, GamePlugin, Playthrough, Playthroughs
from gamehall.core.record import Record, Termination, make_record
from gamehall.core.registry import (
    find_game,
    find_plugin,
    game_class,
    game_names,
    plugins,
    register_plugin,
    unregister_plugin,
)
from gamehall.core.search import LevelOverride, Limit, Solution, Solver, ValueKind

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "Agent",
    "Collector",
    "Diagram",
    "Game",
    "GamePlugin",
    "GamehallError",
    "IllegalActionError",
    "InvalidOptionError",
    "InvalidStateError",
    "LevelOverride",
    "Limit",
    "NotationError",
    "Option",
    "Outcome",
    "PlayedGame",
    "Playthrough",
    "Playthroughs",
    "Record",
    "RecordError",
    "Solution",
    "Solver",
    "State",
    "Termination",
    "TooManyOutcomesError",
    "UnknownGameError",
    "ValueKind",
    "find_game",
    "find_plugin",
    "game_class",
    "game_names",
    "make_record",
    "play_game",
    "plugins",
    "register_plugin",
    "unregister_plugin",
]
