"""The protocol's models: the document carries their schema, every error the server raises has a
code of the one enum, and every game's actions become valid protocol items."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from gamehall import protocol
from gamehall.core import plugins
from gamehall.protocol import ErrorCode, LegalAction, PlayedAction
from gamehall.web.base.engine import RESERVED_PARTS, legal_items, played_item

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "gamehall" / "web"
PROTOCOL = ROOT / "src" / "gamehall" / "protocol"
DOC = ROOT / "docs" / "web-protocol.md"


def test_the_protocol_document_carries_the_current_schema():
    document = DOC.read_text(encoding="utf-8")
    assert protocol.BEGIN in document and protocol.END in document
    assert protocol.with_generated_section(document) == document, (
        "docs/web-protocol.md is out of date: run "
        "`.venv/bin/python -m gamehall.protocol --write docs/web-protocol.md`"
    )
    schema = protocol.json_schema()
    assert set(schema["$defs"]["ErrorCode"]["enum"]) == {code.value for code in ErrorCode}
    for name in ("StateMessage", "PresenceMessage", "ErrorMessage", "PongMessage"):
        assert name in schema["$defs"], name


def test_the_schema_command_prints_the_schema(capsys):
    assert protocol.main(["--schema"]) == 0
    assert json.loads(capsys.readouterr().out) == protocol.json_schema()


def _web_sources() -> dict[str, str]:
    """The server's sources: the web package and the wire contract it parses messages with."""
    return {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
        for folder in (WEB, PROTOCOL)
        for path in folder.rglob("*.py")
    }


def test_every_refusal_the_server_makes_has_a_code_of_the_enum():
    """No ProtocolError is raised with a bare string, and every code of the enum is one the
    server really sends (none is left over)."""
    used: set[str] = set()
    raised = 0
    for name, source in _web_sources().items():
        for match in re.finditer(r"raise ProtocolError\(\s*([^,\s]+)", source):
            argument = match[1]
            assert argument.startswith("ErrorCode."), (name, argument)
            raised += 1
        # A code in use, not a key of the table of meanings (``ErrorCode.X: (status, text)``).
        used |= set(re.findall(r"ErrorCode\.([A-Z_]+)\b(?!\s*:)", source))
    assert raised >= 20  # the scan sees the server's refusals
    # bad_game was replaced by quarantined (a game that no longer replays is quarantined); it
    # stays in the enum until the wire changes, and is the only code allowed to go unsent.
    retired = {"BAD_GAME"}
    members = {code.name for code in ErrorCode}
    assert members - used == retired, f"codes the server never sends: {members - used}"
    assert used - members == set()


def test_a_protocol_error_takes_only_codes_of_the_enum():
    assert protocol.ProtocolError("illegal_move", "x").status == 400
    assert protocol.ProtocolError(ErrorCode.RULES_CHANGED, "x").status == 409
    with pytest.raises(ValueError):
        protocol.ProtocolError("not_a_code", "x")


@pytest.mark.parametrize("name", sorted(plugins()))
def test_every_action_of_every_game_is_a_valid_protocol_item(name):
    """Through random games: the legal items name their action's text and dense index, their
    parts are JSON in the game's own keys, and played items (chance too) likewise."""
    game = plugins()[name].game()
    rng = random.Random(1)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action, mover = state.sample_chance(rng), -1
            else:
                items = legal_items(state)
                legal = state.legal_actions()
                assert [item.text for item in items] == [str(a) for a in legal]
                assert [item.index for item in items] == [game.action_index(a) for a in legal]
                for item in items:
                    data = json.loads(item.model_dump_json())
                    assert LegalAction.model_validate(data) == item
                    assert item.words and "\n" not in item.words  # told as it would be played
                    assert not RESERVED_PARTS & set(game.action_parts(game.parse_action(item.text)))
                action, mover = rng.choice(legal), state.current_player
            played = played_item(state, action)
            assert PlayedAction.model_validate_json(played.model_dump_json()) == played
            assert played.text == str(action) and played.mover == mover
            assert played.words and "\n" not in played.words
            state = state.apply_trusted(action)
        assert legal_items(state) == []


def test_the_parts_of_acadmu_and_akros_actions():
    acadmu = plugins()["acadmu"].game()
    assert acadmu.action_parts(acadmu.parse_action("RTxBS")) == {
        "kind": "capture",
        "own": "RT",
        "taken": ["BS"],
        "by": "colour",
    }
    assert acadmu.action_parts(acadmu.parse_action("RTxYS+RS")) == {
        "kind": "capture",
        "own": "RT",
        "taken": ["RS", "YS"],
        "by": "shape",
    }
    assert acadmu.action_parts(acadmu.parse_action("pass")) == {"kind": "pass"}
    assert acadmu.action_parts(acadmu.parse_action("draw RT:BS/YC:RT")) == {
        "kind": "draw",
        "dark": ["RT", "BS"],
        "light": ["YC", "RT"],
        "first": "light",
        "reason": "Yellow beats Red",
    }
    akros = plugins()["akros"].game()
    parts = {text: akros.action_parts(akros.parse_action(text)) for text in (
        "M5<10", "keep F", "keep S discard M", "remove M", "draw FMM",
    )}  # fmt: skip
    assert parts == {
        "M5<10": {"kind": "place", "tile": "M", "region": 5, "source": 10},
        "keep F": {"kind": "keep", "tile": "F"},
        "keep S discard M": {"kind": "keep-discard", "tile": "S", "discard": "M"},
        "remove M": {"kind": "remove", "tile": "M"},
        "draw FMM": {"kind": "draw", "tiles": ["F", "M", "M"]},
    }


def test_the_tests_checks_refuse_what_the_protocol_does_not_say():
    """The web tests validate every message strictly, so an undocumented or mistyped field in
    what the server sends fails them."""
    from pydantic import ValidationError

    from tests.web.web_helpers import check_server_message

    assert check_server_message('{"type": "pong"}') == {"type": "pong"}
    for text in [
        '{"type": "pong", "extra": 1}',
        '{"type": "presence", "seats": [{"index": 0, "name": "dark", "kind": "human"}]}',
        '{"type": "error", "code": "no_such_code", "message": "x", "version": 1}',
        '{"type": "error", "code": "bad_json", "message": "x", "version": "1"}',
        '{"type": "shout"}',
    ]:
        with pytest.raises(ValidationError):
            check_server_message(text)


@pytest.mark.parametrize("bad", ["pass\x00word-long", "pass\ud800word-long"])
def test_every_hall_body_refuses_unclean_text_as_bad_text(bad):
    """A NUL byte or a lone surrogate in any hall body (a password too) is ``bad_text``, as in
    every other body, never accepted and never a generic ``bad_request``."""
    from pydantic import ValidationError

    from gamehall.protocol import hall

    bodies = {
        hall.Credentials: {"username": "Ada", "password": bad},
        hall.NameChange: {"name": bad},
        hall.CreateSeek: {"game": bad},
    }
    for model, data in bodies.items():
        with pytest.raises(ValidationError) as caught:
            model.model_validate(data)
        assert [e["type"] for e in caught.value.errors()] == ["bad_text"], model
    with pytest.raises(protocol.ProtocolError) as refused:
        hall.parse_lobby_message(json.dumps({"type": "pair", "game": bad}))
    assert refused.value.code is ErrorCode.BAD_TEXT
