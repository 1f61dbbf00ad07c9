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


@pytest.mark.parametrize(
    ("name", "says"),
    [("ab", "3 to 20"), ("A" * 21, "3 to 20"), ("_ada", "starts with"), ("a b c", "' '"),
     ("<b>x</b>", "'<'"), ("Computer", "kept back"), ("a\u200bb", "only letters")],
)  # fmt: skip
def test_bad_names_say_why(name, says):
    with pytest.raises(BadName, match=says):
        check_name(name)


def test_random_names_are_allowed_names():
    for _ in range(200):
        assert check_name(random_name())
