"""A game played at this terminal: its seats, its history, chance, undo, clocks and saving.

No Textual here: the full-screen app (:mod:`gamehall.tui.app`) and the line-mode ``gamehall
play`` both drive a :class:`Session`. It knows games only through the core protocol.

Chance is drawn from a generator seeded by the game's seed *and the action's number*, so a game
replays the same from its seed, a resumed game goes on as it would have, and undoing a move and
playing it again meets the same chance outcomes (undo is not a way to draw the tiles again).
"""

from __future__ import annotations

import datetime
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from gamehall.ai import make_agent
from gamehall.core import (
    Action,
    Agent,
    Game,
    GamehallError,
    Record,
    State,
    Termination,
    make_record,
)

HUMAN = "human"


@dataclass
class Clock:
    """A time control: each side has ``seconds`` for the game plus ``increment`` a move.

    Written ``M`` or ``M+S`` (minutes for the game, seconds added after each move)."""

    seconds: float
    increment: float = 0.0
    left: list[float] = field(default_factory=list)
    running: int | None = None
    """The seat whose time is running (None: nobody's, e.g. at a chance node)."""
    since: float = 0.0

    @classmethod
    def parse(cls, text: str) -> Clock:
        minutes, _, increment = text.strip().partition("+")
        try:
            game_minutes = float(minutes)
            per_move = float(increment) if increment else 0.0
        except ValueError:
            raise GamehallError(
                f"clock {text!r} is not MINUTES or MINUTES+SECONDS, e.g. 5 or 3+2"
            ) from None
        if not 0 < game_minutes <= 600 or not 0 <= per_move <= 600:
            raise GamehallError(
                f"clock {text!r}: minutes from 0 to 600 (not 0), increment 0 to 600 seconds"
            )
        return cls(seconds=game_minutes * 60, increment=per_move)

    def text(self) -> str:
        minutes = f"{self.seconds / 60:g}"
        return f"{minutes}+{self.increment:g}" if self.increment else minutes

    def start(self, players: int, now: float) -> None:
        self.left = [self.seconds] * players
        self.running, self.since = None, now

    def resume(self, text: str, players: int, now: float) -> None:
        """Take each side's time left from a record's ``TimeLeft`` tag (seconds, by seat)."""
        try:
            left = [float(x) for x in text.split()]
        except ValueError:
            raise GamehallError(f"TimeLeft {text!r} is not one number of seconds a seat") from None
        if len(left) != players or any(not 0 <= x <= self.seconds + 3600 for x in left):
            raise GamehallError(f"TimeLeft {text!r} does not give each of {players} seats its time")
        running = self.running
        self.left = left
        self.running, self.since = running, now

    def remaining(self, seat: int, now: float) -> float:
        left = self.left[seat]
        if self.running == seat:
            left -= now - self.since
        return max(0.0, left)

    def switch(self, to: int | None, now: float, *, moved: bool) -> None:
        """Stop the running side's time (adding the increment if it moved) and start ``to``'s."""
        if self.running is not None:
            self.left[self.running] -= now - self.since
            if moved:
                self.left[self.running] += self.increment
        self.running, self.since = to, now

    def fallen(self, now: float) -> int | None:
        """The seat whose time has run out, if any."""
        if self.running is not None and self.remaining(self.running, now) <= 0:
            return self.running
        return None


def data_dir() -> Path:
    """Where the terminal app keeps its games: the user's data directory (platformdirs)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("gamehall")) / "terminal"


def new_save_path(game: Game, now: datetime.datetime | None = None) -> Path:
    """A fresh file for a new game in :func:`data_dir` (made if it is not there)."""
    stamp = (now or datetime.datetime.now()).strftime("%Y%m%d-%H%M%S-%f")
    folder = data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise GamehallError(
            f"cannot make the folder for saved games {folder}: {error.strerror}"
        ) from None
    return folder / f"{stamp}-{game.name}.txt"


def unfinished(tags: dict[str, str]) -> bool:
    """Whether a saved record's tags are of a game that goes on: no result, no flag fallen,
    and no end told (an online game that ended off the board keeps the server's words for it
    in ``Ending``)."""
    return tags.get("Result", "*") == "*" and "Forfeit" not in tags and "Ending" not in tags


def saved_games(limit: int = 20) -> list[tuple[Path, Record]]:
    """The unfinished games saved in :func:`data_dir`, the most recently saved first (at most
    ``limit``); files that cannot be read are passed over."""
    folder = data_dir()
    if not folder.is_dir():
        return []
    saved = sorted(folder.glob("*.txt"), key=lambda p: p.stat().st_mtime, reverse=True)
    found: list[tuple[Path, Record]] = []
    for path in saved:
        try:
            record = Record.parse(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, GamehallError):
            continue
        if unfinished(record.tags):
            found.append((path, record))
            if len(found) >= limit:
                break
    return found


def last_unfinished() -> Path | None:
    """The most recently saved game in :func:`data_dir` that is not over."""
    found = saved_games(limit=1)
    return found[0][0] if found else None


def read_record(path: Path) -> Record:
    """A record file, with one-line errors for files that cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise GamehallError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise GamehallError(f"{path} is not a UTF-8 text record") from None
    return Record.parse(text)


def seat_players(game: Game, record: Record | None, given: dict[str, str]) -> list[str]:
    """Each seat's player: given on the command line, else the record's, else the first seat
    human and the others ``easy``."""
    players = []
    for index, seat in enumerate(game.player_names):
        recorded = record.tags.get(seat.capitalize()) if record is not None else None
        players.append(given.get(seat) or recorded or (HUMAN if index == 0 else "easy"))
    return players


class Session:
    """One game at the terminal: seats (a person or a computer player each), every state and
    action so far, chance, undo to your previous decision, a clock, and a record saved after
    every action when it has a path."""

    drives_chance = True
    """This session draws chance and runs the computer itself (an online game's server does)."""
    drives_computer = True
    remote_note: str | None = None
    last_error: str | None = None
    wake: Callable[[], None] | None = None
    """Called from another thread when news arrives (an online game's); unused here."""

    def poll(self) -> bool:
        """Whether news arrived from elsewhere (an online game's server); never, here."""
        return False

    def close(self) -> None:
        """Let go of what the session holds (an online game's connection); nothing here."""

    def __init__(
        self,
        game: Game,
        players: Sequence[str],
        *,
        seed: int,
        start: State | None = None,
        actions: Sequence[Action] = (),
        save_path: Path | None = None,
        clock: Clock | None = None,
        date: str | None = None,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        if len(players) != game.num_players:
            raise GamehallError(f"{game.name} has {game.num_players} seats, not {len(players)}")
        self.game = game
        self.players = [p.strip().lower() for p in players]
        self.seed = seed
        self.setup = start
        self.states: list[State] = [start if start is not None else game.new_initial_state()]
        self.actions: list[Action] = []
        self.save_path = save_path
        self.date = date or datetime.date.today().strftime("%Y.%m.%d")
        self.clock = clock
        self.now = now
        self.forfeit: int | None = None
        """The seat that lost on time, if one did."""
        self.agents: list[Agent | None] = []
        self.reset_agents()
        for action in actions:
            self._push(self.state.apply(action), action)
        if clock is not None:
            clock.start(game.num_players, now())
            clock.switch(self._clock_seat(), now(), moved=False)

    # --- who is where -----------------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.states[-1]

    def reset_agents(self) -> None:
        """Fresh computer players (after undo, so a search still running is left behind)."""
        self.agents = [
            None if player == HUMAN else make_agent(player, self.seed + 1000 * (index + 1))
            for index, player in enumerate(self.players)
        ]

    def is_human(self, seat: int) -> bool:
        return 0 <= seat < len(self.players) and self.players[seat] == HUMAN

    @property
    def over(self) -> bool:
        return self.state.is_terminal() or self.forfeit is not None

    def human_to_move(self) -> bool:
        return not self.over and self.is_human(self.state.current_player)

    def computer_to_move(self) -> bool:
        seat = self.state.current_player
        return not self.over and seat >= 0 and not self.is_human(seat)

    def chance_to_move(self) -> bool:
        return not self.over and self.state.is_chance_node()

    def against_computer(self) -> bool:
        return any(p != HUMAN for p in self.players)

    def seat_label(self, seat: int) -> str:
        name = self.game.player_names[seat].capitalize()
        player = self.players[seat]
        return (
            f"{name} (you)"
            if player == HUMAN and self.against_computer()
            else (name if player == HUMAN else f"{name} ({player})")
        )

    def mover_names(self) -> list[str]:
        """Who made each action so far: a seat name or ``chance``."""
        return [state.player_name() for state in self.states[:-1]]

    # --- moving -----------------------------------------------------------------------------

    def _push(self, state: State, action: Action) -> None:
        for agent in self.agents:
            if agent is not None:
                agent.observe(self.state, action)
        self.states.append(state)
        self.actions.append(action)

    def play(self, action: Action | str) -> State:
        """Apply a person's (or a computer's) action after checking it; save; switch clocks."""
        if self.forfeit is not None:
            raise GamehallError("the game is over: a flag fell")
        state = self.state
        if isinstance(action, str):
            action = state.parse_action(action)
        after = state.apply(action)
        self._push(after, action)
        if self.clock is not None:
            self.clock.switch(self._clock_seat(), self.now(), moved=True)
        self.save()
        return after

    def chance_action(self) -> Action:
        """The outcome chance draws here (the same for the same seed and action number)."""
        rng = random.Random(f"{self.seed}:{len(self.actions)}")
        return self.state.sample_chance(rng)

    def play_chance(self) -> tuple[Action, State]:
        action = self.chance_action()
        return action, self.play(action)

    def computer_agent(self) -> Agent:
        agent = self.agents[self.state.current_player]
        assert agent is not None, "a person is to move"
        return agent

    def forced_action(self) -> Action | None:
        """The only legal action of a person to move, if there is only one."""
        if not self.human_to_move():
            return None
        legal = self.state.legal_actions()
        return legal[0] if len(legal) == 1 else None

    def can_undo(self) -> bool:
        return (
            any(self.is_human(s.current_player) for s in self.states[:-1]) and self.forfeit is None
        )

    def undo(self) -> int:
        """Go back to the previous decision of a person, taking back the computer's replies and
        chance on the way. Returns how many actions were taken back (0: nothing to undo)."""
        if not self.can_undo():
            return 0
        count = 0
        while len(self.states) > 1:
            self.states.pop()
            self.actions.pop()
            count += 1
            if self.is_human(self.state.current_player):
                break
        self.reset_agents()
        if self.clock is not None:
            self.clock.switch(self._clock_seat(), self.now(), moved=False)
        self.save()
        return count

    # --- clocks -----------------------------------------------------------------------------

    def _clock_seat(self) -> int | None:
        seat = self.state.current_player
        return seat if seat >= 0 and self.forfeit is None else None

    def check_clock(self) -> int | None:
        """If the running side's time is up, that side loses on time; returns the seat."""
        if self.clock is None or self.forfeit is not None or self.state.is_terminal():
            return None
        fallen = self.clock.fallen(self.now())
        if fallen is not None:
            self.clock.switch(None, self.now(), moved=False)
            self.forfeit = fallen
            self.save()
        return fallen

    def result_text(self) -> str | None:
        """How the game ended, in a sentence (None while it goes on)."""
        if self.forfeit is not None:
            loser = self.game.player_names[self.forfeit].capitalize()
            others = [
                n.capitalize() for i, n in enumerate(self.game.player_names) if i != self.forfeit
            ]
            return f"{loser}'s time ran out: {' and '.join(others)} wins on time"
        outcome = self.state.outcome()
        if outcome is None:
            return None
        if outcome.winner is None:
            return f"Drawn: {outcome.reason}"
        return f"{self.state.player_name(outcome.winner).capitalize()} wins: {outcome.reason}"

    # --- saving -----------------------------------------------------------------------------

    def record(self) -> Record:
        extra: dict[str, str] = {}
        if self.clock is not None:
            extra["TimeControl"] = self.clock.text()
            now = self.now()
            extra["TimeLeft"] = " ".join(
                f"{self.clock.remaining(seat, now):.1f}" for seat in range(self.game.num_players)
            )
        ended = None
        if self.forfeit is not None:
            extra["Forfeit"] = self.game.player_names[self.forfeit]
            # with two players the other one wins; with more, nobody does (a draw)
            players = self.game.num_players
            result = ("0-1" if self.forfeit == 0 else "1-0") if players == 2 else "1/2-1/2"
            ended = Termination("time forfeit", result, self.result_text() or "")
        return make_record(
            self.game,
            self.actions,
            players=self.players,
            seed=self.seed,
            date=self.date,
            setup=self.setup,
            final=self.state,
            extra=extra,
            ended=ended,
        )

    def save(self, path: Path | None = None) -> Path | None:
        """Write the record (atomically) to ``path`` or the session's own file."""
        target = path or self.save_path
        if target is None:
            return None
        try:
            temporary = target.with_name(target.name + ".tmp")
            temporary.write_text(str(self.record()), encoding="utf-8")
            os.replace(temporary, target)
        except OSError as error:
            raise GamehallError(f"cannot save the game to {target}: {error.strerror}") from None
        return target


def session_from_record(
    record: Record,
    given: dict[str, str],
    *,
    save_path: Path | None,
    clock: Clock | None = None,
) -> Session:
    """Continue the game of a record (its players unless others are given, its seed)."""
    game = record.game()
    states = record.replay()
    setup = states[0] if "SetUp" in record.tags else None
    try:
        seed = int(record.tags.get("Seed", "0"))
    except ValueError:
        raise GamehallError(
            f"the record's Seed tag {record.tags['Seed']!r} is not a number"
        ) from None
    if clock is None and record.tags.get("TimeControl"):
        clock = Clock.parse(record.tags["TimeControl"])
    actions = [states[i].parse_action(t) for i, t in enumerate(record.actions)]
    session = Session(
        game,
        seat_players(game, record, given),
        seed=seed,
        start=setup,
        actions=actions,
        save_path=save_path,
        clock=clock,
        date=record.tags.get("Date"),
    )
    if "Forfeit" in record.tags:
        session.forfeit = game.player_index(record.tags["Forfeit"])
    if session.clock is not None and record.tags.get("TimeLeft"):
        session.clock.resume(record.tags["TimeLeft"], game.num_players, session.now())
    return session
