"""Years, fiscal years, quarters and dates as documents and questions write them, in English
and Portuguese: the one place their patterns live (tests/test_architecture.py keeps it so).

A year is a four-digit number from 1900 to 2099 (`YEAR`, a fragment for a caller's own
pattern). Where it may stand differs by what is read, so the variants are named:

- `is_year` / `YEAR_TOKEN`: a whole token that is a year ("2019"; not "19999", "FY2019");
- `YEAR_IN_TEXT`, `years_in`, `year_of`: a year inside text with digit boundaries, letters
  allowed around it ("FY2019" holds 2019, "19999" and "R$ 2.019" hold none);
- `YEAR_WORD`: a year with word boundaries ("2018 2017", not the 2016 of "FY2016");
- `FISCAL_YEAR`: "FY2019", "FY 2019", "fiscal (year) 2019", "exercício (de) 2019";
- `QUARTER`, `SHORT_FISCAL_YEAR`: fragments for "Q3"/"3Q" and "FY19"/"fy2019";
- `DATED_PERIOD`: a column's period as a header prints it, a date in words in either
  language ("February 2, 2019", "31 de dezembro de 2018"), a numeric date ("31/12/2018"), a
  fiscal year, or a year standing alone (not part of "2019/20", "2.019" or "2019.5");
- `DATE`: an English date or a year, what a figure is not ("how much" wants an amount);
- `MONTH_NAMES`, `WEEKDAY_NAMES`: calendar words, which say when, not what.

Numbers themselves are `engine.text.numbers` and `engine.text.quantities`. Pure code.
"""

from __future__ import annotations

import re

__all__ = [
    "DATE",
    "DATED_PERIOD",
    "FISCAL_YEAR",
    "MONTHS_EN",
    "MONTHS_PT",
    "MONTH_NAMES",
    "QUARTER",
    "SHORT_FISCAL_YEAR",
    "WEEKDAY_NAMES",
    "YEAR",
    "YEAR_IN_TEXT",
    "YEAR_TOKEN",
    "YEAR_WORD",
    "is_year",
    "period_year",
    "year_of",
    "years_in",
]

YEAR = r"(?:19|20)\d\d"
"""The shape of a year, 1900-2099, as a fragment: callers add the boundaries they need."""
YEAR_TOKEN = re.compile(YEAR)
"""A year, to `fullmatch` a token."""
YEAR_IN_TEXT = re.compile(rf"(?<!\d){YEAR}(?!\d)")
"""A year inside text: no digit either side, letters allowed ("FY2019")."""
YEAR_WORD = re.compile(rf"\b{YEAR}\b")
"""A year as a word of its own ("2018 2017"; not the year of "FY2016")."""
QUARTER = r"(?:q[1-4]|[1-4]q)"
"""A quarter, "Q3" or "3Q", as a fragment (match it ignoring case)."""
SHORT_FISCAL_YEAR = r"fy\s?\d{2,4}"
"""A fiscal year as "FY19", "FY 2019", as a fragment (match it ignoring case)."""

MONTHS_EN = (
    "January|February|March|April|May|June|July|August|September|October|November|December"
    "|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
)
"""English months, full names then abbreviations, as alternatives of a fragment."""
MONTHS_PT = (
    "janeiro|fevereiro|março|marco|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro"
)
"""Portuguese months ("marco" as ASCII writes "março"), as alternatives of a fragment."""
_MONTH_PREFIXES = "jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"

MONTH_NAMES = frozenset(
    """january february march april may june july august september october november december
    janeiro fevereiro março marco abril maio junho julho agosto setembro outubro novembro
    dezembro""".split()
)
WEEKDAY_NAMES = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())


def _fiscal(group: str) -> str:
    return (
        r"(?:FY\s?|(?i:fiscal\s+(?:year\s+)?|exerc[ií]cio\s+(?:de\s+)?))"
        rf"(?P<{group}>{YEAR})"
    )


FISCAL_YEAR = re.compile(_fiscal("year"))
"""A fiscal year named as one; its year is the group "year"."""

DATED_PERIOD = re.compile(
    rf"(?i:(?:{MONTHS_EN})\.?\s+\d{{1,2}},?\s+(?P<y1>{YEAR}))"
    rf"|(?i:\d{{1,2}}º?\s+de\s+(?:{MONTHS_PT})\s+de\s+(?P<y2>{YEAR}))"
    rf"|\d{{1,2}}[./]\d{{1,2}}[./](?P<y3>{YEAR})"
    rf"|{_fiscal('y4')}"
    rf"|(?<![\d/])(?<!\d[.,])(?P<y5>{YEAR})(?![\d/]|[.,]\d)"
)
"""A period as a column header or a sentence prints it; `period_year` reads its year."""

DATE = re.compile(rf"\b(?:(?:{_MONTH_PREFIXES})[a-z]*\.?\s+\d{{1,2}},?\s*)?{YEAR}\b", re.IGNORECASE)
"""A year, or an English date ending in one ("February 2, 2019", "Dec. 31,2020")."""


def is_year(token: str) -> bool:
    """Whether the whole of `token` is a year: "2019", not "19999" or "FY2019"."""
    return YEAR_TOKEN.fullmatch(token) is not None


def years_in(text: str) -> list[int]:
    """The years `text` writes (`YEAR_IN_TEXT`), left to right, repeats kept."""
    return [int(year) for year in YEAR_IN_TEXT.findall(text)]


def year_of(text: str) -> int | None:
    """The first year `text` writes, or None."""
    match = YEAR_IN_TEXT.search(text)
    return int(match[0]) if match else None


def period_year(match: re.Match[str]) -> str:
    """The year a match of `DATED_PERIOD` names."""
    return next(y for y in match.group("y1", "y2", "y3", "y4", "y5") if y)
