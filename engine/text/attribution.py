"""Whose figure it is: a figure's company, period and column in a statement must be the ones
its excerpt (or its table) attaches to it. "Apple 10%, Samsung 20%" does not say "Samsung
10%", and a row "2022: 11,512; 2021: 11,162" does not say "11,162 in 2022".

A text attaches figures to labels only where it pairs them plainly: labels and figures that
alternate one to one ("Apple 10%, Samsung 20%", "10% for Apple and ... " read the same way
round throughout), or a table row under a header of periods with as many figures as the
header has periods (the header is the claim's context, or a line of the excerpt). Labels are
of two kinds, judged apart: periods (years, "FY2022") and names (capitalised words: a
company, a country, a segment). A statement is judged only on the figures it pairs plainly
itself, and only against a label the excerpt names: "Alphabet" for "Google" is not this
rule's to judge. Dates ("December 31, 2022", "6 de janeiro de 2022") are neither labels nor
figures. Pure code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.text.periods import MONTH_NAMES, WEEKDAY_NAMES
from engine.text.tokens import STOPWORDS, fold_accents

__all__ = ["attribution_problem"]

_YEAR = re.compile(r"(?<![\d.,])(?:fy\s?|FY\s?)?((?:19|20)\d\d)(?![\d.,]\d)")
_FIGURE = re.compile(r"(?<![\w.,])[-−(]?\d+(?:[.,]\d+)*%?")
_NAME = re.compile(r"\b[A-Z][\w&'’.-]*[\w]|\b[A-Z]\b")
_AFTER_FIGURE = re.compile(r"\d%?\s*$")
_MONTHS = "|".join(sorted(MONTH_NAMES, key=len, reverse=True))
_DATE = re.compile(
    rf"\b(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?(?:\s+(?:19|20)\d\d)?"
    rf"|\b\d{{1,2}}(?:º|o)?\s+(?:de\s+)?(?:{_MONTHS})(?:\s+(?:de\s+)?(?:19|20)\d\d)?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Item:
    kind: str  # "label" or "figure"
    key: str
    text: str


def _figure_key(figure: str) -> str:
    return re.sub(r"\D", "", figure)


def _label_key(label: str) -> str:
    return fold_accents(label.casefold())


def _without_dates(text: str) -> str:
    return _DATE.sub(lambda found: " " * len(found.group(0)), text)


def _years(text: str) -> list[tuple[int, _Item]]:
    return [(m.start(), _Item("label", m.group(1), m.group(0))) for m in _YEAR.finditer(text)]


def _figures(text: str) -> list[tuple[int, _Item]]:
    years = {m.start(1) for m in _YEAR.finditer(text)} | {m.start() for m in _YEAR.finditer(text)}
    found = []
    for match in _FIGURE.finditer(text):
        start = match.start() + (1 if match.group(0)[0] in "-−(" else 0)
        if start in years:
            continue
        key = _figure_key(match.group(0))
        if key:
            found.append((match.start(), _Item("figure", key, match.group(0).lstrip("-−("))))
    return found


def _names(text: str) -> list[tuple[int, _Item]]:
    """Capitalised words, a run of them one name; not a stopword, a month, a currency, a unit
    right after a figure ("10 MW", "5 GWh") or a single letter."""
    found: list[tuple[int, _Item]] = []
    last_end = -2
    for match in _NAME.finditer(text):
        word = match.group(0).rstrip(".")
        folded = _label_key(word)
        if (
            folded in STOPWORDS
            or folded in MONTH_NAMES
            or folded in WEEKDAY_NAMES
            or len(word) < 2
            or text[match.end() : match.end() + 1] == "$"  # "US$", "R$": a currency
            or _AFTER_FIGURE.search(text, 0, match.start()) is not None  # "10 MW": a unit
        ):
            last_end = -2
            continue
        between = text[last_end : match.start()]
        if found and last_end >= 0 and between.strip() == "":
            start, previous = found[-1]
            joined = f"{previous.text} {word}"
            found[-1] = (start, _Item("label", _label_key(joined), joined))
        else:
            found.append((match.start(), _Item("label", folded, word)))
        last_end = match.end()
    return found


def _pairs(items: list[_Item]) -> dict[str, set[str]]:
    """Figure key -> the label a text pairs with it: read label first (each figure takes the
    nearest label since the figure before it) or figure first (the nearest label before the
    next figure). A text pairs plainly only when exactly one reading gives every figure a
    label; otherwise {}."""
    readings = [_attached(items), _attached(items[::-1])]
    plain = [reading for reading in readings if reading is not None]
    if len(plain) != 1:
        return {}
    return plain[0]


def _attached(items: list[_Item]) -> dict[str, set[str]] | None:
    """Each figure with the nearest label before it and after the figure before it; None when
    a figure has none."""
    paired: dict[str, set[str]] = {}
    label: _Item | None = None
    figures = 0
    for item in items:
        if item.kind == "label":
            label = item
            continue
        if label is None:
            return None
        paired.setdefault(item.key, set()).add(label.key)
        label, figures = None, figures + 1
    return paired if figures else None


def _sequence(text: str, kind: str) -> list[_Item]:
    text = _without_dates(text)
    labels = _years(text) if kind == "period" else _names(text)
    return [item for _, item in sorted([*labels, *_figures(text)], key=lambda pair: pair[0])]


def _table_pairs(header: str, row: str) -> dict[str, set[str]]:
    """A row's figures paired with a header's periods by column, when the counts agree."""
    periods = [item.key for _, item in _years(header)]
    figures = [item.key for _, item in _figures(_without_dates(row))]
    if len(periods) < 2 or len(figures) != len(periods) or len(set(periods)) != len(periods):
        return {}
    paired: dict[str, set[str]] = {}
    for period, figure in zip(periods, figures, strict=True):
        paired.setdefault(figure, set()).add(period)
    return paired


def _is_period_header(line: str) -> bool:
    """A header of periods: two years or more, and no other figure (a date's day aside)."""
    return len(_years(line)) >= 2 and not _figures(_without_dates(line))


def _excerpt_pairs(excerpt: str, context: str | None, kind: str) -> dict[str, set[str]]:
    if kind == "period":
        if context is not None and _is_period_header(context):
            return _table_pairs(context, excerpt)
        lines = [line for line in excerpt.split("\n") if line.strip()]
        for index, line in enumerate(lines[:-1]):
            if _is_period_header(line):
                paired: dict[str, set[str]] = {}
                for row in lines[index + 1 :]:
                    for figure, periods in _table_pairs(line, row).items():
                        paired.setdefault(figure, set()).update(periods)
                return paired
    return _pairs(_sequence(excerpt, kind))


def _same_label(ours: str, theirs: str) -> bool:
    """ "Samsung" names "Samsung Electronics"; a period is its year."""
    a, b = set(ours.split()), set(theirs.split())
    return a <= b or b <= a


def attribution_problem(statement: str, excerpt: str, context: str | None = None) -> str | None:
    """Why the statement gives a figure to another label (company, year, column) than the
    excerpt (or its table) gives it, or None."""
    for kind in ("period", "name"):
        theirs = _excerpt_pairs(excerpt, context, kind)
        if not theirs:
            continue
        named = {label for labels in theirs.values() for label in labels}
        spelled = {item.key: item.text for item in _sequence(statement, kind)}
        shown_there = {item.key: item.text for item in _sequence(excerpt, kind)}
        for figure, labels in _pairs(_sequence(statement, kind)).items():
            given = theirs.get(figure)
            if not given:
                continue
            for label in labels:
                if any(_same_label(label, other) for other in given):
                    continue
                if not any(_same_label(label, other) for other in named):
                    continue  # a label the excerpt does not name: not this rule's to judge
                shown = spelled.get(figure, figure)
                return (
                    f"the statement gives {shown} to {spelled.get(label, label)}; the excerpt "
                    f"gives it to {' / '.join(sorted(shown_there.get(g, g) for g in given))}"
                )
    return None
