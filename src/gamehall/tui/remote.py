"""``gamehall tui --connect URL``: an online game of a running server, through the web protocol.

The link is a game page (``http://HOST:PORT/game/ID``, the address anyone watches with) or an
invite link (``…?seat=TOKEN``, which seats you if no one has used it yet). Like a browser, the
terminal is one identity to the server (the cookie ``gh_player``, kept in the data directory as
``identity``), and the server keeps the seats it holds: an invite is posted once to
``POST /api/games/ID/join``, and the WebSocket carries the cookie, never the invite. The record
(``GET /api/games/ID/record``) names the game and its variant; the WebSocket (``/ws/games/ID``,
see ``docs/web-protocol.md``) then brings a ``state`` message after every action, with the
actions since the version this client has. Every message is parsed with the protocol's own
typed models (:mod:`gamehall.protocol`), and each state is checked by replaying its actions
with the local engine, so the board is drawn from real states, exactly as in a local game. The
server draws chance and runs the computer; your moves go to it as ``move`` messages and count
once it has stored them. A dropped connection reconnects with ``hello`` and the last version.

A :class:`RemoteSession` offers the app what a local :class:`~gamehall.tui.session.Session`
does, less undo and clocks; a copy of the record is kept in the data directory.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gamehall.core import Action, GamehallError, Record, State, make_record
from gamehall.protocol import (
    SERVER_MESSAGE,
    Continue,
    ErrorAnswer,
    ErrorMessage,
    Hello,
    Move,
    PresenceMessage,
    Resync,
    SeatPresence,
    StateMessage,
)
from gamehall.tui.session import data_dir, new_save_path

MAX_RECORD = 2_000_000
"""The longest record the client reads from a server (bytes)."""
MAX_MESSAGE = 2_000_000
"""The longest WebSocket message the client accepts (bytes)."""
MAX_ACTIONS = 10_000
"""The most actions a game from a server may have."""
RECONNECT_SECONDS = (0.5, 1, 2, 4, 8)


@dataclass(frozen=True)
class Down:
    """The connection dropped (or a message could not be read); the listener says why."""

    reason: str


def parse_link(url: str) -> tuple[str, str, str | None]:
    """``(http base, game id, seat token or None)`` from a game link; GamehallError if it is not
    one."""
    parsed = urllib.parse.urlsplit(url.strip())
    if parsed.scheme not in ("http", "https", "ws", "wss") or not parsed.netloc:
        raise GamehallError(
            f"{url!r} is not a game link like http://HOST:PORT/game/ID (or …?seat=TOKEN)"
        )
    parts = [p for p in parsed.path.split("/") if p]
    game_id = None
    for marker in ("game", "games", "replay"):
        if marker in parts and parts.index(marker) + 1 < len(parts):
            game_id = parts[parts.index(marker) + 1]
    if (
        game_id is None
        or not game_id.replace("_", "").replace("-", "").isalnum()
        or len(game_id) > 64
    ):
        raise GamehallError(f"{url!r} names no game: expected …/game/ID")
    seat = urllib.parse.parse_qs(parsed.query).get("seat", [None])[0]
    scheme = {"ws": "http", "wss": "https"}.get(parsed.scheme, parsed.scheme)
    return f"{scheme}://{parsed.netloc}", game_id, seat


IDENTITY_COOKIE = "gh_player"
SESSION_COOKIE = "gh_session"
"""The cookie of a signed-in session (``gamehall bot`` signs in; the terminal app does not)."""


def cookie_header(identity: str | None, session: str | None = None) -> dict[str, str]:
    """The ``Cookie`` header of an identity and, if signed in, its session."""
    pairs = [(IDENTITY_COOKIE, identity), (SESSION_COOKIE, session)]
    text = "; ".join(f"{name}={value}" for name, value in pairs if value)
    return {"Cookie": text} if text else {}


def identity_path() -> Path:
    """Where the terminal keeps its identity (the server's cookie, as a browser keeps it)."""
    return data_dir() / "identity"


def load_identity() -> str | None:
    try:
        text = identity_path().read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text or None


def save_identity(identity: str) -> None:
    path = identity_path()
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as file:
            file.write(identity)


def _request(
    url: str,
    limit: int,
    identity: str | None = None,
    body: dict[str, Any] | None = None,
    *,
    session: str | None = None,
    given_cookie: str = IDENTITY_COOKIE,
) -> tuple[bytes, str | None]:
    """GET (or POST ``body`` to) ``url`` as the identity (and session); the answer, and the
    cookie ``given_cookie`` (the identity) as the server gave it if it gave one."""
    request = urllib.request.Request(url, method="GET" if body is None else "POST")
    if body is not None:
        request.data = json.dumps(body).encode("utf-8")
        request.add_header("Content-Type", "application/json")
    for name, value in cookie_header(identity, session).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            data = response.read(limit + 1)
            given = _given_identity(response.headers.get_all("Set-Cookie") or [], given_cookie)
    except urllib.error.HTTPError as error:
        try:
            answer = ErrorAnswer.model_validate_json(error.read(10_000)).error
        except ValidationError:
            raise GamehallError(f"the server says: {error.reason}") from None
        raise ServerRefusal(answer.code, answer.message) from None
    except urllib.error.URLError as error:
        raise GamehallError(f"cannot reach {url}: {error.reason}") from None
    except OSError as error:
        raise GamehallError(f"cannot reach {url}: {error}") from None
    if len(data) > limit:
        raise GamehallError(f"{url} sent more than {limit:,} bytes")
    return data, given


def _given_identity(headers: list[str], name: str = IDENTITY_COOKIE) -> str | None:
    from http.cookies import SimpleCookie

    for header in headers:
        cookies: SimpleCookie = SimpleCookie()
        with contextlib.suppress(Exception):
            cookies.load(header)
        if name in cookies:
            return cookies[name].value
    return None


class ServerRefusal(GamehallError):
    """The server refused a request: its error code and message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"the server says: {message}")
        self.code = code


class RemoteSession:
    """An online game seen from this terminal (see the module docstring)."""

    drives_chance = False
    drives_computer = False
    clock = None
    forfeit = None

    def __init__(
        self,
        base: str,
        game_id: str,
        seat: str | None,
        record: Record,
        identity: str | None = None,
        save_path: Path | None = None,
    ) -> None:
        self.base, self.id, self.token = base, game_id, seat
        self.identity = identity
        """The server's cookie for this terminal (see the module docstring)."""
        self.session: str | None = None
        """A signed-in session's cookie (``gamehall bot``'s account), sent with the identity."""
        self.game = record.game()
        self.states: list[State] = [self.game.new_initial_state()]
        self.actions: list[Action] = []
        self.version = -1
        self.you: list[int] = []
        self.ended: str | None = None
        self._went_on = -1
        """Why the game ended off the board (resigned, out of time, …), if it did."""
        self.seats: list[SeatPresence] = []
        self.players = [
            p.lower() for p in (record.tags.get(n.capitalize(), "") for n in self.game.player_names)
        ]
        self.remote_note: str | None = "connecting…"
        self.last_error: str | None = None
        self.save_path: Path | None = save_path or new_save_path(self.game)
        """The copy of the record in the data directory (``--resume`` reconnects from it)."""
        self.server_record = record
        """The game's record as the server gave it when this terminal connected."""
        self.server_state: StateMessage | None = None
        """The game as the server told it when this terminal connected (``over``: it ended)."""
        self.wake: Callable[[], None] | None = None
        self.sent_version: int | None = None
        """The version a move of ours was sent at, until the server answers it."""
        self._inbox: queue.Queue[StateMessage | PresenceMessage | ErrorMessage | Down] = (
            queue.Queue()
        )
        self._socket: Any = None
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._listen, name="gamehall-remote", daemon=True)

    # --- the connection ---------------------------------------------------------------------

    def ws_url(self) -> str:
        parsed = urllib.parse.urlsplit(self.base)
        scheme = "wss" if parsed.scheme == "https" else "ws"
        return f"{scheme}://{parsed.netloc}/ws/games/{self.id}"

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        self._closed.set()
        if self._socket is not None:
            with contextlib.suppress(Exception):  # closing a socket that is already gone
                self._socket.close()

    def _listen(self) -> None:
        """In its own thread: connect, say hello, queue every message; reconnect when dropped."""
        from websockets.sync.client import connect

        attempt = 0
        while not self._closed.is_set():
            try:
                headers = cookie_header(self.identity, self.session)
                with connect(
                    self.ws_url(),
                    max_size=MAX_MESSAGE,
                    open_timeout=10,
                    additional_headers=headers,
                ) as socket:
                    self._socket = socket
                    attempt = 0
                    socket.send(Hello(type="hello", version=self.version).model_dump_json())
                    for text in socket:
                        self._post(self._read(text))
            except Exception as error:  # every network failure: say so, then try again
                if self._closed.is_set():
                    return
                self._post(Down(str(error) or type(error).__name__))
            if self._closed.is_set():
                return
            time.sleep(RECONNECT_SECONDS[min(attempt, len(RECONNECT_SECONDS) - 1)])
            attempt += 1

    @staticmethod
    def _read(text: str | bytes) -> StateMessage | PresenceMessage | ErrorMessage | Down | None:
        """One server message, parsed at the edge with the protocol's models (None: a pong)."""
        try:
            message = SERVER_MESSAGE.validate_json(text)
        except ValidationError as error:
            return Down(
                f"the server sent a message this client cannot read ({error.error_count()} problems)"
            )
        # The terminal app is no chat client: chat lines are left to the browser.
        return None if message.type in ("pong", "chat") else message

    def _post(self, message: StateMessage | PresenceMessage | ErrorMessage | Down | None) -> None:
        if message is not None:
            self._inbox.put(message)
            if self.wake is not None:
                self.wake()

    # --- what the app asks ------------------------------------------------------------------

    def poll(self) -> bool:
        """Take in the messages that arrived; whether the game changed."""
        changed = False
        while True:
            try:
                message = self._inbox.get_nowait()
            except queue.Empty:
                return changed
            if isinstance(message, StateMessage):
                changed |= self._take_state(message)
            elif isinstance(message, PresenceMessage):
                self.seats = list(message.seats)
                self._note()
                changed = True
            elif isinstance(message, ErrorMessage):
                self.last_error = f"the server refused ({message.code}): {message.message}"
                self.sent_version = None
                changed = True
            else:
                self.remote_note = f"connection lost ({message.reason}); reconnecting…"
                changed = True

    def _take_state(self, message: StateMessage) -> bool:
        known = [str(a) for a in self.actions]
        if message.since > len(known):  # the actions after a version this client lacks
            self._ask_resync()
            return False
        actions = known[: message.since] + list(message.actions)
        if message.rules_version != self.game.rules_version:
            self.last_error = (
                f"the server plays {self.game.name} rules version {message.rules_version!r}, "
                f"this gamehall {self.game.rules_version!r}"
            )
            return True
        if len(actions) > MAX_ACTIONS:
            self.last_error = f"the server's game has more than {MAX_ACTIONS:,} moves"
            return True
        texts = [str(a) for a in self.actions]
        if actions[: len(texts)] != texts:  # another history (a resync): replay from the start
            self.states, self.actions = [self.game.new_initial_state()], []
            texts = []
        try:
            for text in actions[len(texts) :]:
                action = self.state.parse_action(text)
                self.states.append(self.state.apply(action))
                self.actions.append(action)
        except GamehallError as error:
            self.last_error = f"the server's game does not replay here: {error}"
            return True
        if str(self.state) != message.position:
            self.last_error = "the server's position differs from its moves replayed here"
            return True
        self.version = message.version
        self.sent_version = None
        self.you = list(message.you)
        self.seats = list(message.seats)
        self.last_error = None
        # Ended off the board (resigned, aborted, out of time, claimed): the server says why.
        if message.over and message.outcome is not None and not self.state.is_terminal():
            self.ended = self._ending_text(message.outcome.reason)
        else:
            self.ended = None
        self._note()
        # A round's end waits for every player: this terminal goes on at once (it shows the
        # round's final position as the last one of the moves).
        pause = message.pause
        if (
            pause is not None
            and set(pause.waiting) & set(self.you)
            and self._socket is not None
            and self._went_on != self.version
        ):
            self._went_on = self.version  # once: later states may still list this seat
            with contextlib.suppress(Exception):  # a dropped socket: the next hello resyncs
                self._socket.send(Continue(type="continue", version=self.version).model_dump_json())
        self._save()
        return True

    @staticmethod
    def _ending_text(reason: str) -> str:
        """The server's reason says who won, if anyone: "Light resigned: Dark wins"."""
        return reason[:1].upper() + reason[1:]

    def _note(self) -> None:
        names = self.game.player_names
        if self.you:
            held = " and ".join(names[s].capitalize() for s in self.you)
            self.remote_note = f"online · you play {held}"
        else:
            self.remote_note = "online · watching"
        away = [
            names[seat.index].capitalize()
            for seat in self.seats
            if seat.kind == "human" and not seat.connected and seat.index not in self.you
        ]
        if away:
            self.remote_note += f" · {', '.join(away)} not connected"

    def _save(self) -> None:
        if self.save_path is None:
            return
        record = make_record(
            self.game,
            self.actions,
            players=self.players,
            final=self.state,
            extra=self.online_tags(),
        )
        try:
            temporary = self.save_path.with_name(self.save_path.name + ".tmp")
            temporary.write_text(str(record), encoding="utf-8")
            temporary.replace(self.save_path)
        except OSError:
            self.save_path = None  # keep playing; the server has the game anyway

    def online_tags(self) -> dict[str, str]:
        """The record's tags that make it an online game (``--resume`` reconnects with them);
        ``Ending``: the server's words for an end off the board, so it is not resumed as
        unfinished."""
        tags = {"Site": self.base, "GameId": self.id}
        if self.ended is not None:
            tags["Ending"] = self.ended
        return tags

    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def over(self) -> bool:
        return self.state.is_terminal() or self.ended is not None

    def now(self) -> float:
        return time.monotonic()

    def human_to_move(self) -> bool:
        waiting = self.sent_version is not None and self.sent_version == self.version
        return not self.over and not waiting and self.state.current_player in self.you

    def computer_to_move(self) -> bool:
        seat = self.state.current_player
        return not self.over and seat >= 0 and seat not in self.you

    def chance_to_move(self) -> bool:
        return not self.over and self.state.is_chance_node()

    def forced_action(self) -> Action | None:
        return None  # the server decides what happens to a forced move

    def seat_label(self, seat: int) -> str:
        name = self.game.player_names[seat].capitalize()
        if seat in self.you:
            return f"{name} (you)"
        info = next((s for s in self.seats if s.index == seat), None)
        if info is not None and info.kind == "computer":
            return f"{name} ({info.level or 'computer'})"
        return name

    def mover_names(self) -> list[str]:
        return [state.player_name() for state in self.states[:-1]]

    def result_text(self) -> str | None:
        if self.ended is not None:
            return self.ended
        outcome = self.state.outcome()
        if outcome is None:
            return None
        if outcome.winner is None:
            return f"Drawn: {outcome.reason}"
        return f"{self.state.player_name(outcome.winner).capitalize()} wins: {outcome.reason}"

    def play(self, action: Action | str) -> None:
        """Send a move; it counts when the server's next ``state`` has it."""
        text = str(action)
        self.state.parse_action(text)  # a move the rules forbid never leaves this terminal
        if self._socket is None:
            raise GamehallError("not connected to the server yet")
        self._socket.send(Move(type="move", version=self.version, action=text).model_dump_json())
        self.sent_version = self.version

    def can_undo(self) -> bool:
        return False

    def undo(self) -> int:
        return 0

    def save(self, path: Path | None = None) -> Path | None:
        target = path or self.save_path
        if target is None:
            return None
        try:
            target.write_text(
                str(
                    make_record(
                        self.game,
                        self.actions,
                        players=self.players,
                        final=self.state,
                        extra=self.online_tags(),
                    )
                ),
                encoding="utf-8",
            )
        except OSError as error:
            raise GamehallError(f"cannot save the game to {target}: {error.strerror}") from None
        return target

    def _ask_resync(self) -> None:
        socket = self._socket
        if socket is not None:
            with contextlib.suppress(Exception):
                socket.send(Resync(type="resync").model_dump_json())

    def computer_agent(self) -> Any:
        raise GamehallError("the server plays the computer's moves")

    def play_chance(self) -> Any:
        raise GamehallError("the server draws chance")


def game_link(base: str, game_id: str) -> str:
    """The game page's link (what :func:`connect_session` opens) from a server and a game id."""
    return f"{base}/game/{urllib.parse.quote(game_id)}"


def connect_session(
    url: str, identity: str | None = None, *, save_path: Path | None = None
) -> RemoteSession:
    """Open the online game a link names (an unused invite link seats you) and start
    listening, as ``identity`` (default: the one this terminal keeps, made on first use);
    the record's copy is kept at ``save_path`` (default: a new file in the data directory).
    The session's ``server_state`` is the game as the server told it then."""
    base, game_id, seat = parse_link(url)
    identity = identity or load_identity()
    quoted = urllib.parse.quote(game_id)
    data, given = _request(f"{base}/api/games/{quoted}/record", MAX_RECORD, identity)
    if given and given != identity:
        identity = given
        save_identity(identity)
    try:
        record = Record.parse(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise GamehallError(f"{base} sent a record that is not UTF-8 text") from None
    # The record does not make or check an identity; the state does: the server gives one to a
    # terminal without, and a new one for an identity it did not sign (an older server's is
    # signed if it knows it), before the invite is posted and the socket opened with it.
    data, given = _request(f"{base}/api/games/{quoted}", MAX_RECORD, identity)
    if given and given != identity:
        identity = given
        save_identity(identity)
    session = RemoteSession(base, game_id, seat, record, identity, save_path)
    try:
        session.server_state = StateMessage.model_validate_json(data)
    except ValidationError:
        raise GamehallError(f"{base} sent a game this client cannot read") from None
    if seat:
        try:
            _request(f"{base}/api/games/{quoted}/join", 10_000, identity, {"seat": seat})
        except ServerRefusal as refusal:
            if refusal.code != "seat_taken":
                raise
            session.remote_note = f"{refusal}; watching"
    session.start()
    return session
