"""Who a browser is, and which seats it holds: one identity cookie, seats kept on the server.

A browser is one **identity**: a random secret in the cookie ``gh_player`` (HttpOnly,
SameSite=Lax, Secure behind HTTPS), made on its first request and signed with the server's
secret (:mod:`gamehall.web.http.signing`), so a made-up or altered cookie is no identity: its
browser is a new guest. The store keeps the seats each
identity holds (``holdings``), keyed by the SHA-256 of the secret
(:func:`gamehall.store.player_key`), never the secret itself. There is no cookie per game: a
browser holds any number of games through its one cookie.

How a seat comes to be held:

* the creator of a game holds its seats at once (every seat of a hot-seat game, the chosen one
  otherwise); a rematch gives each holder of the old game the seat their person moves to;
* an online game's other seat is held by whoever first opens its **invite link**
  (``/game/<id>?seat=<invite secret>``; the front end posts the secret to
  ``POST /api/games/<id>/join`` and drops it from the address). That claim spends the link:
  later holders of it watch, and the creator's page stops showing it. The identity that holds one
  seat of an online game can never claim another, so the creator cannot move for their friend.

A seat's invite secret is not a credential for moving: the WebSocket and the REST answers take
the seats a connection holds from its identity alone.

Accounts (the hall, :mod:`gamehall.web.hall.hall`) build on this. The identity is the browser's
anonymous player, keyed by the same hash. Signing in adds a **session** cookie (``gh_session``,
with the identity cookie's rules: HttpOnly, SameSite=Lax, Secure behind HTTPS) whose token the
store keeps only as its SHA-256; while it is valid the browser acts as the account's player: the
seats it holds are the account's (its anonymous seats move there on signing in), whichever
browser it signs in from.

A browser also keeps a **marker** (``gh_browser``: a random value, HttpOnly, SameSite=Lax, for
:data:`IDENTITY_AGE`), set with the identity and never cleared by signing out: signing out
starts a new identity, but the hall still knows the browser, so two accounts used in it remain
one person for rated games (:meth:`gamehall.web.hall.players.Players.browsers_of`). It grants
nothing; the hall only compares it (by its SHA-256, as the identity).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

from starlette.requests import HTTPConnection
from starlette.responses import Response

from gamehall.store.rows import player_key
from gamehall.web.base.settings import Settings
from gamehall.web.http.signing import CookieSigner

IDENTITY_COOKIE = "gh_player"
IDENTITY_AGE = 400 * 24 * 3600
"""How long a browser keeps its identity (seconds; 400 days, the most browsers allow)."""
_SECRET = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""What an identity secret looks like (older servers made 16-character ones)."""
SESSION_COOKIE = "gh_session"
MARKER_COOKIE = "gh_browser"
"""The browser's marker: kept through signing out (see the module docstring)."""
_SESSION = re.compile(r"[A-Za-z0-9_-]{16,128}")


@dataclass(frozen=True)
class Identity:
    """A browser: the secret in its cookie, and the key the store knows it by."""

    secret: str

    @property
    def key(self) -> str:
        return player_key(self.secret)

    @classmethod
    def new(cls) -> Identity:
        return cls(secrets.token_urlsafe(32))

    @classmethod
    def from_cookies(cls, cookies: Mapping[str, str], signer: CookieSigner) -> Identity | None:
        """The identity a request's cookies carry, or None (none, or not one this server
        signed)."""
        value = cookies.get(IDENTITY_COOKIE)
        secret = signer.unsign(value) if value else None
        if secret is not None and _SECRET.fullmatch(secret):
            return cls(secret)
        return None

    @classmethod
    def of(cls, connection: HTTPConnection) -> Identity | None:
        """The identity a request or WebSocket carries (None: none, or a made-up one)."""
        return cls.from_cookies(connection.cookies, signer_of(connection))

    @classmethod
    def unsigned(cls, connection: HTTPConnection) -> Identity | None:
        """The cookie's identity if it is in the unsigned form servers before signing gave
        (taken only if the store knows it, then signed: see ``hall_routes.current``)."""
        value = connection.cookies.get(IDENTITY_COOKIE)
        return cls(value) if value and _SECRET.fullmatch(value) else None


def browser_marker(connection: HTTPConnection) -> str | None:
    """The key of the browser's marker cookie (None: it has none, or not one of ours)."""
    value = connection.cookies.get(MARKER_COOKIE)
    return player_key(value) if value and _SECRET.fullmatch(value) else None


def ensure_marker(connection: HTTPConnection, response: Response, settings: Settings) -> None:
    """Give a browser without one its marker cookie (which signing out leaves alone)."""
    if browser_marker(connection) is None:
        response.set_cookie(
            MARKER_COOKIE,
            secrets.token_urlsafe(32),
            max_age=IDENTITY_AGE,
            httponly=True,
            samesite="lax",
            secure=settings.https,
            path="/",
        )


def signer_of(connection: HTTPConnection) -> CookieSigner:
    """The app's cookie signer (made from the server's secret when the app is made)."""
    signer: CookieSigner = connection.app.state.signer
    return signer


def set_identity_cookie(
    response: Response, identity: Identity, settings: Settings, signer: CookieSigner
) -> None:
    """Give the browser its identity cookie, signed (HttpOnly, SameSite=Lax, Secure behind
    HTTPS)."""
    response.set_cookie(
        IDENTITY_COOKIE,
        signer.sign(identity.secret),
        max_age=IDENTITY_AGE,
        httponly=True,
        samesite="lax",
        secure=settings.https,
        path="/",
    )


def ensure_identity(connection: HTTPConnection, response: Response, settings: Settings) -> Identity:
    """The browser's identity; a browser without one is given one (its cookie set on
    ``response``), and its marker if it has none."""
    ensure_marker(connection, response, settings)
    found = Identity.of(connection)
    if found is not None:
        return found
    new = Identity.new()
    set_identity_cookie(response, new, settings, signer_of(connection))
    return new


def session_token(connection: HTTPConnection) -> str | None:
    """The account session token the request carries, if it looks like one of ours."""
    value = connection.cookies.get(SESSION_COOKIE)
    return value if value and _SESSION.fullmatch(value) else None


def set_session_cookie(response: Response, token: str, settings: Settings) -> None:
    """Give the browser its session cookie, with the identity cookie's rules."""
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=IDENTITY_AGE,
        httponly=True,
        samesite="lax",
        secure=settings.https,
        path="/",
    )


def clear_cookies(response: Response, settings: Settings) -> None:
    """Signing out: the session ends and the browser starts afresh as a new anonymous player,
    so nothing of the account stays reachable from it (its marker stays: it reaches nothing)."""
    for name in (SESSION_COOKIE, IDENTITY_COOKIE):
        response.delete_cookie(name, path="/", httponly=True, samesite="lax", secure=settings.https)


__all__ = [
    "IDENTITY_AGE",
    "IDENTITY_COOKIE",
    "MARKER_COOKIE",
    "SESSION_COOKIE",
    "Identity",
    "browser_marker",
    "clear_cookies",
    "ensure_identity",
    "ensure_marker",
    "session_token",
    "set_identity_cookie",
    "set_session_cookie",
    "signer_of",
]
