"""Accounts' parts without the server: argon2 hashing, session tokens, the attempt limiter."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher

from gamehall.web.hall.accounts import (
    AttemptLimiter,
    Passwords,
    check_password,
    new_session_token,
    token_hash,
)

CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


def test_passwords_are_argon2id_hashes_checked_both_ways():
    passwords = Passwords(CHEAP)
    stored = passwords.hash("correct horse")
    assert stored.startswith("$argon2id$") and "correct horse" not in stored
    assert passwords.verify(stored, "correct horse")
    assert not passwords.verify(stored, "correct hors")
    assert not passwords.verify("not a hash", "correct horse")
    assert not passwords.verify(None, "anything")  # no account: checked against a dummy


def test_an_old_hash_is_due_for_rehashing():
    old = Passwords(CHEAP).hash("correct horse")
    assert Passwords(PasswordHasher(time_cost=2, memory_cost=1024, parallelism=1)).needs_rehash(old)


@pytest.mark.parametrize("password", ["short", "x" * 257])
def test_password_length_is_bounded(password):
    with pytest.raises(ValueError, match="8 to 256"):
        check_password(password)


def test_sessions_are_stored_only_as_their_hash():
    token = new_session_token()
    assert len(token) >= 40 and token_hash(token) != token and len(token_hash(token)) == 64
    assert token_hash(token) == token_hash(token)


def test_the_limiter_refuses_after_too_many_failures_until_the_window_passes():
    limiter = AttemptLimiter(max_failures=3, window=60)
    for at in (0, 10, 20):
        assert limiter.retry_after(["ada"], at) == 0
        limiter.failed(["ada"], at)
    assert limiter.retry_after(["ada"], 30) == pytest.approx(30)  # the first failure at 0 + 60
    assert limiter.retry_after(["bob"], 30) == 0
    assert limiter.retry_after(["ada"], 61) == 0  # the oldest failure left the window
    limiter.failed(["ada"], 61)
    assert limiter.retry_after(["ada"], 62) > 0
    limiter.succeeded(["ada"])
    assert limiter.retry_after(["ada"], 62) == 0
