"""A Griffe extension for the API reference: the docstrings' reST roles as Markdown code.

gamehall's docstrings name other objects the Sphinx way (``:class:`~gamehall.core.Game```,
``:func:`check_game```) and end a line with ``::`` before an indented example. mkdocstrings
renders Markdown, so this turns a role into inline code (the last part of the name where the
role says ``~``), a double back-quoted literal into a single one, and a literal block (a line
ending in ``::`` and the indented lines after it) into a fenced code block, indented to stay
inside a list item where it is one.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj|const):`(~?)([^`]+)`")
_LITERAL = re.compile(r"``([^`]+)``")
_BULLET = re.compile(r"^\s*([*-]|\d+\.)\s")


def _role(match: re.Match[str]) -> str:
    short, name = match.groups()
    return f"`{name.rsplit('.', 1)[-1] if short else name}`"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _literal_blocks(lines: list[str]) -> list[str]:
    """Each reST literal block (``text::``, a blank line, indented lines) as a fenced block."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not (line.rstrip().endswith("::") and line.strip() != "::"):
            out.append(line)
            i += 1
            continue
        start = i
        while start > 0 and lines[start - 1].strip():
            start -= 1
        base = _indent(lines[start])
        fence = " " * (base + 4 if _BULLET.match(lines[start]) else base)
        out.append(line.rstrip()[:-1])
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        block: list[str] = []
        while j < len(lines) and (not lines[j].strip() or _indent(lines[j]) > base):
            block.append(lines[j])
            j += 1
        while block and not block[-1].strip():
            block.pop()
        if not block:
            i += 1
            continue
        cut = min(_indent(b) for b in block if b.strip())
        code = "\n".join(block)
        language = "python" if re.search(r"^\s*(import|from|def|class)\s", code, re.M) else "text"
        if block[0].strip().startswith("["):
            language = "toml"
        out += ["", f"{fence}```{language}"]
        out += [f"{fence}{b[cut:]}" if b.strip() else "" for b in block]
        out += [f"{fence}```", ""]
        i = j
    return out


def markdown(text: str) -> str:
    """A reST-flavoured docstring as Markdown (see the module docstring)."""
    text = _ROLE.sub(_role, text)
    text = _LITERAL.sub(r"`\1`", text)
    return "\n".join(_literal_blocks(text.splitlines()))


class RestRoles(griffe.Extension):
    """Rewrite every docstring once the package is loaded."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
