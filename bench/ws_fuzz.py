"""Fuzz the WebSocket protocol (not a test): ``--messages`` malformed, hostile or merely wrong
messages, and the server must answer every one without an error of its own and change nothing
stored.

Starts ``gamehall serve`` (a temporary SQLite store) and makes games of every kind: online games of
both games (a few moves in), a hot-seat game, a game against the computer and a finished one. Then
``--connections`` clients at once send messages drawn at random from the kinds below, as spectators
(no identity), as the holder of a seat that is not to move, and as the holder of the seat to move
(a hot-seat browser holds both): random bytes, random text, JSON of every other shape, deep
nesting, huge and negative numbers, NaN, unknown types and fields, ``hello`` with any version,
``resync``, ``ping``, and ``move`` messages with a stale or odd version, or an action that is
mangled (never a legal one), too long, or holds a NUL or a lone surrogate; some messages are larger
than the server reads (the socket is closed; the client reconnects). The per-connection message
and resync rates are lifted so every message reaches the parser (``--keep-limits`` to keep them).

Counts, at the end: messages sent, answers by type and error code, closes by code, and the server
errors: tracebacks in the server's log, ``store_error``/``bad_game`` answers, closes with 1011,
5xx answers to REST afterwards; then every stored row of every game, compared with before::

    .venv/bin/python bench/ws_fuzz.py --messages 100000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server_kit import Browser, Server, changed_rows, dumps, online_pair, store_rows

WINDOW = 20
"""How many messages a client sends ahead of the answers."""
JUNK = "#~!§\x01\u200b€"


def _settled(state: dict[str, Any]) -> bool:
    """Whether a person is to move (or the game is over): no chance or computer to come."""
    mover = state["to_move"]
    return bool(state["over"]) or (mover is not None and state["seats"][mover]["kind"] == "human")


def _move(client: Browser, base: str, game_id: str, moves: int, rng: random.Random) -> None:
    """Play ``moves`` random legal moves of ``client``'s seats over the WebSocket, and wait
    until the chance and computer moves after them are played."""
    from websockets.sync.client import connect as sync_connect

    url = f"{base.replace('http', 'ws')}/ws/games/{game_id}"
    with sync_connect(url, additional_headers=client.ws_headers(), max_size=None) as ws:
        ws.send(dumps({"type": "hello", "version": -1}))
        made, expected = 0, 0
        while True:
            state = json.loads(ws.recv(timeout=120))
            if state["type"] != "state" or state["version"] < expected or not _settled(state):
                continue
            if made >= moves or state["over"]:
                return
            if state["to_move"] in state["you"]:
                action = rng.choice(state["legal"])["text"]
                ws.send(dumps({"type": "move", "version": state["version"], "action": action}))
                made, expected = made + 1, state["version"] + 1
            else:
                return


class Target:
    """One connection's point of view: a game, and whose headers (seat holder or spectator)."""

    def __init__(self, game_id: str, headers: dict[str, str], legal: list[str]) -> None:
        self.game_id = game_id
        self.headers = headers
        self.legal = legal
        self.version = 0


def mangled(action: str, legal: set[str], rng: random.Random) -> str:
    """An action text that is surely not a legal one: junk put in, or a legal text cut short."""
    for _ in range(20):
        kind = rng.randrange(5)
        if kind == 0:
            text = action + rng.choice(JUNK)
        elif kind == 1:
            text = rng.choice(JUNK) + action
        elif kind == 2 and len(action) > 1:
            i = rng.randrange(len(action))
            text = action[:i] + rng.choice(JUNK) + action[i + 1 :]
        elif kind == 3:
            text = "".join(rng.choice(JUNK + "RBYTSC:x/ ") for _ in range(rng.randrange(1, 30)))
        else:
            text = action[::-1] + rng.choice(JUNK)
        if text not in legal and any(c in text for c in JUNK):
            return text
    return "#" * 5


def message(target: Target, rng: random.Random, largest: int) -> str | bytes:
    """One fuzzed message for ``target``."""
    if rng.random() < 0.005:  # larger than the server reads: the socket is closed
        return dumps({"type": "hello", "version": -1, "pad": "x" * (largest + 10)})
    kind = rng.randrange(15)
    version = target.version
    # Never the current version (nothing moves unless a fuzzed move is played, so the version
    # this client saw last is the current one).
    odd_versions = [-1, -(10**9), 10**30, version - 1, 2**63, version + 0.5, "1", None, True]
    action = rng.choice(target.legal) if target.legal else "RTxBS"
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300)))
    if kind == 1:
        return "".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(rng.randrange(0, 200)))
    if kind == 2:
        shapes: list[Any] = [[], [1, 2], 7, -1.5, None, True, "move", {"type": None}, {"": ""}]
        return dumps(rng.choice(shapes))
    if kind == 3:
        depth = rng.choice([50, 500, 2000])
        return (
            "[" * depth + "]" * depth if rng.random() < 0.5 else '{"a":' * depth + "1" + "}" * depth
        )
    if kind == 4:
        return (
            '{"type":"move","version":NaN,"action":"x"}'
            if rng.random() < 0.5
            else ('{"type":"hello","version":Infinity}')
        )
    if kind == 5:
        return dumps(
            {"type": rng.choice(["Hello", "MOVE", "join", "rematch", "", "state", "error"])}
        )
    if kind == 6:
        return dumps({"type": "hello", "version": rng.choice(odd_versions)})
    if kind == 7:
        return dumps({"type": "hello", "version": rng.choice([-1, 0, version, version - 3])})
    if kind == 8:
        return dumps({"type": "resync", **({"extra": 1} if rng.random() < 0.3 else {})})
    if kind == 9:
        return dumps({"type": "ping"})
    if kind == 10:  # a legal action for a stale or odd version
        return dumps({"type": "move", "version": rng.choice(odd_versions[:5]), "action": action})
    if kind == 11:  # the right version, a mangled action
        text = mangled(action, set(target.legal), rng)
        return dumps({"type": "move", "version": version, "action": text})
    if kind == 12:
        text = rng.choice([action + "\x00", "\x00", action[:1] + "\\ud800", "\\udfff" + action])
        return json.dumps({"type": "move", "version": version, "action": text}).replace(
            "\\\\u", "\\u"
        )
    if kind == 13:
        return dumps({"type": "move", "version": version, "action": "R" * rng.choice([201, 5000])})
    # Fields the protocol does not have (they are ignored), or ill-typed, and a duplicate key.
    extra = rng.choice([{"seat": "x"}, {"version": 1, "action": 3}, {"token": "a" * 40}])
    text = mangled(action, set(target.legal), rng)
    return dumps({"type": "move", "version": version, "action": text, **extra})[:-1] + (
        ',"type":"ping"}' if rng.random() < 0.5 else "}"
    )


class Link:
    """One connection's count of answers, and an event set by each."""

    def __init__(self) -> None:
        self.answered = 0
        self.news = asyncio.Event()


class Tally:
    def __init__(self) -> None:
        self.sent = 0
        self.answers: Counter[str] = Counter()
        self.closes: Counter[int] = Counter()
        self.server_errors = 0
        self.accepted = 0
        self.unanswered = 0


async def answers_up_to(link: Link, reader: asyncio.Task[None], count: int) -> bool:
    """Wait until ``count`` messages are answered; False if the connection ended first or
    10 s passed without an answer."""
    while link.answered < count:
        if reader.done():
            return False
        link.news.clear()
        waiter = asyncio.ensure_future(link.news.wait())
        done, _ = await asyncio.wait(
            [reader, waiter], timeout=10, return_when=asyncio.FIRST_COMPLETED
        )
        waiter.cancel()
        if not done:
            return False
    return True


async def client(
    base: str, target: Target, count: int, tally: Tally, seed: int, largest: int
) -> None:
    rng = random.Random(seed)
    url = f"{base.replace('http', 'ws')}/ws/games/{target.game_id}"
    left = count
    while left > 0:
        try:
            async with connect(
                url, additional_headers=target.headers, max_size=None, open_timeout=60
            ) as ws:

                async def read() -> None:
                    with contextlib.suppress(ConnectionClosed):
                        await answers()

                link = Link()

                async def answers(link: Link = link) -> None:
                    async for raw in ws:
                        answer = json.loads(raw)
                        kind = answer["type"]
                        if kind != "presence":
                            link.answered += 1
                            link.news.set()
                        if kind == "error":
                            tally.answers[f"error {answer['code']}"] += 1
                            if answer["code"] in ("store_error", "bad_game"):
                                tally.server_errors += 1
                        else:
                            tally.answers[kind] += 1
                        if kind == "state":
                            if answer["version"] > target.version and answer["since"] != 0:
                                tally.accepted += 1  # (a fuzzed move played: never expected)
                            target.version = answer["version"]
                            target.legal = [item["text"] for item in answer["legal"]]

                reader = asyncio.create_task(read())
                try:
                    sent = 0
                    while left > 0:
                        text = message(target, rng, largest)
                        big = len(text) > largest
                        # At most WINDOW messages ahead of the answers (each message has at
                        # least one), none before one too large, so every message sent is one
                        # the server read.
                        if not await answers_up_to(link, reader, sent if big else sent - WINDOW):
                            tally.unanswered += sent - link.answered
                            break
                        await ws.send(text)
                        tally.sent += 1
                        sent += 1
                        left -= 1
                        if big:  # answered by a close (1009)
                            await asyncio.wait([reader], timeout=30)
                            break
                    else:
                        if not await answers_up_to(link, reader, sent):
                            tally.unanswered += sent - link.answered
                        await ws.close()
                finally:
                    await asyncio.wait([reader], timeout=30)
                    reader.cancel()
                tally.closes[ws.close_code or 1000] += 1
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else 1006
            tally.closes[code] += 1
            if code == 1011:
                tally.server_errors += 1
        except (OSError, TimeoutError):
            tally.closes[-1] += 1
            await asyncio.sleep(0.2)


def setup(server: Server, rng: random.Random) -> list[Target]:
    """Games of every kind, a few moves in, and the connections' points of view on them."""
    base = server.base
    targets: list[Target] = []
    spectator: dict[str, str] = {"origin": base}
    for game, options in (("acadmu", {"target": 6}), ("akros", {})):
        found, creator, friend = online_pair(
            base, {"game": game, "options": options}, ("10.3.0.1", "10.3.0.2")
        )
        _move(creator, base, found["id"], 3, rng)  # then it is one of the two seats' turn
        for who in (creator, friend):
            targets.append(Target(found["id"], who.ws_headers(), []))
        targets.append(Target(found["id"], spectator, []))
    hotseat = Browser(base, "10.3.0.3")
    game = hotseat.created({"game": "akros", "mode": "hotseat"})
    _move(hotseat, base, game["id"], 6, rng)
    targets += [Target(game["id"], hotseat.ws_headers(), []), Target(game["id"], spectator, [])]
    computer = Browser(base, "10.3.0.4")
    game = computer.created({"game": "acadmu", "mode": "computer", "level": "easy"})
    _move(computer, base, game["id"], 2, rng)
    targets.append(Target(game["id"], computer.ws_headers(), []))
    done = Browser(base, "10.3.0.5")
    game = done.created({"game": "acadmu", "mode": "hotseat", "options": {"target": 1}})
    _move(done, base, game["id"], 10_000, rng)  # to its end
    targets.append(Target(game["id"], done.ws_headers(), []))
    for target in targets:
        state = httpx.get(f"{base}/api/games/{target.game_id}", timeout=30).json()
        target.version = state["version"]
        target.legal = [item["text"] for item in state["legal"]]
    return targets


async def fuzz(server: Server, targets: list[Target], args: argparse.Namespace) -> Tally:
    tally = Tally()
    each = args.messages // args.connections
    extra = args.messages - each * args.connections
    await asyncio.gather(
        *(
            client(
                server.base,
                targets[i % len(targets)],
                each + (1 if i < extra else 0),
                tally,
                args.seed * 1000 + i,
                16 * 1024,
            )
            for i in range(args.connections)
        )
    )
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--connections", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep-limits", action="store_true", help="keep the message rates")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    lifted = {} if args.keep_limits else {"messages_per_second": 1e9, "resyncs_per_minute": 10**9}
    with tempfile.TemporaryDirectory(prefix="gamehall-fuzz-") as workdir:
        server = Server(Path(workdir), lifted)
        server.start()
        try:
            targets = setup(server, rng)
            before = store_rows(server.db_path)
            started = time.monotonic()
            tally = asyncio.run(fuzz(server, targets, args))
            seconds = time.monotonic() - started
            rest_5xx = 0
            for target in targets:
                answer = httpx.get(f"{server.base}/api/games/{target.game_id}", timeout=30)
                rest_5xx += answer.status_code >= 500
            meta = httpx.get(f"{server.base}/api/meta", timeout=30).status_code
            after = store_rows(server.db_path)
        finally:
            server.stop()
        tracebacks = server.tracebacks()
    changed = changed_rows(before, after)
    errors = tally.server_errors + rest_5xx + tracebacks + (meta != 200)
    games = len({t.game_id for t in targets})
    print(
        f"messages sent:          {tally.sent:,} over {args.connections} connections, "
        f"{seconds:.0f} s ({tally.sent / seconds:,.0f}/s)"
    )
    print(f"answers:                {dict(tally.answers.most_common())}")
    print(f"closes by code:         {dict(tally.closes.most_common())} (1009: a message too large)")
    print(f"unanswered (10 s):      {tally.unanswered}")
    print(f"fuzzed moves played:    {tally.accepted}")
    print(
        f"server errors:          {errors} (tracebacks {tracebacks}, store_error/bad_game or "
        f"1011 {tally.server_errors}, REST 5xx {rest_5xx})"
    )
    print(
        f"stored rows changed:    {changed} (of {games} games, "
        f"{sum(len(rows) for rows in before.values())} rows)"
    )
    sys.exit(1 if errors or changed else 0)


if __name__ == "__main__":
    main()
