"""A chart of a figures table (PNG bytes), and the line of sources printed under it.

Only cells of the table are plotted, each at the value its own text prints ("$ 42,879",
"1.234,5", "8,0%", read by `engine.text.quantities`), so a chart can show nothing that is not
a verified figure. The rules:

- A calculated cell (`calculation_id` set: a change, a margin, a growth rate) is never
  plotted: a percentage change on the axis of the amounts it was computed from would read as
  an amount. Such columns drop out of the chart; the table beside the chart shows them.
- Cells are read as one text, so the separators the table's unambiguous figures use settle
  its ambiguous ones ("42,879" among "1.234,5" is Portuguese); a figure still ambiguous is
  read with its thousands separator ("1,900" is 1900), as a financial table prints it.
- A cell that holds no number, or more than one, is left out; so is a cell whose unit
  (currency, %, MW, …) differs from the first plotted cell's (bare numbers go with any).
- Values keep their printed scale when all plotted cells share one, the axis labelled with
  the table's unit; when scales differ ("R$ 3,2 bilhões" beside "R$ 800 milhões") each is
  plotted at its full magnitude, the axis labelled with the base unit they share ("BRL"),
  never with a scale the values no longer carry.
- Fewer than three plotted values make no chart (None).

A line chart when the plotted columns are three or more periods in order (each labelled with
a year, the years rising or falling; drawn oldest first), else a bar chart: bars across the
columns for a one-row table, bars grouped by row (one colour per column) for several rows.

Drawn on a bare `Figure` with the Agg canvas (no pyplot, no display), in a fixed size, dpi,
style and font (DejaVu Sans, which matplotlib ships) and with no PNG metadata, so one table
gives the same bytes every time. matplotlib is imported only when a chart is drawn.
"""

from __future__ import annotations

import io
import itertools
import math
import textwrap
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from engine.contracts import FiguresTable, Report, TableCell
from engine.render.citations import source_location, source_title
from engine.text.language import Language
from engine.text.normalise import collapse_whitespace
from engine.text.periods import YEAR_IN_TEXT
from engine.text.quantities import Quantity, quantities
from engine.words import words_for

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "CHART_DPI",
    "CHART_INCHES",
    "MIN_VALUES",
    "ChartData",
    "chart_data",
    "chart_png",
    "chart_sources",
]

CHART_INCHES = (8.0, 4.5)
CHART_DPI = 150
"""The PNG is CHART_INCHES × CHART_DPI pixels: 1200 × 675."""
MIN_VALUES = 3

_COLOURS = ("#2b6cb0", "#c05621", "#2f855a", "#6b46c1", "#b7791f", "#c53030", "#4a5568")
_STYLE = {
    "font.family": ["DejaVu Sans"],
    "font.size": 10.0,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.grid.axis": "y",
    "grid.color": "#e2e8f0",
    "axes.axisbelow": True,
}
_JOIN = " | "
_LOCK = threading.Lock()  # matplotlib's style context is process-wide


@dataclass(frozen=True)
class _Point:
    row: int
    column: int
    value: float
    cell: TableCell


@dataclass(frozen=True)
class _Plot:
    rows: list[str]
    columns: list[str]
    points: list[_Point]
    table_rows: list[int]
    table_columns: list[int]
    """The table's own row and column of each plotted row and column."""
    axis: str
    """What the values are in: the table's unit when every plotted cell prints one scale
    (values at face), else the base unit the cells share ("BRL", "W"), values in full."""


@dataclass(frozen=True)
class ChartData:
    """What the chart of a figures table shows, for a display that draws it itself (Slack's
    data_visualization): the same cells, values and kind as `chart_png`.

    `categories` run along the x axis in order (periods oldest first for a line); each of
    `series` is a legend name and one value per category, None where the table has no figure
    there. `values` holds every plotted value by the table's own (row, column), `cells` the
    plotted cells (what their citations are)."""

    kind: Literal["line", "bar"]
    title: str
    unit: str
    periods: bool
    """The categories are periods (the x axis is labelled "Period")."""
    categories: list[str]
    series: list[tuple[str, list[float | None]]]
    values: dict[tuple[int, int], float]
    cells: list[TableCell]


def chart_data(table: FiguresTable, language: Language) -> ChartData | None:
    """The table's chart (see the module docstring) as data, or None when fewer than three of
    its cells are figures to plot."""
    plot = _plotted(table, language)
    if plot is None:
        return None
    at = {(p.row, p.column): p.value for p in plot.points}
    order = _line_order(plot)
    title, unit = collapse_whitespace(table.title), plot.axis
    values = {(plot.table_rows[p.row], plot.table_columns[p.column]): p.value for p in plot.points}
    cells = [p.cell for p in plot.points]
    if order is not None:  # a line a row, across the periods
        categories = [plot.columns[c] for c in order]
        lines = [(label, [at.get((r, c)) for c in order]) for r, label in enumerate(plot.rows)]
        return ChartData("line", title, unit, True, categories, lines, values, cells)
    if len(plot.rows) == 1:  # bars across the columns
        bars = [(plot.rows[0], [at.get((0, c)) for c in range(len(plot.columns))])]
        periods = _period_order(plot.columns) is not None
        return ChartData("bar", title, unit, periods, plot.columns, bars, values, cells)
    groups = [  # bars grouped by row, one series a column
        (column, [at.get((r, c)) for r in range(len(plot.rows))])
        for c, column in enumerate(plot.columns)
    ]
    return ChartData("bar", title, unit, False, plot.rows, groups, values, cells)


def _line_order(plot: _Plot) -> list[int] | None:
    """The columns oldest first when the chart is a line (three or more periods in order)."""
    order = _period_order(plot.columns)
    return order if order is not None and len(plot.columns) >= MIN_VALUES else None


def chart_png(table: FiguresTable, language: Language) -> bytes | None:
    """The table as a PNG chart (see the module docstring), or None when fewer than three of
    its cells are figures to plot."""
    plot = _plotted(table, language)
    if plot is None:
        return None
    import matplotlib.style
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter

    words = words_for(language).report
    with _LOCK, matplotlib.style.context(["default", _STYLE]):
        figure = Figure(figsize=CHART_INCHES, dpi=CHART_DPI, layout="constrained")
        FigureCanvasAgg(figure)
        axes = figure.add_subplot()
        order = _line_order(plot)
        if order is not None:
            _lines(axes, plot, order)
            axes.set_xlabel(words.chart_period)
        else:
            _bars(axes, plot)
            if len(plot.rows) == 1 and _period_order(plot.columns) is not None:
                axes.set_xlabel(words.chart_period)
        axes.set_title(textwrap.fill(collapse_whitespace(table.title), 70), loc="left")
        axes.set_ylabel(plot.axis or words.chart_value)
        axes.yaxis.set_major_formatter(FuncFormatter(lambda v, _: _tick(v, language)))
        out = io.BytesIO()
        figure.savefig(out, format="png", dpi=CHART_DPI, metadata={"Software": None})
    return out.getvalue()


def chart_sources(table: FiguresTable, report: Report) -> str:
    """The line under the table's chart: "Sources: DOC_A, p. 53; DOC_B, pp. 12, 40", each
    document once (in the order the plotted cells cite it) with the pages of its claims, in
    the report's language. The claims are those of the plotted cells (all of the table's
    when none is plotted)."""
    plot = _plotted(table, report.language)
    cells = (
        [p.cell for p in plot.points]
        if plot is not None
        else [cell for row in table.rows for cell in row.cells if cell is not None]
    )
    claim_ids = dict.fromkeys(cid for cell in cells for cid in cell.claim_ids)
    documents: dict[str, tuple[str, set[int]]] = {}
    for claim_id in claim_ids:
        claim = report.claim(claim_id)
        location = source_location(claim)
        _, pages = documents.setdefault(location.base_url, (source_title(claim), set()))
        if location.page is not None:
            pages.add(location.page)
    parts = [_document(title, sorted(pages)) for title, pages in documents.values()]
    return f"{words_for(report.language).report.sources}: {'; '.join(parts)}"


def _document(title: str, pages: list[int]) -> str:
    if not pages:
        return title
    prefix = "p." if len(pages) == 1 else "pp."
    return f"{title}, {prefix} {', '.join(str(p) for p in pages)}"


# -- which cells are plotted ---------------------------------------------------------------


def _plotted(table: FiguresTable, language: Language) -> _Plot | None:
    read = _read_cells(table, language)
    unit: str | None = None
    kept: list[tuple[int, int, Quantity, float, TableCell]] = []
    for (r, c), (quantity, value, cell) in read.items():
        if quantity.unit is not None:
            if unit is None:
                unit = quantity.unit
            elif quantity.unit != unit:
                continue
        kept.append((r, c, quantity, value, cell))
    if len(kept) < MIN_VALUES:
        return None
    uniform = len({q.scale for _, _, q, _, _ in kept}) == 1
    rows = sorted({r for r, _, _, _, _ in kept})
    columns = sorted({c for _, c, _, _, _ in kept})
    points = [
        _Point(
            row=rows.index(r),
            column=columns.index(c),
            value=value if uniform else value * float(q.scale),
            cell=cell,
        )
        for r, c, q, value, cell in kept
    ]
    return _Plot(
        rows=[collapse_whitespace(table.rows[r].label) for r in rows],
        columns=[collapse_whitespace(table.columns[c]) for c in columns],
        points=points,
        table_rows=rows,
        table_columns=columns,
        axis=collapse_whitespace(table.unit) if uniform else unit or "",
    )


def _read_cells(
    table: FiguresTable, language: Language
) -> dict[tuple[int, int], tuple[Quantity, float, TableCell]]:
    """(row, column) → the one quantity a figure cell prints, its signed face value, the cell;
    read as one text so the table's own separators settle ambiguous figures."""
    spans: list[tuple[int, int, int, int, TableCell]] = []
    pieces: list[str] = []
    offset = 0
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row.cells):
            if cell is None or cell.calculation_id is not None:
                continue
            text = cell.text.replace(_JOIN.strip(), " ")
            spans.append((r, c, offset, offset + len(text), cell))
            pieces.append(text)
            offset += len(text) + len(_JOIN)
    joined = _JOIN.join(pieces)
    found = quantities(joined, language)
    read: dict[tuple[int, int], tuple[Quantity, float, TableCell]] = {}
    for r, c, start, end, cell in spans:
        inside = [q for q in found if start <= q.start and q.end <= end]
        if len(inside) != 1 or not inside[0].readings:
            continue
        quantity = inside[0]
        face = float(inside[0].readings[0])
        if _negative(joined[start:end], quantity, start):
            face = -face
        read[(r, c)] = (quantity, face, cell)
    return read


def _negative(text: str, quantity: Quantity, offset: int) -> bool:
    """A minus sign before the figure, or the accountant's parentheses around it."""
    if quantity.raw[:1] in "-\u2212":
        return True
    before, after = text[: quantity.start - offset], text[quantity.end - offset :]
    return "(" in before and ")" in after


def _period_order(columns: list[str]) -> list[int] | None:
    """Column positions oldest first when every column names one year and the years run in
    order (rising or falling); None otherwise."""
    years: list[int] = []
    for label in columns:
        found = {int(y) for y in YEAR_IN_TEXT.findall(label)}
        if len(found) != 1:
            return None
        years.append(found.pop())
    rising = all(a < b for a, b in itertools.pairwise(years))
    falling = all(a > b for a, b in itertools.pairwise(years))
    if not (rising or falling):
        return None
    positions = list(range(len(columns)))
    return positions if rising else positions[::-1]


# -- drawing -------------------------------------------------------------------------------


def _bars(axes: Axes, plot: _Plot) -> None:
    if len(plot.rows) == 1:
        columns = [p.column for p in plot.points]
        bars = axes.bar(columns, [p.value for p in plot.points], color=_COLOURS[0], width=0.6)
        axes.bar_label(bars, labels=[p.cell.text for p in plot.points], padding=2)
        axes.set_xticks(range(len(plot.columns)), [_wrap(c) for c in plot.columns])
        return
    width = 0.8 / len(plot.columns)
    for c, column in enumerate(plot.columns):
        points = [p for p in plot.points if p.column == c]
        shifted = [p.row + (c - (len(plot.columns) - 1) / 2) * width for p in points]
        colour = _COLOURS[c % len(_COLOURS)]
        bars = axes.bar(shifted, [p.value for p in points], width=width, color=colour, label=column)
        axes.bar_label(bars, labels=[p.cell.text for p in points], padding=2, fontsize=8)
    axes.set_xticks(range(len(plot.rows)), [_wrap(r) for r in plot.rows])
    axes.legend(frameon=False)
    axes.margins(y=0.12)


def _lines(axes: Axes, plot: _Plot, order: list[int]) -> None:
    position = {column: x for x, column in enumerate(order)}
    for r, label in enumerate(plot.rows):
        points = sorted((p for p in plot.points if p.row == r), key=lambda p: position[p.column])
        xs = [position[p.column] for p in points]
        values: list[float] = [math.nan] * len(order)  # a period without a figure breaks the line
        for x, p in zip(xs, points, strict=True):
            values[x] = p.value
        colour = _COLOURS[r % len(_COLOURS)]
        axes.plot(range(len(order)), values, marker="o", color=colour, label=label)
        if len(plot.rows) <= 3:
            for x, p in zip(xs, points, strict=True):
                axes.annotate(
                    p.cell.text,
                    (x, p.value),
                    textcoords="offset points",
                    xytext=(0, 6),
                    ha="center",
                    fontsize=8,
                )
    axes.set_xticks(range(len(order)), [_wrap(plot.columns[c]) for c in order])
    if len(plot.rows) > 1:
        axes.legend(frameon=False)
    axes.margins(y=0.15)


def _wrap(label: str) -> str:
    return textwrap.fill(label, 18)


def _tick(value: float, language: Language) -> str:
    """An axis number as the report's language writes it: 42,879.5 (en), 42.879,5 (pt)."""
    number = float(value)
    text = f"{number:,.0f}" if number.is_integer() else f"{number:,.2f}".rstrip("0").rstrip(".")
    words = words_for(language).report
    return text.translate(str.maketrans(",.", words.thousands_separator + words.decimal_separator))
