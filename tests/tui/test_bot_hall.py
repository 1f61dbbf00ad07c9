"""``gamehall bot`` in a real hall (uvicorn on a free port, in a thread): two people make a bot
each, the bots meet over the lobby (one posts a rated seek, the other accepts it), play the
rated game to its end within its clock, and are rated and shown as bots; a bot whose play
stopped mid-game comes back and finishes it. Every wait is for an event the bots set."""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Iterator

import pytest

from gamehall.core import Action, State, register_plugin, unregister_plugin
from gamehall.core.agent import Agent
from gamehall.protocol.hall import BotCreated
from gamehall.tui.bot import (
    LOW_TIME_MS,
    Bot,
    Wanted,
    create_bot,
    load_agent,
    sign_in,
    time_left_ms,
)
from gamehall.tui.remote import SESSION_COOKIE, ServerRefusal, _request
from gamehall.web.http.app import create_app
from tests.live_server import uvicorn_thread
from tests.nim.plugin import PLUGIN
from tests.web.hall_helpers import CHEAP, PASSWORD

ENDS_WITHIN = 120.0
"""The longest a bot game may take (the timeout only fails a broken run)."""


@pytest.fixture
def hall(tmp_path) -> Iterator[str]:
    register_plugin(PLUGIN)
    app = create_app(
        f"sqlite:///{tmp_path / 'hall.sqlite'}",
        static_dir=tmp_path,
        passwords=CHEAP,
        leaderboard=(1, 350),
    )
    try:
        with uvicorn_thread(app) as port:
            yield f"http://127.0.0.1:{port}"
    finally:
        unregister_plugin(PLUGIN.name)


def person(base: str, name: str) -> tuple[str, str]:
    """A person's account signed up: its identity and session cookies."""
    _, identity = _request(f"{base}/api/me", 10_000)
    _, session = _request(
        f"{base}/api/account/signup",
        10_000,
        identity,
        {"username": name, "password": PASSWORD},
        given_cookie=SESSION_COOKIE,
    )
    assert identity and session
    return identity, session


def get(base: str, path: str) -> dict:
    with urllib.request.urlopen(f"{base}{path}", timeout=10) as response:
        return json.loads(response.read())


class Stalls(Agent):
    """Stops playing at its first move (its game thread ends, as if the program died)."""

    def __init__(self, asked: threading.Event) -> None:
        self.asked = asked

    def choose(self, state: State) -> Action:
        self.asked.set()
        raise RuntimeError("the bot's program stopped")


def running(bot: Bot) -> threading.Thread:
    thread = threading.Thread(target=bot.run, daemon=True)
    thread.start()
    return thread


def test_two_bots_play_a_rated_game_over_the_lobby_and_one_comes_back_after_a_drop(hall):
    person(hall, "Ada")
    person(hall, "Bob")
    ada_bot = create_bot(hall, "Ada", PASSWORD, "AdaBot")
    bob_bot = create_bot(hall, "Bob", PASSWORD, "BobBot")
    assert isinstance(ada_bot, BotCreated) and ada_bot.owner == "Ada"
    assert get(hall, "/api/players/AdaBot")["bot"] is True
    assert get(hall, "/api/players/Ada")["bot"] is False

    seeker = Bot(
        hall, "AdaBot", ada_bot.token, load_agent("easy", seed=1),
        Wanted(game="nim", clock="5+3", rated=True, seek=True),
    )  # fmt: skip
    asked = threading.Event()
    stalling = Bot(hall, "BobBot", bob_bot.token, lambda: Stalls(asked), Wanted(rated=True))
    threads = [running(seeker), running(stalling)]
    again: Bot | None = None
    try:
        # BobBot accepted AdaBot's rated seek; its program stops at its first move.
        assert asked.wait(ENDS_WITHIN), "BobBot was never asked for a move"
        stalling.stop()
        (game_id,) = list(stalling.games)
        assert get(hall, f"/api/games/{game_id}")["over"] is False
        # BobBot starts again: it finds the game on its profile and plays it to the end.
        again = Bot(hall, "BobBot", bob_bot.token, load_agent("beginner", seed=2), Wanted())
        threads.append(running(again))
        assert again.ended.wait(ENDS_WITHIN), "the game did not end"
        assert again.finished[0] == game_id
    finally:
        for bot in (seeker, stalling, again):
            if bot is not None:
                bot.stop()
        for thread in threads:
            thread.join(30)

    state = get(hall, f"/api/games/{game_id}")
    assert state["over"] and state["outcome"]["winner"] is not None
    assert {seat["player"] for seat in state["seats"]} == {"AdaBot", "BobBot"}
    assert all(seat["bot"] for seat in state["seats"])
    # Rated: both bots have a nim rating from the game, and the leaderboard shows them tagged.
    for name in ("AdaBot", "BobBot"):
        profile = get(hall, f"/api/players/{name}")
        assert profile["bot"] is True
        assert [(r["game"], r["games"]) for r in profile["ratings"]] == [("nim", 1)]
    board = get(hall, "/api/leaderboard/nim")["players"]
    assert {(row["name"], row["bot"]) for row in board} == {("AdaBot", True), ("BobBot", True)}


def test_a_bot_is_never_rated_against_its_owner_and_only_people_make_bots(hall):
    ada = person(hall, "Ada")
    made = create_bot(hall, "Ada", PASSWORD, "AdaBot")
    bot = sign_in(hall, "AdaBot", made.token)
    # The bot's rated seek: its owner may not accept it; a casual one, yes.
    _request(f"{hall}/api/seeks", 10_000, bot[0], {"game": "nim", "rated": True}, session=bot[1])
    (seek,) = get(hall, "/api/seeks")["seeks"]
    assert seek["bot"] is True and seek["name"] == "AdaBot"
    with pytest.raises(ServerRefusal) as refused:
        _request(f"{hall}/api/seeks/{seek['id']}/accept", 10_000, ada[0], {}, session=ada[1])
    assert refused.value.code == "self_pairing"
    # A second bot of Ada's may not accept it either (one person behind both).
    other = create_bot(hall, "Ada", PASSWORD, "AdaBot2")
    second = sign_in(hall, "AdaBot2", other.token)
    with pytest.raises(ServerRefusal) as refused:
        _request(f"{hall}/api/seeks/{seek['id']}/accept", 10_000, second[0], {}, session=second[1])
    assert refused.value.code == "self_pairing"
    # A bot cannot make bots, and a guest cannot either; a person's own account never becomes
    # a bot (signing in as one with a password is no bot: gamehall bot refuses it).
    with pytest.raises(ServerRefusal) as refused:
        _request(f"{hall}/api/account/bots", 10_000, bot[0], {"name": "Sub"}, session=bot[1])
    assert refused.value.code == "bot_account"
    _, guest = _request(f"{hall}/api/me", 10_000)
    with pytest.raises(ServerRefusal) as refused:
        _request(f"{hall}/api/account/bots", 10_000, guest, {"name": "Mine"})
    assert refused.value.code == "account_needed"
    with pytest.raises(Exception, match="not a bot account"):
        sign_in(hall, "Ada", PASSWORD)
    # A bot run with a wrong token says so and stops (it does not keep failing sign-ins).
    said: list[str] = []
    wrong = Bot(hall, "AdaBot", "not-the-token", load_agent("easy"), say=said.append)
    wrong.run()
    assert "not the one the hall knows" in said[-1]


def test_the_command_makes_a_bot_then_plays_a_rated_game_as_it(hall, tmp_path):
    """``gamehall bot --create`` keeps the token; ``gamehall bot`` (a process of its own) posts
    a rated seek, which a bot of another person (a thread here) accepts and plays to the end."""
    import os
    import subprocess
    import sys

    from typer.testing import CliRunner

    from gamehall.cli.app import app
    from gamehall.tui.bot import bot_token_path, load_token

    person(hall, "Ada")
    person(hall, "Bob")
    env = {"GAMEHALL_USERNAME": "Ada", "GAMEHALL_PASSWORD": PASSWORD}
    made = CliRunner().invoke(app, ["bot", "--connect", hall, "--create", "Robo"], env=env)
    assert made.exit_code == 0, made.output
    assert "Made the bot Robo (owner: Ada)" in made.output
    path = bot_token_path(hall, "Robo")
    assert path.stat().st_mode & 0o077 == 0  # the owner's alone
    token = load_token(hall, "Robo", None)
    wrong = CliRunner().invoke(app, ["bot", "--connect", hall, "--name", "Robo", "--agent", "x"])
    assert wrong.exit_code == 1 and "give a level" in wrong.output

    command = [
        sys.executable, "-c", "from gamehall.cli.app import main; main()",
        "bot", "--connect", hall, "--name", "Robo", "--agent", "gamehall.ai.basic:RandomAgent",
        "--game", "akros", "--clock", "5+3", "--rated", "--seek",
    ]  # fmt: skip
    process = subprocess.Popen(
        command,
        env={**os.environ, "GAMEHALL_BOT_TOKEN": token},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    bob_bot = create_bot(hall, "Bob", PASSWORD, "BobBot")
    accepter = Bot(hall, "BobBot", bob_bot.token, load_agent("gamehall.ai.basic:RandomAgent"))
    thread = running(accepter)
    try:
        assert accepter.ended.wait(ENDS_WITHIN), "the game did not end"
    finally:
        accepter.stop()
        process.terminate()
        process.wait(30)
        thread.join(30)
    (game_id,) = accepter.finished[:1]
    state = get(hall, f"/api/games/{game_id}")
    assert state["over"]
    assert {seat["player"] for seat in state["seats"]} == {"Robo", "BobBot"}
    assert get(hall, "/api/players/Robo")["ratings"][0]["games"] == 1


def test_a_bot_whose_session_ends_signs_in_again_and_plays_on(hall):
    """Signing the bot out everywhere closes its lobby socket (the server ends the session's
    sockets): it connects again, is no longer signed in, signs in again, and still plays."""
    person(hall, "Ada")
    person(hall, "Bob")
    ada_bot = create_bot(hall, "Ada", PASSWORD, "AdaBot")
    bob_bot = create_bot(hall, "Bob", PASSWORD, "BobBot")
    random_agent = load_agent("gamehall.ai.basic:RandomAgent")
    seeker = Bot(hall, "AdaBot", ada_bot.token, random_agent, Wanted(game="nim", seek=True))
    thread = running(seeker)
    accepter = Bot(hall, "BobBot", bob_bot.token, random_agent, Wanted(game="nim"))
    threads: list[threading.Thread] = []
    try:
        assert seeker.in_lobby.wait(ENDS_WITHIN)
        seeker.signed_in.clear()
        identity, session = sign_in(hall, "AdaBot", ada_bot.token)  # another session of it
        _request(f"{hall}/api/account/logout", 10_000, identity, {"everywhere": True},
                 session=session)  # fmt: skip
        assert seeker.signed_in.wait(ENDS_WITHIN), "the bot did not sign in again"
        assert seeker.sign_ins == 2
        threads.append(running(accepter))
        assert seeker.ended.wait(ENDS_WITHIN), "the bot's game did not end"
    finally:
        seeker.stop()
        accepter.stop()
        thread.join(30)
        for other in threads:
            other.join(30)
    assert get(hall, f"/api/games/{seeker.finished[0]}")["over"]


def test_a_bots_clock_is_counted_down_from_the_servers_last_figure():
    """The low-time fallback reads the clock as it stands when the bot is to choose: the
    running seat's figure less the time since the message came; a stopped clock as sent."""
    remaining = [5_000, 5_000, None]
    assert time_left_ms(remaining, 0, 0, since_ms=2_500) == 2_500  # running: counted down
    assert time_left_ms(remaining, 0, 1, since_ms=2_500) == 5_000  # not running: as sent
    assert time_left_ms(remaining, None, 0, since_ms=2_500) == 5_000  # no clock running
    assert time_left_ms(remaining, 0, 2, since_ms=0) is None  # a seat without a clock
    assert time_left_ms(None, 0, 0, since_ms=0) is None  # a game without clocks
    assert time_left_ms(remaining, 0, 0, since_ms=2_500) < LOW_TIME_MS < 5_000
