"""Obvious encodings undone: the readings of a text that a model reading it would decode.

A page can say "ignore previous instructions" so that no pattern sees it and a model still
does: as base64 ("aWdub3JlIHByZXZpb3Vz..."), leetspeak ("1gn0r3 pr3v10u5"), rot13 ("vtaber
cerivbhf"), percent or HTML entities ("ignore%20previous", "&#105;gnore"), or letters spaced
out ("i g n o r e  p r e v i o u s", "i.g.n.o.r.e"). `readings` returns the decoded readings
of the raw text (none for most text: each decoding runs only when its sign is there);
`rot13` and `unspaced` read text already folded to lower case, and `compact` is its letters
alone, for phrases whose letters were pulled apart without a word gap left. Pure code.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
from urllib.parse import unquote

__all__ = ["compact", "is_spaced_out", "readings", "rot13", "unspaced"]

_ESCAPE = re.compile(r"&(?:#\d{2,7}|#x[0-9a-f]{2,6}|[a-z]{2,8});|%[0-9a-f]{2}", re.IGNORECASE)
_BASE64 = re.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}")
_BASE64_MIN = 16
_LEET_SIGN = re.compile(r"[a-zA-Z][0134579@$]+[a-zA-Z]")
_LEET_WORD = re.compile(r"\b(?=\w*[a-z])(?=\w*[0134579@$])[\w@$]{3,}\b", re.IGNORECASE)
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "9": "g"})
_LEET_SYMBOLS = str.maketrans({"@": "a", "$": "s", "|": "i", "!": "i"})
_SPACED = re.compile(r"(?<![a-z])(?:[a-z][ .\-_*·|/+]{1,3}){4,}[a-z](?![a-z])")
_WORD_GAP = re.compile(r"\s{2,}|\s*/\s*|\s*\|\s*")
_SEPARATORS = re.compile(r"[\s.\-_*·|/+]")
_ROT13 = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm",
)
_PRINTABLE_SHARE = 0.9
"""A decoded base64 run is read only when this share of it is printable text."""


def rot13(text: str) -> str:
    return text.translate(_ROT13)


def _unescaped(text: str) -> str | None:
    """HTML entities and percent escapes decoded (both, in either order), or None when the
    text has neither."""
    if not _ESCAPE.search(text):
        return None
    decoded = text
    for _ in range(2):  # an entity of a percent escape, or the other way round
        decoded = unquote(html.unescape(decoded))
    return decoded if decoded != text else None


def _base64_runs(text: str) -> list[str]:
    """The base64 runs of `text` (whitespace-separated tokens) that decode to readable text."""
    found = []
    for token in text.split():
        if len(token) < _BASE64_MIN:
            continue
        match = _BASE64.search(token)
        if match is None:
            continue
        run = match.group(0)
        if run.isalpha() and (run.islower() or run.isupper() or run.istitle()):
            continue  # a long word, not an encoding
        for decode in (base64.b64decode, base64.urlsafe_b64decode):
            try:
                raw = decode(run + "=" * (-len(run) % 4))
                decoded = raw.decode("utf-8")
            except (binascii.Error, ValueError):
                continue
            printable = sum(ch.isprintable() or ch.isspace() for ch in decoded)
            if decoded and printable >= _PRINTABLE_SHARE * len(decoded) and " " in decoded:
                found.append(decoded)
                break
    return found


def _unleet(text: str) -> str | None:
    """Words that mix letters with the digits and symbols leetspeak writes for them, read
    as letters ("1gn0r3" -> "ignore"); None when no word does."""
    if not _LEET_SIGN.search(text):
        return None
    decoded = _LEET_WORD.sub(lambda m: m.group(0).translate(_LEET).translate(_LEET_SYMBOLS), text)
    decoded = re.sub(r"(?<=\w)[@$](?=\w)", lambda m: m.group(0).translate(_LEET_SYMBOLS), decoded)
    return decoded if decoded != text else None


def unspaced(folded: str) -> str | None:
    """Letters spaced out or dotted apart joined into words (a wider gap, a slash or a bar
    between words) in text folded to lower case; None when no run of single letters is
    there."""
    if not _SPACED.search(folded):
        return None

    def join(match: re.Match[str]) -> str:
        run = match.group(0)
        # letters dotted or dashed apart keep a plain space between words; spaced-out
        # letters a wider gap, a slash or a bar
        gap = r"\s+" if re.search(r"[.\-_*·+]", run) else _WORD_GAP
        return " ".join(_SEPARATORS.sub("", word) for word in re.split(gap, run))

    return _SPACED.sub(join, folded)


def readings(text: str) -> list[str]:
    """The decoded readings of `text` (not `text` itself), each different from it: entities
    and percent escapes, base64 runs and leetspeak. rot13 and spaced-out letters are read
    from text already folded (`rot13`, `unspaced`)."""
    found: list[str] = []
    unescaped = _unescaped(text)
    if unescaped is not None:
        found.append(unescaped)
    plain = unescaped or text
    found.extend(_base64_runs(plain))
    unleet = _unleet(plain)
    if unleet is not None:
        found.append(unleet)
    return found


def compact(text: str) -> str:
    """The letters of `text` alone, folded to lower case: "i-g-n-o-r-e a-l-l" -> "ignoreall"."""
    return "".join(ch for ch in text.casefold() if ch.isalpha())


def is_spaced_out(folded: str) -> bool:
    """Whether `folded` (lower case) holds a run of single letters pulled apart (when its
    letters alone are worth reading, `compact`)."""
    return _SPACED.search(folded) is not None
