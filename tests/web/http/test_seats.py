"""Seats that cannot be stolen: one identity per browser, seats kept on the server, invites
spent by their first use, rematches that carry no token."""

from __future__ import annotations

import pytest

from gamehall.store import Store
from tests.web.web_helpers import hello, play_out


def _online(server, **options):
    creator = server.client
    answer = creator.post(
        "/api/games", json={"game": "acadmu", "options": {"target": 1, **options}, "mode": "online"}
    ).json()
    return answer, answer["invite"].split("?seat=")[1]


def _tokens(server, game_id: str) -> list[str]:
    return [seat.token for seat in server.hub.games[game_id].row.seats if seat.token]


def test_a_rematch_answer_carries_no_seat_token(server):
    answer, invite = _online(server)
    guest = server.browser()
    assert guest.post(f"/api/games/{answer['id']}/join", json={"seat": invite}).json()["you"] == [1]
    play_out(server, [server.client, guest], answer["id"])
    again = guest.post(f"/api/games/{answer['id']}/rematch")
    assert again.status_code == 200 and again.json()["invite"] is None
    for token in _tokens(server, answer["id"]) + _tokens(server, again.json()["id"]):
        assert token not in again.text  # no seat's secret, the old game's or the new one's
    assert set(_tokens(server, again.json()["id"])).isdisjoint(_tokens(server, answer["id"]))
    # Each person holds their swapped seat by their identity alone.
    assert guest.get(f"/api/games/{again.json()['id']}").json()["you"] == [0]
    assert server.client.get(f"/api/games/{again.json()['id']}").json()["you"] == [1]


def test_a_rematch_is_asked_for_only_once_the_game_is_over(server):
    answer, invite = _online(server)
    guest = server.browser()
    guest.post(f"/api/games/{answer['id']}/join", json={"seat": invite})
    early = guest.post(f"/api/games/{answer['id']}/rematch")
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_over"
    assert server.hub.games[answer["id"]].row.rematch is None


def test_an_invite_seats_the_first_to_open_it_and_is_spent(server):
    answer, invite = _online(server)
    game_id = answer["id"]
    assert server.client.get(f"/api/games/{game_id}/invite").json()["invite"] == answer["invite"]
    first, second = server.browser(), server.browser()
    assert first.post(f"/api/games/{game_id}/join", json={"seat": invite}).json()["you"] == [1]
    # Opened again by the same browser: still its seat.
    assert first.post(f"/api/games/{game_id}/join", json={"seat": invite}).json()["you"] == [1]
    late = second.post(f"/api/games/{game_id}/join", json={"seat": invite})
    assert late.status_code == 409 and late.json()["error"]["code"] == "seat_taken"
    assert "used already" in late.json()["error"]["message"]
    assert second.get(f"/api/games/{game_id}").json()["you"] == []  # a spectator
    with second.websocket_connect(f"/ws/games/{game_id}") as ws:
        state = hello(server, ws)
        assert state["you"] == []
        ws.send_json({"type": "move", "version": state["version"], "action": "pass"})
        assert server.receive_type(ws, "error")["code"] == "not_your_seat"
    # The creator's page no longer shows the link, and nobody else ever gets it.
    assert server.client.get(f"/api/games/{game_id}/invite").json()["invite"] is None
    assert first.get(f"/api/games/{game_id}/invite").json()["invite"] is None
    assert second.get(f"/api/games/{game_id}/invite").json()["invite"] is None


def test_the_creator_can_never_move_for_the_other_seat(server):
    answer, invite = _online(server)
    game_id = answer["id"]
    own = server.client.post(f"/api/games/{game_id}/join", json={"seat": invite})
    assert own.status_code == 409 and own.json()["error"]["code"] == "seat_taken"
    assert "send it to them" in own.json()["error"]["message"]
    assert server.client.get(f"/api/games/{game_id}").json()["you"] == [0]
    with server.client.websocket_connect(f"/ws/games/{game_id}?seat={invite}") as ws:
        assert hello(server, ws)["you"] == [0]
    # The invite is still there for the friend.
    friend = server.browser()
    assert friend.post(f"/api/games/{game_id}/join", json={"seat": invite}).json()["you"] == [1]


@pytest.mark.slow
def test_a_browser_holds_hundreds_of_games_through_one_cookie(server_factory):
    """Seats are kept on the server against the browser's one identity: however many games it
    starts, it sends one cookie, and holds every seat (no cookie per game to be evicted)."""
    from gamehall.web.base.settings import Settings

    with server_factory(settings=Settings(games_per_minute=1000)) as server:
        made = [
            server.client.post("/api/games", json={"game": "akros", "mode": "hotseat"}).json()
            for _ in range(210)
        ]
        assert sorted(server.client.cookies.keys()) == ["gh_browser", "gh_player"]  # and its marker
        for game in (made[0], made[100], made[-1]):
            assert server.client.get(f"/api/games/{game['id']}").json()["you"] == [0, 1]
        assert server.browser().get(f"/api/games/{made[0]['id']}").json()["you"] == []
        cookie = server.client.cookies["gh_player"]
    store = Store(server.db_url)
    try:
        keys = {key for key, _ in store.holders(made[0]["id"])}
        assert len(keys) == 1 and cookie not in keys  # the store keeps a hash, not the cookie
    finally:
        store.dispose()


def test_the_first_page_gives_the_browser_its_identity_before_any_script_asks(server):
    """A page's scripts ask the API several things at once; had the page not set the identity,
    each answer would carry a different new one, and the seats of all but the last be lost."""
    from gamehall.web.http.identity import IDENTITY_COOKIE

    newcomer = server.browser()
    page = newcomer.get("/")
    assert page.status_code == 200 and IDENTITY_COOKIE in page.cookies
    given = newcomer.cookies[IDENTITY_COOKIE]
    created = newcomer.post("/api/games", json={"game": "acadmu", "mode": "hotseat"})
    assert created.status_code == 200 and IDENTITY_COOKIE not in created.cookies
    assert newcomer.cookies[IDENTITY_COOKIE] == given
    # The page again (or any page, the not-found one too) keeps the identity it has.
    for path in ("/", f"/game/{created.json()['id']}", "/no/such/page"):
        assert IDENTITY_COOKIE not in newcomer.get(path).cookies
    assert newcomer.get(f"/api/games/{created.json()['id']}").json()["you"] == [0, 1]
