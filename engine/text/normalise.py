"""Text normalisation for excerpt matching, keeping a map back to the original characters.

Page text and excerpt go through the same steps, so an excerpt copied from a PDF, a Markdown
rendering or an HTML page is found whatever its whitespace, case, quotes, dashes or emphasis.
"""

from __future__ import annotations

import re
import string
import unicodedata
from array import array
from dataclasses import dataclass, field
from functools import lru_cache

_QUOTES = dict.fromkeys("‘’‚‛′", "'") | dict.fromkeys("“”„‟″«»", '"')
_DASHES = dict.fromkeys("‐‑‒–—―−﹣－", "-")
_TRANSLATE = str.maketrans(_QUOTES | _DASHES)
_DROPPED = frozenset("\u00ad\u200b\u200c\u200d\u2060\ufeff*_`|")
_ESCAPABLE = frozenset(string.punctuation)
_MARKS = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
# Whitespace runs, or runs of printable ASCII that only need lower-casing (the common case);
# a run gives up its last char when a combining mark follows, so the two compose together.
_FAST_RUN = re.compile(rf"(\s+)|([^\x00-\x20*_`|~\\\x7f-\U0010ffff]+(?![{_MARKS}]))")
_WORD_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")


@dataclass(frozen=True)
class MatchText:
    """Normalised text; `origin[i]` is the index in `source` of the char `text[i]` came from."""

    text: str
    origin: array[int] = field(hash=False, repr=False)
    source: str = field(hash=False, repr=False)

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The [start, end) span of `source` that normalised `text[start:end]` came from."""
        if not 0 <= start < end <= len(self.text):
            raise ValueError(f"bad span [{start}, {end}) for text of length {len(self.text)}")
        first = self.origin[start]
        last = self.origin[end - 1] + 1
        # Combining marks fold into the char before them; keep them inside the span.
        while last < len(self.source) and unicodedata.combining(self.source[last]):
            last += 1
        return first, last


def normalise_for_match(text: str) -> MatchText:
    """Normalise `text` for excerpt matching (NFKC, casefold, no whitespace or markup); O(n)."""
    pieces: list[str] = []
    origin = array("I")
    pos = 0
    for run in _FAST_RUN.finditer(text):
        start, end = run.span()
        pos = _normalise_slowly(text, pos, start, pieces, origin)
        if run.lastindex == 2 and pos < end:
            pieces.append(text[pos:end].lower())
            origin.extend(range(pos, end))
        pos = max(pos, end)
    _normalise_slowly(text, pos, len(text), pieces, origin)
    return _drop_word_hyphens("".join(pieces), origin, text)


def _normalise_slowly(text: str, pos: int, stop: int, pieces: list[str], origin: array[int]) -> int:
    """Normalise text[pos:stop] char by char; returns where it stopped (may pass `stop`)."""
    n = len(text)
    while pos < stop:
        nxt = pos + 1
        if text[pos] == "~" and nxt < n and text[nxt] == "~":
            while nxt < n and text[nxt] == "~":
                nxt += 1
            pos = nxt
            continue
        if text[pos] == "\\" and nxt < n and text[nxt] in _ESCAPABLE:
            pos = nxt
            continue
        while nxt < n and text[nxt] >= "\u0300" and unicodedata.combining(text[nxt]):
            nxt += 1
        folded = _fold(text[pos:nxt])
        if folded:
            pieces.append(folded)
            origin.extend([pos] * len(folded))
        pos = nxt
    return pos


@lru_cache(maxsize=8192)
def _fold(segment: str) -> str:
    """One base char (plus its combining marks) -> its normalised form, possibly empty."""
    text = unicodedata.normalize("NFKC", segment.translate(_TRANSLATE))
    text = unicodedata.normalize("NFKC", text.casefold()).translate(_TRANSLATE)
    return "".join(c for c in text if not c.isspace() and c not in _DROPPED)


def _drop_word_hyphens(text: str, origin: array[int], source: str) -> MatchText:
    """Remove "-" between two letters: "micro-\\ngeração" and "microgeração" must meet."""
    drops = [m.start() for m in _WORD_HYPHEN.finditer(text)]
    if not drops:
        return MatchText(text, origin, source)
    pieces: list[str] = []
    kept = array("I")
    previous = 0
    for k in [*drops, len(text)]:
        pieces.append(text[previous:k])
        kept.extend(origin[previous:k])
        previous = k + 1
    return MatchText("".join(pieces), kept, source)


def excerpt_key(excerpt: str) -> str:
    """The normalised excerpt: equal keys mean the same quote of a source."""
    return normalise_for_match(excerpt).text


def collapse_whitespace(text: str) -> str:
    """Runs of whitespace -> one space, ends stripped (how excerpt length is measured)."""
    return " ".join(text.split())
