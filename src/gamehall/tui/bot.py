"""``gamehall bot``: an agent seated in a running hall, through the web protocol.

A bot is an account a program plays (docs/bots.md). A person signed in to their own account
makes one (``POST /api/account/bots``, :func:`create_bot`), and is given its secret token once;
the bot then signs in with its name and that token (``POST /api/account/login``), as anyone
does, and keeps the identity and session cookies a browser would.

:class:`Bot` then does what a person in the lobby does, over the same HTTP and WebSocket
messages (``docs/web-protocol.md``): it opens the lobby's socket (``/ws/lobby``), accepts the
open seeks that match its :class:`Wanted` (a game, a time control, rated or casual) or posts a
seek of its own, and plays each game it is seated in through a
:class:`~gamehall.tui.remote.RemoteSession` (the terminal app's client: every state checked by
replaying it here, reconnecting with ``hello`` after a drop). On its move it asks its agent,
which sees the same :class:`~gamehall.core.State` a local game has: any
:class:`~gamehall.core.agent.Agent` (``choose(state) -> action``), or a level by name. With
little time left on its clock (the server's last figure, counted down since it came while that
clock runs) it plays the first legal move instead of thinking; an agent's one slow move is not
cut short. When the lobby's socket drops it connects again (signing in again if its session
ended) and picks up its ongoing games, listed on its profile, where it left them.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gamehall.core import Action, GamehallError, Record, State
from gamehall.core.agent import Agent
from gamehall.protocol import CreatedAnswer, StateMessage
from gamehall.protocol.hall import (
    LOBBY_SERVER_MESSAGE,
    BotCreated,
    LobbyHello,
    LobbyMessage,
    MeAnswer,
    PairedMessage,
    ProfileAnswer,
    SeekInfo,
)
from gamehall.tui.remote import (
    MAX_MESSAGE,
    MAX_RECORD,
    RECONNECT_SECONDS,
    SESSION_COOKIE,
    RemoteSession,
    ServerRefusal,
    _request,
    cookie_header,
)
from gamehall.tui.session import data_dir

LOW_TIME_MS = 3_000
"""With less than this left on its clock, a bot plays the first legal move at once."""
SEEK_AGAIN_AFTER = 3.0
"""Seconds a bot waits, once its seek left the lobby, for the ``paired`` message of the game
made from it before it posts another (a seek that lapsed or was cancelled)."""
SEEK_RETRY = 30.0
"""Seconds a bot waits to post a seek again after the hall refused one."""
LOOK_EVERY = 2.0
"""Seconds between a bot's looks at whether to post a seek when the lobby is quiet."""


def bot_token_path(base: str, name: str) -> Path:
    """Where ``gamehall bot --create`` keeps a bot's token: per server and name."""
    host = urllib.parse.urlsplit(base).netloc.replace(":", "_") or "server"
    return data_dir() / "bots" / host / name.lower()


def save_token(path: Path, token: str) -> None:
    """Write a token readable by this user only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(token)


def hall_base(url: str) -> str:
    """``http(s)://HOST:PORT`` of a hall's address (any page of it); GamehallError if it is not
    one."""
    parsed = urllib.parse.urlsplit(url.strip())
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise GamehallError(f"{url!r} is not a hall's address like http://HOST:PORT")
    return f"{parsed.scheme}://{parsed.netloc}"


def load_agent(spec: str, seed: int | None = None) -> Callable[[], Agent]:
    """What makes the agent of one game: a level name (``easy``, ``hard``…: the hall's own
    computer levels) or ``MODULE:CLASS``, a class made with no arguments whose
    ``choose(state) -> action`` returns a legal action for the player to move."""
    from gamehall.ai.levels import LEVEL_NAMES, LevelAgent

    if spec in LEVEL_NAMES:
        return lambda: LevelAgent(spec, seed)
    module_name, _, class_name = spec.partition(":")
    if not module_name or not class_name:
        raise GamehallError(
            f"{spec!r} is no agent: give a level ({', '.join(LEVEL_NAMES)}) or MODULE:CLASS"
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise GamehallError(f"cannot import {module_name!r}: {error}") from None
    made = getattr(module, class_name, None)
    if made is None or not callable(getattr(made, "choose", None)):
        raise GamehallError(f"{module_name} has no class {class_name!r} with a choose(state)")
    return made  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Wanted:
    """The games a bot plays: a game (None: any), a time control (None: any; ``"none"``:
    untimed only), rated or casual (None: either); ``seek``: post a seek of its own with these
    (game needed) rather than only accept others'; at most ``games`` at once."""

    game: str | None = None
    clock: str | None = None
    rated: bool | None = None
    seek: bool = False
    games: int = 1

    def matches(self, seek: SeekInfo) -> bool:
        """Whether an open seek is one this bot accepts."""
        if seek.mine:
            return False
        if self.game is not None and seek.game.lower() != self.game.lower():
            return False
        if self.clock == "none" and seek.clock is not None:
            return False
        if self.clock not in (None, "none") and seek.clock != self.clock:
            return False
        return self.rated is None or seek.rated == self.rated


def create_bot(base: str, owner: str, password: str, name: str) -> BotCreated:
    """Sign in as the person ``owner`` and make the bot account ``name``: its token, once."""
    identity, session = sign_in(base, owner, password, bot=False)
    data, _ = _request(
        f"{base}/api/account/bots", 10_000, identity, {"name": name}, session=session
    )
    return BotCreated.model_validate_json(data)


def sign_in(base: str, name: str, password: str, *, bot: bool = True) -> tuple[str, str]:
    """``(identity, session)`` cookies of a new sign-in (as a bot account, unless not
    ``bot``)."""
    _, identity = _request(f"{base}/api/me", 10_000)
    if identity is None:
        raise GamehallError(f"{base} gave no identity: is it a gamehall server?")
    data, session = _request(
        f"{base}/api/account/login",
        10_000,
        identity,
        {"username": name, "password": password},
        given_cookie=SESSION_COOKIE,
    )
    if session is None:
        raise GamehallError(f"{base} gave no session for {name!r}")
    if bot and not MeAnswer.model_validate_json(data).bot:
        raise GamehallError(f"{name!r} is not a bot account: make one with gamehall bot --create")
    return identity, session


def time_left_ms(
    remaining: list[int | None] | None, running: int | None, seat: int, since_ms: float
) -> float | None:
    """What ``seat`` has left on its clock now: the server's figure, less the time since the
    message came when that clock is the one running (the server counts it down meanwhile);
    None for a seat without a clock."""
    if not remaining or seat >= len(remaining) or remaining[seat] is None:
        return None
    left = float(remaining[seat] or 0)
    return left - since_ms if running == seat else left


class BotGame(RemoteSession):
    """A game the bot is seated in: the terminal's client, which also keeps the clocks."""

    remaining_ms: list[int | None] | None = None
    running: int | None = None
    clock_at: float = 0.0
    """When the last clock came (``time.monotonic()``)."""

    def _take_state(self, message: StateMessage) -> bool:
        changed = super()._take_state(message)
        if message.clock is not None:
            self.remaining_ms = list(message.clock.remaining)
            self.running = message.clock.running
            self.clock_at = time.monotonic()
        return changed

    def low_on_time(self, seat: int) -> bool:
        """Whether ``seat``'s clock, counted down to now, is under :data:`LOW_TIME_MS`."""
        since_ms = (time.monotonic() - self.clock_at) * 1000
        left = time_left_ms(self.remaining_ms, self.running, seat, since_ms)
        return left is not None and left < LOW_TIME_MS


@dataclass
class Bot:
    """A bot in a hall (see the module docstring): ``run()`` until ``stop()``."""

    base: str
    name: str
    token: str
    agent: Callable[[], Agent]
    wanted: Wanted = field(default_factory=Wanted)
    say: Callable[[str], None] = lambda text: None
    identity: str | None = None
    session: str | None = None
    games: dict[str, threading.Thread] = field(default_factory=dict)
    finished: list[str] = field(default_factory=list)
    """The ids of the games this bot played to their end, in order."""
    ended: threading.Event = field(default_factory=threading.Event)
    """Set each time one of its games ends (tests wait on it)."""
    in_lobby: threading.Event = field(default_factory=threading.Event)
    """Set each time the bot is in the lobby, signed in (tests wait on it)."""
    signed_in: threading.Event = field(default_factory=threading.Event)
    """Set each time the bot signs in (tests wait on it)."""
    sign_ins: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)
    _tried: set[str] = field(default_factory=set)
    _socket: Any = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _my_seek: bool = False
    _seek_gone_at: float = 0.0

    # --- signing in, the lobby ------------------------------------------------------------

    def sign_in(self) -> None:
        self.identity, self.session = sign_in(self.base, self.name, self.token)
        self.sign_ins += 1
        self.signed_in.set()
        self.say(f"signed in to {self.base} as {self.name}")

    def stop(self) -> None:
        self._stop.set()
        with contextlib.suppress(Exception):
            if self._socket is not None:
                self._socket.close()

    def run(self) -> None:
        """Sign in, resume the ongoing games, and serve the lobby until stopped; a dropped
        socket is opened again (signing in again if the session ended)."""
        from websockets.sync.client import connect

        attempt = 0
        while not self._stop.is_set():
            try:
                if self.session is None:
                    self.sign_in()
                self.resume()
                parsed = urllib.parse.urlsplit(self.base)
                scheme = "wss" if parsed.scheme == "https" else "ws"
                with connect(
                    f"{scheme}://{parsed.netloc}/ws/lobby",
                    max_size=MAX_MESSAGE,
                    open_timeout=10,
                    additional_headers=cookie_header(self.identity, self.session),
                ) as socket:
                    self._socket = socket
                    attempt = 0
                    socket.send(LobbyHello(type="hello").model_dump_json())
                    while not self._stop.is_set():
                        try:
                            text = socket.recv(timeout=LOOK_EVERY)
                        except TimeoutError:
                            text = None
                        if text is not None:
                            self._lobby(text)
                        self._maybe_seek()
            except ServerRefusal as refusal:
                self.say(f"refused: {refusal}")
                if refusal.code == "wrong_password" and self.session is None:
                    self.say(f"{self.name}'s token is not the one the hall knows; stopping")
                    return  # trying again would only count as failed sign-ins
                if refusal.code == "account_needed":
                    self.session = None
            except (GamehallError, OSError, ValidationError) as error:
                self.say(f"lobby connection lost: {error}")
            except Exception as error:  # the socket closed: connect again
                self.say(f"lobby connection lost: {error or type(error).__name__}")
            self._socket = None
            self._my_seek = False
            if self._stop.wait(RECONNECT_SECONDS[min(attempt, len(RECONNECT_SECONDS) - 1)]):
                return
            attempt += 1

    def _lobby(self, text: str | bytes) -> None:
        message = LOBBY_SERVER_MESSAGE.validate_json(text)
        if isinstance(message, PairedMessage):
            self.play(message.id)
        elif isinstance(message, LobbyMessage):
            if message.you.name != self.name:  # the session ended: sign in again
                self.session = None
                raise GamehallError("the lobby no longer knows this bot as signed in")
            self.in_lobby.set()
            mine = any(seek.mine for seek in message.seeks)
            if self._my_seek and not mine:  # taken (``paired`` is on its way), or lapsed
                self._seek_gone_at = time.monotonic()
            self._my_seek = mine
            for seek in message.seeks:
                if self.room() and self.wanted.matches(seek) and seek.id not in self._tried:
                    self._tried.add(seek.id)
                    self.accept(seek)

    def _maybe_seek(self) -> None:
        """Post the bot's seek if it wants one, has none open and has room for a game."""
        if not self.wanted.seek or self._my_seek or not self.room():
            return
        if time.monotonic() - self._seek_gone_at < SEEK_AGAIN_AFTER:
            return
        self.post_seek()

    def room(self) -> bool:
        """Whether the bot may take another game."""
        with self._lock:
            playing = sum(thread.is_alive() for thread in self.games.values())
        return playing < self.wanted.games

    def accept(self, seek: SeekInfo) -> None:
        try:
            data, _ = self._call(f"/api/seeks/{urllib.parse.quote(seek.id)}/accept", {})
        except ServerRefusal as refusal:  # taken meanwhile, or not one this bot may play
            self.say(f"could not accept {seek.name}'s seek: {refusal}")
            return
        self.play(CreatedAnswer.model_validate_json(data).id)

    def post_seek(self) -> None:
        wanted = self.wanted
        if wanted.game is None:
            raise GamehallError("a bot posting seeks needs a game (--game)")
        body: dict[str, Any] = {
            "game": wanted.game,
            "clock": None if wanted.clock in (None, "none") else wanted.clock,
            "rated": bool(wanted.rated),
        }
        try:
            self._call("/api/seeks", body)
            self._my_seek = True
        except ServerRefusal as refusal:  # too many seeks, a full lobby…: try later
            self.say(f"could not post a seek: {refusal}")
            self._seek_gone_at = time.monotonic() + SEEK_RETRY

    def resume(self) -> None:
        """Play the ongoing games the bot's profile lists (after a restart or a drop)."""
        data, _ = self._call(f"/api/players/{urllib.parse.quote(self.name)}")
        for game in ProfileAnswer.model_validate_json(data).games:
            if game.status == "ongoing":
                self.play(game.id)

    def _call(self, path: str, body: dict[str, Any] | None = None) -> tuple[bytes, str | None]:
        return _request(f"{self.base}{path}", MAX_RECORD, self.identity, body, session=self.session)

    # --- the games ------------------------------------------------------------------------

    def play(self, game_id: str) -> None:
        """Play the game in a thread of its own (once however often it is named)."""
        with self._lock:
            if game_id in self.games and self.games[game_id].is_alive():
                return
            if game_id in self.finished:
                return
            thread = threading.Thread(
                target=self._play, args=(game_id,), name=f"bot-{game_id}", daemon=True
            )
            self.games[game_id] = thread
        thread.start()

    def open_game(self, game_id: str) -> BotGame:
        quoted = urllib.parse.quote(game_id)
        data, _ = self._call(f"/api/games/{quoted}/record")
        record = Record.parse(data.decode("utf-8"))
        data, _ = self._call(f"/api/games/{quoted}")
        game = BotGame(self.base, game_id, None, record, self.identity, save_path=None)
        game.session = self.session
        game.server_state = StateMessage.model_validate_json(data)
        return game

    def _play(self, game_id: str) -> None:
        try:
            game = self.open_game(game_id)
        except (GamehallError, OSError, ValidationError) as error:
            self.say(f"cannot open game {game_id}: {error}")
            return
        agent = self.agent()
        arrived = threading.Event()
        game.wake = arrived.set
        game.start()
        self.say(f"playing {game.game.name} game {game_id}")
        seen = 0
        try:
            while not self._stop.is_set():
                arrived.clear()
                game.poll()
                for state, action in zip(game.states[seen:], game.actions[seen:], strict=False):
                    agent.observe(state, action)
                seen = len(game.actions)
                if game.over and game.version >= 0:
                    self.say(f"game {game_id} over: {game.result_text()}")
                    with self._lock:
                        self.finished.append(game_id)
                    self.ended.set()
                    return
                if game.last_error:  # a move refused, or a game that does not replay here
                    self.say(f"game {game_id}: {game.last_error}")
                    game.last_error = None
                if game.human_to_move():
                    try:
                        action = self._choose(agent, game)
                    except Exception as error:  # the agent's own failure: stop this game
                        self.say(f"the agent failed in game {game_id}: {error!r}; left it")
                        return
                    try:
                        game.play(action)
                    except Exception as error:  # the socket dropped: the next hello resyncs
                        self.say(f"game {game_id}: the move was not sent ({error})")
                        arrived.wait(RECONNECT_SECONDS[-1])
                    continue
                arrived.wait(30)
        finally:
            game.close()

    @staticmethod
    def _choose(agent: Agent, game: BotGame) -> Action:
        state: State = game.state
        if game.low_on_time(state.current_player):
            return state.legal_actions()[0]
        return agent.choose(state)


def load_token(base: str, name: str, token_file: Path | None) -> str:
    """A bot's token: ``GAMEHALL_BOT_TOKEN``, the file given, or the one ``--create`` kept."""
    if os.environ.get("GAMEHALL_BOT_TOKEN"):
        return os.environ["GAMEHALL_BOT_TOKEN"]
    path = token_file or bot_token_path(base, name)
    try:
        return path.read_text(encoding="ascii").strip()
    except OSError:
        raise GamehallError(
            f"no token for the bot {name!r} at {path}: make the bot with "
            f"gamehall bot --create {name} --connect {base}, or set GAMEHALL_BOT_TOKEN"
        ) from None


def run_bot(bot: Bot) -> None:
    """Run a bot until interrupted (Ctrl-C)."""
    worker = threading.Thread(target=bot.run, name="bot-lobby", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.5)
    except KeyboardInterrupt:
        bot.stop()
    finally:
        bot.stop()


__all__ = [
    "Bot",
    "BotGame",
    "Wanted",
    "bot_token_path",
    "create_bot",
    "hall_base",
    "load_agent",
    "load_token",
    "run_bot",
    "save_token",
    "sign_in",
]
