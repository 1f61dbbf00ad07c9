"""Bots' rules as pure values: which names are bots' (asked of the store once a name, and a
name found not a bot's asked again once another process may have made a bot of it), and a bot's
person, its owner, so it is never rated against them."""

from __future__ import annotations

import asyncio

from gamehall.web.hall.bots import PEOPLE_FRESH, BotNames


class Store:
    def __init__(self) -> None:
        self.bots: set[str] = {"Robo"}
        self.asked: list[list[str]] = []

    def bot_names(self, names: list[str]) -> set[str]:
        self.asked.append(names)
        return self.bots & set(names)


async def _db(function, *args):
    return function(*args)


def test_names_are_asked_once_and_people_again_after_a_while():
    store, now = Store(), [0.0]
    names = BotNames(_db, store, clock=lambda: now[0])  # type: ignore[arg-type]

    async def main() -> None:
        assert await names.among(["Robo", "Ada", None]) == {"Robo"}
        assert await names.among(["Robo", "Ada"]) == {"Robo"}
        assert store.asked == [["Ada", "Robo"]]  # once
        assert names.known("Robo") and not names.known("Ada") and not names.known(None)
        store.bots.add("Ada")  # made a bot on another process (the name was free)
        now[0] = PEOPLE_FRESH + 1
        assert await names.among(["Robo", "Ada"]) == {"Robo", "Ada"}
        assert store.asked[-1] == ["Ada"]  # a bot stays one: Robo is not asked again

    asyncio.run(main())


def test_a_bot_is_its_owners_person_so_never_rated_against_them():
    from gamehall.store.rows import PlayerRow
    from gamehall.web.hall.pairing import one_browser
    from gamehall.web.hall.players import person_of

    ada = PlayerRow("a_ada", "Ada", "2026-01-01", True)
    robo = PlayerRow("a_robo", "Robo", "2026-01-01", True, bot_owner="a_ada")
    twin = PlayerRow("a_twin", "Twin", "2026-01-01", True, bot_owner="a_ada")
    bob = PlayerRow("a_bob", "Bob", "2026-01-01", True)
    assert robo.bot and not ada.bot
    assert person_of(robo) == person_of(twin) == person_of(ada) != person_of(bob)
    # Each on their own browser: only the person tells them apart.
    sides = {p.id: frozenset({f"browser-{p.id}", person_of(p)}) for p in (ada, robo, twin, bob)}
    assert one_browser(True, sides["a_robo"], sides["a_ada"])
    assert one_browser(True, sides["a_robo"], sides["a_twin"])
    assert not one_browser(True, sides["a_robo"], sides["a_bob"])
    assert not one_browser(False, sides["a_robo"], sides["a_ada"])  # casual: no rating at stake
