"""The games that exist only in the tests are registered for every adapter test (and the
adapters' registries told of them), so the checks run over them as over the installed games."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.nim.plugin import registered_test_only_games


@pytest.fixture(autouse=True)
def _test_only_games() -> Iterator[None]:
    import gamehall.adapters.gymnasium as gymnasium_adapter
    import gamehall.adapters.openspiel as openspiel_adapter

    with registered_test_only_games():
        gymnasium_adapter.register_all()
        openspiel_adapter.register_all()
        yield
