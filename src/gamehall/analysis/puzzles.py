"""Puzzles: positions with exactly one best move, found in self-play and in (reviewed) records.

A position makes a puzzle when the solver settles it and every one of its moves within the
per-position budget, and exactly one move is best while every other move costs the player at
least the game's puzzle margin (:attr:`~gamehall.core.search.Judgement.puzzle_margin`, in the
solver's unit: the plugin says how much). Every alternative is solved exactly, so the answer is
unique by proof, not by estimate. A puzzle keeps its solution line (the answer, then perfect play
as far as the solver follows it), the value, each alternative's exact value and where it came from.

Positions come from records given (a reviewed record's mistakes and blunders first: where a
player went wrong there was something to find) and then from seeded self-play.

**Storage** (:class:`PuzzleStore`): one JSON Lines file per game, ``<dir>/<game>.jsonl``, by
default in the user's data directory (``platformdirs.user_data_dir("gamehall")/puzzles``). Each
line is one :class:`Puzzle` (:meth:`Puzzle.to_json`) with a stable ``id`` (a hash of the game, its
variant and the position), so adding the same position twice keeps one. A server can load a
game's file, offer :meth:`Puzzle.public` (no answer) and check an answer with
:meth:`Puzzle.check`, which goes through the game's checked door (the move is parsed and must
be legal).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamehall.ai import make_agent
from gamehall.ai.evaluation import Analyst, json_number
from gamehall.ai.review import Annotation
from gamehall.core import Game, GamehallError, Record, State, find_plugin, game_class, play_game
from gamehall.core.search import Value

DEFAULT_SECONDS = 3.0
"""The default time to settle one candidate position and all its moves."""
HARD_VERDICTS = ("blunder", "mistake")
"""Where a reviewed record's player went wrong: those positions are tried first."""


@dataclass(frozen=True)
class Puzzle:
    """One stored puzzle (see the module docstring). Values are from the mover's side."""

    id: str
    game: str
    tags: dict[str, str]
    """The game's record tags (rules version, variant or board), to rebuild the game."""
    position: str
    to_move: str
    answer: str
    line: list[str]
    """The answer, then perfect play as far as the solver followed it."""
    value: Any
    """The exact value with the answer (a number, or an exact fraction's text)."""
    margin: Any
    """What the best alternative costs (at least the game's puzzle margin)."""
    alternatives: dict[str, Any] = field(default_factory=dict)
    """Every other move and its exact value."""
    source: str = ""

    def game_instance(self) -> Game:
        cls = game_class(self.game)
        version = self.tags.get("RulesVersion")
        if version is not None and version != cls.rules_version:
            raise GamehallError(
                f"puzzle {self.id} was made under {self.game} rules version {version!r}; "
                f"this gamehall plays version {cls.rules_version!r}"
            )
        return cls.from_record_tags(self.tags)

    def state(self) -> State:
        return self.game_instance().parse_state(self.position)

    def check(self, move: str) -> bool:
        """Whether ``move`` (notation, checked: it must parse and be legal) is the answer."""
        state = self.state()
        return state.parse_action(move) == state.parse_action(self.answer)

    def public(self) -> dict[str, Any]:
        """What a player is shown before answering."""
        return {
            "id": self.id,
            "game": self.game,
            "position": self.position,
            "to_move": self.to_move,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "tags": self.tags,
            "position": self.position,
            "to_move": self.to_move,
            "answer": self.answer,
            "line": self.line,
            "value": self.value,
            "margin": self.margin,
            "alternatives": self.alternatives,
            "source": self.source,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        try:
            return cls(
                id=str(data["id"]),
                game=str(data["game"]),
                tags={str(k): str(v) for k, v in dict(data["tags"]).items()},
                position=str(data["position"]),
                to_move=str(data["to_move"]),
                answer=str(data["answer"]),
                line=[str(a) for a in data["line"]],
                value=data["value"],
                margin=data["margin"],
                alternatives=dict(data.get("alternatives", {})),
                source=str(data.get("source", "")),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise GamehallError(f"not a stored puzzle: {error}") from None


def puzzle_id(game: Game, position: str) -> str:
    """A stable id: the game, its variant and the position, hashed."""
    key = json.dumps([game.name, game.record_tags(), position], sort_keys=True)
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def examine(analyst: Analyst, state: State, seconds: float, source: str = "") -> Puzzle | None:
    """The puzzle ``state`` makes, or None: when it has fewer than two moves, when the solver does
    not settle it and every move within ``seconds``, or when a second move comes within the
    game's puzzle margin of the best."""
    judgement = analyst.judgement
    if judgement is None or analyst.solver is None:
        raise GamehallError(f"{state.game.name} has no exact solver and puzzle margin")
    if state.current_player < 0:
        return None
    legal = state.legal_actions()
    if len(legal) < 2:
        return None
    deadline = time.perf_counter() + seconds
    mover = state.current_player
    root = analyst.solve(state, deadline - time.perf_counter(), best="one")
    if root is None or not root.exact or root.move is None:
        return None
    value = root.value_for(mover)
    assert value is not None
    answer = root.move
    alternatives: dict[str, Value] = {}
    for action in legal:
        if action == answer:
            continue
        left = deadline - time.perf_counter()
        if left <= 0:
            return None
        solution = analyst.solve(state.apply_trusted(action), left)
        if solution is None or solution.value_for(mover) is None:
            return None
        other = solution.value_for(mover)
        assert other is not None
        if value - other < judgement.puzzle_margin:
            return None
        alternatives[str(action)] = other
    after = state.apply_trusted(answer)
    line = (answer, *analyst.line(after, max(deadline, time.perf_counter() + 0.5)))
    margin = min(value - v for v in alternatives.values())
    position = str(state)
    return Puzzle(
        id=puzzle_id(state.game, position),
        game=state.game.name,
        tags={"RulesVersion": state.game.rules_version, **state.game.record_tags()},
        position=position,
        to_move=state.player_name(mover),
        answer=str(answer),
        line=[str(a) for a in line],
        value=json_number(value),
        margin=json_number(margin),
        alternatives={a: json_number(v) for a, v in alternatives.items()},
        source=source,
    )


Candidate = tuple[State, str, str]
"""A position to examine, where it came from, and the game it is from (at most ``per_game``
puzzles come from one game: the positions of one game's puzzles would share their lines)."""


def record_candidates(record: Record, label: str) -> list[Candidate]:
    """A record's decisions; where it carries review annotations, the positions before its
    blunders and mistakes first."""
    states = record.replay()
    first: list[Candidate] = []
    rest: list[Candidate] = []
    for number, state in enumerate(states[:-1], 1):
        if state.current_player < 0:
            continue
        comment = record.comments.get(number)
        note = Annotation.parse(comment) if comment else None
        item = (state, f"{label}, before move {number}", label)
        (first if note is not None and note.verdict in HARD_VERDICTS else rest).append(item)
    return first + rest


def selfplay_candidates(
    game: Game, players: Sequence[str], seed: int, games: int
) -> Iterator[Candidate]:
    """The decisions of ``games`` seeded self-play games (sides alternating)."""
    for index in range(games):
        names = list(players) if index % 2 == 0 else list(reversed(players))
        game_seed = seed * 1_000_003 + index
        agents = [make_agent(name, game_seed + 17 * (seat + 1)) for seat, name in enumerate(names)]
        played = play_game(game, agents, seed=game_seed)
        label = f"self-play {'-'.join(names)} seed {game_seed}"
        for number, state in enumerate(played.states[:-1], 1):
            if state.current_player >= 0:
                yield state, f"{label}, before move {number}", label


def find_puzzles(
    game: Game,
    count: int,
    candidates: Iterable[Candidate],
    *,
    seconds: float = DEFAULT_SECONDS,
    per_game: int = 1,
    known: Iterable[str] = (),
    on_examined: Callable[[int, int], None] | None = None,
) -> list[Puzzle]:
    """Up to ``count`` new puzzles from ``candidates`` (ids in ``known`` are skipped; at most
    ``per_game`` from one game), each position given ``seconds`` to settle.
    ``on_examined(examined, found)`` is told of progress."""
    analyst = Analyst(game.name)
    analyst.warm_up()
    seen = set(known)
    found: list[Puzzle] = []
    examined = 0
    from_game: dict[str, int] = {}
    for state, source, group in candidates:
        if len(found) >= count:
            break
        if state.current_player < 0 or from_game.get(group, 0) >= per_game:
            continue
        key = puzzle_id(state.game, str(state))
        if key in seen:
            continue
        seen.add(key)
        puzzle = examine(analyst, state, seconds, source)
        examined += 1
        if puzzle is not None:
            found.append(puzzle)
            from_game[group] = from_game.get(group, 0) + 1
        if on_examined is not None:
            on_examined(examined, len(found))
    return found


def parse_puzzles(text: str, where: str) -> list[Puzzle]:
    """The puzzles of a JSON Lines text (a store's file, or a game's starter set); a line that
    is not a puzzle raises GamehallError naming ``where`` and the line."""
    puzzles = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            puzzles.append(Puzzle.from_json(json.loads(line)))
        except (json.JSONDecodeError, GamehallError) as error:
            raise GamehallError(f"{where}, line {number}: {error}") from None
    return puzzles


def starter_puzzles(game: str) -> list[Puzzle]:
    """The small set of puzzles a game ships in its package (its plugin's ``starter_puzzles``),
    so a fresh install has puzzles to offer; none when the game ships none."""
    plugin = find_plugin(game)
    text = plugin.resource_text(plugin.starter_puzzles)
    if text is None:
        return []
    return parse_puzzles(text, f"{plugin.package}/{plugin.starter_puzzles}")


class PuzzleStore:
    """Puzzles kept as one JSON Lines file per game in ``directory`` (see the module docstring)."""

    def __init__(self, directory: Path | None = None) -> None:
        if directory is None:
            from platformdirs import user_data_dir

            directory = Path(user_data_dir("gamehall")) / "puzzles"
        self.directory = directory

    def path(self, game: str) -> Path:
        return self.directory / f"{game}.jsonl"

    def load(self, game: str) -> list[Puzzle]:
        """Every stored puzzle of ``game`` (none when there is no file yet)."""
        path = self.path(game)
        if not path.exists():
            return []
        return parse_puzzles(path.read_text(encoding="utf-8"), str(path))

    def get(self, game: str, puzzle: str) -> Puzzle:
        for stored in self.load(game):
            if stored.id == puzzle:
                return stored
        raise GamehallError(f"no {game} puzzle {puzzle!r} in {self.path(game)}")

    def add(self, puzzles: Iterable[Puzzle]) -> int:
        """Append the puzzles not stored yet; how many were new."""
        added = 0
        by_game: dict[str, list[Puzzle]] = {}
        for puzzle in puzzles:
            by_game.setdefault(puzzle.game, []).append(puzzle)
        for game, items in by_game.items():
            known = {p.id for p in self.load(game)}
            fresh = []
            for puzzle in items:
                if puzzle.id not in known:
                    known.add(puzzle.id)
                    fresh.append(puzzle)
            if not fresh:
                continue
            self.directory.mkdir(parents=True, exist_ok=True)
            with self.path(game).open("a", encoding="utf-8") as out:
                for puzzle in fresh:
                    out.write(json.dumps(puzzle.to_json(), ensure_ascii=False) + "\n")
            added += len(fresh)
        return added


__all__ = [
    "Puzzle",
    "PuzzleStore",
    "examine",
    "find_puzzles",
    "parse_puzzles",
    "puzzle_id",
    "record_candidates",
    "selfplay_candidates",
    "starter_puzzles",
]
