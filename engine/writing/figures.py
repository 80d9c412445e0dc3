"""The figures verified claims print, and the tables they make. Pure functions.

A `Figure` is one value of a measure, for an entity and a period, as printed in a claim's
excerpt. `figures_in` reads them two ways:

- A table row: an excerpt that is a label followed only by figures ("Revenue $ 42,879
  $ 42,151 $ 39,403") whose context holds as many column headers ("Fiscal Years Ended
  February 2, 2019 February 3, 2018 January 28, 2017", "2022 2021", "FY2023") gives one
  Figure a column: measure = the label, period = the column's year ("2019"), text = the
  figure as printed ("$ 42,879"). The header's own words ("February 2, 2019") stay in the
  claim's context; `figures_tables(…, claims=…)` labels its columns with them.
- Prose: a figure with a unit or scale ("$46.3 billion", "8.5%", "75 kW") in a sentence that
  names a year ("in fiscal 2023") gives a Figure of that year (the nearest year after it in
  its sentence, else before it); its measure is the words before it in its clause ("revenue
  of" → "Revenue"), or the previous figure's in the sentence ("…, compared to $51.8 billion
  in fiscal 2022"). A bare number in prose, a year, and a change ("decreased 10.6%", "growth
  of 5%") are not Figures.

Numbers, currencies and scales are read by `engine.text.quantities`. A scale the excerpt
prints ("billion") or its context declares ("(in millions)", "(em milhões de reais)") is in
the unit ("$ billion", "R$ milhões"), and `value` is the magnitude: face × `unit_scale(unit)`
(a per-share row takes no declared scale, a row of shares no declared currency).
`stated_figure` says a figure as a report states it: as printed when it prints its scale,
else with the scale (and currency) its statement declares, in the report's language
("$ 42,879 million", "US$ 42.879 milhões"). The entity is the claim's source title with its
years taken out ("BESTBUY_2019_10K" and "BESTBUY_2023_10K" are both "BESTBUY 10K"): simple,
and the same company's filings of two years compare.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from engine.contracts import Claim, ClaimStatus, Figure, Language
from engine.text.currencies import MONEY
from engine.text.language import detect_language
from engine.text.normalise import collapse_whitespace, folded
from engine.text.periods import DATED_PERIOD, YEAR_IN_TEXT
from engine.text.quantities import Quantity, declarations, quantities
from engine.words import words_for
from engine.writing.tables import figures_tables
from engine.writing.units import (
    header_cells,
    period_year,
    unit_family,
    unit_scale,
    year_of,
)

__all__ = [
    "MINUS",
    "figures_in",
    "figures_tables",
    "gather_figures",
    "header_cells",
    "printed_scale",
    "stated_figure",
    "unit_family",
    "unit_scale",
    "year_of",
]

_MONEY = frozenset({"USD", "BRL", "EUR", "GBP"})
_SYMBOL = {"USD": "$", "BRL": "R$", "EUR": "€", "GBP": "£"}
_SPACE = "[ \t\u00a0\u2009\u202f]"
_CURRENCY_BEFORE = re.compile(rf"(?:R\$|US\$|U\$S|\$|€|£|\b(?:USD|BRL|EUR|GBP)){_SPACE}*$")
_SUFFIX = re.compile(
    rf"(?:{_SPACE}*(?:%|p\.\s?p\.?|pp(?!\w)|(?i:por cento|percent|per cent|pontos percentuais"
    r"|percentage points?)|(?i:thousands?|millions?|billions?|trillions?|mil|milh(?:ão|ao|ões|oes)"
    r"|bilh(?:ão|ao|ões|oes)|trilh(?:ão|ões)|mi|bi|bn|mn|mln|tn)(?:\s+(?:de|of)\s+(?:reais"
    r"|d[óo]lares|dollars|euros))?(?!\w)|[kKMGT]?(?:Wh|Wp|W|VA|Hz)(?!\w)"
    r"|(?i:quilo|kilo|mega|giga)?watts?(?:[- ]?(?i:horas?|hours?))?(?!\w)"
    r"|(?i:reais|d[óo]lares|dollars|euros)(?!\w)))*"
)
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_SENTENCE_END = re.compile(r"[.;!?](?=\s|$)")
_CLAUSE_MARKS = ",;:()"
_LINKING = frozenset(
    """of was were is are be been totaled totalled totaling totalling reached amounted to at
    by approximately about around nearly almost roughly over in for the and
    de da do das dos foi foram é são era somou somaram totalizou totalizaram atingiu
    atingiram alcançou até em para cerca aproximadamente com e a o as os no na""".split()
)
_BEFORE_MEASURE = frozenset(
    """our its their the a an this that we they it reported had has have recorded posted
    generated compared versus vs against nossa nosso nossas nossos sua seu suas seus a o as os
    esta este nós ia vai pode podia registrou registramos teve tivemos apresentou reportou
    obteve gerou comparado comparada contra ante frente""".split()
)
_CHANGES = frozenset(
    """increased decreased rose fell grew declined dropped gained up down increase decrease
    growth change rise fall decline cresceu caiu aumentou diminuiu recuou subiu avançou
    cresceram caíram aumentaram diminuíram aumento queda crescimento alta redução variação
    baixa""".split()
)
_PER_SHARE = re.compile(r"(?i:per\s+(?:share|unit)|por\s+a[çc][ãa]o)")
_SI_PREFIXES = {0: "", 3: "k", 6: "M", 9: "G", 12: "T"}
_SI_UNITS = frozenset({"W", "Wh", "Wp", "VA", "Hz"})
_SHARES = re.compile(r"(?i:\bshares\b|\ba[çc][õo]es\b)")
MINUS = "\u2212"
"""The sign of a negative amount a report states (U+2212)."""


def _entity(claim: Claim) -> str:
    title = YEAR_IN_TEXT.sub(" ", claim.title.replace("_", " "))
    return collapse_whitespace(title).strip(" -–—:,.")


# -- reading a claim ---------------------------------------------------------------------


def figures_in(claim: Claim) -> list[Figure]:
    """The figures `claim` prints: its table row's cells, or the figures of its prose."""
    language = detect_language(claim.quoted)
    found = quantities(claim.excerpt, language)
    if not found:
        return []
    spans = [_printed(claim.excerpt, q) for q in found]
    row = _row(claim, found, spans, language)
    return row if row is not None else _prose(claim, found, spans, language)


def _printed(text: str, quantity: Quantity) -> tuple[int, int]:
    """Where the figure is printed: its currency, sign, parentheses and suffix included."""
    start = quantity.start
    if (
        start > 0
        and text[start - 1] in "-\u2212\u2013"
        and not text[start - 2 : start - 1].isalnum()
    ):
        start -= 1
    before = _CURRENCY_BEFORE.search(text[max(0, start - 8) : start])
    if before and quantity.unit in _MONEY:
        start -= len(before[0])
    end = _SUFFIX.match(text, quantity.end).end()  # type: ignore[union-attr]
    if start > 0 and text[start - 1] == "(" and text[end : end + 1] == ")":
        start, end = start - 1, end + 1
        before = _CURRENCY_BEFORE.search(text[max(0, start - 8) : start])
        if before and quantity.unit in _MONEY:  # "$ (38,453)": a negative amount
            start -= len(before[0])
    return start, end


def _row(
    claim: Claim, found: list[Quantity], spans: list[tuple[int, int]], language: str
) -> list[Figure] | None:
    excerpt = claim.excerpt
    label = collapse_whitespace(excerpt[: spans[0][0]]).strip(" :–—-.")
    gaps = [
        excerpt[a:b] for (_, a), (b, _) in zip(spans, [*spans[1:], (len(excerpt), 0)], strict=True)
    ]
    if not any(c.isalpha() for c in label) or any(gap.strip() for gap in gaps):
        return None
    headers = header_cells(claim.context or "")
    if len(headers) != len(found):
        return None
    return [
        _figure(claim, label, year, q, span, language)
        for q, span, (_, year) in zip(found, spans, headers, strict=True)
    ]


def _prose(
    claim: Claim, found: list[Quantity], spans: list[tuple[int, int]], language: str
) -> list[Figure]:
    text = claim.excerpt
    figures: list[Figure] = []
    measure, sentence_start = "", 0
    for q, span in zip(found, spans, strict=True):
        start = _sentence_start(text, span[0])
        if start != sentence_start:
            measure, sentence_start = "", start
        words = _WORD.findall(text[_clause_start(text, span[0], spans) : span[0]])
        if q.bare:  # a count, a year, a day of a date: not a figure of prose
            continue
        named, change = _measure(words)
        measure = named or measure
        if change or not measure:
            continue
        year = _year_near(text, span, sentence_start)
        if year is not None:
            figures.append(_figure(claim, measure, year, q, span, language))
    return figures


def _sentence_start(text: str, position: int) -> int:
    ends = [m.end() for m in _SENTENCE_END.finditer(text, 0, position)]
    return ends[-1] if ends else 0


def _clause_start(text: str, position: int, spans: list[tuple[int, int]]) -> int:
    marks = [i + 1 for i in range(position) if text[i] in _CLAUSE_MARKS]
    previous = [end for _, end in spans if end <= position]
    return max([_sentence_start(text, position), *marks, *previous])


def _measure(words: list[str]) -> tuple[str, bool]:
    """The measure the words before a figure name, and whether they make it a change."""
    while words and words[-1].casefold() in _LINKING | _BEFORE_MEASURE:
        words = words[:-1]
    if words and words[-1].casefold() in _CHANGES:
        return "", True
    kept: list[str] = []
    for word in reversed(words[-4:]):  # the words after a determiner, pronoun or verb
        if word.casefold() in _BEFORE_MEASURE:
            break
        kept.insert(0, word)
    named = " ".join(kept)
    return (named[:1].upper() + named[1:]), False


def _year_near(text: str, span: tuple[int, int], sentence_start: int) -> str | None:
    end_match = _SENTENCE_END.search(text, span[1])
    sentence_end = end_match.end() if end_match else len(text)
    years = [
        (m.start(), period_year(m))
        for m in DATED_PERIOD.finditer(text, sentence_start, sentence_end)
        if m.end() <= span[0] or m.start() >= span[1]
    ]
    after = [year for position, year in years if position >= span[1]]
    before = [year for position, year in years if position < span[0]]
    return after[0] if after else (before[-1] if before else None)


def _figure(
    claim: Claim, measure: str, year: str, q: Quantity, span: tuple[int, int], language: str
) -> Figure:
    printed = claim.excerpt[span[0] : span[1]]
    unit = _unit(claim, measure, q, printed, language)
    sign = printed[: printed.find(q.digits)] if q.digits in printed else printed[:1]
    negative = any(mark in sign for mark in "(-\u2212\u2013")  # "(1,577)", "$ (38,453)"
    value = q.readings[0] * unit_scale(unit) * (-1 if negative else 1)
    return Figure(
        measure=measure,
        entity=_entity(claim),
        period=year,
        value=float(value),
        unit=unit,
        text=printed,
        claim_ids=[claim.id],
    )


def _unit(claim: Claim, measure: str, q: Quantity, printed: str, language: str) -> str:
    if q.unit == "%":
        return "%"
    if q.unit == "pp":
        return "p.p."
    if q.unit is not None and q.unit not in _MONEY:  # an SI unit: as printed after the number
        suffix = printed[printed.index(q.digits) + len(q.digits) :]
        return collapse_whitespace(suffix.replace(")", ""))
    currency, scale = q.unit, q.scale
    if scale == 1 and not _PER_SHARE.search(measure):
        for declared_unit, declared_scale in declarations(claim.quoted):
            if currency is None and declared_unit is not None and declared_unit not in MONEY:
                prefix = _SI_PREFIXES.get(declared_scale.adjusted())  # "(MW)": 410 is 410 MW
                if prefix is not None and declared_unit in _SI_UNITS:
                    return prefix + declared_unit
                continue
            if declared_unit in (None, currency) or currency is None:
                if not _SHARES.search(measure):  # "$ and shares in millions": a count of shares
                    currency = currency or declared_unit
                scale = declared_scale
                break
    symbol = ""
    if currency is not None:
        before = re.match(r"[(\-\u2212]?(R\$|US\$|U\$S|\$|€|£)", printed)
        symbol = before[1] if before else _SYMBOL.get(currency, currency)
    exponent = scale.adjusted() if scale != 1 else 0
    word = words_for(language).writer.scales.get(exponent, "")
    return " ".join(part for part in (symbol, word) if part)


# -- saying a figure ----------------------------------------------------------------------


def printed_scale(figure: Figure) -> Decimal:
    """The scale the figure's own text prints: 10⁹ for "$46.3 billion", 1 for "$ 42,879"."""
    found = quantities(figure.text)
    return found[0].scale if found else Decimal(1)


def stated_figure(figure: Figure, language: Language) -> str:
    """The figure as a report in `language` states it: its text as printed when that prints
    its whole unit ("$46.3 billion", "8.5%", "$ 5.20"); else its face value with the currency
    and the scale its statement declares, in the language's words and separators ("$ 42,879"
    under "(in millions)" is "$ 42,879 million", "US$ 42.879 milhões" in Portuguese)."""
    scale = unit_scale(figure.unit)
    if scale == 1 or printed_scale(figure) == scale:
        return figure.text
    return scaled_amount(Decimal(repr(figure.value)) / scale, figure.unit, language)


def scaled_amount(
    face: Decimal, unit: str, language: Language, *, decimals: int | None = None, sign: str = ""
) -> str:
    """`face` in `unit` ("$ million") as `language` writes an amount: the currency's symbol,
    the number with the language's separators (its own decimals, or `decimals`), the scale's
    word: "$ 1,900 million", "US$ 1.900 milhões", "R$ 456.789 mil". A negative face is
    written with a minus, or with `sign` ("+") before a positive one."""
    words = words_for(language)
    exponent = unit_scale(unit).adjusted()
    family = unit_family(unit)
    symbol = words.writer.currency_symbols.get(family, family) if family in MONEY else ""
    magnitude = abs(face)
    if decimals is None:
        exact = magnitude.normalize()
        decimals = max(0, -exact.as_tuple().exponent)  # type: ignore[operator]
    separators = str.maketrans(
        ",.", words.report.thousands_separator + words.report.decimal_separator
    )
    number = f"{magnitude:,.{decimals}f}".translate(separators)
    minus = MINUS if face < 0 else (sign if face > 0 else "")
    if family and family not in MONEY:  # a unit with its prefix: "410 MW"
        return f"{minus}{number} {unit}"
    word = words.writer.scales.get(exponent, "") if exponent else ""
    return minus + " ".join(part for part in (symbol, number, word) if part)


# -- gathering ---------------------------------------------------------------------------


def gather_figures(claims: Sequence[Claim]) -> list[Figure]:
    """The figures of the verified claims, each once: the same measure, entity, period and
    value printed in two places (one row cited from two pages) is one Figure citing both, and
    a row quoted without the scale its statement declares is the one quoted with it."""
    gathered: dict[tuple[str, str, str, Decimal, str], Figure] = {}
    for claim in claims:
        if claim.status is not ClaimStatus.verified:
            continue
        for figure in figures_in(claim):
            key = (
                folded(figure.measure),
                folded(figure.entity),
                figure.period,
                Decimal(repr(figure.value)),
                unit_family(figure.unit),
            )
            known = gathered.get(key)
            if known is None:
                gathered[key] = figure
            elif claim.id not in known.claim_ids:
                gathered[key] = known.model_copy(update={"claim_ids": [*known.claim_ids, claim.id]})
    figures = list(gathered.values())
    return [f for f in figures if not any(_scaled_twin(f, other) for other in figures)]


def _scaled_twin(figure: Figure, other: Figure) -> bool:
    """Whether `other` is `figure` read with the scale its statement declares: one row quoted
    once with the line "(In thousands)" and once without ("2,733,409" and "2,733,409
    thousand" of one measure, entity and period) is one figure, in its declared scale, not
    two values that disagree."""
    scale = unit_scale(other.unit)
    if scale == 1 or unit_scale(figure.unit) != 1 or printed_scale(other) != 1:
        return False
    if unit_family(figure.unit) not in ("", unit_family(other.unit)):
        return False
    return (
        folded(figure.measure) == folded(other.measure)
        and folded(figure.entity) == folded(other.entity)
        and figure.period == other.period
        and Decimal(repr(other.value)) / scale == Decimal(repr(figure.value))
    )
