"""The server's limits as small units: settings, option limits by kind, text checks, rates."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamehall.core import Option, game_class
from gamehall.protocol import ErrorCode, ProtocolError, find_bad_text, parse_client_message
from gamehall.web.base.limits import RateTable, check_options, check_text, quote, shorten_echoes
from gamehall.web.base.settings import Settings, SettingsError

# --- settings -------------------------------------------------------------------------------------


def test_settings_come_from_toml_and_from_assignments(tmp_path):
    config = tmp_path / "gamehall.toml"
    config.write_text(
        'https = true\nallowed_origins = ["https://games.example.org"]\ncomputer_games = 3\n'
        "computer_seconds = 12.5\n"
    )
    settings = Settings.from_toml(config)
    assert settings.https and settings.allowed_origins == ("https://games.example.org",)
    assert settings.computer_games == 3 and settings.computer_seconds == 12.5
    assert settings.computer_limit.seconds == 12.5
    assert settings.computer_limit.memory_mb == settings.computer_memory_mb
    again = settings.replace(Settings.assignments(["games_per_minute=4", "https=false"]))
    assert again.games_per_minute == 4 and not again.https and again.computer_games == 3
    assert set(Settings().describe()) >= {"max_body_bytes", "idle_seconds", "max_actions"}


@pytest.mark.parametrize(
    ("values", "fragment"),
    [
        ({"computer_gmaes": 3}, "unknown setting 'computer_gmaes'"),
        ({"computer_games": "many"}, "computer_games takes an integer"),
        ({"computer_games": 0}, "must be positive"),
        ({"https": "perhaps"}, "https takes true or false"),
        ({"allowed_origins": ["https://x.org/path"]}, "no path"),
        ({"allowed_origins": 5}, "a list of text"),
    ],
)
def test_bad_settings_are_refused_naming_the_setting(values, fragment):
    with pytest.raises(SettingsError, match=fragment):
        Settings().replace(values)


def test_a_settings_file_that_is_not_toml_is_refused(tmp_path):
    config = tmp_path / "bad.toml"
    config.write_text("this is = = not toml")
    with pytest.raises(SettingsError, match="not valid TOML"):
        Settings.from_toml(config)
    with pytest.raises(SettingsError, match="cannot read"):
        Settings.from_toml(tmp_path / "missing.toml")


# --- options by kind --------------------------------------------------------------------------


def _refusal(game: str, options: dict[str, object], settings: Settings | None = None) -> str:
    with pytest.raises(ProtocolError) as refused:
        check_options(game_class(game), options, settings or Settings())
    assert refused.value.code == ErrorCode.BAD_OPTION
    return refused.value.message


def test_options_from_the_web_are_held_to_hard_limits_by_kind():
    # int: the option's own bounds, and the server's
    assert "from 1 to 999" in _refusal("acadmu", {"target": 10**30})
    assert "an integer" in _refusal("acadmu", {"target": "12"})
    assert "an integer" in _refusal("acadmu", {"target": True})
    # bool
    assert "true or false" in _refusal("acadmu", {"shape_capture_takes_one_if_last": 1})
    # data: the server's limit, or the option's own when smaller
    small = Settings(max_data_option=100)
    message = _refusal("akros", {"board_data": "x" * 101}, small)
    assert "at most 100 characters (limit max_data_option)" in message
    assert "the option's own limit" in _refusal("acadmu", {"discs": "x" * 5000})
    # choice and str: text only, and short
    assert "takes text" in _refusal("akros", {"board": 5})
    assert "max_str_option" in _refusal("akros", {"board": "x" * 201})
    # path: never, whatever the value (no file is looked at)
    assert "files cannot be named" in _refusal("acadmu", {"discs_file": "/etc/passwd"})
    check_options(game_class("acadmu"), {"target": 12, "discs": "default"}, Settings())


def test_an_int_option_without_bounds_gets_the_servers():
    class Open:  # just what check_options reads of a game class
        option_specs = (Option("n", 1, "any number", "int"),)

    with pytest.raises(ProtocolError, match="from -1000000 to 1000000"):
        check_options(Open, {"n": 10**7}, Settings())  # type: ignore[arg-type]


# --- text -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["a\x00b", "\ud800", "x\udfffy"])
def test_nul_bytes_and_lone_surrogates_are_bad_text(bad):
    with pytest.raises(ProtocolError) as refused:
        check_text(bad, "the name")
    assert refused.value.code == ErrorCode.BAD_TEXT and "the name" in refused.value.message
    assert find_bad_text({"options": {"k": [1, bad]}}) is not None
    assert find_bad_text({bad: 1}) is not None
    assert check_text("Äcädmü 🎲", "a name") == "Äcädmü 🎲"


def test_a_client_message_with_bad_text_is_refused_before_it_is_read():
    with pytest.raises(ProtocolError) as refused:
        parse_client_message('{"type": "move", "version": 1, "action": "RT\\u0000xBS"}')
    assert refused.value.code == ErrorCode.BAD_TEXT
    with pytest.raises(ProtocolError) as refused:
        parse_client_message('{"type": "\\ud800"}')
    assert refused.value.code == ErrorCode.BAD_TEXT


def test_error_messages_quote_a_short_prefix_of_a_value():
    assert len(quote("x" * 10_000)) == 40
    with pytest.raises(ProtocolError) as refused:
        parse_client_message('{"type": "' + "z" * 5000 + '"}')
    assert len(refused.value.message) < 200
    assert len(ProtocolError(ErrorCode.BAD_REQUEST, "y" * 10_000).message) <= 800


# --- rates ----------------------------------------------------------------------------------------


def test_a_rate_table_refills_and_forgets_its_oldest_clients():
    now = [0.0]
    table = RateTable(per_second=1.0, burst=3, size=2, clock=lambda: now[0])
    assert [table.take("a") for _ in range(4)] == [True, True, True, False]
    now[0] = 1.0
    assert table.take("a") and not table.take("a")  # one token a second
    table.take("b")
    table.take("c")  # a third client: the least recently seen ("a") is forgotten
    assert len(table) == 2


def test_a_games_message_repeating_a_long_value_is_shortened():
    value = "RT:" + "Q" * 500
    message = f"option discs={value[:30]}…: disc 1: bad pairing {'Q' * 500!r} (from {value!r})"
    short = shorten_echoes(message, [value, "discs"])
    assert "Q" * 41 not in short and "bad pairing 'QQQ" in short and len(short) < 200
    assert shorten_echoes("nothing repeated", ["x" * 100]) == "nothing repeated"


def test_every_setting_is_documented_with_its_default():
    """docs/web-protocol.md ("Limits") has a row for every setting, giving its default."""
    doc = (Path(__file__).parents[3] / "docs" / "web-protocol.md").read_text(encoding="utf-8")
    section = doc.split("## Limits", 1)[1].split("\n## ", 1)[0]
    rows = {
        line.split("|")[1].strip().strip("`"): line.split("|")[2].strip()
        for line in section.splitlines()
        if line.startswith("| `")
    }
    for name, value in Settings().describe().items():
        assert name in rows, f"setting {name} is not in the Limits table"
        if isinstance(value, bool):
            assert rows[name] == str(value).lower(), name
        elif isinstance(value, int | float) and name != "search_workers":
            shown = str(value) if isinstance(value, int) else f"{value:g}"
            assert rows[name].replace(",", "") == shown, (name, rows[name], value)
