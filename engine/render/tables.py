"""What every renderer shows of a report's figures tables and calculations: each calculation's
number and description, the citations of a table cell, and a table's chart (when
`engine.render.charts` can draw one)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from engine.contracts import Calculation, FiguresTable, Report, TableCell
from engine.render.labels import Labels
from engine.text.normalise import collapse_whitespace

log = logging.getLogger(__name__)


class CalculationIndex:
    """Numbers a report's calculations 1..n in the order its Calculations part lists them."""

    def __init__(self, report: Report) -> None:
        self._report = report
        self._numbers = {c.id: n for n, c in enumerate(report.calculations, start=1)}

    def number_of(self, calculation_id: str) -> int:
        return self._numbers[calculation_id]

    def numbered(self) -> list[tuple[int, Calculation]]:
        return list(enumerate(self._report.calculations, start=1))

    def marker(self, labels: Labels, calculation_id: str) -> str:
        """`calc. 2`: the short mark a calculated figure carries, pointing to its entry."""
        return labels.calculation_marker.format(number=self.number_of(calculation_id))


def cell_claim_ids(cell: TableCell, report: Report) -> list[str]:
    """The claims a cell cites: its own, or for a calculated cell that names none, those of
    the calculation's inputs."""
    if cell.claim_ids or cell.calculation_id is None:
        return list(dict.fromkeys(cell.claim_ids))
    return report.calculation(cell.calculation_id).claim_ids


def table_heading(table: FiguresTable) -> str:
    """The table's caption: its title, with its unit when it has one."""
    title, unit = collapse_whitespace(table.title), collapse_whitespace(table.unit)
    return f"{title} ({unit})" if unit else title


def calculation_heading(calculation: Calculation, labels: Labels) -> str:
    """`Revenue, 2019 to 2023: +8.0% (calculated: percentage change)`."""
    about = ", ".join(
        collapse_whitespace(part)
        for part in (calculation.measure, calculation.entity, calculation.period)
        if collapse_whitespace(part)
    )
    kind = labels.calculation_kinds.get(calculation.kind, calculation.kind)
    return f"{about}: {collapse_whitespace(calculation.text)} ({labels.calculated}: {kind})"


def calculation_title(calculation: Calculation, labels: Labels) -> str:
    """The tooltip of a calculated cell: `calculated: <formula>`."""
    return f"{labels.calculated}: {collapse_whitespace(calculation.formula)}"


def figure_label(text: str, measure: str, entity: str, period: str) -> str:
    """An input as shown: `$ 42,879 (Revenue, 2019)`."""
    about = ", ".join(
        collapse_whitespace(p) for p in (measure, entity, period) if collapse_whitespace(p)
    )
    return f"{collapse_whitespace(text)} ({about})" if about else collapse_whitespace(text)


@dataclass(frozen=True)
class Chart:
    png: bytes
    sources: str
    """The line under the chart naming its sources."""


def table_chart(table: FiguresTable, report: Report) -> Chart | None:
    """The table's chart with its sources line; None when the table has too few values to
    plot, or when no chart can be drawn here (charts not installed, or drawing failed: the
    table is still shown, so the report is not lost for want of a picture)."""
    try:
        from engine.render.charts import chart_png, chart_sources
    except ImportError:
        return None
    try:
        png = chart_png(table, report.language)
        if png is None:
            return None
        return Chart(png=png, sources=collapse_whitespace(chart_sources(table, report)))
    except Exception:
        log.warning("the chart of table %s could not be drawn", table.id, exc_info=True)
        return None
