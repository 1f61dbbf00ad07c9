"""Player names: the rule, its messages, the readable names given until one is chosen."""

from __future__ import annotations

import pytest

from gamehall.web.names import MAX_LENGTH, BadName, check_name, name_key, random_name


@pytest.mark.parametrize("name", ["Ada", "ada_99", "Jürgen", "李小龍x", "x-y-z", "A" * MAX_LENGTH])
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
     "\uff21\uff24\uff21"],  # full width
)  # fmt: skip
def test_look_alikes_of_a_name_are_the_same_name(look_alike):
    assert name_key(look_alike) == name_key("Ada")
    assert name_key("Bob") != name_key("Ada")


@pytest.mark.parametrize(
    ("name", "says"),
    [("ab", "3 to 20"), ("A" * 21, "3 to 20"), ("_ada", "starts with"), ("a b c", "' '"),
     ("<b>x</b>", "'<'"), ("Computer", "kept back"), ("a\u200bb", "only letters"), ("a\x00b", "only letters"),
     ("\u202eAda", "starts with"), ("Ad\u202e", "only letters"), ("\u0421omputer", "kept back")],
)  # fmt: skip
def test_bad_names_say_why(name, says):
    with pytest.raises(BadName, match=says):
        check_name(name)


def test_random_names_are_allowed_names():
    for _ in range(200):
        assert check_name(random_name())
