"""Player names: what one may be called in the hall, and a readable name until one is chosen.

A name is 3 to 20 characters: letters (any script), digits, ``_`` and ``-``, starting with a
letter or digit; it is unique in the hall regardless of case and of look-alike letters (its
:func:`name_key`: ``Аda`` with a Cyrillic ``А``, or ``Ａｄａ`` in full width, is ``Ada``), so
nobody can pass for another by a look-alike; names are shown as text only. Names that would read
as the server speaking (``computer``, ``chance``, ``admin``…) are kept back. Account usernames follow the same rule, since the username becomes the name.
"""

from __future__ import annotations

import secrets
import unicodedata

from confusable_homoglyphs import confusables

MIN_LENGTH = 3
MAX_LENGTH = 20
RESERVED = frozenset(
    {"admin", "administrator", "anonymous", "chance", "computer", "gamehall", "moderator",
     "nobody", "server", "system", "you"}
)  # fmt: skip

_ADJECTIVES = (
    "Amber", "Bold", "Brave", "Bright", "Calm", "Clever", "Cosmic", "Crimson", "Curious", "Daring",
    "Eager", "Gentle", "Golden", "Happy", "Jolly", "Keen", "Lucky", "Mellow", "Merry", "Misty",
    "Nimble", "Noble", "Quiet", "Rapid", "Silver", "Sly", "Steady", "Sunny", "Swift", "Witty",
)  # fmt: skip
_ANIMALS = (
    "Badger", "Beaver", "Crane", "Falcon", "Ferret", "Fox", "Gecko", "Heron", "Ibex", "Koala",
    "Lemur", "Lynx", "Marten", "Moose", "Newt", "Otter", "Owl", "Panda", "Puffin", "Quokka",
    "Raven", "Robin", "Seal", "Stoat", "Swan", "Tapir", "Tiger", "Walrus", "Wombat", "Yak",
)  # fmt: skip


class BadName(ValueError):
    """A name that is not allowed; the message says why and what is."""


def normalise(name: str) -> str:
    """The name as stored: NFKC (full-width letters and ligatures as plain ones), surrounding
    spaces stripped."""
    return unicodedata.normalize("NFKC", name).strip()


def skeleton(name: str) -> str:
    """The name with every letter that looks like a Latin one replaced by it (Unicode's
    confusables data, through ``confusable-homoglyphs``)."""
    found = confusables.is_confusable(name, greedy=True, preferred_aliases=["latin"]) or []
    latin = {}
    for entry in found:
        shapes = [g["c"] for g in entry["homoglyphs"] if len(g["c"]) == 1]
        if shapes:
            latin[entry["character"]] = shapes[0]
    return "".join(latin.get(char, char) for char in name)


def name_key(name: str) -> str:
    """What must be unique: the normalised name's skeleton, case-folded."""
    return skeleton(normalise(name)).casefold()


def check_name(name: str) -> str:
    """The normalised name, or :class:`BadName` saying what is wrong with it."""
    name = normalise(name)
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise BadName(
            f"a name has {MIN_LENGTH} to {MAX_LENGTH} characters; {name!r} has {len(name)}"
        )
    if not name[0].isalnum():
        raise BadName(f"a name starts with a letter or digit, not {name[0]!r}")
    for char in name:
        if not (char.isalnum() or char in "_-"):
            raise BadName(f"a name has only letters, digits, '_' and '-'; {name!r} has {char!r}")
    if name_key(name) in RESERVED:
        raise BadName(f"{name!r} is kept back for the server's own use")
    return name


def random_name() -> str:
    """A readable name like ``SwiftOtter42`` (900 000 of them; the store retries on a clash)."""
    return (
        secrets.choice(_ADJECTIVES) + secrets.choice(_ANIMALS) + str(secrets.randbelow(900) + 100)
    )


__all__ = ["MAX_LENGTH", "MIN_LENGTH", "BadName", "check_name", "name_key", "random_name"]
