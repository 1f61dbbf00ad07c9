"""A game's record as the web hall lets a person download it replays and reviews with the
project's own tools, however the game ended: by resignation, on time, by a claim after the
opponent left, or aborted before both sides had moved.

Each game is played through the app in-process (time on an injected clock), its record
downloaded over HTTP, and ``gamehall replay`` and ``gamehall review`` run on the file through
the command line's entry point."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from gamehall.cli.app import main
from gamehall.core import Record
from gamehall.web.base.clock import LAG_ALLOWANCE_MS
from gamehall.web.play.conduct import LEAVE_GRACE_UNTIMED_MS
from tests.web.web_helpers import FakeClock, hello


def _online(server: Any, clock: str | None = None) -> tuple[str, Any, Any]:
    """An online game of Äcädmü between two browsers: its id, seat 0's and seat 1's."""
    creator, guest = server.client, server.browser()
    body: dict[str, Any] = {"game": "acadmu", "mode": "online"}
    if clock is not None:
        body["clock"] = clock
    answer = creator.post("/api/games", json=body).json()
    assert answer["you"] == [0], answer
    token = answer["invite"].split("?seat=")[1]
    assert guest.post(f"/api/games/{answer['id']}/join", json={"seat": token}).status_code == 200
    return answer["id"], creator, guest


def _both_move_once(server: Any, sockets: dict[int, Any], state: dict[str, Any]) -> dict[str, Any]:
    """Each side makes one move (the first legal one); both sockets see each."""
    for _ in range(2):
        mover = state["to_move"]
        sockets[mover].send_json(
            {"type": "move", "version": state["version"], "action": state["legal"][0]["text"]}
        )
        state = server.receive_state(sockets[mover], state["version"] + 1)
        server.receive_state(sockets[1 - mover], state["version"])
    return state


def _resigned(server: Any, clock: FakeClock) -> str:
    game_id, creator, guest = _online(server)
    with (
        creator.websocket_connect(f"/ws/games/{game_id}") as ws0,
        guest.websocket_connect(f"/ws/games/{game_id}") as ws1,
    ):
        state = hello(server, ws0)
        hello(server, ws1)
        state = _both_move_once(server, {0: ws0, 1: ws1}, state)
        ws1.send_json({"type": "resign"})
        over = server.receive_state(ws0, state["version"] + 1)
        assert over["over"] and over["outcome"]["result"] == "1-0"
    return game_id


def _flagged(server: Any, clock: FakeClock) -> str:
    game_id, creator, guest = _online(server, clock="1+0")
    with (
        creator.websocket_connect(f"/ws/games/{game_id}") as ws0,
        guest.websocket_connect(f"/ws/games/{game_id}") as ws1,
    ):
        state = hello(server, ws0)
        hello(server, ws1)
        state = _both_move_once(server, {0: ws0, 1: ws1}, state)
        assert state["clock"]["running"] is not None
        clock.advance(60_000 + LAG_ALLOWANCE_MS)  # the whole minute and the allowance
        over = server.receive_state(ws0, state["version"] + 1)
        assert over["over"] and "ran out of time" in over["outcome"]["reason"]
    return game_id


def _claimed(server: Any, clock: FakeClock) -> str:
    game_id, creator, guest = _online(server)
    with creator.websocket_connect(f"/ws/games/{game_id}") as ws0:
        with guest.websocket_connect(f"/ws/games/{game_id}") as ws1:
            state = hello(server, ws0)
            hello(server, ws1)
            state = _both_move_once(server, {0: ws0, 1: ws1}, state)
        presence = server.receive_type(ws0, "presence")  # the guest left
        assert presence["seats"][1]["connected"] is False
        clock.advance(LEAVE_GRACE_UNTIMED_MS)
        ws0.send_json({"type": "claim"})
        over = server.receive_state(ws0, state["version"] + 1)
        assert over["over"] and over["outcome"]["result"] == "1-0"
    return game_id


def _aborted(server: Any, clock: FakeClock) -> str:
    game_id, creator, _guest = _online(server)
    with creator.websocket_connect(f"/ws/games/{game_id}") as ws0:
        state = hello(server, ws0)
        ws0.send_json({"type": "abort"})
        over = server.receive_state(ws0, state["version"] + 1)
        assert over["over"] and over["outcome"]["result"] == "*"
    return game_id


ENDINGS = {
    "resignation": (_resigned, "1-0", "ended off the board", "Light resigned"),
    "time forfeit": (_flagged, None, "ended off the board", "ran out of time"),
    "claim": (_claimed, "1-0", "ended off the board", "Dark claimed the win"),
    "aborted": (_aborted, "*", "was aborted", "aborted"),
}
"""How each game is played to its end, its Result (None: whoever ran out of time loses), and
what replay and review say of it."""


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        main(list(argv))
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("termination", list(ENDINGS))
def test_a_downloaded_record_replays_and_reviews_however_the_game_ended(
    server_factory, tmp_path: Path, capsys, termination
):
    play, result, said, detail = ENDINGS[termination]
    clock = FakeClock()
    with server_factory(clock=clock) as server:
        game_id = play(server, clock)
        answer = server.client.get(f"/api/games/{game_id}/record")
        assert answer.status_code == 200
        assert "attachment" in answer.headers["content-disposition"]
        path = tmp_path / f"acadmu-{game_id}.txt"
        path.write_bytes(answer.content)

    record = Record.parse(path.read_text(encoding="utf-8"))
    assert record.tags["Termination"] == termination
    assert detail in record.tags["Ending"]
    if result is not None:
        assert record.tags["Result"] == result

    code, out, err = _run(capsys, "replay", str(path))
    assert (code, err) == (0, ""), err
    assert said in out and detail in out
    assert f'Termination "{termination}", result {record.tags["Result"]}' in out or (
        termination == "aborted" and "with no result" in out
    )
    code, out, err = _run(capsys, "replay", str(path), "--json")
    assert code == 0, err
    payload = json.loads(out)
    assert (payload["termination"], payload["result"]) == (termination, record.tags["Result"])
    assert payload["over"] is False and said in payload["ending"]

    code, out, err = _run(capsys, "review", str(path), "--seconds", "0.2", "--simulations", "20")
    assert code == 0, err
    annotated = Record.parse(out)
    note = annotated.tags["ReviewNote"]
    assert said in note
    assert "no final exact outcome" in note or "nothing to judge" in note
    decisions = sum(1 for mover in _movers(record) if mover)
    assert len(annotated.comments) == decisions  # every move played is judged
    assert annotated.replay()  # the annotated record replays too


def _movers(record: Record) -> list[bool]:
    """For each action of the record, whether a player (not chance) made it."""
    states = record.replay()
    return [state.current_player >= 0 for state in states[:-1]]


def test_a_resigned_game_is_reviewed_on_the_site_too(server_factory):
    """The web's review takes a game ended off the board as the commands do: the moves played
    are judged, and the review says there is no final exact outcome (issue 34's first case)."""
    budget = {"seconds": 0.2, "simulations": 20, "estimate_seconds": 0.2, "total_seconds": 30.0}
    clock = FakeClock()
    with server_factory(clock=clock, review_budget=budget) as server:
        game_id, creator, guest = _online(server)
        with (
            creator.websocket_connect(f"/ws/games/{game_id}") as ws0,
            guest.websocket_connect(f"/ws/games/{game_id}") as ws1,
        ):
            state = hello(server, ws0)
            hello(server, ws1)
            state = _both_move_once(server, {0: ws0, 1: ws1}, state)
            ws1.send_json({"type": "resign"})
            assert server.receive_state(ws0, state["version"] + 1)["over"]
        asked = creator.post(f"/api/games/{game_id}/review")
        assert asked.status_code == 200, asked.text

        async def reviewed() -> None:
            job = server.app.state.assist.reviews.jobs.get(game_id)
            if job is not None and job.task is not None:
                with anyio.fail_after(120):  # fails only a broken run
                    await asyncio.shield(job.task)

        server.client.portal.call(reviewed)
        answer = creator.get(f"/api/games/{game_id}/review").json()
        assert answer["status"] == "done", answer
        note = answer["review"]["unfinished"]
        assert "Light resigned" in note and "Termination" not in note  # a person's words
        # Issue 34: the review sums each player up in words a player knows, by seat name, with
        # the counts, the accuracy and the moves told in words; the page names the players
        # from the game's seats.
        review = answer["review"]
        summary = {player["name"]: player for player in review["summary"]}
        assert set(summary) == {"dark", "light"}
        for player in summary.values():
            assert player["moves"] == 1
            assert player["mistakes"] == player["classes"]["mistake"]
            assert player["blunders"] == player["classes"]["blunder"]
            assert player["counts_text"] in player["text"]
            assert player["accuracy_text"].startswith("Accuracy")
            assert player["accuracy_text"] in player["text"]
            assert "gave up" not in player["text"] and " pp" not in player["text"]
        assert summary["dark"]["text"].startswith("1 move judged")
        assert all(move["words"] for move in review["moves"])
        seats = creator.get(f"/api/games/{game_id}").json()["seats"]
        assert [seat["name"] for seat in seats] == ["dark", "light"]
        assert all(seat["kind"] == "human" and seat["player"] for seat in seats)
