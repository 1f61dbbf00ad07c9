"""The attacks of issue 33 on the lobby, chat and the compute lanes, for bench/abuse.py (which
runs them: ``--only lobby-hello-flood,...``): a lobby socket flooding `hello`, seeks made with no
lobby page, a spectators' chat flood, bidi characters in chat, hint lanes held by made-up
identities, and reviews asked for by strangers."""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from server_kit import Browser, answer_codes, dumps, play, ws_url


def _lobby_url(base: str) -> str:
    return f"{base.replace('http', 'ws', 1)}/ws/lobby"


def attack_lobby_hello_flood(context: Any) -> str:
    """Three lobby sockets sending `hello` as fast as they can without reading, then reading
    what came back."""
    hello = dumps({"type": "hello"})
    results = []

    def flood(browser: Browser) -> None:
        received, lobbies, code = 0, 0, None
        sent = 0
        try:
            with connect(
                _lobby_url(context.base), additional_headers=browser.ws_headers(), max_size=None
            ) as ws:
                with contextlib.suppress(ConnectionClosed):
                    for _ in range(3000):
                        ws.send(hello)
                        sent += 1
                while True:
                    raw = ws.recv(timeout=10)
                    received += len(raw)
                    lobbies += json.loads(raw)["type"] == "lobby"
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else 1006
        except TimeoutError:
            code = "open"
        results.append((sent, received, lobbies, code))

    threads = [threading.Thread(target=flood, args=(context.browser(),)) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return "; ".join(
        f"{sent:,} sent, {received / 1024:.0f} KB back ({lobbies} lobbies), closed {code}"
        for sent, received, lobbies, code in results
    )


def attack_rest_seeks(context: Any) -> str:
    """Seeks made over REST by a client that never opens a lobby socket: how long they stay."""
    browser = context.browser()
    made = [
        browser.http.post("/api/seeks", json={"game": "acadmu", "clock": "5+3"}) for _ in range(3)
    ]
    ids = {a.json()["id"] for a in made if a.status_code in (200, 201)}
    started = time.monotonic()
    while time.monotonic() - started < 45:
        listed = {s["id"] for s in browser.http.get("/api/seeks").json()["seeks"]}
        if not ids & listed:
            return (
                f"{len(ids)} seeks made ({answer_codes(made)}); gone "
                f"{time.monotonic() - started:.0f} s later"
            )
        time.sleep(1)
    return f"{len(ids)} seeks made ({answer_codes(made)}); still open after 45 s"


def _chat_answer(ws: Any) -> str:
    """The answer to a chat message just sent: `chat` or the error's code."""
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] == "chat" and message["lines"]:
            return "chat"
        if message["type"] == "error":
            return str(message["code"])


def attack_spectator_chat(context: Any) -> str:
    """200 made-up identities of one address writing in the spectators' chat of the victims'
    online game; then the players write in theirs."""
    game_id = context.victims.online["id"]
    address = f"10.8.{context.rng.randrange(256)}.{context.rng.randrange(1, 255)}"
    answers: Counter[str] = Counter()
    for n in range(200):
        fan = Browser(context.base, address, identity=secrets.token_hex(32))
        with connect(ws_url(context.base, game_id), additional_headers=fan.ws_headers()) as ws:
            ws.send(dumps({"type": "chat", "text": f"from the stands {n}"}))
            answers[_chat_answer(ws)] += 1
    creator = context.victims.creator
    with connect(ws_url(context.base, game_id), additional_headers=creator.ws_headers()) as ws:
        ws.send(dumps({"type": "chat", "text": "good luck"}))
        player = _chat_answer(ws)
    told = ", ".join(f"{k} ×{v}" for k, v in answers.most_common())
    return f"spectators: {told}; then a player's line: {player}"


def attack_bidi_chat(context: Any) -> str:
    """Chat lines with a right-to-left override and zero-width characters."""
    game_id = context.victims.online["id"]
    fan = context.browser()
    text = "evil\u202egnp.exe ad\u200bmin\u2066x\u2069\ufeff"
    with connect(ws_url(context.base, game_id), additional_headers=fan.ws_headers()) as ws:
        ws.send(dumps({"type": "chat", "text": text}))
        while True:
            message = json.loads(ws.recv(timeout=10))
            if message["type"] == "error":
                return f"refused: {message['code']}: {message['message']}"
            if message["type"] == "chat" and message["lines"]:
                shown = message["lines"][-1]["text"]
                return f"sent {text!r}, shown {shown!r}"


def attack_lane_hoarding(context: Any) -> str:
    """32 made-up identities of one address asking for hints at once, then a player of another
    address asking for one."""
    address = f"10.7.{context.rng.randrange(256)}.{context.rng.randrange(1, 255)}"
    hoarders = [Browser(context.base, address, identity=secrets.token_hex(32)) for _ in range(32)]
    games = []
    for browser in hoarders:
        answer = browser.create({"game": "acadmu", "mode": "hotseat"})
        if answer.status_code == 200:
            games.append((browser, answer.json()["id"]))
    answers: list[httpx.Response] = []

    def ask(browser: Browser, game_id: str) -> None:
        answers.append(browser.http.post(f"/api/games/{game_id}/hint", json={}))

    threads = [threading.Thread(target=ask, args=pair) for pair in games]
    for thread in threads:
        thread.start()
    player = context.browser()
    game = player.created({"game": "acadmu", "mode": "hotseat"})
    time.sleep(0.5)  # the hoarders' hints are asked for first
    mine = player.http.post(f"/api/games/{game['id']}/hint", json={})
    for thread in threads:
        thread.join(120)
    return (
        f"{len(games)} hoarders' hints: {answer_codes(answers)}; "
        f"the player's hint meanwhile: {answer_codes([mine])}"
    )


def attack_review_strangers(context: Any) -> str:
    """16 strangers asking for the review of a finished game they did not play."""
    owner = context.browser()
    small = {"discs": "RT:BS,RS:BT,YC:BS,BC:YT,YS:RC,RC:YT,BT:YS,YT:RS", "target": 1}
    game = owner.created({"game": "acadmu", "mode": "hotseat", "options": small})
    state = play(context.base, owner, game["id"], 10_000, context.rng)
    if not state["over"]:
        return "the game did not end"
    asked = [context.browser().http.post(f"/api/games/{game['id']}/review") for _ in range(16)]
    status = owner.http.get(f"/api/games/{game['id']}/review").json()["status"]
    return f"16 strangers: {answer_codes(asked)}; the review's status after: {status}"


LOBBY_ATTACKS: dict[str, Callable[[Any], str]] = {
    "lobby-hello-flood": attack_lobby_hello_flood,
    "rest-seeks": attack_rest_seeks,
    "spectator-chat": attack_spectator_chat,
    "bidi-chat": attack_bidi_chat,
    "lane-hoarding": attack_lane_hoarding,
    "review-strangers": attack_review_strangers,
}
