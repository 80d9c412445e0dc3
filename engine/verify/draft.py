"""The writer's post-check (the number guard): what a draft publishes is what verified claims
print, or what code computed from them. Whatever is dropped is recorded.

- A calculation stays only if its inputs are figures its verified claims print (the text
  found in a claim's quoted text, the value and unit that text states there), the inputs are
  comparable, and `recompute` gives its value and the number its text states.
- A table cell stays only if it cites verified claims and its number is in what they quote
  (excerpt or context), or it is the text of a calculation that stayed; a row or column
  label's numbers are in what the claims of its cells quote. A table left with fewer than
  two cells goes.
- A summary or section sentence stays only if it cites verified claims and every number it
  states is in one of the excerpts it cites (or their contexts, verified on the same page: a
  table's column header gives a row's periods), or in the text or formula of a calculation
  it cites in `calculation_ids` that stayed and whose claims it cites too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from engine.contracts import (
    Calculation,
    Claim,
    ClaimStatus,
    Draft,
    DroppedSentence,
    Figure,
    FiguresTable,
    Language,
    Section,
    Sentence,
    TableCell,
    TableRow,
)
from engine.text.normalise import collapse_whitespace
from engine.text.numbers import missing_numbers, numbers_in
from engine.text.quantities import quantities
from engine.words import words_for
from engine.writing.calculator import NotComparable, comparability_problem, recompute
from engine.writing.figures import unit_family, unit_scale

__all__ = ["CheckedDraft", "calculation_problem", "check_draft", "check_sections"]

_SCALE_WORDS = {3: "thousand", 6: "million", 9: "billion", 12: "trillion"}
_DIGITS = re.compile(r"\d(?:[\d.,\u00a0\u2009\u202f]*\d)?")
_MINUS = "-\u2212\u2013"  # a minus, U+2212, or an en dash used as a sign

Verified = dict[str, Claim]


@dataclass(frozen=True)
class CheckedDraft:
    """What of a draft may be published, and what was dropped with why."""

    summary: list[Sentence] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    tables: list[FiguresTable] = field(default_factory=list)
    calculations: list[Calculation] = field(default_factory=list)
    dropped: list[DroppedSentence] = field(default_factory=list)


def check_draft(
    draft: Draft, claims: Sequence[Claim], *, language: Language = "en"
) -> CheckedDraft:
    """The whole draft through the guard: calculations first, then the tables and the
    sentences that use them."""
    verified = _verified(claims)
    words = words_for(language).report
    dropped: list[DroppedSentence] = []
    calculations: list[Calculation] = []
    for calculation in draft.calculations:
        problem = calculation_problem(calculation, verified)
        if problem is None:
            calculations.append(calculation)
        else:
            dropped.append(
                DroppedSentence(
                    section=f"{words.dropped_in_calculation} {calculation.id}",
                    text=f"{calculation.text} = {calculation.formula}",
                    claim_ids=calculation.claim_ids or ["-"],
                    reason=problem,
                )
            )
    kept = {c.id: c for c in calculations}
    tables: list[FiguresTable] = []
    for table in draft.tables:
        checked = _checked_table(table, verified, kept, dropped, words.dropped_in_table)
        if checked is not None:
            tables.append(checked)
    summary = _kept(draft.summary, words.dropped_in_summary, verified, kept, dropped)
    sections, section_drops = _check_sections(draft.sections, verified, kept)
    return CheckedDraft(summary, sections, tables, calculations, [*dropped, *section_drops])


def check_sections(
    sections: list[Section],
    claims: list[Claim],
    calculations: Sequence[Calculation] = (),
) -> tuple[list[Section], list[DroppedSentence]]:
    """The sections' sentences through the guard (the calculations they may cite are
    checked here too); a section left with no sentence goes."""
    verified = _verified(claims)
    kept = {c.id: c for c in calculations if calculation_problem(c, verified) is None}
    return _check_sections(sections, verified, kept)


def _verified(claims: Sequence[Claim]) -> Verified:
    return {c.id: c for c in claims if c.status is ClaimStatus.verified}


def _check_sections(
    sections: list[Section], verified: Verified, calculations: dict[str, Calculation]
) -> tuple[list[Section], list[DroppedSentence]]:
    kept_sections: list[Section] = []
    dropped: list[DroppedSentence] = []
    for section in sections:
        kept = _kept(section.sentences, section.title, verified, calculations, dropped)
        if kept:
            kept_sections.append(Section(title=section.title, sentences=kept))
    return kept_sections, dropped


def _kept(
    sentences: list[Sentence],
    where: str,
    verified: Verified,
    calculations: dict[str, Calculation],
    dropped: list[DroppedSentence],
) -> list[Sentence]:
    kept: list[Sentence] = []
    for sentence in sentences:
        reason = _why_dropped(sentence, verified, calculations)
        if reason is None:
            kept.append(sentence)
        else:
            dropped.append(
                DroppedSentence(
                    section=where, text=sentence.text, claim_ids=sentence.claim_ids, reason=reason
                )
            )
    return kept


def _unverified(claim_ids: list[str], verified: Verified) -> str | None:
    """Why what cites `claim_ids` (a sentence, a table cell) may not be published for its
    claims: some are not verified. None when all are."""
    unknown = [cid for cid in claim_ids if cid not in verified]
    return f"cites claims that are not verified: {', '.join(unknown)}" if unknown else None


def _why_dropped(
    sentence: Sentence, verified: Verified, calculations: dict[str, Calculation]
) -> str | None:
    if unverified := _unverified(sentence.claim_ids, verified):
        return unverified
    unchecked = [kid for kid in sentence.calculation_ids if kid not in calculations]
    if unchecked:
        return f"cites calculations that did not pass the check: {', '.join(unchecked)}"
    cited = [calculations[kid] for kid in sentence.calculation_ids]
    for calculation in cited:
        uncited = [cid for cid in calculation.claim_ids if cid not in sentence.claim_ids]
        if uncited:
            return f"states {calculation.id} without citing its claims: {', '.join(uncited)}"
    backing = [verified[cid].quoted for cid in sentence.claim_ids]
    # The provision a sentence names ("Art. 26, § 1º: …") is the one the verifier read above
    # the excerpt on its page: its numbers are backed by the page's structure.
    backing += [p for cid in sentence.claim_ids if (p := verified[cid].provision)]
    backing += [f"{c.text} \n {c.formula}" for c in cited]
    missing = _missing_from_all(sentence.text, backing)
    if missing:
        where = "cited excerpt or calculation" if cited else "cited excerpt"
        return f"numbers in no {where}: {', '.join(missing)}"
    return None


def _missing_from_all(text: str, backing: list[str]) -> list[str]:
    """The numbers of `text` that none of `backing` states, each backing text read in its
    own language and under its own declared scale: an English excerpt's "42,879" under "(in
    millions)" backs "US$ 42.879 milhões" in a Portuguese sentence beside a Portuguese
    calculation."""
    missing: list[str] | None = None
    for quoted in backing:
        absent = missing_numbers(text, quoted)
        missing = absent if missing is None else [n for n in missing if n in absent]
        if not missing:
            return []
    return missing or []


# -- calculations ----------------------------------------------------------------------------


def calculation_problem(calculation: Calculation, verified: Verified) -> str | None:
    """Why `calculation` may not be published, or None: its inputs are backed by verified
    claims and code computes what it states."""
    if not calculation.inputs:
        return "a calculation with no inputs"
    problem = comparability_problem(calculation.kind, calculation.inputs)
    if problem:
        return problem
    for figure in calculation.inputs:
        problem = figure_problem(figure, verified)
        if problem:
            return problem
    try:
        value = Decimal(repr(recompute(calculation)))
    except NotComparable as refused:
        return str(refused)
    face = value / unit_scale(calculation.unit)
    stated = _stated_numbers(calculation.text)
    if not stated:
        return f"its text {calculation.text!r} states no number"
    matching = [number for number, negative in stated if _rounds_to(face, number, negative)]
    if not matching:
        return f"its text {calculation.text!r} is not what code computes ({face:.4f})"
    half = max(_half_unit(number) for number in matching)
    if abs(Decimal(repr(calculation.value)) - value) > half * unit_scale(calculation.unit):
        return f"its value {calculation.value} is not what code computes ({value:.4f})"
    absent = [f.text for f in calculation.inputs if _digits(f.text) not in calculation.formula]
    if absent or calculation.text not in calculation.formula:
        return "its formula does not show its inputs and result as printed"
    return None


def figure_problem(figure: Figure, verified: Verified) -> str | None:
    """Why `figure` is not a figure its claims print, or None."""
    unknown = [cid for cid in figure.claim_ids if cid not in verified]
    if unknown:
        return f"an input cites claims that are not verified: {', '.join(unknown)}"
    quoted = [verified[cid].quoted for cid in figure.claim_ids]
    if not any(collapse_whitespace(figure.text) in collapse_whitespace(text) for text in quoted):
        return f"the input {figure.text!r} is in none of its claims' quoted text"
    found = quantities(figure.text)
    if not found:
        return f"the input {figure.text!r} states no number"
    printed = found[0]
    if printed.unit and unit_family(figure.unit) not in ("", printed.unit):
        return f"the input {figure.text!r} is not in {figure.unit!r}"
    extra = unit_scale(figure.unit) / printed.scale
    stated = figure.text if extra == 1 else f"{figure.text} {_SCALE_WORDS.get(extra.adjusted())}"
    if extra != 1 and extra.adjusted() not in _SCALE_WORDS:
        return f"the input {figure.text!r} is not in {figure.unit!r}"
    if any(missing_numbers(stated, text) for text in quoted):
        return f"the input {figure.text!r} in {figure.unit!r} is not what its claims print"
    magnitude = abs(Decimal(repr(figure.value)))
    if not any(magnitude == r * printed.scale * extra for r in printed.readings):
        return f"the input's value {figure.value} is not what {figure.text!r} states"
    return None


def _stated_numbers(text: str) -> list[tuple[Decimal, bool]]:
    """The readings of the number a calculation's text states, each with whether it is
    negative ("3,419" may be 3419 or 3.419)."""
    tokens = numbers_in(text)
    if not tokens:
        return []
    token = tokens[0]
    negative = token.raw[:1] in _MINUS or text.lstrip()[:1] in _MINUS
    return [(v, negative) for v in sorted({abs(v) for v in token.values})]


def _half_unit(number: Decimal) -> Decimal:
    """Half a unit of the last digit printed: 0.05 for "8.0"."""
    exponent = number.as_tuple().exponent
    return Decimal(5).scaleb(min(int(exponent), 0) - 1)


def _rounds_to(value: Decimal, number: Decimal, negative: bool) -> bool:
    """Whether `value` rounded as `number` is printed gives `number` (sign included)."""
    half = _half_unit(number)
    return abs(abs(value) - number) <= half and (negative == (value < 0) or abs(value) <= half)


def _digits(text: str) -> str:
    match = _DIGITS.search(text)
    return match[0] if match else text


# -- tables --------------------------------------------------------------------------------


def _checked_table(
    table: FiguresTable,
    verified: Verified,
    calculations: dict[str, Calculation],
    dropped: list[DroppedSentence],
    word: str,
) -> FiguresTable | None:
    where = f"{word}: {table.title}"
    grid: list[list[TableCell | None]] = []
    for row in table.rows:
        cells: list[TableCell | None] = []
        for column, cell in zip(table.columns, row.cells, strict=True):
            reason = None if cell is None else _cell_problem(cell, verified, calculations)
            if reason is not None and cell is not None:
                dropped.append(
                    DroppedSentence(
                        section=where,
                        text=f"{row.label} — {column}: {cell.text}",
                        claim_ids=cell.claim_ids or ["-"],
                        reason=reason,
                    )
                )
            cells.append(None if reason else cell)
        grid.append(cells)
    columns = [i for i in range(len(table.columns)) if any(r[i] for r in grid)]
    rows = [i for i, cells in enumerate(grid) if any(cells)]
    label_problem = _label_problem(table, grid, rows, columns, verified, calculations)
    filled = sum(grid[r][c] is not None for r in rows for c in columns)
    if filled < 2 or label_problem:
        reason = label_problem or "fewer than two cells passed the check"
        dropped.append(
            DroppedSentence(section=where, text=table.title, claim_ids=["-"], reason=reason)
        )
        return None
    return table.model_copy(
        update={
            "columns": [table.columns[c] for c in columns],
            "rows": [
                TableRow(label=table.rows[r].label, cells=[grid[r][c] for c in columns])
                for r in rows
            ],
        }
    )


def _cell_problem(
    cell: TableCell, verified: Verified, calculations: dict[str, Calculation]
) -> str | None:
    if unverified := _unverified(cell.claim_ids, verified):
        return unverified
    if cell.calculation_id is not None:
        calculation = calculations.get(cell.calculation_id)
        if calculation is None:
            return f"cites a calculation that did not pass the check: {cell.calculation_id}"
        missing = missing_numbers(cell.text, calculation.text)
        where = f"not in the text of {calculation.id}"
    else:
        quoted = " \n ".join(verified[cid].quoted for cid in cell.claim_ids)
        missing = missing_numbers(cell.text, quoted)
        where = "in no cited excerpt"
    return f"numbers {where}: {', '.join(missing)}" if missing else None


def _label_problem(
    table: FiguresTable,
    grid: list[list[TableCell | None]],
    rows: list[int],
    columns: list[int],
    verified: Verified,
    calculations: dict[str, Calculation],
) -> str | None:
    """A row's or column's label states only numbers its cells' claims quote (or their
    sources' titles, which name a row's entity)."""

    def quoted(cells: list[TableCell | None]) -> str:
        ids = [
            cid for cell in cells if cell is not None for cid in _cell_claims(cell, calculations)
        ]
        known = [verified[cid] for cid in dict.fromkeys(ids) if cid in verified]
        return " \n ".join(part for c in known for part in (c.quoted, c.title))

    labels = [(table.rows[r].label, quoted(grid[r])) for r in rows]
    labels += [(table.columns[c], quoted([grid[r][c] for r in rows])) for c in columns]
    labels.append((table.title, quoted([cell for r in rows for cell in grid[r]])))
    for label, text in labels:
        missing = missing_numbers(label, text)
        if missing:
            return f"label {label!r} states numbers its claims do not: {', '.join(missing)}"
    return None


def _cell_claims(cell: TableCell, calculations: dict[str, Calculation]) -> list[str]:
    calculation = calculations.get(cell.calculation_id or "")
    return [*cell.claim_ids, *(calculation.claim_ids if calculation else [])]
