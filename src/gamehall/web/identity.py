"""Who a request comes from: the browser's identity cookie and the account session cookie.

Every browser gets one identity (``gh_player``, a random id) the first time it asks for
anything; it is that browser's anonymous player. Signing in adds a session (``gh_session``),
which makes the browser act as the account's player until it signs out. Both cookies are
HTTP-only, ``SameSite=Lax`` and live :data:`COOKIE_AGE`.
"""

from __future__ import annotations

import secrets

from starlette.requests import HTTPConnection
from starlette.responses import Response

PLAYER_COOKIE = "gh_player"
SESSION_COOKIE = "gh_session"
COOKIE_AGE = 400 * 24 * 3600


def _plausible(value: str | None, low: int = 8, high: int = 64) -> bool:
    return bool(
        value and low <= len(value) <= high and value.replace("-", "").replace("_", "").isalnum()
    )


def browser_id(connection: HTTPConnection) -> str | None:
    """The browser's identity, if its cookie holds a well-formed one."""
    value = connection.cookies.get(PLAYER_COOKIE)
    return value if _plausible(value) else None


def session_token(connection: HTTPConnection) -> str | None:
    value = connection.cookies.get(SESSION_COOKIE)
    return value if _plausible(value, 16, 128) else None


def set_cookie(response: Response, name: str, value: str) -> None:
    response.set_cookie(name, value, max_age=COOKIE_AGE, httponly=True, samesite="lax", path="/")


def clear_cookie(response: Response, name: str) -> None:
    response.delete_cookie(name, path="/", httponly=True, samesite="lax")


def ensure_browser_id(connection: HTTPConnection, response: Response) -> str:
    """The browser's identity, made (and its cookie set on ``response``) if it has none."""
    current = browser_id(connection)
    if current is not None:
        return current
    new = secrets.token_urlsafe(12)
    set_cookie(response, PLAYER_COOKIE, new)
    return new


__all__ = [
    "COOKIE_AGE",
    "PLAYER_COOKIE",
    "SESSION_COOKIE",
    "browser_id",
    "clear_cookie",
    "ensure_browser_id",
    "session_token",
    "set_cookie",
]
