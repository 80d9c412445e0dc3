"""Conflicting sources, declared: verified claims that state different values for what is
evidently the same quantity (the same measure, unit and period), or a later text that
changes what an earlier one said.

A report never chooses silently between them: it shows both, the primary source first
(`Claim.standing`), the newer first among sources of one standing. "Evidently the
same" is decided from the claims' own words, without a model: the statements (with their
contexts) must share most of their key terms, name the same periods, and state amounts in
the same unit that have no value in common. Pure functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from itertools import combinations

from engine.contracts import Claim, ClaimStatus, Conflict, Report
from engine.snapshots import split_page
from engine.text.normalise import collapse_whitespace
from engine.text.numbers import numbers_in
from engine.text.periods import MONTH_NAMES, YEAR_IN_TEXT, is_year, years_in
from engine.text.tokens import STOPWORDS, term_set

SHARED_TERMS = 0.6
"""Key terms two statements must share (of all the terms either uses) to be about the same
measure: "mandato do Conselho Diretor" and "mandato do Conselho Consultivo" are not."""
MIN_SHARED_TERMS = 3

# The unit right after an amount, or the currency right before it.
_UNIT_AFTER = re.compile(
    r"\s*(?:\([^)]{1,80}\)\s*)?"  # "5 (cinco) anos": the unit after the number in words
    r"(%|por\s+cento|percent|[kmg]w\b|[kmg]wh\b|mwp\b|milh(?:ão|ões|oes)|mil\b"
    r"|bilh(?:ão|ões|oes)|million|billion|thousand|dias|days|meses|months|anos|years)",
    re.IGNORECASE,
)
_CURRENCY_BEFORE = re.compile(r"(R\$|US\$|\$|€|£)\s*$")
_UNIT_WORDS = frozenset(
    "por cento percent kw mw gw kwh mwh gwh mwp milhao milhoes mil bilhao bilhoes million "
    "billion thousand dias days meses months anos years r us".split()
)
# Words of a date say when, not what: periods are compared apart from the measure.
_CALENDAR_WORDS = term_set(" ".join(sorted(MONTH_NAMES)))


@dataclass(frozen=True)
class Amount:
    value: Decimal
    unit: str


def amounts(text: str) -> list[Amount]:
    """The amounts `text` states with a unit or currency, years and bare ordinals left out."""
    found = []
    for token in numbers_in(text):
        if is_year(token.raw):
            continue
        after = _UNIT_AFTER.match(text, token.end)
        before = _CURRENCY_BEFORE.search(text[max(0, token.start - 4) : token.start])
        unit = (after.group(1) if after else "") or (before.group(1) if before else "")
        if unit:
            for value in sorted(token.values):
                found.append(Amount(value, collapse_whitespace(unit.lower())))
    return found


def key_terms(text: str) -> frozenset[str]:
    """What a statement is about: its words without numbers, units, dates and stopwords."""
    left_out = _UNIT_WORDS | STOPWORDS | _CALENDAR_WORDS
    return frozenset(t for t in term_set(text) if not t[0].isdigit() and t not in left_out)


def published_conflicts(report: Report) -> list[Conflict]:
    """The conflicts among the verified claims the report's sentences cite."""
    cited = [report.claim(claim_id) for claim_id in report.cited_claim_ids()]
    return find_conflicts([c for c in cited if c.status is ClaimStatus.verified])


def find_conflicts(claims: list[Claim]) -> list[Conflict]:
    """Pairs of claims that state different amounts for the same measure, unit and period;
    the newer claim first in each. Two places of one document can disagree too (a law's
    amount and the note that a decree updated it)."""
    conflicts = []
    for first, second in combinations(claims, 2):
        conflict = _conflict(first, second)
        if conflict is not None:
            conflicts.append(conflict)
    return conflicts


def _said(claim: Claim) -> str:
    return f"{claim.context or ''} {claim.statement}"


def year_columns(claim: Claim) -> dict[str, frozenset[Decimal]]:
    """A table row quoted with its column header, as {year: values of that column}: the
    row's last figures, one per year of the header, in order (a footnote mark such as "(1)"
    after the label comes first, so it is never read as a column). Empty for other claims."""
    years = YEAR_IN_TEXT.findall(claim.context or "")
    if not years or len(set(years)) < len(years):
        return {}  # a year twice: three and six months side by side, not one period a column
    figures = [t for t in numbers_in(claim.excerpt) if not is_year(t.raw)]
    if len(figures) < len(years):
        return {}
    columns = figures[len(figures) - len(years) :]
    return {year: figure.values for year, figure in zip(years, columns, strict=True)}


def _conflict(first: Claim, second: Claim) -> Conflict | None:
    return _table_conflict(first, second) or _stated_conflict(first, second)


def _table_conflict(first: Claim, second: Claim) -> Conflict | None:
    """Rows of the same label in two documents whose columns for the same year hold
    different figures (a figure restated in a later filing). Two rows of one label on one
    page are two segments, not a disagreement."""
    a_columns, b_columns = year_columns(first), year_columns(second)
    if not a_columns or not b_columns:
        return None
    if split_page(first.url)[0] == split_page(second.url)[0]:
        return None
    label = key_terms(row_label(first.excerpt))
    if len(label) < 2 or label != key_terms(row_label(second.excerpt)):
        return None
    for year in sorted(a_columns.keys() & b_columns.keys()):
        if a_columns[year].isdisjoint(b_columns[year]):
            newer, older = _newer_first(first, second)
            measure = " ".join(sorted(label))
            return Conflict(claim_ids=[newer.id, older.id], measure=measure, unit="", period=year)
    return None


def row_label(row: str) -> str:
    """A table row's words before its first figure."""
    figures = numbers_in(row)
    return row[: figures[0].start] if figures else row


def _same_measure(a_text: str, b_text: str) -> bool:
    """Most of the two texts' key terms are shared (Jaccard), and enough of them."""
    a_terms, b_terms = key_terms(a_text), key_terms(b_text)
    shared = a_terms & b_terms
    return (
        len(shared) >= MIN_SHARED_TERMS and len(shared) >= SHARED_TERMS * len(a_terms | b_terms)
    ) or (len(shared) >= 2 and shared == a_terms == b_terms)


def _stated_conflict(first: Claim, second: Claim) -> Conflict | None:
    """Two statements of one measure, unit and period with no amount in common. The measure
    is read from the statements alone: a shared column header says nothing of the rows."""
    if year_columns(first) or year_columns(second):
        return None  # table rows disagree only column by column (`_table_conflict`)
    a_text, b_text = _said(first), _said(second)
    periods = set(YEAR_IN_TEXT.findall(a_text))
    if periods != set(YEAR_IN_TEXT.findall(b_text)):
        return None  # other periods: 2018 and 2019 figures differ without disagreeing
    if not periods and split_page(first.url)[0] == split_page(second.url)[0]:
        return None  # one document giving two amounts without a period: other years or scopes
    if not _same_measure(first.statement, second.statement):
        return None
    a_amounts, b_amounts = amounts(a_text), amounts(b_text)
    for unit in {a.unit for a in a_amounts} & {b.unit for b in b_amounts}:
        a_values = {a.value for a in a_amounts if a.unit == unit}
        b_values = {b.value for b in b_amounts if b.unit == unit}
        if a_values.isdisjoint(b_values):
            newer, older = _newer_first(first, second)
            return Conflict(
                claim_ids=[newer.id, older.id],
                measure=" ".join(sorted(key_terms(first.statement) & key_terms(second.statement))),
                unit=unit,
                period=" ".join(sorted(periods)),
            )
    return None


STANDING_RANK: dict[str | None, int] = {"primary": 2, "secondary": 1, "other": 0, None: 1}
"""A primary source before a secondary one before a blog; a claim of a report written
before standings is ranked with the secondary ones, so an old report orders as it did."""


def _newer_first(first: Claim, second: Claim) -> tuple[Claim, Claim]:
    """The primary source first (a regulator before a blog), then the newer: by the source's
    own date when both state one, else by the latest year each claim's source and words name
    (a law's date, a filing's fiscal year, an amendment's decree), then by access time."""

    dated = bool(first.published and second.published)  # else one date against no date

    def recency(claim: Claim) -> tuple[int, str, int, object]:
        years = years_in(f"{claim.title} {claim.excerpt} {_said(claim)}")
        when = claim.published if dated else ""
        return STANDING_RANK[claim.standing], when, max(years, default=0), claim.accessed_at

    return (first, second) if recency(first) >= recency(second) else (second, first)
