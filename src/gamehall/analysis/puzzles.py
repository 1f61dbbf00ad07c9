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
import math
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from gamehall.ai import make_agent
from gamehall.ai.evaluation import Analyst, json_number
from gamehall.ai.review import Annotation
from gamehall.core import (
    CHANCE,
    Action,
    Game,
    GamehallError,
    Record,
    State,
    find_plugin,
    game_class,
    play_game,
)
from gamehall.core.search import Value

DEFAULT_SECONDS = 3.0
"""The default time to settle one candidate position and all its moves."""
LINE_PLIES = 12
"""The longest solution line kept."""
REFUTATION_PLIES = 6
"""The longest refutation kept (the moves after a wrong answer)."""
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
    refutations: dict[str, list[str]] = field(default_factory=dict)
    """For each other move, how the opponent punishes it: perfect play after it, as far as the
    solver follows it and never past a chance draw (what is drawn is not the opponent's)."""

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
            "refutations": self.refutations,
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
                refutations={
                    str(k): [str(a) for a in v]
                    for k, v in dict(data.get("refutations", {})).items()
                },
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
    line = (answer, *decided_line(analyst, after, max(deadline, time.perf_counter() + 0.5)))
    refutations: dict[str, list[str]] = {}
    for action in legal:
        if action != answer:
            wrong = state.apply_trusted(action)
            reply = decided_line(analyst, wrong, time.perf_counter() + 0.3, REFUTATION_PLIES)
            refutations[str(action)] = [str(a) for a in reply]
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
        refutations=refutations,
    )


def decided_line(
    analyst: Analyst, state: State, deadline: float, limit: int = LINE_PLIES
) -> tuple[Action, ...]:
    """Perfect play from ``state`` (:meth:`Analyst.line`) up to the first chance draw: what is
    drawn is nobody's choice, so a line never shows one draw as if it were forced."""
    line = []
    for action in analyst.line(state, deadline, limit):
        if state.current_player == CHANCE:
            break
        line.append(action)
        state = state.apply_trusted(action)
    return tuple(line)


def stops_at_draw(state: State, line: Sequence[str]) -> bool:
    """Whether ``line`` (notation, legal from ``state``) ends where chance draws next."""
    for text in line:
        state = state.apply_trusted(state.parse_action(text))
    return state.current_player == CHANCE


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
    game: Game, players: Sequence[str], seed: int, games: int, start: int = 0
) -> Iterator[Candidate]:
    """The decisions of the seeded self-play games ``start`` to ``games - 1`` (sides alternating),
    each game's in a seeded random order, so the puzzles of one game come from all of it."""
    for index in range(start, games):
        names = list(players) if index % 2 == 0 else list(reversed(players))
        game_seed = seed * 1_000_003 + index
        agents = [make_agent(name, game_seed + 17 * (seat + 1)) for seat, name in enumerate(names)]
        played = play_game(game, agents, seed=game_seed)
        label = f"self-play {'-'.join(names)} seed {game_seed}"
        decisions = [
            (number, state)
            for number, state in enumerate(played.states[:-1], 1)
            if state.current_player >= 0
        ]
        random.Random(game_seed).shuffle(decisions)
        for number, state in decisions:
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
    on_found: Callable[[Puzzle], None] | None = None,
    on_group_done: Callable[[str], None] | None = None,
) -> list[Puzzle]:
    """Up to ``count`` new puzzles from ``candidates`` (ids in ``known`` are skipped; at most
    ``per_game`` from one game), each position given ``seconds`` to settle.
    ``on_examined(examined, found)`` is told of progress, ``on_found(puzzle)`` of each puzzle
    as it is found and ``on_group_done(group)`` when the candidates move past a game (so a
    long run can be stored as it goes and resumed)."""
    analyst = Analyst(game.name)
    analyst.warm_up()
    seen = set(known)
    found: list[Puzzle] = []
    examined = 0
    from_game: dict[str, int] = {}
    group_now: str | None = None
    for state, source, group in candidates:
        if group != group_now:
            if group_now is not None and on_group_done is not None:
                on_group_done(group_now)
            group_now = group
        if len(found) >= count:
            if from_game.get(group, 0) >= per_game and on_group_done is not None:
                on_group_done(group)  # it has given all it may: done
            group_now = None  # else this game was not looked through: not done
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
            if on_found is not None:
                on_found(puzzle)
        if on_examined is not None:
            on_examined(examined, len(found))
    else:
        if group_now is not None and on_group_done is not None:
            on_group_done(group_now)
    return found


# --- what a puzzle teaches: themes, situation, difficulty --------------------------------------

_TAUGHT: dict[str, tuple[tuple[str, ...], str]] = {}


def _taught(puzzle: Puzzle) -> tuple[tuple[str, ...], str]:
    """The puzzle's themes and situation, from its game's plugin (computed once per puzzle)."""
    if puzzle.id not in _TAUGHT:
        plugin = find_plugin(puzzle.game)
        state = puzzle.state()
        answer = state.parse_action(puzzle.answer)
        line = []
        walk = state
        for text in puzzle.line:
            try:
                action = walk.parse_action(text)
            except GamehallError:
                break
            line.append(action)
            walk = walk.apply_trusted(action)
        find_themes = plugin.load_puzzle_themes()
        themes = tuple(find_themes(state, answer, line)) if find_themes else ()
        tell = plugin.load_situation()
        situation = tell(state) if tell else ""
        _TAUGHT[puzzle.id] = (themes, situation)
    return _TAUGHT[puzzle.id]


def puzzle_themes(puzzle: Puzzle) -> tuple[str, ...]:
    """What the puzzle is about, as its game names it ("Capture by shape", "Contesting a
    region"): the plugin's ``puzzle_themes``, read off the position, the answer and the line."""
    return _taught(puzzle)[0]


def puzzle_situation(puzzle: Puzzle) -> str:
    """Where the game stands and what follows from it (the plugin's ``situation``), or ""."""
    return _taught(puzzle)[1]


DIFFICULTY_BANDS = ((1300.0, "easy"), (1700.0, "medium"), (math.inf, "hard"))
"""A starting rating below 1300 reads "easy", below 1700 "medium", else "hard"."""


def difficulty_score(puzzle: Puzzle) -> float:
    """How hard the puzzle's position is to read, estimated from its shape: more moves to
    choose from, a longer line before the answer pays, and a narrower margin (every other move
    costing barely the game's puzzle margin) make it harder. A score on a rating-like scale,
    comparable between the puzzles of one game (:func:`starting_ratings` turns it into ratings)."""
    plugin = find_plugin(puzzle.game)
    unit = plugin.judgement.puzzle_margin if plugin.judgement else 1.0
    choices = len(puzzle.alternatives) + 1
    margin = max(1.0, float(Fraction(str(puzzle.margin))) / unit)
    return (
        1000.0
        + 260.0 * math.log2(choices)
        + 35.0 * min(len(puzzle.line), LINE_PLIES)
        - 180.0 * math.log2(min(margin, 4.0))
    )


LOWEST_START, HIGHEST_START = 1000.0, 2000.0
"""The range the starting ratings of a game's puzzles are spread over (lichess's puzzles are
mostly rated between these)."""


def starting_ratings(puzzles: Sequence[Puzzle]) -> dict[str, float]:
    """Each puzzle's rating before anyone has answered it, on the hall's Glicko-2 scale: its
    :func:`difficulty_score`'s rank among ``puzzles`` (a game's set; equal scores share a
    rank) spread evenly from :data:`LOWEST_START` to :data:`HIGHEST_START`, so each game's set
    has easy, medium and hard puzzles whatever its games' shapes. Answers then move a puzzle's
    rating like a player's."""
    scores = {p.id: difficulty_score(p) for p in puzzles}
    ordered = sorted(scores.values())
    if not ordered:
        return {}
    below: dict[float, int] = {}
    same: dict[float, int] = {}
    for index, score in enumerate(ordered):
        below.setdefault(score, index)
        same[score] = same.get(score, 0) + 1
    span = HIGHEST_START - LOWEST_START
    return {
        key: LOWEST_START + span * (below[score] + same[score] / 2) / len(ordered)
        for key, score in scores.items()
    }


def difficulty(rating: float) -> str:
    """ "easy", "medium" or "hard" for a puzzle rating (:data:`DIFFICULTY_BANDS`)."""
    return next(name for bound, name in DIFFICULTY_BANDS if rating < bound)


def choose_near(
    puzzles: Sequence[Puzzle],
    ratings: dict[str, float],
    player: float,
    tried: Iterable[str],
    rng: random.Random,
    *,
    spread: int = 5,
) -> Puzzle | None:
    """The next puzzle for a player rated ``player``, as lichess chooses: one not tried yet
    whose rating (``ratings``: each puzzle's, stored or else its starting rating; a puzzle
    without one is not offered) is among the ``spread`` nearest to the player's, picked at
    random among them (so two players of one rating do not walk one sequence). None when every
    puzzle was tried."""
    done = set(tried)
    fresh = [p for p in puzzles if p.id not in done and p.id in ratings]
    if not fresh:
        return None
    fresh.sort(key=lambda p: abs(ratings[p.id] - player))
    return rng.choice(fresh[:spread])


def value_words(unit: str, value: Any) -> str:
    """An exact value for the mover in words: "ends 2 points ahead", "wins for sure", "wins 3
    times in 4"."""
    amount = Fraction(str(value))
    if unit == "points":
        n = abs(amount)
        points = f"{n} point{'s' if n != 1 else ''}"
        return (
            "ends level" if amount == 0 else f"ends {points} {'ahead' if amount > 0 else 'behind'}"
        )
    if amount >= 1:
        return "wins whatever is drawn"
    if amount <= 0:
        return "loses whatever is drawn"
    return f"wins {float(amount):.0%} of the time (over what may be drawn)"


def cost_words(unit: str, cost: Any) -> str:
    """An exact cost in words: "2 points", "a quarter of the games" ("a 25% chance to win")."""
    amount = Fraction(str(cost))
    if unit == "points":
        return f"{amount} point{'s' if amount != 1 else ''}"
    return f"a {float(amount):.0%} chance to win"


def all_puzzles(game: str, store: PuzzleStore | None = None) -> list[Puzzle]:
    """A game's puzzles: the user's stored ones (``store``'s file), then the set the game ships
    (:func:`starter_puzzles`), each id once. The command line and the web list this same set."""
    stored = (store or PuzzleStore()).load(game)
    seen: set[str] = set()
    found = []
    for puzzle in [*stored, *starter_puzzles(game)]:
        if puzzle.id not in seen:
            seen.add(puzzle.id)
            found.append(puzzle)
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

    def __init__(self, directory: Path | None = None, *, file: Path | None = None) -> None:
        if directory is None:
            from platformdirs import user_data_dir

            directory = Path(user_data_dir("gamehall")) / "puzzles"
        self.directory = directory if file is None else file.parent
        self.file = file
        """One file for the one game it is given for (a game's shipped set), instead of one
        file per game in ``directory``."""

    def path(self, game: str) -> Path:
        return self.file if self.file is not None else self.directory / f"{game}.jsonl"

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
    "DIFFICULTY_BANDS",
    "Puzzle",
    "PuzzleStore",
    "all_puzzles",
    "choose_near",
    "cost_words",
    "decided_line",
    "difficulty",
    "difficulty_score",
    "examine",
    "find_puzzles",
    "parse_puzzles",
    "puzzle_id",
    "puzzle_situation",
    "puzzle_themes",
    "record_candidates",
    "selfplay_candidates",
    "starter_puzzles",
    "starting_ratings",
    "stops_at_draw",
    "value_words",
]
