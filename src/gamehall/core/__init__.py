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
from gamehall.core.play import PlayedGame, play_game
from gamehall.core.record import Record, make_record
from gamehall.core.registry import find_game, game_class, game_names, register_game

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "Agent",
    "Game",
    "GamehallError",
    "IllegalActionError",
    "InvalidOptionError",
    "InvalidStateError",
    "NotationError",
    "Option",
    "Outcome",
    "PlayedGame",
    "Record",
    "RecordError",
    "State",
    "TooManyOutcomesError",
    "UnknownGameError",
    "find_game",
    "game_class",
    "game_names",
    "make_record",
    "play_game",
    "register_game",
]
