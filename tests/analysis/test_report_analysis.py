"""The report renders: the HTML parses, figures exist, are embedded and are real pictures."""

from __future__ import annotations

import base64
import io
from html.parser import HTMLParser

import pytest
import typer
from typer.testing import CliRunner

from gamehall.cli.analysis import register
from gamehall.games.acadmu.report import match_lengths


class Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[str] = []
        self.images: list[str] = []
        self.open: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "img":
            self.images.append(dict(attrs)["src"])
        elif tag not in ("meta", "br"):
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open[-1] == tag, f"unbalanced </{tag}>"
        self.open.pop()


def check_png(data: bytes):
    from PIL import Image

    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) > 5_000
    image = Image.open(io.BytesIO(data)).convert("RGB")
    colours = image.getcolors(maxcolors=1_000_000)
    assert colours is None or len(colours) > 10  # not a single colour


EXPECTED = {
    "acadmu": ["Round scores", "First-player advantage", "Round length", "Match length", "Passes"],
    "akros": ["Environments", "Score margins", "Removed tiles", "Decisions per turn"],
}


@pytest.mark.parametrize("game_name", ["acadmu", "akros"])
def test_report_renders(tmp_path, game_name):
    app = typer.Typer()
    register(app)
    args = ["analyze", game_name, "--players", "greedy,random", "--games", "12", "--workers", "1"]
    if game_name == "acadmu":
        args += ["--variant", "target=24"]
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    markdown = (tmp_path / "report.md").read_text(encoding="utf-8")
    parser = Collect()
    parser.feed(html)
    parser.close()
    assert parser.open == [], "unclosed tags"
    assert {"html", "body", "table", "h2", "img"} <= set(parser.tags)
    for title in ["Results", *EXPECTED[game_name]]:
        assert title in html and title in markdown
    pngs = sorted(tmp_path.glob("*.png"))
    assert len(pngs) >= 5
    assert len(parser.images) == len(pngs)
    for path in pngs:
        check_png(path.read_bytes())
        assert f"]({path.name})" in markdown
    for src in parser.images:
        assert src.startswith("data:image/png;base64,")
        check_png(base64.b64decode(src.split(",", 1)[1]))
    assert "Wilson" in markdown
    if game_name == "acadmu":
        assert (
            "| 24 |" in markdown and "n/a" not in markdown.split("Match length")[1].split("##")[0]
        )


def test_match_lengths_from_round_points():
    points = [(4, 0), (0, 3), (5, 0), (0, 9), (6, 0)]
    assert match_lengths(points, 12) == 4  # light reaches 12 in round 4
    assert match_lengths(points, 15) == 5  # dark 15 in round 5
    assert match_lengths(points, 24) is None
