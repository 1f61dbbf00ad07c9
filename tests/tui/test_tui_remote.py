"""``gamehall tui --connect``: the terminal app on a game of a real server (uvicorn on a free
port, in a thread), seated by a seat link or watching, over the web protocol."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from http.cookies import SimpleCookie

import pytest
from test_tui_app import DESKTOP, PHONE, panel_title, shot, svg_text, until

from gamehall.core import GamehallError
from gamehall.tui.app import GamehallApp
from gamehall.tui.remote import RemoteSession, connect_session, parse_link
from gamehall.web.http.app import create_app
from tests.live_server import uvicorn_thread

pytestmark = pytest.mark.anyio


@pytest.fixture
def server(tmp_path) -> Iterator[str]:
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite'}", static_dir=tmp_path)
    with uvicorn_thread(app) as port:
        yield f"http://127.0.0.1:{port}"


def create(base: str, body: dict) -> tuple[dict, str]:
    """POST /api/games; the answer and the creator's identity (the cookie its seats are kept
    against on the server)."""
    request = urllib.request.Request(
        f"{base}/api/games",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        answer = json.loads(response.read())
        cookies = SimpleCookie()
        for header in response.headers.get_all("Set-Cookie") or []:
            cookies.load(header)
    return answer, cookies["gh_player"].value


def join(base: str, game_id: str, secret: str) -> str:
    """POST /api/games/{id}/join as a new browser: it holds the invite's seat; returns the
    identity the server gave it (the server signs identities: a made-up one holds nothing)."""
    request = urllib.request.Request(
        f"{base}/api/games/{game_id}/join",
        data=json.dumps({"seat": secret}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert json.loads(response.read())["you"]
        cookies = SimpleCookie()
        for header in response.headers.get_all("Set-Cookie") or []:
            cookies.load(header)
    return cookies["gh_player"].value


def server_actions(base: str, game_id: str) -> list[str]:
    with urllib.request.urlopen(f"{base}/api/games/{game_id}", timeout=10) as response:
        return json.loads(response.read())["actions"]


def take_messages_until(
    sessions: list[RemoteSession],
    done: Callable[[], bool],
    what: str,
    between: Callable[[], None] = lambda: None,
    timeout: float = 20.0,
) -> None:
    """Take in the sessions' messages as they arrive (each session wakes this thread when one
    does, as it wakes the app), calling ``between`` after each look, until ``done()``; the
    timeout only fails a broken run."""
    arrived = threading.Event()
    for session in sessions:
        session.wake = arrived.set
    deadline = time.monotonic() + timeout
    while True:
        arrived.clear()  # before polling: a message that comes after it wakes the wait below
        for session in sessions:
            session.poll()
        between()
        if done():
            return
        assert arrived.wait(max(0.0, deadline - time.monotonic())), f"{what} within {timeout} s"


def test_links_are_read_or_refused():
    assert parse_link("http://h:8000/game/g_abc?seat=T1") == ("http://h:8000", "g_abc", "T1")
    assert parse_link("https://h/game/g_abc") == ("https://h", "g_abc", None)
    assert parse_link("ws://h:1/ws/games/g_x") == ("http://h:1", "g_x", None)
    for bad in ("ftp://h/game/x", "http://h/", "nonsense", "http://h/game/a%20b"):
        with pytest.raises(GamehallError):
            parse_link(bad)


async def test_play_an_online_game_against_the_servers_computer(server):
    answer, creator = create(
        server,
        {"game": "acadmu", "mode": "computer", "level": "beginner", "options": {"target": 1}},
    )
    session = connect_session(answer["url"], identity=creator)  # the creator, at a terminal
    app = GamehallApp(session)
    try:
        async with app.run_test(size=DESKTOP) as pilot:
            for _ in range(3):
                await until(pilot, lambda: session.human_to_move() or session.over, timeout=30)
                if session.over:
                    break
                before = len(session.actions)
                while len(session.actions) == before:
                    await pilot.press("enter")
                    await until(
                        pilot,
                        lambda before=before: (
                            len(session.actions) > before or session.human_to_move()
                        ),
                        timeout=30,
                    )
            assert "you play Dark" in (session.remote_note or "")
            text = svg_text(await shot(pilot, "online-acadmu"))
            assert "online" in text and "Dark (you)" in text
    finally:
        session.close()
    # The server stored the moves made at this terminal.
    assert server_actions(server, answer["id"])[: len(session.actions)] == [
        str(a) for a in session.actions
    ]


async def test_watch_an_online_akros_game(server):
    answer, creator = create(server, {"game": "akros", "mode": "hotseat"})
    watcher = connect_session(answer["url"])
    player = connect_session(answer["url"], identity=creator)
    app = GamehallApp(watcher)
    try:
        async with app.run_test(size=PHONE) as pilot:

            def player_to_move() -> bool:
                player.poll()  # this client has no app of its own to take its messages in
                return player.human_to_move()

            await until(pilot, lambda: watcher.version >= 0)
            assert not watcher.human_to_move()
            assert "watching" in (watcher.remote_note or "")
            # The seated client moves; the watcher sees the move arrive.
            await until(pilot, player_to_move)
            move = str(player.state.legal_actions()[0])
            player.play(move)
            await until(pilot, lambda: move in [str(a) for a in watcher.actions])
            await pilot.press("u")  # nothing to undo in an online game
            assert "Nothing to undo" in app.status_text
            text = svg_text(await shot(pilot, "online-akros-watching"))
            assert "watching" in text and "Temple" in text
            assert panel_title(app) is None
    finally:
        watcher.close()
        player.close()


def test_an_invite_link_seats_the_first_terminal_and_no_other(server):
    answer, _creator = create(server, {"game": "akros", "mode": "online", "seat": 0})
    first = connect_session(answer["invite"])
    identity_file = first.identity
    second = connect_session(answer["invite"], identity="another-terminal-0123456789")
    try:
        take_messages_until(
            [first, second], lambda: first.version >= 0 and second.version >= 0, "no state came"
        )
        assert first.you == [1] and second.you == []
        assert "watching" in (second.remote_note or "")
        assert "seat" not in first.ws_url()  # the invite is posted once, never sent again
        assert identity_file is not None  # kept for the next run, as a browser keeps it
    finally:
        first.close()
        second.close()


def test_a_server_error_is_one_line(server):
    with pytest.raises(GamehallError, match=r"the server says: .*g_nosuchgame"):
        connect_session(f"{server}/game/g_nosuchgame")


def test_chat_is_left_aside_and_a_resignation_ends_the_game_here(server):
    answer, creator = create(server, {"game": "acadmu", "mode": "online"})
    session = connect_session(answer["url"], identity=creator)
    guest_identity = join(server, answer["id"], answer["invite"].split("?seat=")[1])
    from websockets.sync.client import connect

    def wait(check) -> None:
        take_messages_until([session], check, "no such state came")  # chat must not upset it

    try:
        wait(lambda: session.version >= 0)
        url = f"{server.replace('http', 'ws')}/ws/games/{answer['id']}"
        cookie = {"Cookie": f"gh_player={guest_identity}"}
        with connect(url, open_timeout=10, additional_headers=cookie) as guest:
            guest.send(json.dumps({"type": "hello", "version": -1}))
            guest.send(json.dumps({"type": "chat", "text": "hello from the browser"}))
            version = session.version
            guest.send(json.dumps({"type": "resign"}))
            wait(lambda: session.version > version)
        assert session.over and session.last_error is None
        # Before both sides have moved a resignation is an abort, with no result.
        assert session.result_text() == "Game aborted: Light resigned before both sides had moved"
    finally:
        session.close()


def test_two_terminals_go_on_from_a_rounds_end_by_themselves(server):
    answer, creator = create(
        server, {"game": "acadmu", "mode": "online", "options": {"target": 99}}
    )
    sessions = [
        connect_session(answer["url"], identity=creator),
        connect_session(answer["invite"], identity="another-terminal-0123456789"),
    ]
    rounds = lambda: sum(1 for a in sessions[0].actions if str(a).startswith("pour"))  # noqa: E731

    def move_whoever_is_to() -> None:
        for session in sessions:
            assert session.last_error is None, session.last_error
            if session.human_to_move():
                session.play(session.state.legal_actions()[0])

    try:
        # the second pour follows the first round's end
        take_messages_until(
            sessions, lambda: rounds() >= 2, "the round's end was not gone on from",
            between=move_whoever_is_to, timeout=60,
        )  # fmt: skip
    finally:
        for session in sessions:
            session.close()


def test_resume_reopens_an_online_game_online_and_says_when_it_is_over(server, monkeypatch, capsys):
    """``--resume`` of an online game reconnects to its server as this terminal (whose identity
    holds the seat), not as a local game with both seats human; once the game has ended it says
    so, and the game is resumed no more."""
    from gamehall.cli import tui as tui_command
    from gamehall.tui.remote import save_identity
    from gamehall.tui.session import last_unfinished, read_record

    answer, creator = create(server, {"game": "acadmu", "mode": "online"})
    save_identity(creator)  # this terminal is the creator, as after a first --connect
    first = connect_session(answer["url"])
    try:
        take_messages_until([first], lambda: first.version >= 0, "no state came")
    finally:
        first.close()
    path = last_unfinished()
    assert path == first.save_path
    assert read_record(path).tags["GameId"] == answer["id"]

    opened: list[RemoteSession] = []
    monkeypatch.setattr(tui_command, "_run", opened.append)
    tui_command._resume(path, None, [], None)
    [again] = opened
    try:
        assert isinstance(again, RemoteSession) and again.save_path == path
        take_messages_until([again], lambda: again.version >= 0, "no state came")
        assert again.you == [0] and "you play Dark" in (again.remote_note or "")
        # the other side (a browser) resigns: the game is over on the server
        from websockets.sync.client import connect

        guest = join(server, answer["id"], answer["invite"].split("?seat=")[1])
        url = f"{server.replace('http', 'ws')}/ws/games/{answer['id']}"
        with connect(
            url, open_timeout=10, additional_headers={"Cookie": f"gh_player={guest}"}
        ) as ws:
            ws.send(json.dumps({"type": "hello", "version": -1}))
            ws.send(json.dumps({"type": "resign"}))
            while not json.loads(ws.recv(timeout=10)).get("over"):
                pass  # the server's answers until the one with the game over
    finally:
        again.close()
    opened.clear()
    capsys.readouterr()
    tui_command._resume(path, None, [], None)
    assert opened == []  # no game opens
    said = capsys.readouterr().out
    assert "That online game is over: Game aborted" in said
    assert f"gamehall tui --connect {server}/game/{answer['id']}" in said.replace("\n", " ")
    assert last_unfinished() is None  # the saved copy now keeps its end
