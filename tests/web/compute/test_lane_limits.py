"""The lanes' limits per asker: a request refused for want of room (``busy``) costs its asker
nothing, and one network address has a bounded number of jobs in flight whatever identities
it makes up."""

from __future__ import annotations

import pytest

from gamehall.protocol import ErrorCode, ProtocolError
from gamehall.web.compute.workers import InFlight, RateLimit


def _busy() -> ProtocolError:
    return ProtocolError(ErrorCode.BUSY, "the lane is full")


def test_a_busy_answer_does_not_use_up_the_askers_quota():
    limit = RateLimit("hint", 2, 60.0)
    for _ in range(10):  # the lane was full ten times: none of them counts
        with pytest.raises(ProtocolError), limit.hold("player"):
            raise _busy()
    for _ in range(2):
        with limit.hold("player"):
            pass
    with pytest.raises(ProtocolError) as spent, limit.hold("player"):
        pass
    assert spent.value.code == ErrorCode.RATE_LIMITED and "at most 2 hints" in spent.value.message


def test_a_job_that_ran_and_failed_counts():
    limit = RateLimit("hint", 1, 60.0)
    with pytest.raises(ProtocolError), limit.hold("player"):
        raise ProtocolError(ErrorCode.ANALYSIS_FAILED, "stopped")
    with pytest.raises(ProtocolError, match="at most 1 hint"), limit.hold("player"):
        pass


def test_one_address_has_a_bounded_number_of_jobs_in_flight():
    flights = InFlight("hint", 2)
    with flights.hold("203.0.113.9"), flights.hold("203.0.113.9"):
        with pytest.raises(ProtocolError) as held, flights.hold("203.0.113.9"):
            pass
        assert held.value.code == ErrorCode.RATE_LIMITED
        assert "network address" in held.value.message and "at most 2" in held.value.message
        with flights.hold("198.51.100.1"):  # another address is not held up
            pass
    with flights.hold("203.0.113.9"):  # the first two are done
        pass
