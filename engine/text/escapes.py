"""A name or a title shown as it is, never able to forge a line or reorder the text around it.

`escaped` is the one helper for every message built from a file's name or a document's title
(the CLI's lines, the bot's replies, the report's formats): control characters (C0, DEL, C1),
line and paragraph separators, and the bidirectional marks, embeddings, overrides and
isolates (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) are written as escapes
(`\\n`, `\\x1b`, `\\u202e`), so a file named "ok.md\\nunreadable: …" or "txt.\\u202eexe"
shows what it is.
"""

from __future__ import annotations

import re

_UNSHOWABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escaped(text: str) -> str:
    """`text` on one line with its control, newline and bidi characters written as escapes
    (`\\n`, `\\x1b`, `\\u202e`): a file name or a title shown as it is, never able to forge a
    line of output or reorder the text around it."""
    return _UNSHOWABLE.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
