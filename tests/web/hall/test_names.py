"""Player names: the rule, its messages, the readable names given until one is chosen."""

from __future__ import annotations

import pytest

from gamehall.web.hall.names import MAX_LENGTH, BadName, check_name, name_key, random_name


@pytest.mark.parametrize(
    "name",
    ["Ada", "ada_99", "Jürgen", "李小龍x", "x-y-z", "A" * MAX_LENGTH, "Ωμέγα", "Борис",
     "漢字ひらがなカタカナ", "한국어漢字", "ɑda"],
)  # fmt: skip
def test_good_names(name):
    assert check_name(name) == name


def test_a_name_is_normalised_and_unique_regardless_of_case():
    assert check_name("  Ada ") == "Ada"
    assert name_key("ADA") == name_key("ada")
    assert check_name("Ju\u0308rgen") == "Jürgen"  # NFC
    assert check_name("\uff21\uff44\uff41") == "Ada"  # full width: NFKC


@pytest.mark.parametrize(
    "look_alike",
    ["\u0410\u0501\u0430",  # all Cyrillic: А ԁ а
     "\u0391da",  # a Greek capital alpha
     "Ad\u0430",  # one Cyrillic а among Latin letters
     "\uff21\uff24\uff21",  # full width
     "Ad\u00e1", "A\u0301da\u0327",  # combining marks, composed or not
     "\u0251da"],  # Latin alpha
)  # fmt: skip
def test_look_alikes_of_a_name_are_the_same_name(look_alike):
    assert name_key(look_alike) == name_key("Ada")
    assert name_key("Bob") != name_key("Ada")


@pytest.mark.parametrize(
    ("one", "other"),
    [("Alice", "AIice"), ("ALICE", "alice"), ("Bob", "\u0412\u041e\u0412"),  # Cyrillic ВОВ
     ("ANNA", "\u0391\u039d\u039d\u0391"),  # Greek ΑΝΝΑ
     ("modern", "rnodern"), ("Bob0", "BobO"), ("Ada1", "Adal"), ("Strasse", "Straße")],
)  # fmt: skip
def test_names_a_reader_cannot_tell_apart_have_one_key(one, other):
    """TR39's skeleton, before and after case folding: capitals that look like another
    script's, sequences that look like one letter, digits like letters."""
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize(
    "mixed",
    ["\u0410da",  # a Cyrillic А, then Latin
     "Ad\u0430", "\u0391da", "Bo\u03b2", "Ad\u05d0", "abc\u0e01"],
)  # fmt: skip
def test_a_name_mixing_scripts_is_refused(mixed):
    with pytest.raises(BadName, match="one script") as refused:
        check_name(mixed)
    assert "Latin" in str(refused.value)


def test_every_key_is_the_same_for_the_name_as_stored():
    """The key of a checked name is the key of what was typed (normalising changes nothing)."""
    for typed in ["Ada", "\uff21\uff44\uff41", "  Bob ", "Ju\u0308rgen", "rnodern"]:
        assert name_key(check_name(typed)) == name_key(typed)


@pytest.mark.parametrize(
    ("name", "says"),
    [("ab", "3 to 20"), ("A" * 21, "3 to 20"), ("_ada", "starts with"), ("a b c", "' '"),
     ("<b>x</b>", "'<'"), ("Computer", "kept back"), ("a\u200bb", "only letters"), ("a\x00b", "only letters"),
     ("\u202eAda", "starts with"), ("Ad\u202e", "only letters"), ("\u0421omputer", "one script"), ("ADMlN", "kept back"), ("C0MPUTER", "kept back")],
)  # fmt: skip
def test_bad_names_say_why(name, says):
    with pytest.raises(BadName, match=says):
        check_name(name)


def test_random_names_are_allowed_names():
    for _ in range(200):
        assert check_name(random_name())


@pytest.mark.parametrize(
    ("look_alike", "plain"),
    [("claniel", "daniel"), ("vvendy", "wendy"), ("rnary", "mary"),
     ("a\u029fice", "alice"),  # ʟ, a small capital L
     ("alic\u1d07", "alice"),  # ᴇ, a small capital E
     ("\u0261eorge", "george"),  # ɡ, a script g
     ("\u0266enry", "henry")],  # ɦ, an h with a hook
)  # fmt: skip
def test_letter_pairs_small_capitals_and_phonetic_letters_read_as_plain_letters(look_alike, plain):
    """Names a reader takes for another (issue 33, point 13) have its key, so the second is
    ``name_taken``; both are still names one may have."""
    assert check_name(look_alike) == look_alike
    assert name_key(look_alike) == name_key(plain)


def test_turned_letters_are_not_their_letter():
    assert name_key("\u0250da") != name_key("ada")  # ɐ, a turned a, does not read as a


def test_random_names_never_run_out(tmp_path, monkeypatch):
    """With every short name taken, a newcomer's name gets more digits, never an error
    (issue 33, point 5: a third of newcomers got HTTP 500 once most names were taken)."""
    import asyncio

    from gamehall.store import HallStore, Store
    from gamehall.web.hall import names
    from gamehall.web.hall.players import Players

    monkeypatch.setattr(names, "_ADJECTIVES", ("Only",))
    monkeypatch.setattr(names, "_ANIMALS", ("Owl",))
    monkeypatch.setattr(names, "FIRST_DIGITS", 1)  # nine names: OnlyOwl1 to OnlyOwl9
    store = Store(f"sqlite:///{tmp_path / 'names.sqlite3'}")
    hall_store = HallStore(store)

    async def db(function, *args, **kwargs):  # type: ignore[no-untyped-def]
        return function(*args, **kwargs)

    async def newcomers() -> list[str]:
        players = Players(db, hall_store)
        kept = []
        for n in range(120):
            me = await players.me(f"browser-{n}", None)
            kept.append((await players.keep(me)).player.name)
        return kept

    try:
        kept = asyncio.run(newcomers())
    finally:
        store.dispose()
    assert len(set(kept)) == 120
    assert {len(name) for name in kept} > {len("OnlyOwl1")}  # wider numbers came
