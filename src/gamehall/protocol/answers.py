"""Server → client: the REST answers of games (meta, games, replays, How to play, hints,
reviews, puzzles) and the one error answer every REST refusal has.

:data:`REST_ANSWERS` are the answers the JSON Schema names under ``rest`` (with the hall's).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from gamehall.protocol.base import Mode, _Out
from gamehall.protocol.errors import ErrorCode
from gamehall.protocol.server import (
    LegalAction,
    OutcomeInfo,
    PlayedAction,
    SeatInfo,
    StateMessage,
)


class OptionInfo(_Out):
    """A game option, described fully (Option.describe()): a form is built from its kind."""

    name: str
    kind: Literal["bool", "int", "str", "choice", "data", "path"]
    default: bool | int | str
    help: str
    choices: list[str] | None = None
    minimum: int | None = None
    maximum: int | None = None
    max_length: int | None = None


class DiagramInfo(_Out):
    """A real position drawn for people: its text, its view (what a board draws), the move
    drawn on it (``last``: on the position before it, or the move just played) and a caption."""

    position: str
    view: dict[str, Any]
    last: PlayedAction | None
    caption: str


class GameInfo(_Out):
    """What the server says of one game: names, seats, options, rules and board files, and
    what a newcomer reads first (summary, duration, a picture of a real position)."""

    name: str
    title: str
    summary: str
    duration: str = Field(description="how long a game takes, in words")
    sample: DiagramInfo | None = Field(description="a position that shows what the game is like")
    how_to_play: bool = Field(description="whether /api/howto/{game} has a How to play page")
    rules_version: str
    seats: list[str]
    options: list[OptionInfo]
    board_module: str | None = Field(description="the URL of the game's board module, if any")
    board_style: str | None = Field(description="the URL of its stylesheet, if any")
    editor_module: str | None = Field(
        default=None, description="the URL of its analysis board position editor, if any"
    )
    rules: bool = Field(description="whether /api/rules/{game} has the rules text")
    puzzles: bool = Field(
        default=False, description="whether the game has puzzles (an exact solver and a margin)"
    )
    level_ratings: dict[str, int] = Field(
        default_factory=dict,
        description="the computer levels' fixed ratings, estimated by tournament (may be empty)",
    )
    level_intervals: dict[str, int] = Field(
        default_factory=dict,
        description="half the 95% interval of each level's rating, relative to beginner's",
    )
    level_words: dict[str, str] = Field(
        default_factory=dict,
        description="what each computer level does, in the game's words (a level menu's labels)",
    )
    level_note: str = Field(
        default="", description="what the levels' ratings mean, to show where they are shown"
    )


class MetaAnswer(_Out):
    """``GET /api/meta``."""

    protocol: int
    games: list[GameInfo]
    levels: list[str]


class ReadyAnswer(_Out):
    """``GET /api/ready[?wait=true]``: whether the computer players, hints and reviews are ready.
    A server answers pages at once and loads (or compiles) the solvers in the background; a
    computer move or hint asked for meanwhile waits for them. With ``wait`` the answer comes
    once they are ready (or after at most 20 s, still not ready)."""

    ready: bool
    message: str = Field(
        description='what to show while not ready ("The computer is getting ready…"); "" once ready'
    )


class CreatedAnswer(_Out):
    """``POST /api/games`` and ``POST /api/games/{id}/rematch``."""

    id: str
    url: str
    seats: list[SeatInfo]
    you: list[int]
    invite: str | None = Field(
        default=None, description="online: the link with the other seat's token"
    )


class GameSummary(_Out):
    """One of the games a browser holds a seat in."""

    id: str
    game: str
    rules_version: str
    mode: Mode
    status: Literal["ongoing", "finished"]
    result: OutcomeInfo | None
    created: str
    updated: str
    version: int
    seats: list[SeatInfo]
    clock: str | None = Field(description="the time control, if any")


class GameList(_Out):
    """``GET /api/games``: newest first."""

    games: list[GameSummary]


class HowToText(_Out):
    """Part of a How to play page: Markdown text."""

    kind: Literal["text"] = "text"
    markdown: str


class HowToDiagram(_Out):
    """Part of a How to play page: a diagram of a real position."""

    kind: Literal["diagram"] = "diagram"
    diagram: DiagramInfo


class HowToAnswer(_Out):
    """``GET /api/howto/{game}``: a first lesson for players, text and diagrams in order."""

    game: str
    title: str
    summary: str
    duration: str
    parts: list[Annotated[HowToText | HowToDiagram, Field(discriminator="kind")]]
    rules: bool = Field(description="whether /api/rules/{game} has the complete rules")


class ReplayAnswer(_Out):
    """``GET /api/games/{id}/replay``: ``states[k]`` is the view after ``k`` actions."""

    id: str
    game: str
    seats: list[str]
    actions: list[PlayedAction]
    states: list[dict[str, Any]]


class JoinAnswer(_Out):
    """``POST /api/games/{id}/join``."""

    you: list[int]


class InviteAnswer(_Out):
    """``GET /api/games/{id}/invite``: the invite link of an online game's free seat, for the
    browser that holds the other seat, until someone takes it (then null)."""

    invite: str | None


class HintItem(_Out):
    """One hint: the move (its notation and in words), what it is worth to the asking player in
    a sentence, one word for how that is known, the details behind it and the line of play after
    it (gamehall.ai.hint_words)."""

    move: str = Field(description="the move's notation, one of the state's legal items' text")
    sentence: str = Field(
        description="the hint's first line: 'Best: <the move in words>: with best play you win "
        "the round by 2 points'"
    )
    label: str = Field(description="'Best', 'Equally good', 'About as good', 'Second best', ...")
    words: str = Field(description="the move in words")
    outlook: str = Field(description="what the move is worth to the player, in words")
    method: Literal["exact", "bounds", "estimate"] = Field(
        description="how the value is known: proven, proven bounds only, or estimated"
    )
    details: list[str] = Field(
        description="intervals, simulations and proven bounds, in sentences (shown on demand)"
    )
    line_kind: str = Field(description="'Perfect play after it', 'Likeliest line after it', or ''")
    line_words: list[str] = Field(
        description="the moves after ``move`` in words; it stops at a chance step with more "
        "than one outcome ('then whatever is drawn')"
    )
    evaluation: str = Field(description="the value with its statistics, for the record")
    visits: int | None
    line: list[str] = Field(description="the moves that follow (after ``move``), in notation")
    line_exact: bool = Field(description="the line is perfect play (else the search's likeliest)")


class HintAnswer(_Out):
    """``POST /api/games/{id}/hint``: the best moves for the player to move, best first; a
    move is never ranked above one proven better (gamehall.ai.hints)."""

    id: str
    version: int
    to_move: int
    to_move_name: str
    headline: str = Field(description="the position's value in words when it is exact, else ''")
    summary: str = Field(
        default="", description="'All three are about equal: ...' when they cannot be told apart"
    )
    unit: str = Field(default="", description="what the values count, in a sentence")
    note: str = Field(default="", description="why the ranking is not proven, or ''")
    proven: bool = Field(description="every hint exact and no other move can beat them")
    seconds: float
    hints: list[HintItem]


class JudgementInfo(_Out):
    """How a review classes moves by their cost, in the game's unit."""

    unit: str
    inaccuracy: float
    mistake: float
    blunder: float


class ReviewPoint(_Out):
    """One point of the evaluation graph: the value before judged move ``number`` (or after
    the last), from the first seat's side; ``low``/``high`` bound an estimate's band."""

    number: int
    value: float | None
    low: float | None
    high: float | None
    exact: bool


class ReviewMove(_Out):
    """One judged move: values before and after (from the mover's side, as text), its cost,
    class and the best alternative, with the position after the best move for a board."""

    number: int = Field(description="the action's number in the game, from 1, chance included")
    player: int
    move: str
    before: str
    after: str
    cost: str
    exact: bool
    verdict: Literal["best", "good", "inaccuracy", "mistake", "blunder"] | None
    best: str | None
    best_item: PlayedAction | None
    best_view: dict[str, Any] | None = Field(description="State.view() after the best move")
    forced: bool
    comment: str = Field(description="the record annotation, e.g. {value +1 → 0, cost 1, ...}")
    words: str = Field(default="", description="the move played, told in words")
    value_words: str = Field(
        default="", description="what the move did to its mover's value, in words"
    )


class ReviewWorst(_Out):
    """A player's worst moment: the move that gave up most, in words, its class, the values
    before and after it (from the mover's side, as the review writes them) and the better move
    in words."""

    number: int = Field(description="the action's number in the game, from 1")
    words: str
    verdict: Literal["best", "good", "inaccuracy", "mistake", "blunder"] | None
    before: str
    after: str
    best_words: str | None
    exact: bool


class ReviewSummary(_Out):
    """One player's review summed up for people: moves judged (how many exactly), the count of
    each class, the accuracy (lichess's, from the value each move kept: docs/playing.md), the
    worst moment, and each of them in words."""

    player: int
    name: str = Field(description="the seat's name in the game ('dark')")
    moves: int
    exact: int
    classes: dict[str, int]
    mistakes: int = 0
    blunders: int = 0
    accuracy: float | None = Field(default=None, description="percent, 0..100")
    accuracy_exact: bool = True
    accuracy_text: str = ""
    counts_text: str = ""
    worst: ReviewWorst | None = None
    worst_text: str | None = None
    text: str


class ReviewData(_Out):
    kind: Literal["points", "probability"]
    unit: str
    perspective: str = Field(description="the seat whose side the graph is drawn from")
    judgement: JudgementInfo | None
    budget: dict[str, float]
    seconds: float
    moves: list[ReviewMove]
    summary: list[ReviewSummary]
    series: list[ReviewPoint]
    unfinished: str | None = Field(
        default=None,
        description="for a game ended off the board (resigned, lost on time, claimed, aborted): what the review can and cannot say, in words",
    )


class ReviewAnswer(_Out):
    """``GET`` and ``POST /api/games/{id}/review``: the review's status (``none``: never asked
    for), its progress in judged moves, and the review once done (stored with the game)."""

    id: str
    status: Literal["none", "queued", "running", "done", "failed"]
    done: int
    total: int
    error: str | None = None
    review: ReviewData | None = None


class PuzzleInfo(_Out):
    """A puzzle as a player sees it before answering: the position, its view for the board
    and the legal moves (one of them is the answer), where the game stands, what the puzzle is
    about and how hard it is."""

    id: str
    game: str
    position: str
    to_move: int
    to_move_name: str
    view: dict[str, Any]
    legal: list[LegalAction]
    attempted: bool | None = Field(description="null: not yet; true/false: solved at first try")
    situation: str = Field(
        default="", description="where the game stands and what follows, in words (the game's)"
    )
    themes: list[str] = Field(default_factory=list, description="the game's names for its themes")
    rating: int = Field(default=1500, description="the puzzle's Glicko-2 rating")
    difficulty: str = Field(default="medium", description="easy, medium or hard (by its rating)")


class PuzzleAnswer(_Out):
    """``GET /api/puzzles/{game}`` (the next puzzle for this player: one not tried, rated near
    the player's puzzle rating) and ``GET /api/puzzles/{game}/{id}``; with the player's counts
    and puzzle rating. No puzzle: ``how`` says why."""

    game: str
    total: int
    solved: int
    failed: int
    puzzle: PuzzleInfo | None
    how: str | None = Field(default=None, description="when there is no puzzle: why, in words")
    rating: int = Field(default=1500, description="the player's puzzle rating in this game")
    provisional: bool = Field(
        default=True, description="whether the player's rating is still uncertain (few puzzles)"
    )


class PuzzleVerdict(_Out):
    """``POST /api/puzzles/{game}/{id}/answer`` and ``.../solution``. A right answer comes with
    the solution line; a wrong one with what it costs and how the opponent punishes it (the
    refutation, each move with the view after it), and no answer, so the player can try again;
    ``.../solution`` gives the answer and its line (and counts as a failure if first)."""

    id: str
    correct: bool
    move: str = Field(description="the move answered (empty when the solution was asked for)")
    move_words: str = Field(default="", description="that move in words")
    answer: str | None = Field(description="the best move: null after a wrong answer")
    answer_words: str | None = None
    line: list[PlayedAction] = Field(description="the answer, then perfect play (no draw)")
    views: list[dict[str, Any]] = Field(description="State.view() after each move of the line")
    line_ends_at_draw: bool = Field(
        default=False, description="the line stops where chance draws next: nobody's choice"
    )
    value: str = Field(description="what the answer is worth for the mover, in words")
    margin: str = Field(description="what the best other move costs, in words")
    cost: str | None = Field(default=None, description="a wrong move: what it costs, in words")
    refutation: list[PlayedAction] = Field(
        default_factory=list, description="a wrong move, then perfect play after it (no draw)"
    )
    refutation_views: list[dict[str, Any]] = Field(default_factory=list)
    refutation_ends_at_draw: bool = False
    counted: bool = Field(description="whether this was the player's first answer (it counts)")
    total: int
    solved: int
    failed: int
    rating: int = Field(default=1500, description="the player's puzzle rating now")
    rating_change: int | None = Field(
        default=None, description="how this answer moved it (null: it did not count)"
    )
    puzzle_rating: int = Field(default=1500, description="the puzzle's rating now")


class AnalysisMove(_Out):
    """One legal move on the analysis board: its notation, the move in words, what is known of
    its value for the player to move (``exact``, ``bounds``, ``estimate``, or ``unknown``: not
    evaluated in time), short (``value``: ``+2``, ``~+0.4``, ``-1..+2``) and in words
    (``text``), whether it is (one of) the best, and the position it leads to."""

    move: str
    words: str
    method: Literal["exact", "bounds", "estimate", "unknown"]
    value: str
    text: str
    best: bool
    after: str = Field(description="the position text after the move")


class AnalysisOutcome(_Out):
    """One outcome of a chance step on the analysis board, with its probability."""

    move: str
    words: str
    probability: float
    chance: str = Field(description="the probability for people ('1 in 4', '26.0%')")
    after: str


class AnalysisStep(_Out):
    """One move of the analysis board's line: the move played and the position after it."""

    played: PlayedAction
    position: str
    view: dict[str, Any]


class AnalysisAnswer(_Out):
    """``POST /api/analysis/{game}``: the position analysed (where the line ends), every legal
    move with its value (best first; ``legal`` has the same moves as items a board takes), or at
    a chance step its outcomes (``chance``; null with ``chance_random`` where there are too
    many to list: ask again with ``draw``), or at the end the result."""

    game: str
    options: dict[str, bool | int | str]
    start: str = Field(description="the position text the line starts from")
    start_view: dict[str, Any]
    steps: list[AnalysisStep] = Field(description="the line played (and a drawn outcome)")
    position: str
    view: dict[str, Any]
    to_move: int = Field(description="the seat to move; -1 at a chance step or the end")
    to_move_name: str
    over: bool
    result: str = Field(description="at the end: the result in words, else ''")
    legal: list[LegalAction]
    moves: list[AnalysisMove]
    chance: list[AnalysisOutcome] | None
    chance_random: bool = Field(description="a chance step with too many outcomes to list")
    headline: str = Field(description="the position's exact value in words, else ''")
    unit: str
    proven: bool = Field(description="every move's value is exact")
    seconds: float


class ErrorBody(_Out):
    code: ErrorCode
    message: str


class ErrorAnswer(_Out):
    """Every REST error (HTTP 4xx/5xx)."""

    error: ErrorBody


REST_ANSWERS: tuple[type[BaseModel], ...] = (
    MetaAnswer,
    ReadyAnswer,
    CreatedAnswer,
    GameList,
    StateMessage,
    ReplayAnswer,
    HowToAnswer,
    JoinAnswer,
    InviteAnswer,
    HintAnswer,
    ReviewAnswer,
    PuzzleAnswer,
    PuzzleVerdict,
    AnalysisAnswer,
    ErrorAnswer,
)
