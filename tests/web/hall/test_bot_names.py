"""Which names are bots': asked of the store once a name, and a name found not a bot's asked
again once the hall's other processes may have made a bot of it."""

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
