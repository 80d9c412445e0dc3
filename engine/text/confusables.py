"""Text as a reader sees it: styled, invisible and lookalike characters folded to plain Latin.

A phrase can be hidden from a pattern while staying legible to a person (and to a model):
zero-width or bidi control characters or soft hyphens inside a word, fullwidth or
mathematical letters, or one Cyrillic "о" in place of a Latin "o". `fold_to_latin` undoes
all of them, in four cheap steps:

1. NFKD: compatibility decomposition turns fullwidth and mathematical alphanumerics into
   plain letters (what NFKC does) and splits accented letters into letter + mark;
2. combining marks are dropped ("ção" -> "cao"): with step 4, what
   `engine.text.tokens.fold_accents` does, so Portuguese reads as it does everywhere else;
3. only if non-ASCII is left: format characters (zero-width, bidi, soft hyphen) are deleted,
   tag characters are read as the ASCII they spell, and every letter that Unicode TR39 lists
   as confusable with a Latin letter is replaced by its Latin prototype, read from the
   confusables table that `confusable_homoglyphs` ships (no hand-made list);
4. casefold.

Portuguese text is ASCII after step 2, so the table is only consulted for the rare text
that needs it, and it is built once, lazily, as a `str.translate` table.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

# Zero-width, bidi control and tag characters: invisible, and no one types them.
ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
TAGS = "".join(map(chr, range(0xE0000, 0xE0080)))  # "ASCII smuggling"
INVISIBLE_CHARACTERS = frozenset(ZERO_WIDTH + BIDI_CONTROLS + TAGS)
SOFT_HYPHEN = "\u00ad"

_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_MARKS = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
# Deleted before matching: soft hyphen, the controls above, the other format characters
# of their blocks, and the Mongolian vowel separator.
_DELETED = (
    "\u00ad\u061c\u180e\ufeff"
    + "".join(map(chr, range(0x200B, 0x2010)))
    + "".join(map(chr, range(0x202A, 0x202F)))
    + "".join(map(chr, range(0x2060, 0x2070)))
)

_UNSEEN = frozenset(_DELETED + TAGS)
"""The characters `_latin_skeleton` deletes or reads as ASCII: its only keys but letters."""


@cache
def _latin_skeleton() -> dict[int, str | None]:
    """The translate table: format characters -> deleted, Latin lookalikes -> Latin letters.

    TR39 maps a source character to its prototype; the table keeps the sources that are
    letters (not ASCII) whose prototype is ASCII letters. TR39 gives "l" as the prototype of
    the I/l/1 class; an uppercase source there is taken to mean "I" (Cyrillic "І")."""
    from confusable_homoglyphs.confusables import confusables_data

    table: dict[int, str | None] = {}
    for char, homoglyphs in confusables_data.items():
        if len(char) != 1 or char.isascii() or not char.isalpha():
            continue
        latin = [h["c"] for h in homoglyphs if h["c"].isascii() and h["c"].isalpha()]
        if latin:
            table[ord(char)] = "I" if latin[0] == "l" and char.isupper() else latin[0]
    table.update(dict.fromkeys(map(ord, _DELETED)))
    for tag in map(ord, TAGS):  # a tag character spells an ASCII one invisibly: read it so
        table[tag] = chr(tag - 0xE0000) if 0x20 <= tag - 0xE0000 < 0x7F else None
    return table


def fold_to_latin(text: str) -> str:
    """`text` casefolded, accents, styles, invisible controls and Latin lookalikes folded:
    "Ｉgn\u043ere" -> "ignore", "Geração" -> "geracao"."""
    if text.isascii():
        return text.lower()
    folded = _MARKS.sub("", unicodedata.normalize("NFKD", text))
    left = set(_NON_ASCII.findall(folded)) if not folded.isascii() else set()
    if any(char.isalpha() or char in _UNSEEN for char in left):
        # What non-ASCII is left is mostly punctuation (“ ” – §), which the table does not
        # hold (it holds letters and the unseen characters only), so it is built and read
        # only for a letter: replace what it changes, char by char while they are few
        # (faster than translating it all).
        table = _latin_skeleton()
        changed = [char for char in left if ord(char) in table]
        if len(changed) > 8:
            folded = folded.translate(table)
        else:
            for char in changed:
                folded = folded.replace(char, table[ord(char)] or "")
    return folded.casefold()


def _character_class(characters: frozenset[str]) -> re.Pattern[str]:
    """A pattern matching any one of `characters`, written as ranges of code points."""
    points = sorted(map(ord, characters))
    ranges: list[list[int]] = []
    for point in points:
        if ranges and point == ranges[-1][1] + 1:
            ranges[-1][1] = point
        else:
            ranges.append([point, point])
    spelled = "".join(
        re.escape(chr(low)) + (f"-{re.escape(chr(high))}" if high > low else "")
        for low, high in ranges
    )
    return re.compile(f"[{spelled}]")


# A character class of a few ranges: `re.sub` with it runs some 30 times faster than
# `str.translate` over a page's text (a warm question reads whole documents through it).
_INVISIBLE = _character_class(INVISIBLE_CHARACTERS)


def without_invisible_controls(text: str) -> str:
    """`text` as a reader sees it: zero-width, bidi control and tag characters removed.
    Document text is read through this, so no excerpt quoted from a page carries them."""
    return text if text.isascii() else _INVISIBLE.sub("", text)


def has_invisible_controls(text: str) -> bool:
    """Whether `text` holds a zero-width, bidi control or tag character: an excerpt a reader
    could not type. A soft hyphen is fine: PDFs are full of them."""
    return not text.isascii() and not INVISIBLE_CHARACTERS.isdisjoint(text)
