"""The server's edge: security headers, cookies, Origin, body sizes, bad text, unknown pages, and
options that are never tried as file names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from gamehall.core import game_class, game_names
from gamehall.web.base.settings import Settings

PAGES = ["/", "/game/g_abcdefghij", "/rules/acadmu", "/api/meta", "/static/app.js", "/nowhere"]


def test_every_answer_carries_the_security_headers(server):
    answers = [server.client.get(path) for path in PAGES]
    answers.append(server.client.post("/api/games", json={"game": "chess"}))  # an error
    for answer in answers:
        csp = answer.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "no-referrer"


def test_the_front_end_has_no_inline_script():
    """The CSP forbids inline script: the page loads its code as modules from /static."""
    page = (Path(__file__).parents[3] / "src/gamehall/web/static/index.html").read_text()
    assert "<script>" not in page and "onload=" not in page and "onclick=" not in page
    assert '<script type="module" src="/static/app.js"></script>' in page


def _cookie_header(answer) -> str:
    return "; ".join(answer.headers.get_list("set-cookie"))


def test_the_identity_cookie_is_httponly_and_lax_and_secure_behind_https(server_factory):
    with server_factory() as server:
        header = _cookie_header(server.client.get("/api/games"))
        assert "gh_player=" in header and "HttpOnly" in header and "SameSite=lax" in header
        assert "Secure" not in header
    with server_factory(settings=Settings(https=True)) as server:
        answer = server.client.get("/api/games")
        header = _cookie_header(answer)
        assert "HttpOnly" in header and "SameSite=lax" in header and "Secure" in header
        assert "max-age" in answer.headers["strict-transport-security"]


def test_one_cookie_per_browser_whatever_it_plays(server):
    """No cookie per game: a browser that starts many games keeps one cookie."""
    names = set()
    for _ in range(5):
        answer = server.client.post("/api/games", json={"game": "akros", "mode": "hotseat"})
        names |= {c.split("=")[0] for c in answer.headers.get_list("set-cookie")}
    assert names <= {"gh_player", "gh_browser"}  # the identity, and the browser's marker
    assert set(server.client.cookies.keys()) == {"gh_player", "gh_browser"}


# --- origin ---------------------------------------------------------------------------------------


def test_a_page_of_another_origin_cannot_act(server_factory):
    evil = {"origin": "http://127.0.0.1:9999"}  # another port of the same host
    body = {"game": "acadmu", "mode": "hotseat"}
    with server_factory() as server:
        refused = server.client.post("/api/games", json=body, headers=evil)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "bad_origin"
        assert server.client.get("/api/games").json()["games"] == []  # nothing was made
        own = {"origin": "http://localhost"}
        made = server.client.post("/api/games", json=body, headers=own).json()
        assert server.client.post("/api/games", json=body).status_code == 200  # no Origin
        assert server.client.get("/api/meta", headers=evil).status_code == 200  # reading is fine
        path = f"/ws/games/{made['id']}"
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            server.client.websocket_connect(path, headers=evil) as ws,
        ):
            ws.receive_text()
        assert closed.value.code == 4403
        with server.client.websocket_connect(f"/ws/games/{made['id']}", headers=own) as ws:
            ws.send_json({"type": "hello", "version": -1})
            assert server.receive_state(ws)["you"] == [0, 1]
    allowed = Settings(allowed_origins=("http://127.0.0.1:9999",))
    with server_factory(settings=allowed) as server:
        assert server.client.post("/api/games", json=body, headers=evil).status_code == 200


# --- bodies and text --------------------------------------------------------------------------


def test_a_body_past_the_limit_is_refused_unread(server):
    huge = json.dumps({"game": "acadmu", "options": {"discs": "x" * 200_000}})
    answer = server.client.post(
        "/api/games", content=huge, headers={"content-type": "application/json"}
    )
    assert answer.status_code == 413 and answer.json()["error"]["code"] == "too_large"
    assert "max_body_bytes" in answer.json()["error"]["message"]

    def chunks():  # no Content-Length: counted as it comes
        for _ in range(100):
            yield b" " * 1024

    answer = server.client.post(
        "/api/games", content=chunks(), headers={"content-type": "application/json"}
    )
    assert answer.status_code == 413


BAD_TEXTS = ["\\u0000", "\\ud800", "a\\udfffb"]


@pytest.mark.parametrize("bad", BAD_TEXTS)
def test_bad_text_in_any_field_is_a_400_naming_it(server, bad):
    online = server.client.post("/api/games", json={"game": "acadmu", "mode": "online"}).json()
    bodies = [
        ("/api/games", f'{{"game": "acadmu{bad}"}}'),
        ("/api/games", f'{{"game": "acadmu", "level": "easy{bad}", "mode": "computer"}}'),
        ("/api/games", f'{{"game": "acadmu", "options": {{"discs": "RT:BS{bad}"}}}}'),
        ("/api/games", f'{{"game": "akros", "options": {{"board_data": "x{bad}"}}}}'),
        ("/api/games", f'{{"game": "acadmu", "options": {{"disc{bad}s": "default"}}}}'),
        (f"/api/games/{online['id']}/join", f'{{"seat": "{bad}"}}'),
    ]
    for path, body in bodies:
        answer = server.client.post(
            path, content=body, headers={"content-type": "application/json"}
        )
        assert answer.status_code == 400, (body, answer.text)
        error = answer.json()["error"]
        assert error["code"] == "bad_text" and "NUL" in error["message"], error
    for path in ["/api/games/g_%00", f"/api/games/{online['id']}?seat=%00", "/game/%00"]:
        answer = server.client.get(path)
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_text"
    with server.client.websocket_connect(f"/ws/games/{online['id']}") as ws:
        ws.send_text(f'{{"type": "move", "version": 2, "action": "RT{bad}xBS"}}')
        error = server.receive_type(ws, "error")
        assert error["code"] == "bad_text"
        ws.send_json({"type": "ping"})
        assert server.receive_type(ws, "pong")  # the connection lives on


def test_a_long_bad_value_is_quoted_by_a_short_prefix(server):
    long = "Q" * 1100
    for options in ({"discs": long}, {"discs": f"RT:{long}"}, {"colour" + long[:50]: 1}):
        answer = server.client.post("/api/games", json={"game": "acadmu", "options": options})
        assert answer.status_code == 400
        assert "Q" * 60 not in answer.json()["error"]["message"], answer.text
    game = server.client.post("/api/games", json={"game": "acadmu", "mode": "hotseat"}).json()
    with server.client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        ws.send_json({"type": "hello", "version": -1})
        state = server.receive_state(ws)
        ws.send_json({"type": "move", "version": state["version"], "action": "Z" * 150})
        error = server.receive_type(ws, "error")
        assert error["code"] == "illegal_move" and "Z" * 60 not in error["message"]
        ws.send_json({"type": "move", "version": state["version"], "action": "Z" * 300})
        error = server.receive_type(ws, "error")
        assert error["code"] == "bad_message" and "max_action_chars" in error["message"]


def test_an_option_value_is_never_tried_as_a_file_name(server, tmp_path, monkeypatch):
    """Whether a file exists never changes an answer: every text option of every game, given
    the name of a file that exists and of one that does not, is answered alike."""
    (tmp_path / "board.toml").write_text("[board]\n")
    (tmp_path / "discs.toml").write_text('discs = [["RT", "BT"]]\n')
    monkeypatch.chdir(tmp_path)
    for name in game_names():
        for spec in game_class(name).option_specs:
            if spec.kind in ("bool", "int"):
                continue
            for existing in ("board.toml", "discs.toml", str(tmp_path / "discs.toml")):
                answers = []
                for value in (existing, existing.replace(".toml", "-missing.toml")):
                    body = {"game": name, "mode": "hotseat", "options": {spec.name: value}}
                    answer = server.client.post("/api/games", json=body)
                    answers.append((answer.status_code, answer.json().get("error", {}).get("code")))
                    message = answer.json().get("error", {}).get("message", "")
                    assert "No such file" not in message and "cannot read" not in message
                assert answers[0] == answers[1], (name, spec.name, answers)
                assert answers[0][0] == 400


# --- pages ------------------------------------------------------------------------------------------


def test_an_unknown_address_shows_the_apps_not_found_page(server):
    for path in ["/nowhere", "/game/g_abc/extra", "/static/nope.js", "/games"]:
        answer = server.client.get(path)
        assert answer.status_code == 404, path
        assert answer.headers["content-type"].startswith("text/html")
        assert "gamehall test" in answer.text  # the app, which shows its not-found page
    assert server.client.get("/api/nothing").json()["error"]["code"] == "not_found"
    assert server.client.get("/games/acadmu/nothing.js").json()["error"]["code"] == "not_found"
