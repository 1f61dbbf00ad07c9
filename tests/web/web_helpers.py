"""Helpers for the web tests: every message the server sends is validated against the protocol's
models, and one helper plays random games over the WebSocket."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import urljoin

from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from pydantic import BaseModel

from gamehall.protocol import SERVER_MESSAGE, ErrorAnswer

TEST_HOST = "localhost"
"""The host the test clients ask for (one the server answers for by default)."""

# --- what the server sends, checked ---


def check_server_message(text: str) -> dict[str, Any]:
    """A WebSocket message from the server, validated against the protocol (strictly: a field
    the models do not declare, a missing one or a wrong type fails the test)."""
    SERVER_MESSAGE.validate_json(text, strict=True)
    return json.loads(text)


HISTORY = ("actions", "movers", "words", "chapters", "ends")
"""The state message's lists with one entry per action, sent as a delta after ``since``."""


class History:
    """What one client knows of a game's history, kept from the deltas of its state messages
    (as the front end keeps it): each state's lists (:data:`HISTORY`) are made whole again,
    and the delta as sent is kept under ``sent``."""

    def __init__(self) -> None:
        self.actions: list[str] | None = None
        self.lists: dict[str, list[Any]] = {key: [] for key in HISTORY}

    def know(self, state: dict[str, Any]) -> None:
        """A whole state the client already has (say from REST)."""
        self.lists = {key: list(state.get(key, [])) for key in HISTORY}
        self.actions = self.lists["actions"]

    def take(self, message: dict[str, Any]) -> dict[str, Any]:
        if message.get("type") != "state":
            return message
        since = message.get("since", 0)  # (a server before deltas sent every action)
        # since: how many of the actions this client had are still right (a takeback may have
        # undone some); the version counts the log's entries, at least the actions.
        sizes = {len(message.get(key, message["actions"])) for key in HISTORY}
        assert sizes == {len(message["actions"])}, "the history's lists differ in length"
        assert len(message["actions"]) <= message["version"] - since
        if since == 0:
            whole = {key: list(message.get(key, [])) for key in HISTORY}
        else:
            assert self.actions is not None, "a delta before any state"
            assert len(self.actions) >= since, (len(self.actions), since)
            whole = {key: self.lists[key][:since] + message.get(key, []) for key in HISTORY}
        self.lists = whole
        self.actions = whole["actions"]
        sent = {"since": since, "actions": message["actions"], "movers": message["movers"]}
        return {**message, **{key: list(value) for key, value in whole.items()}, "sent": sent}


def _answer_model(app: Any, method: str, path: str) -> type[BaseModel] | None:
    for route in app.routes:
        if (
            isinstance(route, APIRoute)
            and method in route.methods
            and route.path_regex.match(path)
            and isinstance(route.response_model, type)
            and issubclass(route.response_model, BaseModel)
        ):
            return route.response_model
    return None


class CheckedClient(TestClient):
    """A TestClient whose every JSON answer from the API is validated against its model:
    errors against :class:`ErrorAnswer`, the rest against the route's answer model (every
    ``/api`` route with a JSON answer must have one)."""

    checked = 0

    def __init__(self, app: Any, *args: Any, **kwargs: Any) -> None:
        # The server answers only the host names it is configured for (localhost by default),
        # not Starlette's made-up "testserver".
        kwargs.setdefault("base_url", f"http://{TEST_HOST}")
        super().__init__(app, *args, **kwargs)

    def websocket_connect(self, url: str, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        return super().websocket_connect(urljoin(f"ws://{TEST_HOST}", url), *args, **kwargs)

    def request(self, method: str, url: Any, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        response = super().request(method, url, *args, **kwargs)
        path = response.request.url.path
        json_answer = response.headers.get("content-type", "").startswith("application/json")
        if method.upper() == "HEAD":
            return response  # GET's headers, no body to check
        if path.startswith("/api/") or json_answer:
            if not json_answer:
                return response  # records and rules are text
            if response.status_code >= 400:
                ErrorAnswer.model_validate_json(response.content, strict=True)
            else:
                model = _answer_model(self.app, method.upper(), path)
                assert model is not None, f"{method} {path} answers JSON with no model"
                model.model_validate_json(response.content, strict=True)
            CheckedClient.checked += 1
        return response


# --- random games over the WebSocket ---


def _same_game(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two readers' states of one version agree on everything but the reader's own seats (and
    the delta each was sent)."""
    return {**a, "you": None, "sent": None, "since": None} == {
        **b,
        "you": None,
        "sent": None,
        "since": None,
    }


def play_random(
    server: Any,
    state: dict[str, Any],
    *,
    seats: Mapping[int, Any],
    watchers: Sequence[Any] = (),
    rng: random.Random,
    moves: int | None = None,
    until: Callable[[dict[str, Any]], bool] | None = None,
    max_versions: int = 5000,
) -> dict[str, Any]:
    """Play random legal moves over the WebSocket from ``state`` (the latest state every socket
    has seen) and return the last state.

    ``seats`` maps each seat this test plays to its socket (one socket may hold several seats:
    hot-seat); ``watchers`` are further sockets (spectators, the other players). Chance and
    computer seats move by themselves. Play stops at the end of the game, after ``moves`` moves
    of ours, when ``until(state)`` holds, or when a person this test does not play is to move.

    Along the way it checks that every socket sees every version, one by one (chance included),
    that all of them agree, and that each move we sent is the action played, by its seat.
    """
    sockets = list(dict.fromkeys([*seats.values(), *watchers]))
    made = 0
    for _ in range(max_versions):
        if state["over"] or (until is not None and until(state)):
            return state
        if state["pause"] is not None:
            if any(seat not in seats for seat in state["pause"]["waiting"]):
                return state  # someone this test does not play must go on
            state = go_on(server, state, seats=seats, sockets=sockets)
            continue
        player = state["to_move"]
        sent = None
        if player in seats:
            if moves is not None and made >= moves:
                return state
            sent = rng.choice(state["legal"])
            assert sent["index"] >= 0 and sent["text"]
            seats[player].send_json(
                {"type": "move", "version": state["version"], "action": sent["text"]}
            )
            made += 1
        elif player is not None and state["seats"][player]["kind"] == "human":
            return state  # someone else's turn
        news = [server.receive_state(ws) for ws in sockets]
        for new in news:
            assert new["version"] == state["version"] + 1, (new["version"], state["version"])
            assert _same_game(new, news[0])
            assert new["actions"][:-1] == state["actions"]
            assert len(new["movers"]) == len(new["actions"]) <= new["version"]
            assert new["last"]["text"] == new["actions"][-1]
            assert new["last"]["mover"] == new["movers"][-1]
        if sent is not None:
            assert news[0]["actions"][-1] == sent["text"] and news[0]["movers"][-1] == player
        state = news[0] if sockets else state
    raise AssertionError(f"no end after {max_versions} versions")


def go_on(
    server: Any, state: dict[str, Any], *, seats: Mapping[int, Any], sockets: Sequence[Any]
) -> dict[str, Any]:
    """At a pause (a round's end), every seat this test plays goes on; returns the state of the
    next version (the pause gone), as every socket sees it."""
    waiting = state["pause"]["waiting"]
    assert waiting and all(seat in seats for seat in waiting), waiting
    for ws in {id(seats[seat]): seats[seat] for seat in waiting}.values():
        ws.send_json({"type": "continue", "version": state["version"]})
    news = [server.receive_state(ws, state["version"] + 1) for ws in sockets]
    assert all(new["version"] == news[0]["version"] for new in news)
    return news[0]


def hello(
    server: Any, ws: Any, version: int = -1, known: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Say hello on a socket and return the state. With ``known`` (a whole state the client
    already has, say from REST) the client says its version, and the answer is a delta."""
    if known is not None:
        history = server.histories.setdefault(id(ws), History())
        history.know(known)
        version = known["version"]
    ws.send_json({"type": "hello", "version": version})
    return server.receive_state(ws)


@contextlib.contextmanager
def greeted(
    server: Any, first: Any, second: Any, game_id: str
) -> Iterator[tuple[Any, Any, dict[str, Any]]]:
    """Two browsers' sockets on a game, in that order, each having said hello; the sockets and
    the state the first one was sent."""
    path = f"/ws/games/{game_id}"
    with first.websocket_connect(path) as ws_a, second.websocket_connect(path) as ws_b:
        state = hello(server, ws_a)
        hello(server, ws_b)
        yield ws_a, ws_b, state


class FakeClock:
    """A clock the test moves by hand (:class:`gamehall.web.base.clock.Clock`): ``advance`` wakes
    the server's timers whose time has come, from any thread; ``asleep`` waits until each timer
    it woke has looked at the new time, and says what the sleeping ones wait for."""

    def __init__(self, start: int = 1_800_000_000_000) -> None:
        self.ms = start
        self._changed = threading.Condition()
        self._sleeping: dict[asyncio.Future[None], int] = {}
        """Each sleeping timer's wake-up, and the time it waits for."""
        self._woken: set[asyncio.Future[None]] = set()
        """Wake-ups sent by ``advance`` whose timer has not yet looked at the new time."""

    def now(self) -> int:
        return self.ms

    async def sleep_until(self, deadline_ms: int) -> None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] | None = None
        try:
            while True:
                with self._changed:
                    if future is not None:  # woken: this timer has looked at the time
                        self._woken.discard(future)
                        self._changed.notify_all()
                    if self.ms >= deadline_ms:
                        return
                    future = loop.create_future()
                    self._sleeping[future] = deadline_ms
                    self._changed.notify_all()
                await future
        finally:
            if future is not None:  # returned, or cancelled (the game's timer was re-armed)
                with self._changed:
                    self._sleeping.pop(future, None)
                    self._woken.discard(future)
                    self._changed.notify_all()

    def advance(self, ms: int) -> None:
        with self._changed:
            self.ms += ms
            woken = list(self._sleeping)
            self._sleeping.clear()
            self._woken.update(woken)
        for future in woken:
            future.get_loop().call_soon_threadsafe(_wake, future)

    def asleep(self, timers: int = 1, timeout: float = 20.0) -> list[int]:
        """Once every timer ``advance`` woke has looked at the new time (and gone back to sleep,
        or on to what was due) and at least ``timers`` timers sleep: the times they wait for,
        soonest first. The timeout only fails a broken run (a timer that never sleeps again)."""

        def settled() -> bool:
            return not self._woken and len(self._sleeping) >= timers

        with self._changed:
            assert self._changed.wait_for(settled, timeout), (
                f"{len(self._woken)} timers woken and not settled, {len(self._sleeping)} asleep"
            )
            return sorted(self._sleeping.values())


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def play_out(server: Any, browsers: Sequence[Any], game_id: str, seed: int = 0) -> dict[str, Any]:
    """Play a game to its end with random moves, each browser for the seats it holds (computer
    seats and chance move by themselves); the last state."""
    import contextlib

    with contextlib.ExitStack() as stack:
        sockets = [
            stack.enter_context(b.websocket_connect(f"/ws/games/{game_id}")) for b in browsers
        ]
        states = [hello(server, ws) for ws in sockets]
        seats = {
            seat: ws for ws, state in zip(sockets, states, strict=True) for seat in state["you"]
        }
        state = play_random(
            server, states[0], seats=seats, watchers=sockets, rng=random.Random(seed)
        )
    assert state["over"], "the game did not end"
    return state
