"""A sweep of one long document: when the question (or the user's answers) names one long
document of the library, by its title or its file name, the document is read a part at a
time, each part by its own subagent, all at once: its chapters when its outline gives them,
else even page ranges; never more parts than the budget has subagents for.

Pure rules; a planner reads the outline (`engine.documents.outline`) and words the titles.
The board merges the parts' claims (one id per excerpt of a page), so none is twice.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Protocol, runtime_checkable

from engine.contracts import Language, Subquestion
from engine.text.tokens import fold_accents
from engine.words import words_for

SWEEP_MIN_PAGES = 12
"""A document shorter than this is read as any other: searches land where it answers."""
PART_STEPS = 6
"""A part's subagent: a search and up to five pages read."""
MAX_PARTS = 8
MIN_PART_PAGES = 4
"""Even ranges are never shorter than this (a 12-page document: 3 parts at most)."""
MIN_NAME_LETTERS = 3
"""A name names a document only with a word of this many letters ("10-K" names nothing)."""


class Shelved(Protocol):
    """A document of a library as a planner sees it (`LibraryDocument` is one)."""

    @property
    def url(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def path(self) -> Path: ...
    @property
    def file_name(self) -> str: ...
    @property
    def page_count(self) -> int | None: ...


@dataclass(frozen=True)
class Part:
    """Pages `first` to `last` (1-based, inclusive) of the swept document; `chapters`, the
    outline's titles of the chapters it holds ([] for an even range)."""

    first: int
    last: int
    chapters: tuple[str, ...] = ()


@runtime_checkable
class PageCounted(Protocol):
    """Documents that tell their page counts without each document being made (a
    library's `shelf()` of 100,000 files makes only those a question turns to)."""

    def page_counts(self) -> Sequence[int | None]: ...


def shelf_of(searcher: object) -> Sequence[Shelved]:
    """The documents of a searcher that shelves them (a library's `shelf()`); () for the
    web and any searcher that does not."""
    shelf = getattr(searcher, "shelf", None)
    return shelf() if callable(shelf) else ()


def _long(documents: Sequence[Shelved]) -> list[Shelved]:
    """The documents of at least `SWEEP_MIN_PAGES` pages."""
    if isinstance(documents, PageCounted):
        counts = documents.page_counts()
        return [documents[i] for i, pages in enumerate(counts) if (pages or 0) >= SWEEP_MIN_PAGES]
    return [d for d in documents if (d.page_count or 0) >= SWEEP_MIN_PAGES]


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", fold_accents(text).lower())


def _can_name(words: Sequence[str]) -> bool:
    """Whether words can name a document: two or more, one of them a word of letters."""
    return len(words) >= 2 and any(w.isalpha() and len(w) >= MIN_NAME_LETTERS for w in words)


_SEPARATORS = "[^a-z0-9\\n]"
"""What separates words in a name, spelled in a pattern (a line break ends a name)."""


def _contains(words: list[str], name: list[str]) -> bool:
    size = len(name)
    return any(words[i : i + size] == name for i in range(len(words) - size + 1))


def named_document(text: str, documents: Sequence[Shelved]) -> Shelved | None:
    """The one long document `text` names (its title or file name, whole words, accents
    and case aside); None when it names none, or several (a comparison, not a sweep).

    The names are many (a library's), the text's words few: every name, one a line, is
    matched at once against a pattern of names made of the text's words only, and just the
    names it finds are split into words, in Python, to be looked for in the text.

    Only a long document can be the answer: the long ones are looked at first, and the
    others (a library's many short files) only when one of them is named, to tell a
    comparison from a sweep."""
    words = _words(text)
    if len(words) < 2 or not documents:
        return None
    word = "(?:" + "|".join(sorted(set(words), key=lambda w: (-len(w), w))) + ")"
    pattern = re.compile(f"^{_SEPARATORS}*{word}(?:{_SEPARATORS}+{word})+{_SEPARATORS}*$", re.M)
    if not _named(words, pattern, _long(documents)):
        return None
    named = _named(words, pattern, documents)
    if len(named) != 1:
        return None
    (document,) = named.values()
    return document if (document.page_count or 0) >= SWEEP_MIN_PAGES else None


def _named(
    words: list[str], pattern: re.Pattern[str], documents: Sequence[Shelved]
) -> dict[str, Shelved]:
    """The documents, by URL, whose title or file name `pattern` finds whole in `words`."""
    named: dict[str, Shelved] = {}
    for names in ([d.title for d in documents], [d.file_name for d in documents]):
        lines = fold_accents("\n".join(name.replace("\n", " ") for name in names)).lower()
        # Folding keeps every line break, so line n is the name of document n.
        found = list(pattern.finditer(lines))
        numbers = _line_numbers(lines, [m.start() for m in found])
        for number, match in zip(numbers, found, strict=True):
            name = re.findall(r"[a-z0-9]+", match.group())
            if _can_name(name) and _contains(words, name):
                named.setdefault(documents[number].url, documents[number])
    return named


def _line_numbers(text: str, offsets: list[int]) -> list[int]:
    """The line of `text` (0-based) each of `offsets` (ascending) falls on."""
    numbers: list[int] = []
    line, at = 0, 0
    for offset in offsets:
        line += text.count("\n", at, offset)
        at = offset
        numbers.append(line)
    return numbers


def parts_allowed(steps_available: int) -> int:
    """How many parts run at once on the steps the research has: one subagent each."""
    return max(1, min(MAX_PARTS, steps_available // PART_STEPS))


def sweep_parts(page_count: int, chapters: Sequence[tuple[str, int]], most: int) -> list[Part]:
    """The document's chapters (first pages from its outline), consecutive ones grouped when
    there are more than `most`, pages before the first in the first; even ranges when the
    outline gives fewer than two chapters."""
    firsts: dict[int, str] = {}
    for title, page in chapters:
        if 1 <= page <= page_count:
            firsts.setdefault(page, title)
    if len(firsts) < 2:
        return even_parts(page_count, most)
    starts = sorted(firsts)
    starts[0] = 1
    titles = [firsts[page] for page in sorted(firsts)]
    ends = [*(start - 1 for start in starts[1:]), page_count]
    groups = _groups(len(starts), max(1, most))
    return [Part(starts[a], ends[b - 1], tuple(titles[a:b])) for a, b in pairwise(groups)]


def even_parts(page_count: int, most: int) -> list[Part]:
    """Ranges of near-equal length covering every page, at most `most` of them, none
    shorter than `MIN_PART_PAGES` (unless the document is)."""
    count = max(1, min(most, page_count // MIN_PART_PAGES))
    bounds = _groups(page_count, count)
    return [Part(a + 1, b) for a, b in pairwise(bounds)]


def _groups(items: int, count: int) -> list[int]:
    """The boundaries of `items` split into `count` runs of near-equal size (0, …, items)."""
    count = min(count, items)
    return [round(i * items / count) for i in range(count + 1)]


def part_title(part: Part, language: Language) -> str:
    """A part's section heading: its chapters' titles, else its pages ("Pages 5–8")."""
    if part.chapters:
        return "; ".join(part.chapters)
    return words_for(language).templates.sweep_pages.format(first=part.first, last=part.last)


def sweep_subquestions(
    text: str, document: Shelved, parts: Sequence[Part], language: Language
) -> list[Subquestion]:
    """One subquestion a part: the same question, asked of its pages of the document, under
    its chapter or page range as the section title; each with a part's steps."""
    return [
        Subquestion(
            id=f"s{number}",
            text=text,
            title=part_title(part, language),
            steps=PART_STEPS,
            document=document.url,
            pages=(part.first, part.last),
        )
        for number, part in enumerate(parts, start=1)
    ]


def sweep_problems(subquestions: Sequence[Subquestion], document: Shelved | None) -> list[str]:
    """What is wrong with a planner's sweep parts: a document other than the one the brief
    names, pages outside it or out of order."""
    problems = []
    for s in (s for s in subquestions if s.document or s.pages):
        if document is None or s.document != document.url:
            named = f"only {document.url}" if document else "none: leave document empty"
            problems.append(f"{s.id}.document is {s.document!r}: the document to sweep is {named}")
            continue
        last = document.page_count or 1
        if s.pages is not None and not 1 <= s.pages[0] <= s.pages[1] <= last:
            problems.append(f"{s.id}.pages {list(s.pages)} are not within pages 1 to {last}")
    return problems
