"""Figures tables: verified figures of one unit family across periods or entities, every
cell cited, with the changes computed in code beside them. Pure functions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal

from engine.contracts import (
    Calculation,
    Claim,
    Figure,
    FiguresTable,
    Language,
    TableCell,
    TableRow,
)
from engine.snapshots import split_page
from engine.text.normalise import folded
from engine.words import words_for
from engine.writing.units import header_cells, unit_family, unit_scale, year_of

__all__ = ["figures_tables"]

_CHANGE_KINDS = ("difference", "percent_change", "cagr")


def figures_tables(
    figures: Sequence[Figure],
    calculations: Sequence[Calculation] = (),
    *,
    language: Language,
    claims: Sequence[Claim] = (),
) -> list[FiguresTable]:
    """One table per unit family: rows are measures, columns periods (entities when the
    figures share one period), every cell cited; a cell whose figures disagree stays empty
    (the report's conflicts declare them). Changes among `calculations` add a column; with
    `claims`, a column is labelled with the header its claims print ("February 2, 2019").
    Only tables with at least two figures are made."""
    by_id = {claim.id: claim for claim in claims}
    groups: dict[str, list[Figure]] = {}
    printed_family = _families_by_header(figures, by_id)
    for figure in figures:
        family = unit_family(figure.unit) or _header_family(figure, by_id, printed_family)
        groups.setdefault(family, []).append(figure)
    tables: list[FiguresTable] = []
    for group in groups.values():
        table = _table(group, calculations, language, by_id, f"t{len(tables) + 1}")
        if table is not None:
            tables.append(table)
    return tables


def _header(claim: Claim) -> tuple[str, str] | None:
    """Where a figure was printed: the document and the header its row is read under."""
    if not claim.context:
        return None
    return split_page(claim.url)[0], folded(claim.context)


def _families_by_header(
    figures: Sequence[Figure], claims: dict[str, Claim]
) -> dict[tuple[str, str], set[str]]:
    """The unit families printed under each header of each document."""
    families: dict[tuple[str, str], set[str]] = {}
    for figure in figures:
        family = unit_family(figure.unit)
        for claim_id in figure.claim_ids if family else ():
            claim = claims.get(claim_id)
            header = _header(claim) if claim is not None else None
            if header is not None:
                families.setdefault(header, set()).add(family)
    return families


def _header_family(
    figure: Figure, claims: dict[str, Claim], families: dict[tuple[str, str], set[str]]
) -> str:
    """A bare figure printed under the same header of the same statement as figures of one
    unit family sits in their table: a financial statement prints "$" on its first row and
    totals only ("Revenue $ 42,879" above "Operating income 1,900"). Its cell keeps the
    text as printed; only where it is shown changes. "" when that is not one family."""
    found: set[str] = set()
    for claim_id in figure.claim_ids:
        claim = claims.get(claim_id)
        header = _header(claim) if claim is not None else None
        found |= families.get(header, set()) if header is not None else set()
    return next(iter(found)) if len(found) == 1 else ""


def _table(
    group: list[Figure],
    calculations: Sequence[Calculation],
    language: Language,
    claims: dict[str, Claim],
    table_id: str,
) -> FiguresTable | None:
    entities = list(dict.fromkeys(f.entity for f in group))
    periods = list(dict.fromkeys(f.period for f in group))
    by_entity = len(periods) == 1 and len(entities) > 1
    named = len(entities) > 1 and not by_entity

    def row_of(f: Figure) -> str:
        return f"{f.measure} — {f.entity}" if named and f.entity else f.measure

    def column_of(f: Figure) -> str:
        return f.entity if by_entity else f.period

    columns = entities if by_entity else sorted(periods, key=_period_order(periods))
    rows: dict[str, str] = {}
    cells: dict[tuple[str, str], list[Figure]] = {}
    for f in group:
        rows.setdefault(folded(row_of(f)), row_of(f))
        cells.setdefault((folded(row_of(f)), column_of(f)), []).append(f)
    grid: list[list[TableCell | None]] = []
    for key in rows:
        grid.append([_cell(cells.get((key, column), [])) for column in columns])
    if sum(cell is not None for row in grid for cell in row) < 2:
        return None
    labels = [c if by_entity else _column_label(c, group, claims) for c in columns]
    for kind in _CHANGE_KINDS:
        changes = _changes(kind, list(rows), row_of, calculations)
        if changes:
            spans = {c.period for c in changes.values()}
            word = words_for(language).writer.change_columns[kind]
            labels.append(f"{word} {spans.pop()}" if len(spans) == 1 else word)
            for index, row in enumerate(grid):
                row.append(_change_cell(changes.get(index)))
    measures = list({folded(f.measure): f.measure for f in reversed(group)}.values())[::-1]
    return FiguresTable(
        id=table_id,
        title=_joined(measures, language),
        unit=_shared_unit({f.unit for f in group}),
        columns=labels,
        rows=[
            TableRow(label=label, cells=row) for label, row in zip(rows.values(), grid, strict=True)
        ],
    )


def _shared_unit(units: set[str]) -> str:
    """The table's unit: its figures' one unit, or the currency's where the statement prints
    its sign on some rows only ("$ thousand" for "Net income $ 213,105" beside "Gross profit
    2,733,409", both under "(In thousands)"); "" when scales or currencies differ."""
    if len(units) == 1:
        return next(iter(units))
    scales = {unit_scale(unit) for unit in units}
    with_family = {unit for unit in units if unit_family(unit)}
    if len(scales) == 1 and len(with_family) == 1:
        return with_family.pop()
    return ""


def _cell(found: list[Figure]) -> TableCell | None:
    if len({Decimal(repr(f.value)) for f in found}) != 1:
        return None  # no figure, or figures that disagree
    ids = list(dict.fromkeys(cid for f in found for cid in f.claim_ids))
    return TableCell(text=found[0].text, claim_ids=ids)


def _change_cell(calculation: Calculation | None) -> TableCell | None:
    if calculation is None:
        return None
    return TableCell(
        text=calculation.text, claim_ids=calculation.claim_ids, calculation_id=calculation.id
    )


def _changes(
    kind: str,
    keys: list[str],
    row_of: Callable[[Figure], str],
    calculations: Sequence[Calculation],
) -> dict[int, Calculation]:
    """The first calculation of `kind` whose inputs are all of one row, by row index."""
    chosen: dict[int, Calculation] = {}
    for calculation in calculations:
        rows = {folded(row_of(f)) for f in calculation.inputs}
        if calculation.kind == kind and len(rows) == 1 and (key := rows.pop()) in keys:
            chosen.setdefault(keys.index(key), calculation)
    return chosen


def _period_order(periods: list[str]) -> Callable[[str], tuple[bool, int, int]]:
    def order(period: str) -> tuple[bool, int, int]:
        year = year_of(period)
        return (year is None, year or 0, periods.index(period))

    return order


def _column_label(period: str, group: list[Figure], claims: dict[str, Claim]) -> str:
    """The header the claims of a column print for its period, when they print one."""
    labels = set()
    for figure in (f for f in group if f.period == period):
        for cid in figure.claim_ids:
            claim = claims.get(cid)
            if claim is not None and claim.context:
                labels |= {label for label, year in header_cells(claim.context) if year == period}
    return labels.pop() if len(labels) == 1 else period


def _in_capitals(label: str) -> bool:
    first = label.split(maxsplit=1)[0] if label.strip() else ""
    return first.isupper()


def _joined(items: list[str], language: Language) -> str:
    if len(items) == 1:
        return items[0]
    # A label read on after a comma opens in lower case, unless its first word is printed in
    # capitals (an acronym, an item's numeral: "II", not "iI").
    rest = [items[0], *(i if _in_capitals(i) else i[:1].lower() + i[1:] for i in items[1:])]
    return f"{', '.join(rest[:-1])} {words_for(language).writer.list_and.strip()} {rest[-1]}"
