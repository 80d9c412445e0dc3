"""report.xlsx: the claims board for analysts who work in spreadsheets.

Three sheets, named in the report's language: the claims (one row per claim, verified and
rejected, with its excerpt, context, source, page, status and access date, then how its
excerpt was read (page text, OCR, or a model's reading of a figure, which is no quotation)
and its source's own date and standing), the figures
(each figures table with the claims of every cell beside it, then the calculations with
their formulas and inputs) and the summary (the answer's sentences with what they cite).

A figure is a number cell shown as the report prints it: "R$ 1.204,5 milhões" is 1204.5
under the format `"R$ "#,##0.0" milhões"`, "+8.0%" is 0.08 under `"+"0.0%`, "(1,577)" is
-1577 under `#,##0;(#,##0)`, so a sum, a sort or a chart in the spreadsheet works on it. A
cell that prints no single number ("n/d", "42,879 (2019: 39,000)") stays text.

Page text is data, never a formula: every string is written as a text cell, and one that
Excel would read as a formula when a user edits it (it starts with "=", "+", "-", "@", a tab
or a carriage return: OWASP's CSV injection list) also carries Excel's quote prefix, so the
cell keeps the page's characters exactly and never computes. Characters a workbook cannot
hold (control characters such as a PDF's form feed) become spaces. The workbook's
properties name Fonte, never a user. Page crops are not part of the board.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from engine.contracts import Calculation, ClaimStatus, FiguresTable, Report
from engine.render.changes import changes_part
from engine.render.citations import CitationIndex, source_location, source_title, standing_text
from engine.render.labels import accessed_text
from engine.render.text import plain_prose, report_title
from engine.text.language import Language
from engine.text.quantities import quantities
from engine.words import ReportWords, SheetWords, words_for

if TYPE_CHECKING:
    from openpyxl import Workbook
    from openpyxl.cell.cell import Cell
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.worksheet.worksheet import Worksheet

__all__ = ["render_xlsx"]

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_ILLEGAL = re.compile(r"[\000-\010]|[\013-\014]|[\016-\037]")  # openpyxl's ILLEGAL_CHARACTERS_RE
_DATE_FORMAT = "yyyy-mm-dd hh:mm:ss"
_DEFAULT_WIDTH = 13.0
_CHARS_PER_WIDTH = 1.1  # characters of the default font per unit of column width, roughly
_LINE_HEIGHT = 15.0  # points
_MAX_HEIGHT = 409.0  # the tallest row a workbook may have

_CLAIM_COLUMNS = (
    ("id", 10),
    ("citation", 9),
    ("statement", 48),
    ("excerpt", 60),
    ("context", 40),
    ("source", 28),
    ("url", 40),
    ("page", 8),
    ("status", 12),
    ("reason", 30),
    ("accessed", 20),
    ("subquestion", 40),
    ("read_by", 22),
    ("published", 12),
    ("standing", 24),
)
_CALCULATION_COLUMNS: tuple[str, ...] = ("id", "measure", "entity", "period", "kind", "result")
_CALCULATION_COLUMNS += ("value", "unit", "formula", "inputs", "claims")


def render_xlsx(report: Report, crops: Mapping[str, bytes]) -> bytes:
    """The workbook's bytes. `crops` is taken for the renderers' common signature and not
    used: the board holds text, dates and numbers only. openpyxl is imported here, so a
    run that writes no workbook never loads it."""
    from openpyxl import Workbook

    words = words_for(report.language).sheet
    workbook = Workbook()
    workbook.properties.creator = "Fonte"
    workbook.properties.lastModifiedBy = None
    workbook.properties.title = report_title(report)
    workbook.properties.created = report.created_at.astimezone(UTC).replace(tzinfo=None)
    claims = workbook.active
    assert claims is not None  # a new workbook has one sheet
    claims.title = words.claims_sheet
    _claims_sheet(claims, report, words, words_for(report.language).report)
    _changes_sheet(workbook, report, words)
    _figures_sheet(workbook.create_sheet(words.figures_sheet), report, words)
    _summary_sheet(workbook.create_sheet(words.summary_sheet), report, words)
    for sheet in workbook.worksheets:
        _fit_rows(sheet)
        sheet.page_setup.orientation = "landscape"  # printed: every column on one page's width
        sheet.page_setup.fitToWidth = 1
        sheet.page_setup.fitToHeight = 0
        sheet.sheet_properties.pageSetUpPr.fitToPage = True
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _column(words: SheetWords, key: str) -> str:
    """A column's header: the field of `words` named `key`."""
    header = getattr(words, key)
    assert isinstance(header, str), key
    return header


def _claims_sheet(sheet: Worksheet, report: Report, words: SheetWords, labels: ReportWords) -> None:
    _header(sheet, 1, [_column(words, key) for key, _ in _CLAIM_COLUMNS])
    index = CitationIndex(report)
    cited = {claim.id: n for n, claim in index.cited()}
    subquestions = {s.id: s.text for s in report.plan.subquestions}
    for row, claim in enumerate(report.claims, start=2):
        location = source_location(claim)
        values: list[Any] = [
            claim.id,
            cited.get(claim.id),
            claim.statement,
            claim.excerpt,
            claim.context,
            source_title(claim),
            location.shown,
            location.page,
            words.statuses[claim.status.value],
            claim.reason if claim.status is not ClaimStatus.verified else None,
            claim.accessed_at.astimezone(UTC).replace(tzinfo=None),
            subquestions.get(claim.subquestion, claim.subquestion),
            words.readings[claim.read_by],
            claim.published or None,
            None if claim.standing is None else standing_text(labels, claim.standing),
        ]
        cells = _row(sheet, row, values)
        cells[10].number_format = _DATE_FORMAT
        if location.href is not None and location.href.startswith(("http://", "https://")):
            cells[6].hyperlink = location.href
    for column, (_, width) in enumerate(_CLAIM_COLUMNS, start=1):
        sheet.column_dimensions[_letter(column)].width = width
    sheet.freeze_panes = "A2"
    sheet.auto_filter.ref = f"A1:{_letter(len(_CLAIM_COLUMNS))}{len(report.claims) + 1}"


def _changes_sheet(workbook: Workbook, report: Report, words: SheetWords) -> None:
    """The first sheet of a report compared with its previous one: the part's heading and
    explanation, then a row per change with its kind, its line, why a gone one is gone,
    this report's claims (id and citation number) and the previous report's excerpts with
    their sources, as it sealed them."""
    part = changes_part(report)
    if part is None:
        return
    changes, labels = words_for(report.language).changes, words_for(report.language).report
    sheet = workbook.create_sheet(changes.sheet, 0)
    workbook.active = sheet
    _text(sheet.cell(1, 1), part.heading).font = _styles().bold
    _text(sheet.cell(2, 1), part.explanation).alignment = _styles().wrap
    columns = [words.kind, changes.change, changes.why_column, changes.now, changes.before]
    _header(sheet, 4, columns)
    numbers = {claim.id: n for n, claim in CitationIndex(report).cited()}
    for row, change in enumerate(part.changes, start=5):
        before = "\n\n".join(
            f"{claim.excerpt}\n— {source_title(claim)}, {source_location(claim).shown}, "
            f"{accessed_text(labels, claim.accessed_at)}"
            for claim in change.before
        )
        now = ", ".join(f"{cid} [{numbers[cid]}]" for cid in change.after)
        values = [changes.kinds[change.kind.value], change.line, change.reason, now, before]
        _row(sheet, row, [value or None for value in values])
    for column, width in zip("ABCDE", (16, 60, 36, 20, 70), strict=True):
        sheet.column_dimensions[column].width = width
    sheet.freeze_panes = "A5"


def _figures_sheet(sheet: Worksheet, report: Report, words: SheetWords) -> None:
    row = 1
    widest = 2
    for table in report.tables:
        row = _table(sheet, row, table, words, report.language) + 1
        widest = max(widest, 1 + 2 * len(table.columns))
    if report.calculations:
        sheet.cell(row, 1, words.calculations).font = _styles().bold
        _header(sheet, row + 1, [_column(words, key) for key in _CALCULATION_COLUMNS])
        for offset, calculation in enumerate(report.calculations, start=row + 2):
            _row(sheet, offset, _calculation_values(calculation, words))
        widest = max(widest, len(_CALCULATION_COLUMNS))
    wide = {1}  # the row labels, and the calculations' formulas and inputs
    if report.calculations:
        wide |= {_CALCULATION_COLUMNS.index(key) + 1 for key in ("formula", "inputs")}
    for column in range(1, widest + 1):
        sheet.column_dimensions[_letter(column)].width = 36 if column in wide else 20


def _table(
    sheet: Worksheet, row: int, table: FiguresTable, words: SheetWords, language: Language
) -> int:
    """Writes one table from `row`, each figure a number cell (`_figure`); returns the row
    after it."""
    title = f"{table.title} ({table.unit})" if table.unit else table.title
    _text(sheet.cell(row, 1), title).font = _styles().bold
    header = [""]
    for column in table.columns:
        header += [column, words.claims]
    _header(sheet, row + 1, header)
    for offset, table_row in enumerate(table.rows, start=row + 2):
        values: list[Any] = [table_row.label]
        for cell in table_row.cells:
            if cell is None:
                values += [None, None]
                continue
            claims = ", ".join(cell.claim_ids)
            if cell.calculation_id is not None:
                claims = words.calculated.format(id=cell.calculation_id, claims=claims)
            values += [cell.text, claims]
        written = _row(sheet, offset, values)
        for position, figure_cell in enumerate(table_row.cells):
            figure = None if figure_cell is None else _figure(figure_cell.text, language)
            if figure is not None:
                written[1 + 2 * position].value, written[1 + 2 * position].number_format = figure
    return row + 2 + len(table.rows)


_SIGNS = "+-\u2212\u2013"


def _figure(text: str, language: Language) -> tuple[float, str] | None:
    """The number a figure cell prints and the number format that shows it as printed, or
    None when the text prints no single number (see the module docstring)."""
    found = [q for q in quantities(text, language) if q.kind != "reference"]
    if len(found) != 1 or len(found[0].readings) != 1:
        return None
    quantity = found[0]
    face = quantity.readings[0]
    before, after = text[: quantity.start], text[quantity.end :]
    sign = ""
    if before.rstrip()[-1:] in _SIGNS and before.rstrip():
        sign, before = before.rstrip()[-1], before.rstrip()[:-1]
    shape = _digits_format(quantity.digits, face)
    if after.startswith("%"):
        face, shape, after = face / 100, shape + "%", after[1:]
    negative = quantity.negative or sign in ("-", "\u2212", "\u2013")
    value = float(-face if negative else face)
    if "(" in before and ")" in after and negative:  # the accountant's parentheses
        opened, closed = before.rindex("("), after.index(")")
        outside, end = _literal(before[:opened]), _literal(after[closed + 1 :])
        inner = _literal(before[opened + 1 :]) + shape + _literal(after[:closed])
        return value, f"{outside}{inner}{end};{outside}({inner}){end}"
    positive = _literal(before) + shape + _literal(after)
    if sign == "+":
        return value, f'"+"{positive};"-"{positive};{positive}'
    return value, positive


def _digits_format(digits: str, face: Decimal) -> str:
    """`#,##0.0` for "1.204,5" or "1,204.5": the decimals it prints, and the thousands
    grouping when it writes one (a spreadsheet shows its own locale's marks)."""
    exponent = face.as_tuple().exponent
    decimals = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    marks = sum(1 for char in digits if not char.isdigit())
    grouped = marks > (1 if decimals else 0)
    whole = "#,##0" if grouped else "0"
    return f"{whole}.{'0' * decimals}" if decimals else whole


def _literal(text: str) -> str:
    """`text` as a number format's quoted literal ("" for none)."""
    text = text.replace('"', "")
    return f'"{text}"' if text else ""


def _calculation_values(calculation: Calculation, words: SheetWords) -> list[Any]:
    inputs = "; ".join(
        f"{' '.join(p for p in (f.measure, f.entity, f.period) if p)}: {f.text} "
        f"[{', '.join(f.claim_ids)}]"
        for f in calculation.inputs
    )
    return [
        calculation.id,
        calculation.measure,
        calculation.entity or None,
        calculation.period or None,
        words.calculation_kinds[calculation.kind],
        calculation.text,
        calculation.value,
        calculation.unit or None,
        calculation.formula,
        inputs,
        ", ".join(calculation.claim_ids),
    ]


def _summary_sheet(sheet: Worksheet, report: Report, words: SheetWords) -> None:
    sheet.cell(1, 1, words.question).font = _styles().bold
    _text(sheet.cell(1, 2), report.question).alignment = _styles().wrap
    _header(sheet, 3, [words.number, words.sentence, words.claims, words.calculations])
    for n, sentence in enumerate(report.summary, start=1):
        values = [n, plain_prose(sentence.text), ", ".join(sentence.claim_ids)]
        _row(sheet, 3 + n, [*values, ", ".join(sentence.calculation_ids) or None])
    for column, width in zip("ABCD", (8, 90, 20, 16), strict=True):
        sheet.column_dimensions[column].width = width
    sheet.freeze_panes = "A4"


def _fit_rows(sheet: Worksheet) -> None:
    """Row heights for the wrapped text (a spreadsheet does not always grow a row to fit
    on opening): the most lines any cell of the row wraps to, at its column's width."""
    for cells in sheet.iter_rows():
        lines = 1
        for cell in cells:
            if not isinstance(cell.value, str) or not cell.value:
                continue
            width = sheet.column_dimensions[cell.column_letter].width or _DEFAULT_WIDTH
            per_line = max(1, int(width * _CHARS_PER_WIDTH))
            wrapped = sum(-(-len(part) // per_line) or 1 for part in cell.value.split("\n"))
            lines = max(lines, wrapped)
        if lines > 1:
            sheet.row_dimensions[cells[0].row].height = min(_MAX_HEIGHT, _LINE_HEIGHT * lines)


def _header(sheet: Worksheet, row: int, labels: Sequence[str]) -> None:
    for cell in _row(sheet, row, list(labels)):
        cell.font = _styles().bold
        cell.fill = _styles().header


def _row(sheet: Worksheet, row: int, values: Sequence[Any]) -> list[Cell]:
    cells = []
    for column, value in enumerate(values, start=1):
        cell = sheet.cell(row, column)
        if isinstance(value, str):
            _text(cell, value)
        elif value is not None:
            cell.value = value
        cell.alignment = _styles().wrap
        cells.append(cell)
    return cells


def _text(cell: Cell, value: str) -> Cell:
    """`value` as a text cell that never computes (see the module docstring)."""
    text = _ILLEGAL.sub(" ", value)
    cell.value = text
    cell.data_type = "s"  # openpyxl reads "=…" as a formula and "#N/A" as an error
    if text.startswith(_FORMULA_START):
        cell.quotePrefix = True
    return cell


@dataclass(frozen=True)
class _Styles:
    wrap: Alignment
    bold: Font
    header: PatternFill


@functools.cache
def _styles() -> _Styles:
    from openpyxl.styles import Alignment, Font, PatternFill

    return _Styles(
        wrap=Alignment(wrap_text=True, vertical="top"),
        bold=Font(bold=True),
        header=PatternFill("solid", fgColor="E2E8F0"),
    )


def _letter(column: int) -> str:
    from openpyxl.utils import get_column_letter

    return str(get_column_letter(column))
