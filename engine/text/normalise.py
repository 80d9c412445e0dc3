"""Text normalisation for excerpt matching, keeping a map back to the original characters.

Page text and excerpt go through the same steps, so an excerpt copied from a PDF, a Markdown
rendering or an HTML page is found whatever its case, quotes, dashes, emphasis or run of
whitespace. What a reader sees as separate stays separate:

- Whitespace is not removed but collapsed into one boundary. A boundary is *soft* ("\\x01")
  when it is a run of spaces inside one line, not between two figures: a PDF text layer
  puts such spaces inside words ("Inv estment") and around punctuation ("Cash , cash").
  Every other boundary (a line break, a tab, a table cell's "|", a space between two
  figures as in "15 3" or "1, 577") is *hard* (" "). The matcher
  (`engine.text.matching`) may skip a soft boundary, never a hard one: "7" and "5" of two
  paragraphs never make "75".
- End-of-line hyphenation joins ("micro-\\ngeração" = "microgeração"), as does a hyphen
  between two letters; a dash set between two words is a boundary ("Other — net" = "Other
  net"); a hyphen next to a digit is kept ("2019-2022", "COVID-19").
- Superscript and subscript digits after a digit, and enclosed numerals ("①", "⒈"), keep
  their own character: "15¹" is not "151", "10²" is not "102", "① 5 MW" is not "15 MW".
  After a letter a superscript digit folds ("m²" = "m2", "CO₂" = "CO2").
- Zero-width characters and soft hyphens are dropped: a page renders without them.
"""

from __future__ import annotations

import re
import string
import unicodedata
from array import array
from dataclasses import dataclass, field
from functools import lru_cache

HARD = " "
"""A boundary a match must keep: line, cell, paragraph, or a space beside a digit."""
SOFT = "\x01"
"""A space inside one line, not between figures: a text layer may split a word there."""

_QUOTES = dict.fromkeys("‘’‚‛′", "'") | dict.fromkeys("“”„‟″«»", '"')
_DASHES = dict.fromkeys("‐‑‒–—―−﹣－", "-")
_TRANSLATE = str.maketrans(_QUOTES | _DASHES)
_DROPPED = frozenset("\u00ad\u200b\u200c\u200d\u2060\ufeff*_`")
_CELL = "|"
_FIGURE_MARKS = frozenset(".,-+")
_LINE_BREAKS = frozenset("\n\r\t\v\f\x1c\x1d\x1e\x85\u2028\u2029")
_ESCAPABLE = frozenset(string.punctuation)
_MARKS = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_KEPT_NUMERAL_TAGS = ("<super>", "<sub>")
_ENCLOSED_TAGS = ("<circle>", "<compat>", "<fraction>")
# A hyphen or dash between letters (with the line break or spaces of a hyphenation after it,
# or set between two words), or a run of boundaries to collapse into one. A boundary alone
# is left as it is (most of a text's), unless it is a soft one that may turn hard: at an end
# of the text, or with no letter on either side (between two figures, `_joined` decides).
# Each starts on a boundary or a hyphen: said first, it spares trying them all everywhere.
_JOINS = re.compile(
    r"(?=[ \x01-])(?:(?<=[^\W\d_])[ \x01]*-[ \x01]*(?=[^\W\d_])|[ \x01]{2,}|\A\x01|\x01\Z"
    r"|(?<![a-zA-Z\u00c0-\u00ff])\x01(?![a-zA-Z\u00c0-\u00ff]))"
)


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
    """Normalise `text` for excerpt matching (NFKC, casefold, one boundary per run of
    whitespace or markup, see the module docstring); O(n)."""
    pieces: list[str] = []
    origin = array("I")
    pos = 0
    for run in _FAST_RUN.finditer(text):
        start, end = run.span()
        pos = _normalise_slowly(text, pos, start, pieces, origin)
        if pos >= end:
            continue
        if run.lastindex == 1:
            hard = any(c in _LINE_BREAKS for c in text[pos:end])
            pieces.append(HARD if hard else SOFT)
            origin.append(pos)
            pos = end
            continue
        if end < len(text) and not text[end - 1].isascii() and _combines(text[end]):
            end -= 1  # a letter the slow path reads with the combining marks after it
            if pos >= end:
                continue
        piece = text[pos:end].lower().replace(" ", SOFT)
        if not piece.isascii() and _FOLDS_AFTER_LOWER.search(piece):
            piece = piece.translate(_LATIN_AFTER_LOWER)
        pieces.append(piece)
        origin.extend(range(pos, end))
        pos = end
    _normalise_slowly(text, pos, len(text), pieces, origin)
    return _joined("".join(pieces), origin, text)


def _combines(char: str) -> bool:
    return char >= "\u0300" and unicodedata.combining(char) != 0


def _normalise_slowly(text: str, pos: int, stop: int, pieces: list[str], origin: array[int]) -> int:
    """Normalise text[pos:stop] char by char; returns where it stopped (may pass `stop`)."""
    n = len(text)
    while pos < stop:
        nxt = pos + 1
        char = text[pos]
        if char == "~" and nxt < n and text[nxt] == "~":
            while nxt < n and text[nxt] == "~":
                nxt += 1
            pos = nxt
            continue
        if char == "\\" and nxt < n and text[nxt] in _ESCAPABLE:
            pos = nxt
            continue
        if char == _CELL or (char.isspace() and char not in _DROPPED):
            pieces.append(HARD if char == _CELL or char in _LINE_BREAKS else SOFT)
            origin.append(pos)
            pos = nxt
            continue
        while nxt < n and text[nxt] >= "\u0300" and unicodedata.combining(text[nxt]):
            nxt += 1
        after_letter = pos > 0 and text[pos - 1].isalpha()
        folded = _fold(text[pos:nxt], after_letter)
        if folded:
            pieces.append(folded)
            origin.extend([pos] * len(folded))
        pos = nxt
    return pos


@lru_cache(maxsize=8192)
def _fold(segment: str, after_letter: bool = False) -> str:
    """One base char (plus its combining marks) -> its normalised form, possibly empty."""
    kept = _kept_numeral(segment[0], after_letter)
    if kept is not None:
        return kept
    text = unicodedata.normalize("NFKC", segment.translate(_TRANSLATE))
    text = unicodedata.normalize("NFKC", text.casefold()).translate(_TRANSLATE)
    return "".join(c for c in text if not c.isspace() and c not in _DROPPED)


def _kept_numeral(char: str, after_letter: bool) -> str | None:
    """The char itself when NFKC would turn it into a plain digit a reader does not see:
    a superscript or subscript digit after a digit ("15¹", "10²"), an enclosed numeral."""
    if char.isascii() or unicodedata.numeric(char, None) is None or char.isdecimal():
        return None  # fullwidth and other decimal digits fold to their ASCII digit
    tag = unicodedata.decomposition(char).split(" ", 1)[0]
    if tag in _KEPT_NUMERAL_TAGS:
        return None if after_letter else char
    if tag in _ENCLOSED_TAGS or not tag:
        return char
    return None


def _latin_folds() -> dict[str, str]:
    """The Latin-1 and Latin Extended letters and signs that fold alone to one char, the same
    after a letter or not (no numeral kept): each char's fold, as `_fold` gives it."""
    folds: dict[str, str] = {}
    for code in range(0xA0, 0x250):
        char = chr(code)
        if char.isspace() or char in _DROPPED or unicodedata.combining(char):
            continue
        fold = _fold(char)
        if len(fold) == 1 and _fold(char, after_letter=True) == fold and len(char.lower()) == 1:
            folds[char] = fold
    return folds


_LATIN_FOLDS = _latin_folds()
# Runs that need only `str.lower` and a translation (the common case, whole lines of prose in
# Latin script): printable ASCII but markup, a single space inside the line (a soft
# boundary), and the Latin chars above; whitespace runs are read on their own. A run gives up
# its last char when a combining mark follows, so the two compose together (the regex for
# the common marks, `normalise_for_match` for any after a non-ASCII char).
_FAST_CHARS = "".join(
    re.escape(char)
    for char in [*map(chr, range(0x21, 0x7F)), *_LATIN_FOLDS]
    if char not in "*_`|~\\"
)
_FAST_RUN = re.compile(rf"(\s+)|([{_FAST_CHARS}](?:[{_FAST_CHARS}]| (?!\s))*(?![{_MARKS}]))")
_LATIN_AFTER_LOWER = str.maketrans(
    {char.lower(): fold for char, fold in _LATIN_FOLDS.items() if char.lower() != fold}
)
_FOLDS_AFTER_LOWER = re.compile(
    "[" + "".join(re.escape(chr(code)) for code in _LATIN_AFTER_LOWER) + "]"
)


def _joined(text: str, origin: array[int], source: str) -> MatchText:
    """Hyphens between letters out, boundary runs collapsed into one: hard if any of the run
    is or if it stands between two figures, else soft."""
    pieces: list[str] = []
    kept = array("I")
    previous = 0
    for match in _JOINS.finditer(text):
        start, end = match.span()
        pieces.append(text[previous:start])
        kept.extend(origin[previous:start])
        previous = end
        run = text[start:end]
        if "-" in run:
            if run[0] == "-":
                continue  # "micro-\ngeração", "bem-estar": one word
            run = run.replace("-", "")  # "Other — net": a dash set between two words
        soft = (
            HARD not in run
            and start > 0
            and end < len(text)
            and not (_figure_ends(text, start) and _figure_starts(text, end))
        )
        pieces.append(SOFT if soft else HARD)
        kept.append(origin[start])
    pieces.append(text[previous:])
    kept.extend(origin[previous:])
    return MatchText("".join(pieces), kept, source)


def _figure_ends(text: str, at: int) -> bool:
    """Whether a figure ends just before `at`: a digit, or a separator after one ("1,")."""
    before = text[at - 1 : at]
    if before[:1].isdigit():
        return True
    return before in _FIGURE_MARKS and at >= 2 and text[at - 2].isdigit()


def _figure_starts(text: str, at: int) -> bool:
    """Whether a figure starts at `at`: a digit, or a sign or separator before one ("-5")."""
    after = text[at : at + 1]
    if after.isdigit():
        return True
    return after in _FIGURE_MARKS and text[at + 1 : at + 2].isdigit()


def excerpt_key(excerpt: str) -> str:
    """The normalised excerpt with every boundary one space, ends stripped: equal keys mean
    the same quote of a source."""
    return normalise_for_match(excerpt).text.replace(SOFT, HARD).strip(HARD)


def collapse_whitespace(text: str) -> str:
    """Runs of whitespace -> one space, ends stripped (how excerpt length is measured)."""
    return " ".join(text.split())


def folded(text: str) -> str:
    """`text` as labels and names are compared: case folded, whitespace collapsed."""
    return collapse_whitespace(text.casefold())


def clip(text: str, limit: int) -> str:
    """`text` as it is when it fits in `limit` characters, else cut to fit and ending in "…"."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
