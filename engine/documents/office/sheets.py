"""An Excel workbook (XLSX) as one page of text per sheet: page N is sheet N, in tab order.

A sheet's page opens with the sheet's name (a reader sees it on its tab), then a blank line,
then its rows as a table: a row a line, its cells joined by " | " (a cell boundary the
matcher never crosses), from the sheet's first used column; empty rows make one blank line.
A cell reads as Excel shows it: the value a formula computed when the file was saved (a
formula never computed shows nothing, its text is never page text), numbers in their number
format (percentages, decimals, thousands separators, currency signs, dates), in the
format's own (English) separators.

`SheetText.cells` keeps where each cell's text is on the page, so that a quoted span names
its cell range (`cell_range`: "B3:D3"): a claim cites the sheet by page (`#page=N`), its
excerpt is verified on the page's text, and the range is read back from the excerpt's offsets.

Left out, as Excel shows nothing of them: hidden and very hidden sheets (their page stays,
empty, so that page N is still sheet N), chart sheets, hidden rows and columns (and those of
zero height or width), cells formatted ";;;", text smaller than 2 pt, and text of (nearly)
the colour of its fill (white on no fill).
"""

from __future__ import annotations

import bisect
import io
import re
import zipfile
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any

import openpyxl
from lxml import etree
from openpyxl.utils import get_column_letter, range_boundaries
from openpyxl.worksheet.worksheet import Worksheet

from engine.documents.limits import check_cells, check_text
from engine.documents.office.colours import TINY_POINTS, WHITE, rgb, unseen
from engine.text.normalise import collapse_whitespace

_THEME = {0: WHITE, 1: "000000"}  # lt1 and dk1 of Excel's default mapping
_INDEXED = {0: "000000", 1: WHITE, 8: "000000", 9: WHITE}
_BRACKETS = re.compile(r"\[([^\]]*)\]")
_CORE = re.compile(r"[#0?][#0?,]*(?:\.[#0?]*)?|\.[#0?]+")
_DATE_TOKENS = re.compile(r"yyyy|yy|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|am/pm", re.I)
_STRFTIME = {
    "yyyy": "%Y", "yy": "%y", "mmmm": "%B", "mmm": "%b", "mm": "%m", "dddd": "%A",
    "ddd": "%a", "dd": "%d", "hh": "%H", "ss": "%S", "am/pm": "%p",
}  # fmt: skip


@dataclass(frozen=True)
class SheetCell:
    start: int
    end: int
    row: int
    column: int


@dataclass(frozen=True)
class SheetText:
    name: str
    text: str
    cells: tuple[SheetCell, ...] = ()


def read_xlsx(data: bytes) -> tuple[tuple[SheetText, ...], str]:
    """Each sheet's visible text, and the title (the workbook's properties, "" if none).
    The sheets' cells and merged ranges are counted first by the caller (`check_grid`), and
    only the cells the file holds are read, never the grid between them: two cells at A1 and
    XFD1048576 are two cells."""
    book = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
    sheets: list[SheetText] = []
    for name in book.sheetnames:
        sheet = book[name]
        shown = isinstance(sheet, Worksheet) and sheet.sheet_state == "visible"
        sheets.append(_sheet_text(sheet) if shown else SheetText(name, ""))
    return tuple(sheets), collapse_whitespace(book.properties.title or "")


def sheet_texts(data: bytes) -> tuple[SheetText, ...]:
    """The sheets of an XLSX file's bytes, as `read_xlsx` reads them."""
    return read_xlsx(data)[0]


def cell_range(sheet: SheetText, start: int, end: int) -> str:
    """The cells a span [start, end) of the sheet's text covers, "B3:D3" or "C3"; "" when
    it covers no cell (the sheet's name)."""
    covered = [cell for cell in sheet.cells if cell.start < end and start < cell.end]
    if not covered:
        return ""
    top, bottom = min(c.row for c in covered), max(c.row for c in covered)
    left, right = min(c.column for c in covered), max(c.column for c in covered)
    first = f"{get_column_letter(left)}{top}"
    last = f"{get_column_letter(right)}{bottom}"
    return first if first == last else f"{first}:{last}"


_WORKSHEET_PART = re.compile(r"xl/worksheets/[^/]+\.xml")


def check_grid(data: bytes) -> None:
    """`OverLimit` when the workbook's sheets hold, or their merged ranges cover, more cells
    than `limits.MAX_SHEET_CELLS`; each sheet's XML read as a stream, each element freed
    once read (a package past the size limits was refused before)."""
    cells = merged = 0
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        for name in package.namelist():
            if not _WORKSHEET_PART.fullmatch(name):
                continue
            with package.open(name) as stream:
                for _, element in etree.iterparse(stream, events=("end",)):
                    tag = etree.QName(element).localname
                    if tag == "c":
                        cells += 1
                    elif tag == "mergeCell":
                        merged += _covered(element.get("ref", ""))
                    element.clear()
                    while element.getprevious() is not None:
                        del element.getparent()[0]
                    check_cells(cells, merged)


def _covered(reference: str) -> int:
    try:
        left, top, right, bottom = range_boundaries(reference)
    except (ValueError, TypeError):
        return 0
    if left is None or top is None or right is None or bottom is None:
        return 0
    return (abs(int(right) - int(left)) + 1) * (abs(int(bottom) - int(top)) + 1)


def _held_rows(sheet: Worksheet) -> list[tuple[int, list[Any]]]:
    """The rows that hold cells, in order, each with its cells left to right: the cells the
    file holds, not the grid between them (iterating the grid makes a cell of each)."""
    rows: dict[int, list[Any]] = {}
    for (row, _), cell in sorted(sheet._cells.items()):
        rows.setdefault(row, []).append(cell)
    return list(rows.items())


def _sheet_text(sheet: Worksheet) -> SheetText:
    hidden_columns = _hidden_columns(sheet)
    hidden_rows = sorted(
        number
        for number, dimension in sheet.row_dimensions.items()
        if dimension.hidden or dimension.ht == 0
    )
    hidden = frozenset(hidden_rows)
    rows: list[list[tuple[int, int, str]]] = []
    previous = 0
    for number, row in _held_rows(sheet):
        skipped = number - previous - 1  # rows without cells between: blank unless hidden
        hidden_between = bisect.bisect_left(hidden_rows, number) - bisect.bisect_right(
            hidden_rows, previous
        )
        if previous and skipped > hidden_between:
            rows.append([])
        previous = number
        if number in hidden:
            continue
        cells = [
            (number, cell.column, text)
            for cell in row
            if cell.column not in hidden_columns and (text := _shown(cell))
        ]
        rows.append(cells)
    used = [column for cells in rows for _, column, _ in cells]
    first_column = min(used, default=1)
    parts: list[str] = [sheet.title, "\n\n"]
    offset = len(sheet.title) + 2
    spans: list[SheetCell] = []
    blank = True
    for cells in rows:
        if not cells:
            blank = True
            continue
        if spans:
            separator = "\n\n" if blank else "\n"
            parts.append(separator)
            offset += len(separator)
        blank = False
        at = {column: (row, text) for row, column, text in cells}
        line: list[str] = []
        for column in range(first_column, max(at) + 1):
            if column in hidden_columns:
                continue
            if line:
                line.append(" | ")
                offset += 3
            row_number, text = at.get(column, (0, ""))
            if text:
                spans.append(SheetCell(offset, offset + len(text), row_number, column))
            line.append(text)
            offset += len(text)
        check_text(offset)
        parts.append("".join(line))
    if not spans:
        return SheetText(sheet.title, "")
    return SheetText(sheet.title, "".join(parts), tuple(spans))


def _hidden_columns(sheet: Worksheet) -> frozenset[int]:
    hidden: set[int] = set()
    for dimension in sheet.column_dimensions.values():
        if dimension.hidden or (dimension.customWidth and dimension.width == 0):
            hidden.update(range(dimension.min or 0, (dimension.max or 0) + 1))
    return frozenset(hidden)


def _shown(cell: Any) -> str:
    """The text Excel shows in `cell`, "" when it shows none."""
    value = cell.value
    if value is None or _unseen(cell):
        return ""
    if isinstance(value, str):
        if value.startswith("=") and cell.data_type == "f":
            return ""
        return collapse_whitespace(value) if not _all_blank(cell.number_format) else ""
    return collapse_whitespace(formatted(value, cell.number_format or "General"))


def _unseen(cell: Any) -> bool:
    font = cell.font
    if font is not None and font.sz is not None and float(font.sz) < TINY_POINTS:
        return True
    colour = _colour(font.color) if font is not None else None
    fill = cell.fill
    if fill is None or fill.fill_type in (None, "none"):
        behind: str | None = WHITE
    elif fill.fill_type == "solid":
        behind = _colour(fill.fgColor)
    else:
        behind = None
    return unseen(colour, behind)


def _colour(colour: Any) -> str | None:
    if colour is None:
        return None
    kind = getattr(colour, "type", None)
    if kind == "rgb":
        return rgb(colour.rgb)
    if kind == "theme" and not getattr(colour, "tint", 0):
        return _THEME.get(colour.theme)
    if kind == "indexed":
        return _INDEXED.get(colour.indexed)
    return None


def _all_blank(number_format: str | None) -> bool:
    sections = _sections(number_format or "")
    return len(sections) >= 3 and all(not section.strip() for section in sections)


def formatted(value: object, number_format: str) -> str:
    """`value` (a number, a date, a truth value) as Excel shows it in `number_format`."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, datetime | date | time):
        return _date_text(value, number_format)
    if not isinstance(value, int | float):
        return str(value)
    sections = _sections(number_format)
    if _all_blank(number_format):
        return ""
    section = sections[0]
    number = float(value)
    if number < 0 and len(sections) >= 2:
        section, number = sections[1], -number
    elif number == 0 and len(sections) >= 3:
        section = sections[2]
    return _number_text(number, section)


def _sections(number_format: str) -> list[str]:
    sections: list[str] = []
    current: list[str] = []
    quoted = False
    for char in number_format:
        if char == '"':
            quoted = not quoted
        if char == ";" and not quoted:
            sections.append("".join(current))
            current = []
        else:
            current.append(char)
    return [*sections, "".join(current)]


def _number_text(number: float, section: str) -> str:
    section = _BRACKETS.sub(
        lambda m: m.group(1)[1:].split("-")[0] if m.group(1).startswith("$") else "", section
    )
    if section.strip().lower() in ("general", ""):
        return _general(number)
    literal = re.sub(r'"([^"]*)"|\\(.)|_.|\*.', lambda m: m.group(1) or m.group(2) or "", section)
    core = _CORE.search(literal)
    if core is None:
        return literal
    pattern = core.group()
    if "%" in literal:
        number *= 100
    whole, _, decimals = pattern.partition(".")
    places = sum(1 for char in decimals if char in "0#?")
    thousands = "," in whole.strip(",")
    number /= 1000 ** (len(whole) - len(whole.rstrip(",")))
    text = f"{number:,.{places}f}" if thousands else f"{number:.{places}f}"
    if whole.strip(",") and not whole.strip(",").lstrip("#?"):  # "#.##": no leading zero
        text = text.removeprefix("0") if text.startswith("0.") else text
    return literal[: core.start()] + text + literal[core.end() :]


def _general(number: float) -> str:
    if number.is_integer() and abs(number) < 1e15:
        return str(int(number))
    return f"{number:.10g}"


def _date_text(value: date | time, number_format: str) -> str:
    section = _BRACKETS.sub("", _sections(number_format)[0]).replace("\\", "").replace('"', "")
    if not _DATE_TOKENS.search(section):
        return value.isoformat()
    tokens = list(_DATE_TOKENS.finditer(section))
    out, last = [], 0
    for index, token in enumerate(tokens):
        out.append(section[last : token.start()])
        word = token.group().lower()
        before = tokens[index - 1].group().lower() if index else ""
        after = tokens[index + 1].group().lower() if index + 1 < len(tokens) else ""
        if word in ("m", "mm") and (before.startswith("h") or after.startswith("s")):
            out.append(f"{value.minute:02d}" if isinstance(value, datetime | time) else "00")
        elif word in ("m", "d", "h", "s"):
            out.append(str(_part(value, word)))
        else:
            out.append(
                value.strftime(_STRFTIME[word])
                if not isinstance(value, time) or word[0] in "hsa"
                else ""
            )
        last = token.end()
    out.append(section[last:])
    return "".join(out)


def _part(value: date | time, word: str) -> int:
    if word == "m":
        return value.month if isinstance(value, date) else 0
    if word == "d":
        return value.day if isinstance(value, date) else 0
    if word == "h":
        return value.hour if isinstance(value, datetime | time) else 0
    return value.second if isinstance(value, datetime | time) else 0
