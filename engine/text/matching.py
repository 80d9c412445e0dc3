"""Where an excerpt is in a text, as a reader would find it there.

Both sides are normalised alike (`normalise`). A match then has to hold what a reader sees:

- A space of the excerpt stands for any boundary of the text; two adjacent characters of the
  excerpt may stand on either side of a soft boundary (a word the PDF text layer split,
  "Inv estment"), never of a hard one (a line, a table cell, a paragraph, a space between
  two figures).
- The match starts and ends on word boundaries: "lawful" is not quoted out of "unlawful",
  "75" not out of "750" or "1,575".
- A unit symbol whose case carries meaning ("mW" and "MW", "mb" and "MB") is the same on both
  sides: casefolding must not make a milliwatt page back a megawatt excerpt.

Pure functions; the verifier and the page boxes of a PDF use the same `find_excerpt`, so a
highlight is drawn where the verdict was found.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache

from engine.text.normalise import HARD, SOFT, MatchText, excerpt_key, normalise_for_match

_NUMBER_SEPARATORS = ".,\u00a0\u2009\u202f"
# A unit written after a number; the letters whose case tells milli from mega, bit from
# byte, pico from peta, gram from giga, tonne from tera.
_UNIT_AFTER_NUMBER = re.compile(r"(?<=\d)\s*([A-Za-zμ]{1,4})(?![^\W\d_])")
_CASE_MEANS = frozenset("mMpPbBgGtT")


@lru_cache(maxsize=256)
def excerpt_pattern(excerpt: str) -> re.Pattern[str] | None:
    """The regular expression that finds `excerpt` in a normalised text; None when nothing is
    left of it after normalisation (only markup)."""
    needle = excerpt_key(excerpt)
    if not needle:
        return None
    parts: list[str] = []
    previous = HARD
    for char in needle:
        if char == HARD:
            parts.append(f"[{HARD}{SOFT}]")
        else:
            if previous != HARD:
                parts.append(f"{SOFT}?")  # the text never has one between two figures
            parts.append(re.escape(char))
        previous = char
    return re.compile("".join(parts))


@lru_cache(maxsize=64)
def normalised(text: str) -> MatchText:
    """Pages are searched for every claim that cites them: normalise each text once."""
    return normalise_for_match(text)


def find_excerpt(excerpt: str, text: str) -> Iterator[tuple[int, int]]:
    """The spans [start, end) of `text` where a reader sees `excerpt`, in order."""
    for start, end, cut in _candidates(excerpt, text):
        if not cut:
            yield start, end


def cuts_only(excerpt: str, text: str) -> bool:
    """Whether `excerpt` is in `text` only where it cuts a word or a number in two (a
    reason to give the author: quote the whole number)."""
    found = [cut for _, _, cut in _candidates(excerpt, text)]
    return bool(found) and all(found)


def _candidates(excerpt: str, text: str) -> Iterator[tuple[int, int, bool]]:
    """Every normalised occurrence as (start, end, cuts), `cuts` when a reader would not see
    the excerpt there (it cuts a word or a number, or a unit's case differs)."""
    pattern = excerpt_pattern(excerpt)
    if pattern is None:
        return
    haystack = normalised(text)
    at = 0
    while True:
        found = pattern.search(haystack.text, at)
        if found is None:
            return
        start, end = haystack.original_span(found.start(), found.end())
        cut = _cuts_word(haystack.text, found.start(), found.end()) or _cuts_number(
            text, start, end
        )
        yield start, end, cut or not _same_units(excerpt, text[start:end])
        at = found.start() + 1


def _cuts_word(text: str, start: int, end: int) -> bool:
    """Whether the normalised match starts or ends inside a word."""
    if text[start].isalnum() and start > 0 and text[start - 1].isalnum():
        return True
    return text[end - 1].isalnum() and end < len(text) and text[end].isalnum()


def _cuts_number(text: str, start: int, end: int) -> bool:
    """Whether the span starts or ends inside a number ("75" taken from "750", "1,577.3")."""
    if text[end - 1].isdigit() and end < len(text):
        after = text[end]
        if after.isdigit() or (
            after in _NUMBER_SEPARATORS and end + 1 < len(text) and text[end + 1].isdigit()
        ):
            return True
    if text[start].isdigit() and start > 0:
        before = text[start - 1]
        if before.isdigit() or (
            before in _NUMBER_SEPARATORS and start > 1 and text[start - 2].isdigit()
        ):
            return True
    return False


def _same_units(excerpt: str, found: str) -> bool:
    """Whether the units written after the numbers of both texts agree where case matters."""
    return _cased_units(excerpt) == _cased_units(found)


def _cased_units(text: str) -> list[str]:
    """The units after numbers whose case carries meaning, as written (NFKC: "m²" is "m2")."""
    units = _UNIT_AFTER_NUMBER.findall(unicodedata.normalize("NFKC", text))
    return [unit for unit in units if unit[0] in _CASE_MEANS]
