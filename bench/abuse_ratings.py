"""The rating attacks of issue 33 (points 2 and 6), run by ``bench/abuse.py`` like its others
(``--only rating-farm,concurrent-losses,self-pairing-signout``); kept here so abuse.py stays
one screenful of attacks a concern.

Each is bounded (a few dozen games, loopback only) and says what the hall made of it: the rated
wins a farm of five accounts got, whether one player's losses at once all counted, and whether
a browser's two accounts could play each other rated after signing out.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from websockets.sync.client import connect

from server_kit import Browser, dumps

PASSWORD = "correct horse battery staple"
RATED = {"game": "acadmu", "clock": "10+5", "rated": True}
"""A rated seek of the bench's attacks (Äcädmü, two seats)."""
ALTS = 5
FARM_ROUNDS = 12
"""Rated games each of the farmer's accounts plays the farmer (2 resigned at once, then 10
played, then 1 past the day's limit)."""
LOSSES = 6
"""Games of one player that end at the same moment (concurrent-losses)."""


class Member(Browser):
    """A browser with an account: its WebSockets carry every cookie (the session too)."""

    def ws_headers(self) -> dict[str, str]:
        headers = {"origin": self.base, "x-forwarded-for": self.address}
        cookies = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        if cookies:
            headers["cookie"] = cookies
        return headers

    def signup(self, name: str) -> Member:
        answer = self.http.post(
            "/api/account/signup", json={"username": name, "password": PASSWORD}
        )
        if answer.status_code != 200:
            raise RuntimeError(f"cannot sign up {name}: {answer.status_code} {answer.text[:200]}")
        return self


def _member(context: Any, name: str) -> Member:
    address = f"10.7.{context.rng.randrange(256)}.{context.rng.randrange(1, 255)}"
    return Member(context.base, address).signup(name)


def _name(context: Any, stem: str) -> str:
    return f"{stem}{context.rng.randrange(10**6):06d}"


def _game_socket(context: Any, member: Member, game_id: str) -> Any:
    url = f"{context.base.replace('http', 'ws', 1)}/ws/games/{game_id}"
    return connect(url, additional_headers=member.ws_headers())


def _state(ws: Any, at_least: int = 0, timeout: float = 30) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=timeout))
        if message["type"] == "state" and message["version"] >= at_least:
            return dict(message)


def _rated_game(seeker: Member, accepter: Member) -> tuple[int, str]:
    """A rated seek of ``seeker`` (seat 0) accepted by ``accepter``: the accept's HTTP status
    and error code (or game id)."""
    made = seeker.http.post("/api/seeks", json={**RATED, "side": 0})
    if made.status_code != 201:
        return made.status_code, made.json()["error"]["code"]
    answer = accepter.http.post(f"/api/seeks/{made.json()['id']}/accept")
    if answer.status_code != 200:
        seeker.http.delete(f"/api/seeks/{made.json()['id']}")
        return answer.status_code, answer.json()["error"]["code"]
    return 200, answer.json()["id"]


def _resign(context: Any, member: Member, game_id: str, start: threading.Barrier | None) -> str:
    """Resign a game (at the barrier, if given); its result text."""
    with _game_socket(context, member, game_id) as ws:
        ws.send(dumps({"type": "hello", "version": -1}))
        state = _state(ws)
        if start is not None:
            start.wait(timeout=60)
        ws.send(dumps({"type": "resign"}))
        over = _state(ws, state["version"] + 1)
        return str((over.get("outcome") or {}).get("result"))


def _first_moves(context: Any, game_id: str, players: dict[int, Member]) -> None:
    """Play until each side has made a move (chance moves by itself)."""
    sockets = {seat: _game_socket(context, m, game_id) for seat, m in players.items()}
    try:
        for ws in sockets.values():
            ws.send(dumps({"type": "hello", "version": -1}))
        state = _state(sockets[0])
        moved: set[int] = set()
        while moved != set(players):
            mover = state["to_move"]
            if mover is None or state["over"]:
                state = _state(sockets[0], state["version"] + 1)
                continue
            action = context.rng.choice(state["legal"])["text"]
            time.sleep(0.07)  # within the per-client message rate
            sockets[mover].send(
                dumps({"type": "move", "version": state["version"], "action": action})
            )
            moved.add(mover)
            state = _state(sockets[0], state["version"] + 1)
    finally:
        for ws in sockets.values():
            ws.close()


def _profile(member: Member, name: str) -> dict[str, Any]:
    return dict(member.http.get(f"/api/players/{name}").json())


def _rated_games(member: Member, name: str) -> tuple[int, int]:
    """(games, history points) of the player's Äcädmü rating (0, 0: none)."""
    for rating in _profile(member, name)["ratings"]:
        if rating["game"] == "acadmu":
            return int(rating["games"]), len(rating["history"])
    return 0, 0


def _patient_farm(context: Any, farmer_name: str, alts: list[Member], rounds: int) -> Counter[str]:
    """Each alt plays the farmer ``rounds`` rated games, a move each before the alt resigns
    (each alt seeks, the farmer accepts from a browser of its own per alt: the games-per-minute
    limits are per creator and per address); what the seeks and games came to."""
    patient: Counter[str] = Counter()

    def play_alt(index: int) -> None:
        alt = alts[index]
        seat = Member(context.base, f"10.6.{context.rng.randrange(256)}.{index + 1}")
        seat.http.post("/api/account/login", json={"username": farmer_name, "password": PASSWORD})
        for _ in range(rounds):
            status, what = _rated_game(alt, seat)
            if status != 200:
                patient[f"{status} {what}"] += 1
                continue
            _first_moves(context, what, {0: alt, 1: seat})
            patient["result " + _resign(context, alt, what, None)] += 1

    with ThreadPoolExecutor(len(alts)) as pool:
        list(pool.map(play_alt, range(len(alts))))
    return patient


def attack_rating_farm_one_browser(context: Any) -> str:
    """The patient farm with its five accounts all made in one browser (signing up and out in
    turn), each then playing from a browser of its own: the leaderboard counts them as one
    opponent (issue 33, point 2)."""
    farmer_name = _name(context, "farm")
    farmer = _member(context, farmer_name)
    maker = Member(context.base, f"10.5.{context.rng.randrange(256)}.1")
    names = [_name(context, "alt") for _ in range(ALTS)]
    for name in names:
        maker.signup(name)
        maker.http.post("/api/account/logout")
    alts = []
    for name in names:
        alt = Member(context.base, f"10.5.{context.rng.randrange(256)}.2")
        alt.http.post("/api/account/login", json={"username": name, "password": PASSWORD})
        alts.append(alt)
    patient = _patient_farm(context, farmer_name, alts, 10)
    time.sleep(1.0)  # the hall rates each game right after it ends: give the last a moment
    games, _ = _rated_games(farmer, farmer_name)
    board = farmer.http.get("/api/leaderboard/acadmu").json()
    listed = [row["rank"] for row in board["players"] if row["name"] == farmer_name]
    return (
        f"{ALTS} accounts made in one browser, 10 games each with a move first: {dict(patient)}; "
        f"the farmer's rated games {games}; on the leaderboard (which asks for "
        f"{board['min_games']} games against {board['min_opponents']} people): "
        f"{'rank ' + str(listed[0]) if listed else 'no'}"
    )


def attack_rating_farm(context: Any) -> str:
    """Five accounts of one person feed a sixth rated wins (issue 33, point 2). First as the
    issue did it: the five accept the farmer's rated seeks and all resign at once, twice over.
    Then the patient way: each makes a move before resigning, 11 games an account (each alt
    seeks, the farmer accepts from a browser of its own per alt: the games-per-minute limits
    are per creator and per address)."""
    farmer_name = _name(context, "farm")
    farmer = _member(context, farmer_name)
    alts = [_member(context, _name(context, "alt")) for _ in range(ALTS)]
    quick: Counter[str] = Counter()
    for _ in range(2):
        made = []
        for alt in alts:
            status, what = _rated_game(farmer, alt)
            quick[f"{status} {what}" if status != 200 else "accepted"] += 1
            if status == 200:
                made.append((alt, what))
        start = threading.Barrier(len(made))
        with ThreadPoolExecutor(ALTS) as pool:
            quick.update(
                pool.map(lambda m, s=start: "result " + _resign(context, m[0], m[1], s), made)
            )
    after_quick = _rated_games(farmer, farmer_name)

    patient = _patient_farm(context, farmer_name, alts, FARM_ROUNDS - 1)
    time.sleep(1.0)  # the hall rates each game right after it ends: give the last a moment
    games, history = _rated_games(farmer, farmer_name)
    board = farmer.http.get("/api/leaderboard/acadmu").json()["players"]
    listed = [row["rank"] for row in board if row["name"] == farmer_name]
    return (
        f"resigning at once, {2 * ALTS} games: {dict(quick)}, the farmer's rated games "
        f"{after_quick[0]}; moving first, {ALTS} x {FARM_ROUNDS - 1} tries: {dict(patient)}, "
        f"the farmer's rated games {games} (history {history}), on the leaderboard: "
        f"{'rank ' + str(listed[0]) if listed else 'no'}"
    )


def attack_concurrent_losses(context: Any) -> str:
    """One player loses six rated games at the same moment (each after both sides moved): every
    loss must count in the games count and the history (issue 33, point 6)."""
    loser_name = _name(context, "loser")
    loser = _member(context, loser_name)
    games = []
    for _ in range(LOSSES):
        winner = _member(context, _name(context, "win"))
        status, game_id = _rated_game(loser, winner)
        if status != 200:
            return f"could not make the games: {status} {game_id}"
        _first_moves(context, game_id, {0: loser, 1: winner})
        games.append(game_id)
    start = threading.Barrier(LOSSES)
    with ThreadPoolExecutor(LOSSES) as pool:
        results = Counter(pool.map(lambda g: _resign(context, loser, g, start), games))
    counted = (0, 0)
    for _ in range(100):  # each is rated right after it ends; wait for every one
        counted = _rated_games(loser, loser_name)
        if counted == (LOSSES, LOSSES):
            break
        time.sleep(0.1)
    return (
        f"{LOSSES} resignations at once: results {dict(results)}; the loser's rated games "
        f"{counted[0]}, history {counted[1]} (every loss counted: "
        f"{'yes' if counted == (LOSSES, LOSSES) else 'NO'})"
    )


def attack_self_pairing_after_signout(context: Any) -> str:
    """One browser: account A makes a rated seek, signs out, signs up as B, and B accepts A's
    seek (issue 33, point 2: the browser's marker outlives signing out)."""
    browser = _member(context, a_name := _name(context, "selfa"))
    made = browser.http.post("/api/seeks", json={**RATED, "side": 0})
    if made.status_code != 201:
        return f"could not seek: {made.status_code} {made.text[:120]}"
    out = browser.http.post("/api/account/logout")
    browser.signup(_name(context, "selfb"))
    answer = browser.http.post(f"/api/seeks/{made.json()['id']}/accept")
    code = answer.json().get("error", {}).get("code") if answer.status_code != 200 else "accepted"
    stranger = _member(context, _name(context, "other"))
    other = stranger.http.post(f"/api/seeks/{made.json()['id']}/accept")
    return (
        f"{a_name}'s rated seek, then sign-out ({out.status_code}) and a second account in the "
        f"same browser: its accept {answer.status_code} {code}; another person's accept "
        f"{other.status_code}"
    )


__all__ = [
    "attack_concurrent_losses",
    "attack_rating_farm",
    "attack_rating_farm_one_browser",
    "attack_self_pairing_after_signout",
]
