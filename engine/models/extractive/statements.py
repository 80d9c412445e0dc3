"""What a table row means beyond its own words: the statement it belongs to and its columns.

A row of a filing's statement reads "Merchandise inventories 5,409 5,209". Its subject is in
the page's caption ("Consolidated Balance Sheets") and its periods in the column header
("February 2, 2019 February 3, 2018"), not in the row. A reader takes both as part of the
row; so does relevance scoring, through the terms this module adds to a row:

- the years of the nearest column header above it, and
- a marker for the financial statement the page's caption names, which a question naming
  that statement ("… (balance sheet)") matches through `statement_alternatives`.

A row's figures are in the scale its statement declares ("$ and shares in millions, except
per share amounts", "(in thousands)", "(Em milhares de reais)"), printed on a line of its own
beside the column header: the row is quoted under the header with that line
(`with_declared_scale`), so the verifier checks the scale on the page and the writer reads it
from what the claim quotes. A row at the top of a page whose table began on the page before
is read under the header printed there (`carried_header`), and a row shorter than an excerpt
is quoted only whole and under its header (`short_row_quotable`), both by the verifier's own
rule (`verify.contexts`).

A row of a table of cells (a Word or Excel table read as " | " lines, a markdown table) is
read under its own table's header (`verify.contexts.cell_table_header`) and caption
(`cell_table_caption`), and stated cell by column (`row_by_columns`) when its header names
no periods.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import product

from engine.contracts import EXCERPT_MAX_CHARS
from engine.models.extractive.measures import measures_asked
from engine.models.extractive.sentences import clean_statement
from engine.snapshots import Snapshot, split_page
from engine.text.matching import find_excerpt
from engine.text.normalise import collapse_whitespace
from engine.text.periods import MONTH_NAMES, YEAR, YEAR_WORD
from engine.text.quantities import declarations
from engine.text.spans import Span
from engine.text.synonyms import contains_phrase
from engine.text.tokens import term_set, tokenize
from engine.verify.contexts import (
    carried_problem,
    is_cell_line,
    nearest_before,
    row_problem,
    table_header_problem,
)

CAPTION_LINES = 12
"""A statement's caption is among the first lines of its page (after "Table of Contents",
the company name, "Index"), sometimes one word per line."""

MAX_CAPTION_CHARS = 120

# The statements, each with the captions filings print and the names questions use.
_STATEMENTS: dict[str, tuple[str, ...]] = {
    "balance_sheet": (
        r"balance sheets?",
        r"statements? of financial (?:position|condition)",
    ),
    "income_statement": (
        r"income statements?",
        r"statements? of (?:consolidated )?(?:income|operations|earnings)",
        r"p&l",
        r"profit and loss",
    ),
    "cash_flow_statement": (
        r"cash flows? statements?",
        r"statements? of (?:consolidated )?cash flows?",
    ),
}
# On which primary statement a filing prints a figure (or the inputs of a ratio), as an
# analyst knows it: "balance_sheet", "income_statement", "cash_flow_statement". A question
# asking for one of these is read against the rows of that statement too.
PRINTED_ON: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (
        (
            "capital expenditure",
            "capex",
            "capital spending",
            "free cash flow",
            "operating cash flow",
            "cash from operations",
            "cash flow from operating",
            "depreciation and amortization",
            "dividends paid",
            "buyback",
            "share repurchase",
            "investing activities",
            "financing activities",
        ),
        ("cash_flow_statement",),
    ),
    (
        (
            "revenue",
            "net sales",
            "sales",
            "top line",
            "topline",
            "gross margin",
            "gross profit",
            "operating margin",
            "operating income",
            "operating profit",
            "net income",
            "net earnings",
            "net profit",
            "ebit",
            "ebitda",
            "eps",
            "earnings per share",
            "cost of goods sold",
            "cogs",
            "cost of sales",
            "interest expense",
            "sg&a",
            "effective tax rate",
            "restructuring",
        ),
        ("income_statement",),
    ),
    (
        (
            "total assets",
            "total liabilities",
            "inventory",
            "inventories",
            "accounts payable",
            "accounts receivable",
            "receivables",
            "working capital",
            "current ratio",
            "quick ratio",
            "cash and cash equivalents",
            "pp&e",
            "ppne",
            "property plant and equipment",
            "fixed assets",
            "total debt",
            "long-term debt",
            "shareholders equity",
            "stockholders equity",
            "goodwill",
        ),
        ("balance_sheet",),
    ),
    # Ratios whose inputs sit on two statements.
    (
        (
            "inventory turnover",
            "days payable outstanding",
            "dpo",
            "fixed asset turnover",
            "asset turnover",
            "return on assets",
            "roa",
            "return on equity",
            "roe",
            "capital intensive",
            "capital intensity",
            "interest coverage",
        ),
        ("balance_sheet", "income_statement"),
    ),
    (("capital intensive", "capital intensity"), ("cash_flow_statement",)),
)


def statements_printing(question: str) -> list[str]:
    """The primary statements that print what `question` asks for, in first-mention order,
    then those printing the inputs of what it asks for (`measures`)."""
    found: list[str] = []
    for text in (question, *measures_asked(question)):
        tokens = tokenize(text)
        for triggers, statements in PRINTED_ON:
            if any(contains_phrase(tokens, trigger) for trigger in triggers):
                found += [key for key in statements if key not in found]
    return found


_STATEMENT_PATTERNS = {
    key: re.compile(r"\b(?:" + "|".join(names).replace(" ", r"\s+") + r")\b", re.IGNORECASE)
    for key, names in _STATEMENTS.items()
}
# The same names with no space at all, for captions a PDF spaced oddly ("Balance Shee t").
_SQUEEZED_PATTERNS = {
    key: re.compile("|".join(names).replace(" ", ""), re.IGNORECASE)
    for key, names in _STATEMENTS.items()
}
_SPACE = re.compile(r"\s+")
# "Consolidated Statements of Comprehensive Income" is not the income statement.
_NOT_A_CAPTION = re.compile(r"comprehensive|notes? to|see accompanying|audit", re.IGNORECASE)
# Two periods side by side: "2018 2017", "2019 February 3, 2018", "2023 vs. 2022".
_YEAR_RUN = re.compile(rf"\b{YEAR}\b[\s,]+(?:vs\.?\s+|[^\W\d_]+\.?\s+\d{{1,2}},?\s+)?{YEAR}\b")
_DAY = re.compile(r"\b\d{1,2}\b")
MAX_HEADER_WORDS = 10
_DIGIT = re.compile(r"\d")
_LETTER = re.compile(r"[^\W\d_]")
_FIGURE = re.compile(r"\(?-?\$?\d[\d,.]*\)?%?")
_CELL_FILLERS = frozenset({"$", "—", "–", "-", "%", "€", "£", "R$"})
_NIL_CELLS = frozenset({"—", "–", "-"})
MAX_LABEL_WORDS = 10
MAX_CAPTION_WORDS = 14
"""A table's caption is a label of at most this many words, not a sentence."""


def statement_marker(key: str) -> str:
    """A term no text tokenizes to, standing for "this row is part of statement `key`"."""
    return f"statement:{key}"


def page_statement(page_text: str) -> str | None:
    """The financial statement the page's caption names, or None. A caption may be broken
    over lines ("CONSOLIDATED\nBALANCE\nSHEETS") or words ("Balance Shee t"); a page whose
    top names two statements is a table of contents, not a statement."""
    head = page_text[: CAPTION_LINES * MAX_CAPTION_CHARS]  # a statement's caption is on top
    lines = [line.strip() for line in head.splitlines() if line.strip()]
    caption = "".join(
        _SPACE.sub("", line)
        for line in lines[:CAPTION_LINES]
        if len(line) <= MAX_CAPTION_CHARS
        and not line.endswith(".")
        and not _NOT_A_CAPTION.search(line)
    )
    named = {
        key
        for key, pattern in _SQUEEZED_PATTERNS.items()
        for match in pattern.finditer(caption)
        if match.group(0)[0].isupper()  # a title, not "the balance sheet is"
    }
    return named.pop() if len(named) == 1 else None


def asked_statements(question: str) -> list[str]:
    """The statements a question names, then those that print the figures it asks for."""
    named = [key for key, pattern in _STATEMENT_PATTERNS.items() if pattern.search(question)]
    return list(dict.fromkeys([*named, *statements_printing(question)]))


def statement_pages(pages: Sequence[str]) -> dict[str, list[int]]:
    """The 1-based pages whose caption names each statement, those of the financial
    statements section first: the primary statements sit together there, while a summary
    in the discussion or a note repeats one caption far from the others."""
    found: dict[str, list[int]] = {}
    for number, text in enumerate(pages, start=1):
        key = page_statement(text)
        if key is not None:
            found.setdefault(key, []).append(number)
    if len(found) < 2:
        return found
    section = min(product(*found.values()), key=lambda pick: (max(pick) - min(pick), pick))
    return {
        key: [first, *(page for page in numbers if page != first)]
        for (key, numbers), first in zip(found.items(), section, strict=True)
    }


def without_statement_names(question: str) -> str:
    """`question` with the statements it names taken out: "(cash flow statement)" says where
    a figure is printed, which the statement's marker stands for, not what the figure is; as
    words, "cash" and "statement" would rank every row of the statement above the one asked."""
    for pattern in _STATEMENT_PATTERNS.values():
        question = pattern.sub(" ", question)
    return question


def statement_alternatives(question: str) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """(the words of a statement the question names, that statement's marker) pairs."""
    pairs: list[tuple[frozenset[str], frozenset[str]]] = []
    for key, pattern in _STATEMENT_PATTERNS.items():
        for match in pattern.finditer(question):
            pairs.append((term_set(match.group(0)), frozenset({statement_marker(key)})))
    return tuple(pairs)


def is_column_header(line: str) -> bool:
    """A line naming two periods or more and little else: "(Millions) 2018 2017 2016",
    "February 2, 2019 February 3, 2018", "For the years ended June 30, 2023 2022 2021"."""
    if not _YEAR_RUN.search(line):
        return False
    rest = _DAY.sub(" ", YEAR_WORD.sub(" ", line))  # what is left besides dates
    return not _DIGIT.search(rest) and len(rest.split()) <= MAX_HEADER_WORDS


def _label_and_cells(row: str) -> tuple[list[str], list[str]]:
    """A row's words before its cells, and its cells in order: the figures and the fillers
    printed apart from them ("$", "%", "—") at the end of the row."""
    words = row.split()
    cells: list[str] = []
    while words and (words[-1] in _CELL_FILLERS or _FIGURE.fullmatch(words[-1])):
        cells.append(words.pop())
    return words, cells[::-1]


def is_table_row(text: str) -> bool:
    """A label followed by figures: "Gross profit 2,725 2,820 2,732", "Capital spending
    (4,625) (4,240)", "Effective tax rate 22.9%"; not prose that mentions a number."""
    if text.rstrip().endswith((".", ";")):  # a sentence that ends on a number
        return False
    words, cells = _label_and_cells(text)
    figures = sum(cell not in _CELL_FILLERS for cell in cells)
    label = " ".join(words)
    if not _LETTER.search(label) or figures == 0 or is_column_header(text):
        return False
    return figures >= 2 or (len(words) <= MAX_LABEL_WORDS and not label.endswith((".", ":")))


SCALE_LINES = 3
"""How far from a column header its table's scale declaration may be printed, in lines: the
caption's line above it ("$ in millions, except per share amounts", then "Fiscal Years
Ended ..."), a label line between, or the line below the years."""


def with_declared_scale(page_text: str, header: Span, row: Span) -> Span:
    """The column header `header` of the row at `row`, widened to the line that declares the
    scale of its figures when the header declares none: up to `SCALE_LINES` lines above it
    (short label lines: no row, no blank line, no lead-in or sentence) or between it and the
    row. The widened header is quoted whole and stays a table's header by the verifier's rule
    (`table_header_problem`), within an excerpt's length; else the header alone."""
    if declarations(header.text(page_text)):
        return header
    widened: list[Span] = []
    above_end = header.start
    for _ in range(SCALE_LINES):  # the lines above, nearest first
        if above_end <= 0:
            break
        start = page_text.rfind("\n", 0, above_end - 1) + 1
        line = page_text[start : above_end - 1]
        if not line.strip() or is_column_header(line) or (is_table_row(line) and not _dated(line)):
            break  # a paragraph's break, a row, another header: the table starts below
        if line.rstrip().endswith((":", ".")):
            break
        if declarations(line):
            widened.append(Span(start, header.end))
            break
        above_end = start
    below_start = header.end + 1
    for _ in range(SCALE_LINES):  # the lines between the header and the row
        end = page_text.find("\n", below_start)
        end = len(page_text) if end < 0 else end
        line = page_text[below_start:end]
        if end > row.start or not line.strip() or is_table_row(line):
            break
        if line.rstrip().endswith((":", ".")):
            break
        if declarations(line):
            widened.append(Span(header.start, end))
            break
        below_start = end + 1
    for span in widened:
        if (
            len(collapse_whitespace(span.text(page_text))) <= EXCERPT_MAX_CHARS
            and table_header_problem(page_text, (span.start, span.end)) is None
        ):
            return span
    return header


def _dated(line: str) -> bool:
    """A label line of the header naming a month ("Year Ended December 31,"), not a row."""
    return any(word.casefold().strip(".,") in MONTH_NAMES for word in line.split())


_PARENTHESISED = re.compile(r"\(([^()]{1,80})\)")


def scale_note(context: str) -> str | None:
    """The words of a row's context that declare its figures' scale, as printed: the line
    "$ and shares in millions, except per share amounts", or the parenthesis of a header
    "(Millions, except per share amounts) 2018 2017"; None when it declares none. A row's
    statement says them beside its figures, so a reader of the statement alone knows that
    "$ 42,879" is in millions."""
    for line in context.split("\n"):
        bare = line.strip()
        for inside in _PARENTHESISED.finditer(bare):
            if declarations(inside[0]):
                return inside[1].strip()
        if declarations(bare) and not YEAR_WORD.search(bare):
            return bare
    return None


def column_headers(page_text: str) -> Iterator[tuple[Span, frozenset[str]]]:
    """(the line's span, its years) for each column-header line of the page, in order."""
    offset = 0
    for line in page_text.split("\n"):
        if is_column_header(line):
            yield Span(offset, offset + len(line)), term_set(" ".join(YEAR_WORD.findall(line)))
        offset += len(line) + 1


# A column's period as a header prints it: "February 2, 2019", "June 30, 2023", "2018".
_PERIOD = re.compile(rf"(?:\b[^\W\d_]+\.?\s+\d{{1,2}},?\s+)?\b{YEAR}\b")


def row_by_period(row: str, header: str) -> str | None:
    """A table row as a reader needs it, each figure with the period of its column:
    "Operating Profit 11,512 11,162" under "2022 2021" is "Operating Profit — 2022: 11,512;
    2021: 11,162". None when the row's figures and the header's periods do not pair one to
    one (a column of changes, a row spanning fewer columns): then no pairing is guessed."""
    periods = [collapse_whitespace(m.group(0)) for m in _PERIOD.finditer(header)]
    words, cells = _label_and_cells(row)
    figures: list[str] = []
    currency = ""
    for cell in cells:
        if cell == "%":  # a percent sign printed apart from its figure
            if figures:
                figures[-1] += cell
        elif cell in _CELL_FILLERS and cell not in _NIL_CELLS:  # a currency sign, apart
            currency = cell
        else:  # a figure, or a dash for nil
            figures.append(currency + cell)
            currency = ""
    label = " ".join(words).rstrip(" :")
    if len(periods) < 2 or len(figures) != len(periods) or not _LETTER.search(label):
        return None
    pairs = zip(periods, figures, strict=True)
    return f"{label} — " + "; ".join(f"{period}: {figure}" for period, figure in pairs)


def cell_table_caption(page: str, header: Span) -> str:
    """The caption printed over a table of cells whose header is at `header`: its line just
    above the header (a blank line between at most), a label ("Capacidade instalada por
    estado (MW)", "Tabela 2 - Índice de satisfação"), not a sentence nor a row; "" when
    there is none. What the table is of, as a statement's caption is what its rows are of."""
    before = page[: page.rfind("\n", 0, header.start) + 1]
    body = before.rstrip("\n")
    if len(before) - len(body) > 2:  # more than one blank line: not the table's caption
        return ""
    line = body[body.rfind("\n") + 1 :].strip()
    if not line or is_cell_line(line) or line.endswith((".", ";", ":", "!", "?")):
        return ""
    return line if len(line.split()) <= MAX_CAPTION_WORDS else ""


def row_by_columns(row: str, header: str) -> str | None:
    """A row of a table of cells as a reader needs it, each cell after the first with its
    column's name: "Celpe | PE | 0,789" under "Distribuidora | Estado | Índice" is "Celpe —
    Estado: PE; Índice: 0,789". None when the row and its header do not have the same
    cells (a merged cell, a column without a name): then no pairing is guessed."""
    cells = [clean_statement(cell) for cell in row.strip().strip("|").split("|")]
    names = [clean_statement(name) for name in header.strip().strip("|").split("|")]
    if len(cells) < 2 or len(cells) != len(names) or not all(names[1:]) or not cells[0]:
        return None
    pairs = [f"{name}: {cell}" for name, cell in zip(names[1:], cells[1:], strict=True) if cell]
    return f"{cells[0]} — " + "; ".join(pairs) if pairs else None


def of_asked_periods(row: str, header: str, years: set[int]) -> bool:
    """Whether a table row's columns are of a period asked: a question about FY2018 is not
    answered by a row under "2022 2021 2020". A fiscal year ends in the calendar year before
    or after the one it is named for (Q2 of FY2024 closes in July 2023), so a year either
    side counts. Prose, a header naming no year, and a question naming none always count."""
    if not years or not is_table_row(row):
        return True
    columns = {int(year) for year in YEAR_WORD.findall(header)}
    return not columns or any(abs(column - year) <= 1 for column in columns for year in years)


def page_before(snapshot: Snapshot, url: str) -> str | None:
    """The text of the page before the one `url` cites; None for a first or unpaged page."""
    number, pages = split_page(url)[1], snapshot.page_texts()
    return pages[number - 2] if snapshot.is_paged and number and 2 <= number <= len(pages) else None


def carried_header(previous: str | None, page: str, row: Span) -> tuple[str, frozenset[str]] | None:
    """(the header, its years) that a row at the top of `page` is read under when its table
    began on the `previous` page: the last column header there, when the verifier carries it
    over (`contexts.carried_problem`); None otherwise."""
    found = list(column_headers(previous)) if previous is not None else []
    if previous is None or not found:
        return None
    line, years = found[-1]
    end = Span(len(previous), len(previous))  # its rows run to the end of that page
    header = with_declared_scale(previous, line, end).text(previous).strip()
    span = list(find_excerpt(header, previous))[-1:]  # where the verifier will find it
    if not span or carried_problem(previous, span[0], page, (row.start, row.end)) is not None:
        return None
    return header, years


def short_row_quotable(page: str, row: Span, context: str | None, carried: bool) -> bool:
    """Whether a row shorter than an excerpt may be quoted under `context`: whole, and under
    its table's header (on its page, or `carried` over from the page before)."""
    if context is None or row_problem(page, (row.start, row.end)) is not None:
        return False
    if carried:
        return True  # `carried_header` held it to the header's rule already
    spans = list(find_excerpt(context, page))
    at = nearest_before(spans, (row.start, row.end)) if spans else None
    return at is not None and table_header_problem(page, at) is None
