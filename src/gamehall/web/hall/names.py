"""Player names: what one may be called in the hall, and a readable name until one is chosen.

A name is 3 to 20 characters: letters, digits, ``_`` and ``-``, starting with a letter or digit,
in one script (Latin, Cyrillic, Greek…; Han may go with Hiragana and Katakana, Bopomofo or
Hangul, and any of those with Latin, as Unicode TR39's "highly restrictive" level allows), so
``Аda`` with a Cyrillic ``А`` is refused outright. It is unique in the hall up to what a reader
cannot tell apart (its :func:`name_key`): case, full-width forms, combining marks (``Adá`` is
``Ada``) and look-alike letters by Unicode's confusables data (TR39's skeleton: ``ΑΝΝΑ`` in
Greek is ``ANNA``, ``rn`` is ``m``, ``0`` is ``O``, ``1`` and ``I`` are ``l``), small capitals
and other phonetic letters (``aʟice``, ``alicᴇ`` are ``alice``) and the letter pairs that read
as one letter (``cl`` as ``d``, ``vv`` as ``w``), so nobody can pass for another. Names are shown as text only. Names that would read as the server speaking
(``computer``, ``chance``, ``admin``…) are kept back. Account usernames follow the same rule,
since the username becomes the name.

The confusables data comes from ``confusable-homoglyphs`` (Unicode's ``confusables.txt`` as
pairs of a character and its prototype, stored both ways); :func:`prototype` reads the
direction back from it (see there).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from functools import cache

from confusable_homoglyphs import categories, confusables

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


@cache
def prototype(char: str) -> str:
    """The character's prototype in Unicode's confusables data (itself if it has none).

    The library keeps each ``source → prototype`` line both ways, so a character's list holds
    its one prototype if it is a source, or every source that looks like it if it is a
    prototype (prototypes are never sources, and sources are single characters). A list of
    one is ambiguous only for a prototype with a single source: then the pair's member with
    the lower code point (ASCII first) stands for both, which is all a comparison needs."""
    found = confusables.confusables_data.get(char)
    if not found:
        return char
    if len(found) > 1:
        return char  # several sources look like it: a prototype
    other = found[0]["c"].replace("\u200e", "")  # the data marks right-to-left ones so
    if len(other) != 1:
        return other  # a sequence: sources are single characters, so this is the prototype
    mirrored = confusables.confusables_data.get(other) or []
    if len(mirrored) > 1:
        return other
    return min(char, other, key=ord)


def _without_marks(text: str) -> str:
    """The text with its combining marks (accents, dots, tildes) taken off."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def skeleton(text: str) -> str:
    """TR39's skeleton: each character replaced by its prototype, marks taken off."""
    return _without_marks("".join(prototype(c) for c in _without_marks(text)))


_PLAIN = re.compile(
    r"LATIN (?:SMALL |CAPITAL )?LETTER (?:SMALL CAPITAL |SCRIPT |DOTLESS )?([A-Z]{1,2})"
    r"(?: WITH [A-Z ]+)?"
)
"""A Latin letter a reader takes for a plain one: a small capital (``ʟ``, ``ᴇ``), a script or
dotless form (``ɡ``, ``ı``), or a letter with a hook, stroke, tail or bar (``ɦ``, ``ƀ``); what
it stands for is in its Unicode name. Turned, reversed and inverted letters are left alone:
they do not read as their letter."""

LOOK_ALIKE_PAIRS = (("cl", "d"), ("vv", "w"), ("rn", "m"))
"""Letter pairs that read as one letter in most fonts, folded in the key after case folding
(``claniel`` is ``daniel``, ``vvendy`` is ``wendy``); Unicode's data already has ``rn``."""


@cache
def plain_letter(char: str) -> str:
    """The plain letter(s) a phonetic or small-capital Latin letter stands for (lower case),
    or the character itself."""
    if char.isascii():
        return char
    found = _PLAIN.fullmatch(unicodedata.name(char, ""))
    return found.group(1).lower() if found else char


def name_key(name: str) -> str:
    """What must be unique: the skeleton of the normalised name with phonetic letters and
    small capitals as their plain letters (:func:`plain_letter`), then of its case-folded
    form (``ВОВ`` in Cyrillic capitals is ``BOB``, and so ``bob``), with ``i`` and ``l`` as
    one letter, since the capital ``I`` that case folding made ``i`` looks like ``l``, and the
    :data:`LOOK_ALIKE_PAIRS` as the letter they read as."""
    plain = "".join(plain_letter(c) for c in _without_marks(normalise(name)))
    key = skeleton(skeleton(plain).casefold()).replace("i", "l")
    for pair, letter in LOOK_ALIKE_PAIRS:
        key = key.replace(pair, letter)
    return key


def scripts(name: str) -> set[str]:
    """The scripts of the name's letters (digits, ``_``, ``-`` and marks belong to none)."""
    found = {categories.aliases_categories(c)[0] for c in name}
    return found - {"COMMON", "INHERITED", "UNKNOWN"}


_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
"""The scripts one name may mix (TR39's highly restrictive level); otherwise one script."""


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
    used = scripts(name)
    if len(used) > 1 and not any(used <= mix for mix in _MIXES):
        listed = ", ".join(sorted(script.title() for script in used))
        raise BadName(f"a name is written in one script; {name!r} mixes {listed}")
    if name_key(name) in {name_key(word) for word in RESERVED}:
        raise BadName(f"{name!r} is kept back for the server's own use")
    return name


FIRST_DIGITS = 3
"""Digits of a random name's number at first (``SwiftOtter421``: 810 000 names)."""
MORE_DIGITS_EVERY = 3
"""Clashing draws after which a random name's number gets one digit more."""
MOST_DIGITS = 7
"""The longest number (the longest name is then 20 characters)."""


def random_name(attempt: int = 0, seed: str | None = None) -> str:
    """A readable name like ``SwiftOtter421``. Its number has :data:`FIRST_DIGITS` digits,
    one more after every :data:`MORE_DIGITS_EVERY` clashing draws (``attempt``), so names never
    run out; past :data:`MOST_DIGITS` the name is ``Guest`` and 12 random hex digits. A
    ``seed`` (a browser's key) picks the same first name every time, so a browser shows the
    name it will be given before it is stored."""
    digits = FIRST_DIGITS + attempt // MORE_DIGITS_EVERY
    if digits > MOST_DIGITS:
        return "Guest" + secrets.token_hex(6)
    if seed is not None:
        number = int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")
    else:
        number = secrets.randbits(64)
    adjective = _ADJECTIVES[number % len(_ADJECTIVES)]
    number //= len(_ADJECTIVES)
    animal = _ANIMALS[number % len(_ANIMALS)]
    number //= len(_ANIMALS)
    low = 10 ** (digits - 1)
    return f"{adjective}{animal}{low + number % (9 * low)}"


__all__ = [
    "LOOK_ALIKE_PAIRS",
    "MAX_LENGTH",
    "MIN_LENGTH",
    "BadName",
    "check_name",
    "name_key",
    "plain_letter",
    "random_name",
    "skeleton",
]
