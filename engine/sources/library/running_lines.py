"""Running headers and footers: the lines a document repeats on many of its pages.

"Table of Contents", "3M Company and Subsidiaries", "Page 23 of 120" say nothing about the
page they sit on, yet every passage holding one matches a query that names them. Retrieval
leaves them out of the words it indexes; the page text itself is untouched (the verifier
always checks the page as it is, and a passage stays a verbatim slice of it).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from engine.text.normalise import collapse_whitespace

MIN_PAGES = 4
"""A document of fewer pages has no running lines to speak of."""
SHARE_OF_PAGES = 0.3
MAX_LINE_CHARS = 120
"""A running header or footer is short; a long line repeated is content (a table's caption)."""

_DIGITS = re.compile(r"\d+")


def line_key(line: str) -> str:
    """A line as it repeats from page to page: page numbers and blanks folded away."""
    return collapse_whitespace(_DIGITS.sub("#", line)).casefold()


def running_lines(pages: Sequence[str]) -> frozenset[str]:
    """The keys of the lines that stand on at least `SHARE_OF_PAGES` of the pages (and on
    3 pages at least)."""
    if len(pages) < MIN_PAGES:
        return frozenset()
    seen: Counter[str] = Counter()
    for page in pages:
        keys = {line_key(line) for line in page.splitlines() if len(line) <= MAX_LINE_CHARS}
        keys.discard("")
        seen.update(keys)
    needed = max(3, SHARE_OF_PAGES * len(pages))
    return frozenset(key for key, count in seen.items() if count >= needed)


def without_running_lines(text: str, running: frozenset[str]) -> str:
    """`text` without its running lines (the words retrieval should index)."""
    if not running:
        return text
    return "\n".join(line for line in text.splitlines() if line_key(line) not in running)
