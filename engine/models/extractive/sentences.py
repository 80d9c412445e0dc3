"""Cut page text into quotable units: sentences, legal items, table lines (a row of a Word
or Excel table, its cells joined by " | ", is one unit, quoted whole).

Every unit is a span [start, end) of the page text, so an excerpt taken from it is an exact
substring of the page. A PDF breaks its lines where the page is full, not where a sentence
ends: lines are joined into blocks first (a line continues on the next unless it closes a
sentence or stands alone, `engine.text.sentences`), then blocks are cut into sentences, so a
unit starts and ends where a sentence does. A unit too long to quote, or cut off at the end
of its page, is quoted from its start to a clause boundary (`clause_window`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engine.contracts import EXCERPT_MAX_CHARS, EXCERPT_MIN_CHARS, ROW_MIN_CHARS
from engine.text.normalise import collapse_whitespace
from engine.text.provisions import is_exam_note_line, without_exam_notes
from engine.text.sentences import (
    DANGLING_WORDS,
    continues_on_next_line,
    ends_mid_sentence,
    is_table_line,
)
from engine.text.spans import Span
from engine.verify.contexts import is_cell_row

# A boundary: end punctuation, spaces, then something that can start a sentence.
_BOUNDARY = re.compile(r"(?<=[.!?;])\s+(?=[\"'“(\[]?[A-ZÀ-ÖØ-Þ0-9§])")
_ABBREVIATION = re.compile(
    r"(?:\b(?:art|arts|inc|n|nº|no|nos|sr|sra|dr|dra|etc|vs|co|corp|ltd|fig|p|pp|cap|par|al)"
    r"|\b[A-Za-z]|\bart\.?\s*\d+[º°o]?)\.$",  # "Art 26." opens an article, it ends nothing
    re.IGNORECASE,
)
_WORD = re.compile(r"\S+")
_MARKUP = re.compile(r"\*\*|__|`|~~|\\(?=[*_`|])")
_TABLE_PIPES = re.compile(r"\s*\|\s*")
_MAX_WINDOW = EXCERPT_MAX_CHARS - 20


# A line that starts a block of its own: a table cell, a heading, a bullet, a legal item, a
# numbered note, an article; or a line of figures and dates only (a column header).
_BLOCK_START = re.compile(
    r"^\s*(?:[|#>•]|[-*]\s|[IVXLC]+\s*[-–—]|[a-z]\)|§|\(\w{1,3}\)|\d{1,3}[.)]\s|art\.?\s*\d|"
    r"par[aá]grafo\s)",
    re.IGNORECASE,
)
_NO_LETTERS = re.compile(r"[\W\d_]*")
_WORD_END = re.compile(r"[^\W_]\)?%?$")
_READS_ON = re.compile(r"^(?:[a-zà-ÿ]|[$€£(]?\d|R\$|US\$)")
_DANGLING_END = re.compile(
    r"(?:[,(–—/-]|\b(?:" + "|".join(sorted(DANGLING_WORDS, key=len, reverse=True)) + r"))$",
    re.IGNORECASE,
)
# A clause ends on its punctuation; " e " or " and " alone may join two nouns, not clauses.
_CLAUSE_END = re.compile(r"[,;:](?=\s)")
_CLAUSE_START = re.compile(r"[,;:]\s+(?=\S)")
MIN_CLAUSE_WORDS = 8
"""A unit quoted to a clause boundary keeps at least this many words: a subject and what is
said of it, not a label."""
MAX_LEAD_CHARS = 120
"""A legal item's label ("II - minigeração distribuída:") quoted as the context of a clause
deep in the item is at most this long."""


def ends_on_abbreviation(text: str) -> bool:
    """Whether `text` ends on an abbreviation's full stop ("… pelo art.", "Best Buy Co."),
    which ends no sentence or clause."""
    return _ABBREVIATION.search(text[-12:]) is not None


def _line_spans(page: str) -> Iterator[Span]:
    start = 0
    for match in re.finditer(r"\n", page):
        yield Span(start, match.start())
        start = match.end()
    yield Span(start, len(page))


def _joins(line: str, following: str) -> bool:
    """Whether `following` continues the sentence `line` leaves open (a wrapped line): the
    line closes nothing, and either it ends on a word that needs a next one ("by", "of",
    ",") or the next line reads on (a lowercase word, a figure: "$406 million in 2018, …").
    Two lines that each read as a whole ("Revenue rose in 2019" then "Costs fell in 2019")
    stay apart."""
    line, following = line.strip(), following.strip()
    if not line or not following or "|" in line or line.startswith(("#", ">")):
        return False
    if _BLOCK_START.match(following) or _NO_LETTERS.fullmatch(following):
        return False
    if not continues_on_next_line(line) or is_table_line(following):
        return False
    return ends_mid_sentence(line) and (
        _DANGLING_END.search(line) is not None or bool(_READS_ON.match(following))
    )


def block_spans(page: str) -> Iterator[Span]:
    """The page's lines joined into blocks: a paragraph wrapped over lines is one block; a
    heading, a table row, a list item each stands alone."""
    block: Span | None = None
    previous = ""
    for line in _line_spans(page):
        text = line.text(page)
        if block is not None and is_exam_note_line(text) and ends_mid_sentence(previous.strip()):
            # An exam annotation on a line of its own inside a provision ("(MPF-2017)"):
            # the sentence goes on after it, and the block with it.
            block = Span(block.start, line.end)
            continue
        if block is not None and _joins(previous, text):
            block = Span(block.start, line.end)
        else:
            if block is not None:
                yield block
            block = line
        previous = text
    if block is not None:
        yield block


def _trimmed(page: str, span: Span) -> Span | None:
    start, end = span.start, span.end
    while start < end and (
        page[start].isspace()
        or page[start] in "|#>•"
        or (page[start] in "-*" and start + 1 < end and page[start + 1].isspace())
    ):
        start += 1
    while end > start and (page[end - 1].isspace() or page[end - 1] in "|"):
        end -= 1
    return Span(start, end) if end > start else None


def _split_sentences(page: str, line: Span) -> Iterator[Span]:
    start = line.start
    text = line.text(page)
    for match in _BOUNDARY.finditer(text):
        before = text[: match.start()]
        if _ABBREVIATION.search(before[-12:]):
            continue
        yield Span(start, line.start + match.start())
        start = line.start + match.end()
    yield Span(start, line.end)


def sentence_spans(page: str) -> list[Span]:
    """Units of at least EXCERPT_MIN_CHARS visible characters (a table row: ROW_MIN_CHARS,
    quoted only under its header), in reading order."""
    units: list[Span] = []
    for block in block_spans(page):
        for raw in _split_sentences(page, block):
            span = _trimmed(page, raw)
            if span is not None and _long_enough(span.text(page)):
                units.append(span)
    return units


def _long_enough(raw: str) -> bool:
    text = clean_statement(raw)
    row = is_table_line(text) or is_cell_row(raw)  # "Celpe | PE | 0,789": a row of cells
    return len(text) >= (ROW_MIN_CHARS if row else EXCERPT_MIN_CHARS)


def clean_statement(excerpt: str) -> str:
    """The excerpt as prose: markdown markers and table pipes out, whitespace collapsed."""
    text = _MARKUP.sub("", excerpt)
    text = _TABLE_PIPES.sub(" ", text)
    return collapse_whitespace(text)


def _balanced(text: str) -> bool:
    return text.count("(") == text.count(")")


def _clause_ends(page: str, span: Span) -> list[int]:
    """Where a clause of the unit ends: after ", ; :" outside brackets (see `fits`), not
    after an abbreviation ("Best Buy Co., Inc."): that comma is inside a name."""
    text = span.text(page)
    return [
        span.start + m.end()
        for m in _CLAUSE_END.finditer(text)
        if not _ABBREVIATION.search(text[max(0, m.start() - 12) : m.start()])
    ]


def _clause_starts(page: str, span: Span) -> list[int]:
    return [span.start + m.end() for m in _CLAUSE_START.finditer(span.text(page))]


@dataclass(frozen=True)
class Window:
    """What of a unit is quoted: `span`, and `lead`, the unit's label quoted as its context
    when the span starts inside the unit."""

    span: Span
    lead: Span | None = None

    def cut_at_end(self, unit: Span) -> bool:
        return self.span.end < unit.end


def _lead(page: str, span: Span) -> Span | None:
    """A legal item's or a labelled unit's label: its words up to its first ":"."""
    colon = page.find(": ", span.start, min(span.end, span.start + MAX_LEAD_CHARS))
    return Span(span.start, colon + 1) if colon > span.start else None


def stands_alone(page: str, span: Span) -> bool:
    """A unit that ends without punctuation but ends nothing short: a line printed whole (a
    bullet, a caption) that the next line does not continue, not the last words of a page
    whose sentence goes on overleaf, not one ending on "of", "the", "," or "…"."""
    text = clean_statement(span.text(page))
    if not page[span.end :].strip() or not _WORD_END.search(text):
        return False
    return _DANGLING_END.search(text) is None


def clause_window(
    page: str, span: Span, score: Callable[[str], float], max_chars: int = _MAX_WINDOW
) -> Window | None:
    """What of the unit to quote so that it reads whole: the unit itself when it is short and
    ends a sentence; else, from its start to the clause boundary that scores best (a longer
    one on a tie), or, in a labelled item ("II - minigeração distribuída: …"), a run of whole
    clauses under its label. None when not even its first clause can be quoted."""
    text = span.text(page)
    prose = without_exam_notes(clean_statement(text))
    whole = (
        not ends_mid_sentence(prose)
        or stands_alone(page, span)
        or is_cell_row(text)  # a row of a table's cells is printed whole, on its own line
    )
    if whole and len(clean_statement(text)) <= max_chars:
        return Window(span)

    def fits(window: Span) -> bool:
        quoted = clean_statement(window.text(page))
        if window.end < span.end and len(quoted.split()) < MIN_CLAUSE_WORDS:
            return False  # "(3) Included within operating income," says nothing yet
        if window.end < span.end and quoted.endswith(":"):
            return False  # it announces what it leaves out: a label line to a reader
        return EXCERPT_MIN_CHARS <= len(quoted) <= max_chars and _balanced(quoted)

    ends = [end for end in _clause_ends(page, span) if end > span.start]
    ends += [span.end] if whole else []
    reach = 2 * max_chars  # raw text, markup and runs of spaces included
    options = [Window(Span(span.start, end)) for end in ends if end - span.start <= reach]
    lead = _lead(page, span)
    if lead is not None:
        for start in (s for s in _clause_starts(page, span) if s >= lead.end):
            options += [
                Window(Span(start, end), lead) for end in ends if start < end <= start + reach
            ]
    fitting = [w for w in options if fits(w.span)]
    if not fitting:
        return None
    return max(
        fitting,
        key=lambda w: (score(w.span.text(page)), w.lead is None, w.span.end - w.span.start),
    )


def statement_of(excerpt: str, unit: Span, window: Window, page: str) -> str:
    """The excerpt as prose, a whole sentence: a unit quoted to a clause boundary is that
    clause closed as a sentence (so is a line printed whole without its full stop); a clause
    quoted under its item's label follows the label, an ellipsis marking the words left out
    between them."""
    text = collapse_whitespace(without_exam_notes(clean_statement(excerpt)))
    if window.cut_at_end(unit) or ends_mid_sentence(text):
        text = closed(text)
    if window.lead is not None:
        text = f"{clean_statement(window.lead.text(page))} … {text}"
    return text


def closed(clause: str) -> str:
    """A clause as a sentence: its trailing ", ; :" replaced by a full stop."""
    text = clause.rstrip(" ,;:")
    return text if text.endswith((".", "!", "?")) else f"{text}."
