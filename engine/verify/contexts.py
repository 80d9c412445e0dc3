"""Whether a claim's context belongs to its excerpt: the lead-in of the list or the article
the excerpt sits in, or the header of the table its row sits in.

A context is quoted so that an excerpt can be read as its page means it ("I - 15%" under
"the rate is:", "11,512 11,162" under "2022 2021"). Text found anywhere else on the page is
not that: a fine of "20% do faturamento" combined with "180 dias" from another article says
something no article says. So a context is accepted only

- before its excerpt, on the same page, at most `MAX_CONTEXT_DISTANCE` characters away;
- when it has the form of a lead-in (it ends in ":", or opens an article) or of a header (it
  names periods or columns, or is a row of a table, or a short label line);
- when nothing between the two ends that structure: no new article or heading; for a lead-in
  no paragraph that is not a list item (after a blank line, or after an item that ended in
  ";" or "."), no other lead-in (a nested list's item may end in ":") and no items that number
  afresh ("I", "II", then "I" again: another list; a nested level starts again under each
  item above it), and the excerpt itself an item of that list; for a header no line of prose
  (long without figures, or a sentence with them), no other table's header or title ("Tabela
  2", "Statements of ...") after rows, and, for a row of a table of cells (markdown, or a Word
  or Excel table read as " | " lines), no other table: the header is a line of the row's own
  run of cell lines with no other header of cells between (`cell_table_header`, the one the
  offline reader picks), or a caption with no table between.

Tables are read as tables (`table_header_problem`, `carried_problem`, `row_problem`):

- a table continued on the next page prints its header once, on the page it starts: a row at
  the top of the next page means what that header says. A context found on the page before
  the excerpt's (never two pages back, never the page after) is accepted only as the header
  of a table (not a lead-in), when nothing after it on its page and nothing before the
  excerpt on the excerpt's page ends the table, and the excerpt's page starts with the
  continued table: rows, or a short running line (a page number, "(continued)"), and no
  header of its own;
- a row shorter than an excerpt ("Bahia 410 655", "Celpe | 0,789") is quoted whole (its label
  and every cell, one line) under a context that is a table's header: no line of it a
  sentence or longer than a label.

Pure code: the verifier and the offline reader choose by the same rule.
"""

from __future__ import annotations

import re

from engine.text.matching import find_excerpt
from engine.text.periods import QUARTER, SHORT_FISCAL_YEAR, YEAR, is_year

MAX_CONTEXT_DISTANCE = 6000
"""Characters between a context's end and its excerpt's start: a header a page of rows above
its row is still its header; two pages of text are not one structure."""
PROSE_WORDS = 16
"""A line of at least this many words and no figure is prose, not a table's row or label."""
LABEL_WORDS = 12
"""A header may be a short label line ("Years ended December 31") of at most this many words."""
RUNNING_LINE_WORDS = 4
"""Above a continued table's first row its page may print a line of at most this many words
that is not a row (a page number, a running head, "(continued)"); a longer one is a title."""

_MARKUP = re.compile(r"[*_`#>|]+")
_ARTICLE = re.compile(r"^\W*(?:art(?:igo)?s?\.?\s*\d|article\s+\d|section\s+\d|sec\.\s*\d)", re.I)
_HEADING = re.compile(
    r"^\s{0,3}#{1,6}\s|^\W*(?:cap[ií]tulo|t[ií]tulo|se[çc][ãa]o|subse[çc][ãa]o|livro|chapter|"
    r"part|anexo|annex)\b[\s\dIVXLC.:-]*$",
    re.I,
)
_ITEM = re.compile(
    r"^\W{0,3}(?:[-*•▪◦–]\s|\d{1,3}[.)]\s|[a-z][).]\s|[IVXLCDM]+\s*[-–—.)]|§|"
    r"par[aá]grafo\s+[uú]nico|\(\w{1,4}\)\s)",
    re.I,
)
_PERIOD = re.compile(
    rf"\b{YEAR}\b|\b{SHORT_FISCAL_YEAR}\b|\b(?:{QUARTER}|quarter|trimestre|semestre|"
    r"year|years|ano|anos|exerc[ií]cio|month|months|m[eê]s|meses|december|dezembro|june|junho)\b"
    r"|\((?:in\s+)?(?:millions?|thousands?|billions?|milh[oõ]es|mil|milhares|bilh[oõ]es)\b",
    re.I,
)
_FIGURE = re.compile(r"\d")
_NUMBER = re.compile(r"\d[\d.,]*")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")
_NESTED_ITEM = re.compile(
    r"^\W{0,3}(?:[IVXLCDM]+\s*[-–—.)]|[a-z][).]\s|\d{1,3}[.)]\s|[-*•▪◦–]\s)", re.I
)
_WORD = re.compile(r"[^\W\d_]+")
_NIL_CELLS = frozenset({"-", "–", "—", "n/d", "n.d.", "nd", "n/a", "na", "...", "…"})
SENTENCE_WORDS = 8
"""A line of at least this many words that ends a sentence is prose, figures or not."""
_TWO_SENTENCES = re.compile(r"[a-zà-ú)]{2}[.!?]\s+[A-ZÀ-Ú][a-zà-ú]+\s+\w+\s+\w+")
_TABLE_TITLE = re.compile(
    r"^(?:table|tabela|quadro|exhibit|anexo)\s+[\dIVXL]+\b|\bstatements?\s+of\s+"
    r"|\bbalance\s+sheets?\b|^demonstra[cç](?:[aã]o|[oõ]es)\b",
    re.IGNORECASE,
)


def context_problem(page: str, context: tuple[int, int], excerpt: tuple[int, int]) -> str | None:
    """Why the context at `context` does not belong to the excerpt at `excerpt` (spans of
    `page`), or None when it does."""
    if context[1] > excerpt[0]:
        return "it does not come before the excerpt (a lead-in or header precedes what it opens)"
    between = page[context[1] : excerpt[0]]
    if len(between) > MAX_CONTEXT_DISTANCE:
        return (
            f"it is {len(between)} characters before the excerpt "
            f"(at most {MAX_CONTEXT_DISTANCE}): not the same list or table"
        )
    text = page[context[0] : context[1]]
    lines = between.split("\n")[1:]  # the first piece is the rest of the context's line
    own_line = _line_at(page, excerpt[0])
    if _is_lead_in(text, page, context):
        return _lead_in_problem(lines, own_line if lines else None)
    if _is_header(text):
        return _header_problem(lines) or _other_cell_table(page, context, lines, excerpt)
    return "it is neither the lead-in of a list or article nor the header of a table"


def _line_at(page: str, position: int) -> str:
    """The whole line of `page` that holds `position`."""
    start = page.rfind("\n", 0, position) + 1
    end = page.find("\n", position)
    return page[start : len(page) if end < 0 else end]


def placed(page: str, context: str, excerpt: tuple[int, int]) -> tuple[tuple[int, int], str | None]:
    """Where `context` stands on `page` for the excerpt at `excerpt` (its occurrence nearest
    before it), and why it does not belong there (None when it does). The context must be on
    the page (`find_excerpt`); the verifier checks that first."""
    span = nearest_before(list(find_excerpt(context, page)), excerpt)
    return span, context_problem(page, span, excerpt)


def belongs(page: str, context: str, excerpt: tuple[int, int]) -> bool:
    """Whether `context`, quoted from `page`, belongs to the excerpt at `excerpt`: what a
    writer of claims checks before it quotes one, by the verifier's own rule."""
    return next(find_excerpt(context, page), None) is not None and (
        placed(page, context, excerpt)[1] is None
    )


def nearest_before(spans: list[tuple[int, int]], excerpt: tuple[int, int]) -> tuple[int, int]:
    """Of a context's occurrences, the one that ends nearest before the excerpt (else the
    first, which `context_problem` then refuses)."""
    before = [span for span in spans if span[1] <= excerpt[0]]
    return max(before, key=lambda span: span[1]) if before else spans[0]


def _is_lead_in(text: str, page: str, span: tuple[int, int]) -> bool:
    """Ends in ":" (a list follows), or opens an article (its caput governs its items)."""
    bare = _MARKUP.sub("", text).strip()
    if bare.endswith((":", "：")):
        return True
    line_end = page.find("\n", span[1])
    rest_of_line = page[span[1] : line_end if line_end >= 0 else len(page)]
    if _MARKUP.sub("", rest_of_line).strip().endswith(":"):
        return True
    line_start = page.rfind("\n", 0, span[0]) + 1
    return bool(_ARTICLE.match(page[line_start : span[1]]))


def _is_header(text: str) -> bool:
    """Names periods or columns, is a table's row, or is a short label line."""
    if "|" in text or _PERIOD.search(text):
        return True
    return len(_WORD.findall(text)) <= LABEL_WORDS and "." not in text.rstrip(". ")


def _lead_in_problem(lines: list[str], own_line: str | None = None) -> str | None:
    """Why the lines between a lead-in and its excerpt end its list: a new article or
    heading, a paragraph or line that is not an item after an item that ended ("I - ...;"),
    another lead-in, or items that number afresh (another list). `own_line`: the excerpt's
    whole line, whose own number must go on from the items before it."""
    after_blank = False
    ended_item = False
    numbering = _Numbering()
    for line in lines[:-1] if own_line is not None else lines:
        bare = _MARKUP.sub("", line).strip()
        if not bare:
            after_blank = True
            continue
        if _breaks(line):
            return "a new article or heading stands between it and the excerpt"
        item = bool(_ITEM.match(bare))
        if (after_blank or ended_item) and not item:
            return "a paragraph that is not an item of its list stands between it and the excerpt"
        if bare.endswith(":") and not _NESTED_ITEM.match(bare):
            return "another lead-in stands between it and the excerpt: that one opens its list"
        if numbering.restarts(bare):
            return "another list starts between it and the excerpt: its items number afresh"
        after_blank = False
        ended_item = (item or ended_item) and bare.endswith((";", "."))
    if own_line is not None:
        return _own_line_problem(lines[-1], own_line, numbering, after_blank or ended_item)
    return None


def _own_line_problem(
    before: str, own_line: str, numbering: _Numbering, item_ended: bool
) -> str | None:
    """The excerpt's own line, under a lead-in: in a new article, outside the list after
    its items ended, or numbered afresh, it is not that lead-in's."""
    bare = _MARKUP.sub("", own_line).strip()
    if _breaks(own_line):
        return "the excerpt opens a new article or heading: not that lead-in's list"
    starts_line = not _MARKUP.sub("", before).strip()
    if starts_line and item_ended and not _ITEM.match(bare):
        return "the excerpt is a paragraph after the list ended, not an item of it"
    if numbering.restarts(bare):
        return "the excerpt's list numbers afresh: it is another list, not that lead-in's"
    return None


_ORDINAL = re.compile(
    r"^\W{0,3}(?:(?P<roman>[IVXLCDM]+)\s*[-–—.)]|(?P<digit>\d{1,3})[.)]\s|(?P<letter>[a-z])[).]\s)"
)
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def _ordinal(bare: str) -> tuple[str, int] | None:
    """An item's numbering kind and its number: "III -" is ("roman", 3), "b)" ("letter", 2)."""
    found = _ORDINAL.match(bare)
    if found is None:
        return None
    if found.group("roman"):
        values = [_ROMAN[c] for c in found.group("roman")]
        total = sum(
            -v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values)
        )
        return "roman", total
    if found.group("digit"):
        return "digit", int(found.group("digit"))
    return "letter", ord(found.group("letter")) - ord("a") + 1


class _Numbering:
    """The items of a list and the lists nested in it, level by level: an item that numbers
    afresh at a level already running ("I", "II", then "I") starts another list. A deeper
    level starts again under each item of the level above it ("a)" under "I" and under "II")."""

    def __init__(self) -> None:
        self._levels: list[tuple[str, int]] = []

    def restarts(self, bare: str) -> bool:
        ordinal = _ordinal(bare)
        if ordinal is None:
            return False
        kind, number = ordinal
        for depth, (level, last) in enumerate(self._levels):
            if level == kind:
                del self._levels[depth:]
                self._levels.append(ordinal)
                return number <= last
        self._levels.append(ordinal)
        return False


def _header_problem(lines: list[str]) -> str | None:
    rows = False
    for line in lines:
        if _breaks(line):
            return "a new article or heading stands between it and the excerpt"
        bare = _MARKUP.sub("", line).strip()
        if _is_prose(bare):
            return "a line of prose stands between it and the excerpt: not the same table"
        if rows and _starts_a_table(line, bare):
            return "another table's header stands between it and the excerpt"
        if rows and _TABLE_TITLE.search(bare):
            return "another table's title stands between it and the excerpt"
        rows = rows or (bool(_FIGURE.search(bare)) and not _is_column_header(bare))
    return None


def _is_prose(bare: str) -> bool:
    """A line of prose: long and without figures, or a sentence (figures or not)."""
    words = len(_WORD.findall(bare))
    if not _FIGURE.search(bare) and words >= PROSE_WORDS:
        return True
    sentence = bare.endswith((".", "!", "?")) and not _NUMBER.fullmatch(bare.split()[-1])
    return (sentence and words >= SENTENCE_WORDS) or bool(_TWO_SENTENCES.search(bare))


def _other_cell_table(
    page: str, context: tuple[int, int], lines: list[str], excerpt: tuple[int, int]
) -> str | None:
    """Why a header and a row of a table of cells (a markdown table, a Word or Excel table
    read as " | " lines) are of two tables: the row's table (its run of cell lines) starts
    after the header, another header of cells stands between them (two tables one under the
    other: `cell_table_header`), the context is a row under the header, or a table ran and
    ended between a caption and the row."""
    own_line = _line_at(page, excerpt[0])
    context_line = _line_at(page, context[0])
    if not is_cell_line(own_line):
        return None
    between = lines[:-1]
    if is_cell_line(context_line):
        if not all(is_cell_line(line) or is_section_row(line) for line in between):
            return "it is the header of another table: the excerpt's table starts after it"
        header = cell_table_header(page, excerpt)
        if header is None or header[0] <= context[0] < header[1]:
            return None
        if context[0] < header[0]:
            return "another table's header stands between it and the excerpt"
        return "it is a row of the excerpt's table, not its header"
    ran = False
    for line in between:
        if is_cell_line(line):
            ran = True
        elif ran:
            return "another table stands between it and the excerpt: it is that table's caption"
    return None


def is_cell_line(line: str) -> bool:
    """A row of a table read as cells: "Bahia | 385" (a Word or Excel table, cells joined by
    " | "), "| Bahia | 385 |" (markdown)."""
    bare = line.strip()
    return " | " in bare or (bare.startswith("|") and len(bare) > 1)


def is_section_row(line: str) -> bool:
    """A row of a table of cells that names the section the rows under it are of, in one
    cell ("Nordeste", "Região Sul", a merged row): a short label, not a sentence, not a
    table's title nor a heading. Its table goes on under it."""
    bare = _MARKUP.sub("", line).strip()
    return (
        bool(bare)
        and len(_WORD.findall(bare)) <= RUNNING_LINE_WORDS
        and not bare.endswith((".", ":", ";", "!", "?"))
        and not _TABLE_TITLE.search(bare)
        and not _breaks(line)
    )


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def is_cell_header(line: str) -> bool:
    """A row of cells that heads a table: two cells or more, none of them a figure (a period
    is a column's name: "Estado | 2023 | 2024"), none a nil mark ("n/d", "—") a row of data
    prints; not a markdown table's rule ("|---|---|")."""
    cells = [cell for cell in _cells(line) if cell]
    if _TABLE_RULE.match(line) or len(cells) < 2 or not is_cell_line(line):
        return False
    return not any(
        _FIGURE.search(_PERIOD.sub(" ", cell)) or cell.lower() in _NIL_CELLS for cell in cells
    )


def cell_table_header(page: str, excerpt: tuple[int, int]) -> tuple[int, int] | None:
    """The span of the header of the table of cells the excerpt's line is a row of
    (`cell_table_headers`), None when it has none."""
    return cell_table_headers(page).get(page.rfind("\n", 0, excerpt[0]) + 1)


def cell_table_headers(page: str) -> dict[int, tuple[int, int]]:
    """For each row of a table of cells on `page` (by where its line starts), the span of
    its table's header, in the run of cell lines holding it (no blank line, no other line
    between but a section's label, `is_section_row`): in a markdown table the line over its
    rule ("|---|"); else the nearest row above it that heads a table (`is_cell_header`).
    A row that heads its table itself, or whose table has no header above it, has none.
    One pass over the page's lines."""
    headers: dict[int, tuple[int, int]] = {}
    nearest: tuple[int, int] | None = None  # the nearest row above that heads a table
    over_rule: tuple[int, int] | None = None  # the line over the run's rule
    ruled = running = False  # a rule seen in the run; a run of cell lines going on
    previous: tuple[int, int] | None = None  # the line before, when it is a row of cells
    start = 0
    for line in page.split("\n"):
        lead = len(line) - len(line.lstrip())
        span = (start + lead, start + len(line.rstrip()))
        start += len(line) + 1
        if not is_cell_line(line):
            if not (running and is_section_row(line)):  # "Nordeste" goes on with its table
                nearest = over_rule = previous = None
                running = ruled = False
            continue
        running = True
        if _TABLE_RULE.match(line):
            ruled, over_rule = True, previous
            previous = None
            continue
        if is_cell_header(line):
            nearest = span
        else:
            header = over_rule if ruled else nearest
            if header is not None:
                headers[span[0] - lead] = header
        previous = span
    return headers


def _starts_a_table(line: str, bare: str) -> bool:
    """A header row after rows: a markdown table's separator, or a line of periods only."""
    return bool(_TABLE_RULE.match(line)) or _is_column_header(bare)


def _is_column_header(bare: str) -> bool:
    """A line whose figures are all years ("2018 2017 2016", "Dezembro de 2023 2022")."""
    figures = _NUMBER.findall(bare)
    return len(figures) >= 2 and all(is_year(figure) for figure in figures)


def _breaks(line: str) -> bool:
    bare = line.strip().lstrip("*_> ")
    return bool(_ARTICLE.match(bare) or _HEADING.match(line) or _HEADING.match(bare))


def table_header_problem(page: str, context: tuple[int, int]) -> str | None:
    """Why the context at `context` of `page` is not a table's header (None when it is): it
    is quoted in whole lines (a period cut out of "2023 2024" no longer says which column is
    which), a lead-in opens a list, and a line that is a sentence or longer than a label is
    prose."""
    text = page[context[0] : context[1]]
    if not _whole_lines(page, context):
        return "it is not quoted in whole lines: a table's header is quoted whole"
    if _is_lead_in(text, page, context):
        return "it is a lead-in, not the header of a table"
    if not _is_header(text):
        return "it is not the header of a table"
    for line in text.split("\n"):
        bare = _MARKUP.sub("", line).strip()
        if len(_WORD.findall(bare)) > LABEL_WORDS or bare.endswith((".", ";", "!", "?")):
            return "a line of it is prose, not the header of a table"
    return None


def carried_problem(
    previous: str, context: tuple[int, int], page: str, excerpt: tuple[int, int]
) -> str | None:
    """Why the context at `context` of the `previous` page is not the header of the table
    the excerpt at `excerpt` of `page` continues (None when it is)."""
    problem = table_header_problem(previous, context)
    if problem is not None:
        return problem
    tail, head = previous[context[1] :], page[: excerpt[0]]
    if len(tail) + len(head) > MAX_CONTEXT_DISTANCE:
        return f"it is more than {MAX_CONTEXT_DISTANCE} characters before the excerpt"
    for line in head.split("\n")[:-1]:  # the last piece is the excerpt's own line
        bare = _MARKUP.sub("", line).strip()
        if _TABLE_RULE.match(line) or _is_column_header(bare):
            return "the excerpt's page prints a table header of its own"
        if bare and not _is_row(bare) and len(_WORD.findall(bare)) > RUNNING_LINE_WORDS:
            return "the excerpt's page does not start with the continued table"
    return _header_problem(tail.split("\n")[1:] + head.split("\n"))


def row_problem(page: str, excerpt: tuple[int, int]) -> str | None:
    """Why the excerpt at `excerpt` of `page` is not a whole table row (None when it is)."""
    quoted = page[excerpt[0] : excerpt[1]]
    if not _whole_lines(page, excerpt) or "\n" in quoted:
        return "it is not a whole line of the page: a short row is quoted with every cell"
    bare = _MARKUP.sub(" ", quoted).strip()
    if _is_row(bare) or is_cell_row(quoted):
        return None
    return "it is not a table row: a label, then its figures"


def is_cell_row(line: str) -> bool:
    """A row of data of a table of cells: "Celpe | PE | 0,789", "Bahia | 385 | ativa"; its
    first cell a label, a figure in a cell after it, not the header of a table."""
    if not is_cell_line(line):
        return False
    cells = _cells(line)
    return (
        len(cells) >= 2
        and bool(_WORD.search(cells[0]))
        and any(_FIGURE.search(cell) for cell in cells[1:])
        and len(_WORD.findall(line)) < PROSE_WORDS
        and not is_cell_header(line)
    )


def _whole_lines(page: str, span: tuple[int, int]) -> bool:
    """Whether nothing a reader sees stands on the span's first line before it or on its
    last line after it."""
    start = page.rfind("\n", 0, span[0]) + 1
    end = page.find("\n", span[1])
    before = _MARKUP.sub("", page[start : span[0]]).strip()
    return not before and not _MARKUP.sub("", page[span[1] : len(page) if end < 0 else end]).strip()


def _is_row(bare: str) -> bool:
    """A label, then figures: "Bahia 410 655", not a header of years nor a sentence."""
    words = bare.split()
    return (
        len(words) >= 2
        and bool(_WORD.search(words[0]))
        and bool(_FIGURE.search(words[-1]))
        and len(words) < PROSE_WORDS
        and not _is_column_header(bare)
        and not bare.endswith((".", ":", ";"))
    )
