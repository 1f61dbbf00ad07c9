"""Environment ids are versioned per game and documented with their observation layout: the
tables in docs/research.md are what the encodings describe, and an id's observation and rules
are pinned, so changing either without a new version fails here."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from gamehall.adapters import layouts
from gamehall.adapters._common import Research, env_id
from gamehall.core import GamehallError

ROOT = Path(__file__).resolve().parents[2]
PINS = Path(__file__).with_name("environment_versions.json")


def test_the_research_page_holds_the_layouts_the_code_describes():
    page = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    assert layouts.section() in page, (
        "docs/research.md is out of date: python -m gamehall.adapters.layouts "
        "--write docs/research.md"
    )
    assert layouts.rewrite(page) == page


def test_the_tables_are_the_encodings_slices():
    rows = layouts.layout_rows(Research.of("acadmu").encoding)
    assert (rows[0].offset, rows[0].size) == ("0", "3")
    assert sum(int(row.size) for row in rows) == 32
    akros = layouts.layout_rows(Research.of("akros").encoding)
    assert [row.offset for row in akros][-2:] == ["39", "39 + 7N"]
    assert "contested (0/1)" in akros[-2].what  # a continuation line joins its row


def test_a_layout_that_does_not_tile_the_observation_is_refused():
    table = "    offset  size  what\n    0       3     a\n    4       2     b\n"
    with pytest.raises(GamehallError, match="should start at 3"):
        layouts.layout_rows(SimpleNamespace(layout=table, shape=(6,)))
    table = "    offset  size  what\n    0       3     a\n    3       2     b\n"
    with pytest.raises(GamehallError, match="covers 5 entries, the observation has 6"):
        layouts.layout_rows(SimpleNamespace(layout=table, shape=(6,)))
    with pytest.raises(GamehallError, match="no 'offset size what' table"):
        layouts.layout_rows(SimpleNamespace(layout="prose only", shape=(6,)))


def test_the_version_in_an_id_is_the_games_environment_version():
    research = Research.of("akros")
    assert env_id(research) == "gamehall/Akros-v0"
    changed = dataclasses.replace(
        research, facts=dataclasses.replace(research.facts, env_version=1)
    )
    assert env_id(changed) == "gamehall/Akros-v1"


def fingerprint(name: str) -> str:
    """What an environment id promises stays the same: the observation (its layout and shape)
    and the rules (the game's rules version)."""
    research = Research.of(name)
    promise = [research.encoding.layout, list(research.encoding.shape), research.game.rules_version]
    return hashlib.sha256(json.dumps(promise).encode()).hexdigest()[:16]


@pytest.mark.parametrize("name", ["akros", "acadmu"])
def test_an_ids_observation_and_rules_are_pinned(name):
    pins = json.loads(PINS.read_text(encoding="utf-8"))
    identifier = env_id(Research.of(name))
    assert identifier in pins, f"a new environment id: pin it in {PINS.name}"
    assert pins[identifier] == fingerprint(name), (
        f"{identifier}'s observation or rules changed: raise the game's env_version (its facts) "
        f"and pin the new id in {PINS.name}"
    )
