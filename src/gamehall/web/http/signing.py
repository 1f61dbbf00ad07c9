"""The server's secret, and the identity cookie signed with it.

A browser's identity cookie is its random secret and an HMAC-SHA256 of it under the server's
secret (``<secret>.<mac>``), so only the server makes identities: a made-up or altered cookie
fails the check and the browser is a new guest, as if it had sent none (and nothing is stored
for it until it does something that needs a player: :mod:`gamehall.web.hall.players`).

The server's secret is 32 random bytes in the file :data:`SECRET_FILE` of the data directory:
beside the SQLite store, or the user's data directory (platformdirs) on PostgreSQL. The first
server to start makes it (mode 0600, written whole before it appears, so processes starting at
once agree on one); every later start reads it. Several machines serving one PostgreSQL hall
share one copy of it (see docs/deploy.md). Deleting it makes every browser a new guest.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from sqlalchemy.engine import make_url

SECRET_FILE = "cookie-secret"
"""The server's secret's file name, in the data directory."""
SECRET_BYTES = 32
_MAC_CHARS = 43
"""An HMAC-SHA256 in unpadded URL-safe base64."""


def data_folder(store_url: str) -> Path:
    """Where the server's secret lives: beside a SQLite store's file, else the user's data
    directory (where the default store is too)."""
    parsed = make_url(store_url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        return Path(str(parsed.database)).expanduser().resolve().parent
    from platformdirs import user_data_dir

    return Path(user_data_dir("gamehall"))


def load_secret(folder: Path) -> bytes:
    """The server's secret in ``folder``, made (mode 0600) if there is none yet."""
    path = folder / SECRET_FILE
    with contextlib.suppress(FileNotFoundError):
        return _read(path)
    folder.mkdir(parents=True, exist_ok=True)
    draft = folder / f".{SECRET_FILE}.{os.getpid()}.{secrets.token_hex(4)}"
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as file:
            file.write(secrets.token_hex(SECRET_BYTES) + "\n")
            file.flush()
            os.fsync(file.fileno())
        with contextlib.suppress(FileExistsError):  # another process made it first: theirs
            os.link(draft, path)
    finally:
        draft.unlink(missing_ok=True)
    return _read(path)


def _read(path: Path) -> bytes:
    text = path.read_text(encoding="ascii").strip()
    secret = bytes.fromhex(text)
    if len(secret) < 16:
        raise ValueError(f"{path} holds no server secret (it should hold 64 hex digits)")
    return secret


class CookieSigner:
    """Signs a cookie value with the server's secret, and checks a signed one."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def _mac(self, value: str) -> str:
        digest = hmac.new(self._secret, value.encode("ascii"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")

    def sign(self, value: str) -> str:
        """``value`` (URL-safe base64 text, no ``.``) with its MAC: ``value.mac``."""
        return f"{value}.{self._mac(value)}"

    def unsign(self, signed: str) -> str | None:
        """The value of a signed cookie, or None if it is not one this server signed."""
        value, dot, mac = signed.rpartition(".")
        if not dot or len(mac) != _MAC_CHARS or not value.isascii():
            return None
        return value if hmac.compare_digest(mac, self._mac(value)) else None


def signer_for(store_url: str) -> CookieSigner:
    """The signer of a server on the store at ``store_url`` (its secret made on first start)."""
    return CookieSigner(load_secret(data_folder(store_url)))


__all__ = ["SECRET_FILE", "CookieSigner", "data_folder", "load_secret", "signer_for"]
