"""Accounts: password hashing, session tokens and the sign-in rate limit (no web framework).

- Passwords are hashed with argon2id (``argon2-cffi``'s defaults, RFC 9106's second
  recommendation) and never kept, logged or sent back; a hash made with older parameters is
  replaced at the next good sign-in (:meth:`Passwords.needs_rehash`).
- A session is a random token in the ``gh_session`` cookie; the store keeps only its SHA-256
  (:func:`token_hash`), so sessions are the server's to end: signing out ends one, signing out
  everywhere ends them all.
- Failed sign-ins are limited as lichess limits them (:class:`AttemptLimiter`): per client
  address and username (:data:`MAX_FAILURES`) and per client address (:data:`MAX_ADDRESS_FAILURES`,
  more, since many people may share one), within :data:`FAILURE_WINDOW` seconds; past either,
  attempts from that address are refused until the oldest failure leaves the window. Never per
  username alone: a stranger failing to sign in as someone would lock them out everywhere, so
  the owner signing in from their own address is never slowed by others' failures.
- Sign-ins from one address, good or bad, are limited too (:data:`MAX_ADDRESS_SIGN_INS` in
  :data:`FAILURE_WINDOW`), so a script signing in over and over costs a bounded number of hashes.
- An account keeps at most :data:`MAX_SESSIONS` sessions (a new one ends the least recently
  used), and a session unused for :data:`SESSION_IDLE` seconds expires.
- Accounts made from one address are limited too (:data:`MAX_ADDRESS_SIGNUPS` in
  :data:`SIGNUP_WINDOW`), and at most :data:`HASHING_AT_ONCE` hashes are computed at once (each
  takes 64 MiB and tens of milliseconds), so a flood of sign-ups or sign-ins costs the server a
  bounded amount of memory and leaves it cores for the games.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import deque
from dataclasses import dataclass, field

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

MIN_PASSWORD = 8
MAX_PASSWORD = 256
"""Characters; the bound keeps hashing cost fixed whatever is sent."""
MAX_FAILURES = 5
"""Failed sign-ins as one username from one address within the window."""
MAX_ADDRESS_FAILURES = 30
"""Failed sign-ins from one address (any usernames) within the window."""
FAILURE_WINDOW = 300.0
MAX_ADDRESS_SIGN_INS = 60
"""Sign-ins from one address within the window, good or bad (each is an argon2 check)."""
MAX_ADDRESS_SIGNUPS = 10
SIGNUP_WINDOW = 3600.0
MAX_SESSIONS = 10
"""Sessions an account keeps: signing in once more ends the least recently used."""
SESSION_IDLE = 30 * 24 * 3600.0
"""Seconds a session may go unused before it expires (refused, then removed)."""
SESSION_TOUCH = 3600.0
"""How stale a session's stored last use may be before a request writes it again."""
HASHING_AT_ONCE = 2
MAX_TRACKED = 10_000
"""Keys the limiter remembers at most (the oldest are forgotten first)."""


class Passwords:
    """argon2id hashing and checking."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()
        # Checked against when there is no such account, so an unknown username takes as long
        # as a wrong password (the answer does not tell which usernames exist by its timing).
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, password_hash: str | None, password: str) -> bool:
        try:
            return self.hasher.verify(password_hash or self._dummy, password) and bool(
                password_hash
            )
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, password_hash: str) -> bool:
        return self.hasher.check_needs_rehash(password_hash)


def check_password(password: str) -> None:
    """Raises ValueError if the password is too short or too long."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ValueError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the store keeps of a session token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class AttemptLimiter:
    """Failed attempts per key (an address and a username, an address) in a sliding window;
    time is given by the caller."""

    max_failures: int = MAX_FAILURES
    window: float = FAILURE_WINDOW
    failures: dict[str, deque[float]] = field(default_factory=dict)

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self.failures.get(key)
        if times is None:
            return deque()
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self.failures[key]
        return times

    def retry_after(self, keys: list[str], now: float) -> float:
        """Seconds until an attempt under these keys is allowed (0: now)."""
        wait = 0.0
        for key in keys:
            times = self._recent(key, now)
            if len(times) >= self.max_failures:
                wait = max(wait, times[0] + self.window - now)
        return wait

    def failed(self, keys: list[str], now: float) -> None:
        for key in keys:
            if key not in self.failures and len(self.failures) >= MAX_TRACKED:
                del self.failures[next(iter(self.failures))]
            self.failures.setdefault(key, deque()).append(now)

    def succeeded(self, keys: list[str]) -> None:
        """A good sign-in clears these keys' failures."""
        for key in keys:
            self.failures.pop(key, None)


__all__ = [
    "HASHING_AT_ONCE",
    "MAX_ADDRESS_FAILURES",
    "MAX_ADDRESS_SIGNUPS",
    "MAX_ADDRESS_SIGN_INS",
    "MAX_FAILURES",
    "MAX_PASSWORD",
    "MAX_SESSIONS",
    "MIN_PASSWORD",
    "SESSION_IDLE",
    "SESSION_TOUCH",
    "SIGNUP_WINDOW",
    "AttemptLimiter",
    "Passwords",
    "check_password",
    "new_session_token",
    "token_hash",
]
