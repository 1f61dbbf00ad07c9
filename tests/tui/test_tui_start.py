"""``gamehall tui`` with no game: the start screen, driven by Textual's pilot at 60×30, and the
game it starts."""

from __future__ import annotations

import pytest
import typer
from textual.pilot import Pilot
from textual.widgets import Select

from gamehall.cli import tui as tui_command
from gamehall.core import find_game
from gamehall.core.registry import plugins
from gamehall.tui.session import Session, read_record, saved_games
from gamehall.tui.start import HOT_SEAT, ConnectTo, NewGame, ResumeGame, StartApp

pytestmark = pytest.mark.anyio

SMALL = (60, 30)


def inside(app, widget) -> bool:
    """Whether the widget's region lies within the screen."""
    region, screen = widget.region, app.screen.region
    return region.width > 0 and screen.contains_region(region)


async def choose(pilot: Pilot, select_id: str, value: str) -> None:
    """Open a select by a click and pick ``value`` with the arrow keys and Enter."""
    select = pilot.app.screen.query_one(f"#{select_id}", Select)
    select.scroll_visible(animate=False)
    await pilot.pause()
    values = [v for _, v in select._options]
    steps = values.index(value) - values.index(select.value)
    await pilot.click(f"#{select_id}")
    await pilot.pause()
    for _ in range(abs(steps)):
        await pilot.press("down" if steps > 0 else "up")
    await pilot.press("enter")
    await pilot.pause()
    assert select.value == value


async def test_the_start_screen_starts_the_game_chosen():
    app = StartApp(saved=[])
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        for selector in ("#game", "#side", "#level", "#clock", "#play"):
            widget = screen.query_one(selector)
            assert inside(app, widget), selector
        # Every registered game is offered, by its title (from the plugins, not named here).
        titles = [label for label, _ in screen.query_one("#game", Select)._options]
        assert titles == [p.game.title for _, p in sorted(plugins().items())]
        await choose(pilot, "game", "akros")
        sides = [v for _, v in screen.query_one("#side", Select)._options]
        assert sides[:2] == list(find_game("akros").player_names)  # the chosen game's seats
        await choose(pilot, "side", "ifrit")
        await choose(pilot, "level", "medium")
        await choose(pilot, "clock", "3+2")
        screen.query_one("#play").scroll_visible(animate=False)
        await pilot.pause()
        await pilot.click("#play")
        await pilot.pause()
    chosen = app.return_value
    assert chosen == NewGame(game="akros", side="ifrit", level="medium", clock="3+2")
    session = tui_command.chosen_session(chosen, seed=5)
    assert isinstance(session, Session) and session.game.name == "akros"
    assert session.players == ["medium", "human"]  # the Jinn (the computer), the Ifrit (you)
    assert session.clock is not None and session.clock.text() == "3+2"
    assert saved_games()[0][0] == session.save_path  # saved at once: --resume finds it


async def test_hot_seat_has_no_level_and_every_seat_is_human():
    app = StartApp(saved=[])
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await choose(pilot, "game", "acadmu")
        await choose(pilot, "side", HOT_SEAT)
        assert app.screen.query_one("#level", Select).disabled
        await pilot.click("#play")
        await pilot.pause()
    chosen = app.return_value
    assert chosen == NewGame(game="acadmu", side=None, level="easy", clock=None)
    assert tui_command.chosen_session(chosen, seed=1).players == ["human", "human"]


async def test_a_saved_game_is_resumed_and_a_link_is_checked(tmp_path):
    game = find_game("acadmu", target=3)
    from gamehall.tui.session import new_save_path

    session = Session(game, ["human", "easy"], seed=3, save_path=new_save_path(game))
    session.play_chance()
    session.save()
    saved = saved_games()
    assert [path for path, _ in saved] == [session.save_path]
    app = StartApp(saved=saved)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        listing = screen.query_one("#saved")
        listing.scroll_visible(animate=False)
        await pilot.pause()
        assert inside(app, listing)
        listing.focus()
        await pilot.press("enter")
        await pilot.pause()
    assert app.return_value == ResumeGame(session.save_path)
    assert read_record(session.save_path).actions == [str(a) for a in session.actions]

    app = StartApp(saved=[])
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        field = app.screen.query_one("#url")
        field.scroll_visible(animate=False)
        field.focus()
        await pilot.press(*"nonsense", "enter")
        await pilot.pause()
        error = str(app.screen.query_one("#start-error").render())
        assert "is not a game link" in error
        assert app.is_running and app.return_value is None  # it stays, nothing chosen
        field.value = ""
        await pilot.press(*"http://127.0.0.1:8000/game/g_abc", "enter")
        await pilot.pause()
    assert app.return_value == ConnectTo("http://127.0.0.1:8000/game/g_abc")


def test_tui_without_a_game_opens_the_start_screen(monkeypatch):
    """``gamehall tui`` with nothing else: the start screen, then the game it chose."""
    ran: list[Session] = []
    monkeypatch.setattr(
        "gamehall.tui.start.choose",
        lambda: NewGame(game="acadmu", side="light", level="beginner", clock="5"),
    )
    monkeypatch.setattr(tui_command, "_run", ran.append)
    app = typer.Typer()
    tui_command.register(app)
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, [])
    assert result.exit_code == 0, result.output
    [session] = ran
    assert session.game.name == "acadmu"
    assert session.players == ["beginner", "human"]
    assert session.clock is not None and session.clock.text() == "5"


def test_tui_without_a_game_but_with_seat_options_still_asks_for_the_game():
    app = typer.Typer()
    tui_command.register(app)
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["--dark", "hard"])
    assert result.exit_code != 0
    assert "name the game" in str(result.exception)
