"""A statute's structure, read from its text: which article, paragraph, item (inciso) and
letter (alínea) a place of the text sits in.

Brazilian laws print their structure at the start of a line: "Art. 26." (also "Art 26",
"Art. 1º", "Art. 5º-A", in **bold** or not), "§ 1º", "Parágrafo único.", "I –", "a)". A line
that prints none of them goes on with the provision above it (the rest of a caput cut by a
line break or by an exam annotation such as "(MPF-2017)"), except a study note ("#Atenção",
"(TRF4-2022): …"), which is nobody's provision. A heading (CAPÍTULO, Seção) ends the article
above it, and an article quoted inside an amendment (“Art. 26. …) is another law's: the text
from there to this law's next article is in no provision of its own.

The reader and the verifier read the structure the same way (pure code): a claim's provision
is what its page prints above its excerpt (`provision_of`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, replace
from functools import lru_cache

__all__ = [
    "Provision",
    "is_exam_note_line",
    "parse_citation",
    "provision_of",
    "referenced_articles",
    "without_exam_notes",
    "without_marker",
]

# An exam annotation a study copy puts in a provision: "(MPF-2017)", "(Cartórios/TJPA-2016)",
# "(TRF1-2023)", in bold or not.
_EXAM_NOTE = re.compile(r"\s*(?:\*\*)?\((?:[\wÀ-ú]+/)?[A-Z][\w]{1,14}-\d{4}\)(?:\*\*)?")
_EXAM_NOTES_ONLY = re.compile(rf"^(?:{_EXAM_NOTE.pattern})+\s*$")
# Articles of the same act a provision refers to: "de que tratam os arts. 26 e 27 desta Lei",
# "o disposto no art. 17 desta Lei" (not "do art. 13 da Lei nº 10.438": another act's).
_ARTICLE_NUMBER = r"\d{1,4}(?:\.\d{3})?(?:\s?[º°o](?![a-zà-ú]))?(?:-[A-Z]\b)?"
_REFERENCE = re.compile(
    rf"\barts?\.\s*(?P<numbers>{_ARTICLE_NUMBER}(?:(?:\s*,\s*|\s+e\s+){_ARTICLE_NUMBER})*)"
    r"\s+(?:desta|deste)\s+(?:Lei|Decreto|C[óo]digo|Medida\s+Provis[óo]ria|Resolu[çc][ãa]o)\b",
    re.IGNORECASE,
)
_MARKUP = re.compile(r"^(?:[\s*_>\[]|\\(?=[*_]))+")
_ORDINAL = r"(?:\s?[º°ºo](?![a-zà-ú]))?"
_ARTICLE = re.compile(
    rf"^(?P<quote>[“\"'])?\s*(?:\*\*)?\s*art(?:igo)?\.?\s*(?P<n>\d{{1,4}}(?:\.\d{{3}})?{_ORDINAL}"
    r"(?:\s?-\s?[A-Z]\b)?)(?=[\s.*:\-–—]|$)",
    re.IGNORECASE,
)
# "§ 1º", "Parágrafo único", or a paragraph whose "§" the copy lost ("6º As disposições").
_PARAGRAPH = re.compile(
    rf"^(?:§\s*(?P<n>\d{{1,3}}{_ORDINAL})|(?P<lost>\d{{1,3}}º)(?=\s+(?-i:[A-ZÀ-Ú]))"
    r"|(?P<sole>par[áa]grafo\s+[úu]nico))",
    re.IGNORECASE,
)
_ITEM = re.compile(r"^(?P<n>[IVXLC]{1,7})\s*[-–—]")
_LETTER = re.compile(r"^(?P<n>[a-z])\)\s")
_HEADING = re.compile(
    r"^(?:#{1,6}\s|(?:cap[íi]tulo|t[íi]tulo|se[çc][ãa]o|subse[çc][ãa]o|livro)\s+[IVXLC\dº]+\b)",
    re.IGNORECASE,
)
# A study note, not the statute: "#Atenção", "(TRF4-2022) : …", "BL: art. 14".
_NOTE = re.compile(r"^(?:#|\((?:[\w/]+-)?\d{4}\)|BL\s*:)", re.IGNORECASE)
_OPEN_MARKER = re.compile(
    r"^\W*(?:art(?:igo)?\.?\s*\d{1,4}(?:\.\d{3})?" + _ORDINAL + r"(?:\s?-\s?[A-Z]\b)?\s*[.:\-–—]?"
    r"|§\s*\d{1,3}" + _ORDINAL + r"\s*[.:\-–—]?|par[áa]grafo\s+[úu]nico\s*[.:\-–—]?"
    r"|[IVXLC]{1,7}\s*[-–—]|[a-z]\))\s*",
    re.IGNORECASE,
)
_CITATION = re.compile(
    r"^Art\. (?P<a>[^,]+)(?:, (?:§ (?P<p>[^,]+)|(?P<sole>parágrafo único)))?"
    r"(?:, (?P<i>[IVXLC]+))?(?:, (?P<l>[a-z]))?$"
)


@dataclass(frozen=True)
class Provision:
    """Where a text sits in its statute: an article (as printed: "26", "1º", "5º-A"), and
    within it a paragraph ("1º", or "único"), an item ("II") and a letter ("a")."""

    article: str
    paragraph: str | None = None
    item: str | None = None
    letter: str | None = None

    def citation(self) -> str:
        """The provision as a Brazilian citation, in no reader's language: "Art. 26, § 1º,
        II, a" (the numbers as the page prints them; `Claim.provision`)."""
        parts = [f"Art. {self.article}"]
        if self.paragraph == "único":
            parts.append("parágrafo único")
        elif self.paragraph is not None:
            parts.append(f"§ {self.paragraph}")
        parts += [p for p in (self.item, self.letter) if p is not None]
        return ", ".join(parts)


def parse_citation(citation: str) -> Provision | None:
    """The inverse of `Provision.citation`; None for anything else."""
    match = _CITATION.match(citation.strip())
    if match is None:
        return None
    paragraph = "único" if match["sole"] else match["p"]
    return Provision(match["a"], paragraph, match["i"], match["l"])


def _ordinal(number: str) -> str:
    number = re.sub(r"\s+", "", number)
    return re.sub(r"[°o]", "º", number) if re.search(r"\d[°oº]", number) else number


@lru_cache(maxsize=8)
def _structure(page: str) -> tuple[tuple[int, ...], tuple[Provision | None, ...]]:
    """Each line's start and the provision the line is in, in order."""
    starts: list[int] = []
    states: list[Provision | None] = []
    current: Provision | None = None
    quoted = False  # inside an article another law's amendment quotes
    offset = 0
    for line in page.split("\n"):
        text = _MARKUP.sub("", line)
        state = current
        if article := _ARTICLE.match(text):
            quoted = article["quote"] is not None
            current = None if quoted else Provision(_ordinal(article["n"]))
            state = current
        elif _HEADING.match(text):
            current = state = None
        elif current is not None and not quoted:
            if paragraph := _PARAGRAPH.match(text):
                printed = paragraph["n"] or paragraph["lost"]
                number = "único" if paragraph["sole"] else _ordinal(printed)
                current = state = Provision(current.article, number)
            elif item := _ITEM.match(text):
                current = state = replace(current, item=item["n"], letter=None)
            elif (letter := _LETTER.match(text)) and current.item is not None:
                current = state = replace(current, letter=letter["n"])
            elif _NOTE.match(text):
                state = None  # a study note between provisions: the provision goes on after it
        starts.append(offset)
        states.append(state)
        offset += len(line) + 1
    return tuple(starts), tuple(states)


def _at(page: str, offset: int) -> Provision | None:
    starts, states = _structure(page)
    index = bisect_right(starts, offset) - 1
    return states[index] if index >= 0 else None


def provision_of(page: str, start: int, end: int) -> Provision | None:
    """The provision that holds all of page[start:end]: the deepest level its first and last
    characters share ("I - 15%" to "VII - …" of art. 27: "Art. 27"); None outside a statute's
    articles or across two articles."""
    first, last = _at(page, start), _at(page, max(start, end - 1))
    if first is None or last is None or first.article != last.article:
        return None
    if first.paragraph != last.paragraph:
        return Provision(first.article)
    if first.item != last.item:
        return Provision(first.article, first.paragraph)
    if first.letter != last.letter:
        return Provision(first.article, first.paragraph, first.item)
    return first


def without_marker(statement: str) -> str:
    """`statement` without the provision marker it opens with ("§ 1º", "Art. 13.", "I –",
    "a)"): what a sentence says after naming its provision. Unchanged when nothing is left."""
    return _OPEN_MARKER.sub("", statement, count=1).strip() or statement


def without_exam_notes(text: str) -> str:
    """`text` without the exam annotations a study copy of a law carries ("(MPF-2017)"):
    a statement says what the provision says, not which exams asked it."""
    return _EXAM_NOTE.sub("", text).strip()


def is_exam_note_line(line: str) -> bool:
    """Whether `line` holds exam annotations and nothing else ("**(CESPE-2020)**")."""
    return _EXAM_NOTES_ONLY.match(line) is not None


def referenced_articles(text: str) -> list[str]:
    """The articles of its own act that `text` refers to, as `Provision.article` prints
    them, in order: "os arts. 26 e 27 desta Lei" gives ["26", "27"]."""
    found: list[str] = []
    for match in _REFERENCE.finditer(text):
        for number in re.findall(_ARTICLE_NUMBER, match["numbers"]):
            article = _ordinal(number)
            if article not in found:
                found.append(article)
    return found
