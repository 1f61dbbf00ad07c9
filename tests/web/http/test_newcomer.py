"""What a newcomer reads: each game's summary, duration and picture in /api/meta, its How to play
page (text and diagrams of real positions, drawn from the game's package) and its complete rules;
every diagram any plugin names is a real position, and its move a legal one."""

from __future__ import annotations

import pytest

from gamehall.core import Diagram, GamePlugin, plugins, register_plugin, unregister_plugin
from gamehall.core.plugin import parse_page
from gamehall.web.base.engine import diagram_info, game_of
from tests.nim.plugin import PLUGIN as NIM


def _diagrams(plugin: GamePlugin) -> list[Diagram]:
    page = plugin.how_to_play_page() or []
    found = [part for part in page if isinstance(part, Diagram)]
    return found + ([plugin.sample] if plugin.sample else [])


@pytest.mark.parametrize("name", ["acadmu", "akros"])
def test_every_diagram_is_a_real_position_and_its_move_is_legal(name):
    plugin = plugins()[name]
    game = game_of(name, {})
    diagrams = _diagrams(plugin)
    assert plugin.how_to_play and plugin.sample and plugin.duration and plugin.summary
    assert len(diagrams) >= 4
    for diagram in diagrams:
        info = diagram_info(game, diagram)  # raises on a bad position or an illegal move
        state = game.parse_state(diagram.position)
        if diagram.action is not None:
            action = state.parse_action(diagram.action)
            assert info.last is not None and info.last.text == str(action)
            assert info.last.mover == state.current_player
            shown = state.apply(action) if diagram.after else state
        else:
            assert info.last is None
            shown = state
        assert info.position == str(shown) and info.view == shown.view()
        assert info.caption, f"{name}: a diagram without a caption: {diagram.position}"


def test_the_rules_pages_are_written_for_readers_not_for_the_engine():
    for name in ("acadmu", "akros"):
        text = plugins()[name].rules()
        assert text is not None
        for engine_word in (".py", "named option", "rules engine", "variant options", "src/"):
            assert engine_word not in text, f"{name}'s rules page mentions {engine_word!r}"


def test_a_page_is_parsed_into_text_and_diagrams():
    page = parse_page(
        "# Title\n\nSome text.\n\n```diagram\nposition: P\naction: A\nafter: yes\n"
        "caption: What it shows: this.\n```\nMore text.\n```diagram\nposition: Q\n```\n"
    )
    assert page == [
        "# Title\n\nSome text.\n",
        Diagram("P", "A", True, "What it shows: this."),
        "More text.\n",
        Diagram("Q"),
    ]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("```diagram\nposition: P\n", "line 1: the diagram block is not closed"),
        ("text\n```diagram\ncaption: no position\n```\n", "line 2: a diagram needs a position"),
        ("```diagram\nposition: P\ncolour: red\n```\n", "not 'colour: red'"),
    ],
)
def test_a_bad_diagram_block_is_named_by_its_line(text, problem):
    with pytest.raises(ValueError, match=problem):
        parse_page(text, "howto.md")


def test_meta_presents_each_game_to_a_newcomer(server):
    games = {g["name"]: g for g in server.client.get("/api/meta").json()["games"]}
    for name in ("acadmu", "akros"):
        plugin, info = plugins()[name], games[name]
        assert info["summary"] == plugin.summary and info["duration"] == plugin.duration
        assert info["how_to_play"] is True
        sample = info["sample"]
        assert sample["position"] and sample["view"] and sample["caption"]


def test_the_how_to_play_page_comes_in_parts(server):
    for name in ("acadmu", "akros"):
        answer = server.client.get(f"/api/howto/{name}")
        assert answer.status_code == 200, answer.text
        data = answer.json()
        kinds = [part["kind"] for part in data["parts"]]
        assert kinds[0] == "text" and "diagram" in kinds and data["rules"] is True
        for part in data["parts"]:
            if part["kind"] == "diagram":
                assert part["diagram"]["view"]["position"] == part["diagram"]["position"]
    missing = server.client.get("/api/howto/chess")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_game"
    assert server.client.get("/howto/acadmu").status_code == 200  # the front end's page


def test_a_game_without_a_how_to_play_page_says_so(server):
    register_plugin(NIM)
    try:
        _without_how_to_play(server)
    finally:
        unregister_plugin(NIM.name)


def _without_how_to_play(server):
    answer = server.client.get("/api/howto/nim")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "no_rules"
    (info,) = [g for g in server.client.get("/api/meta").json()["games"] if g["name"] == "nim"]
    assert info["how_to_play"] is False and info["sample"] is None and info["duration"] == ""
